"""Charts of simulation results, as plain Plotly figure dicts.

Every function here is pure: it reads result documents (``SimulationResult.to_dict()``,
see docs/results.md) and returns ``{"data": [...], "layout": {...}}`` made of plain
Python lists, floats, ints and strings, which passes ``json.dumps(fig, allow_nan=False)``.
The CLI writes them into a standalone HTML file (:mod:`scheduling.html_report`); the web
planner serialises them to JSON and draws them with Plotly.js.

* Figures of several schedulers take ``results: dict[str, dict]`` keyed by scheduler
  spec and draw one trace per scheduler, each scheduler in the same colour everywhere
  (:func:`scheduler_colours`).
* Timelines are downsampled on the server (:func:`downsample_step`,
  :func:`downsample_linear`) to at most ``max_points`` points per trace, keeping peaks
  and troughs: with the defaults, :func:`all_figures` of a 10,000-job run is about
  0.6 MB of JSON, a three-scheduler comparison about 1.7 MB (pass a smaller
  ``max_points`` / ``max_jobs`` for more schedulers).
* User-supplied strings (scenario, job, framework, VM type names) are HTML-escaped in
  figure text: Plotly.js renders text as pseudo-HTML and decodes ``&lt;`` and friends.

>>> import json
>>> r = {"scheduler": "edf-bfd", "resources": ["cpu"], "total_cost": 0.5,
...      "lower_bound_cost": 0.4, "timeline": {"t": [0.0, 60.0], "utilisation": {"cpu": [0.5, 0.0]},
...      "active_vms": {"small": [1, 0]}, "cumulative_cost": [0.0, 0.5]}}
>>> fig = utilisation_figure({"edf-bfd": r})
>>> [(tr["name"], tr["line"]["shape"], tr["y"]) for tr in fig["data"]]
[('edf-bfd', 'hv', [0.5, 0.0])]
>>> len(json.dumps(fig)) > 0
True
"""

from __future__ import annotations

from collections.abc import Mapping

from ._common import Figure, Result, scheduler_colours
from .downsample import downsample_linear, downsample_step
from .outcomes import completion_figure, cost_breakdown_figure, deadline_figure, gantt_figure
from .summary import SummaryRow, format_duration, format_money, summary_rows
from .timelines import active_vms_figure, cumulative_cost_figure, fairness_figure, utilisation_figure

__all__ = [
    "Figure",
    "SummaryRow",
    "active_vms_figure",
    "all_figures",
    "completion_figure",
    "cost_breakdown_figure",
    "cumulative_cost_figure",
    "deadline_figure",
    "downsample_linear",
    "downsample_step",
    "fairness_figure",
    "format_duration",
    "format_money",
    "gantt_figure",
    "scheduler_colours",
    "summary_rows",
    "utilisation_figure",
]


def all_figures(
    results: Mapping[str, Result], *, max_points: int = 2000, max_jobs: int = 500
) -> dict[str, Figure]:
    """Every figure of a comparison, keyed by a stable name, in display order.

    Keys: ``utilisation``, ``active_vms``, ``cumulative_cost``, ``cost_breakdown``,
    ``completion``, ``deadlines``, then ``fairness:<scheduler>`` for each result with a
    fairness section and ``gantt:<scheduler>`` for each result.

    Parameters
    ----------
    results : mapping of str to dict
        Result documents keyed by scheduler spec.
    max_points : int, default 2000
        Points per timeline trace after downsampling.
    max_jobs : int, default 500
        Jobs drawn per Gantt chart.
    """
    figures: dict[str, Figure] = {
        "utilisation": utilisation_figure(results, max_points=max_points),
        "active_vms": active_vms_figure(results, max_points=max_points),
        "cumulative_cost": cumulative_cost_figure(results, max_points=max_points),
        "cost_breakdown": cost_breakdown_figure(results),
        "completion": completion_figure(results, max_points=max_points),
        "deadlines": deadline_figure(results),
    }
    for name, r in results.items():
        if r.get("fairness"):
            figures[f"fairness:{name}"] = fairness_figure(r, max_points=max_points)
    for name, r in results.items():
        figures[f"gantt:{name}"] = gantt_figure(r, max_jobs=max_jobs)
    return figures
