"""Charts of a cost comparison (paper 003), as plain Plotly figure dicts.

Pure functions of result documents (``SimulationResult.to_dict()``, see docs/results.md;
per-job and per-VM detail through :mod:`scheduling.cost.document`), built from the shared
helpers of :mod:`scheduling.charts`: money (:mod:`~scheduling.cost.charts.costs`), outcomes
(:mod:`~scheduling.cost.charts.outcomes`: the Gantt chart, completion times, deadlines) and
timelines (:mod:`~scheduling.cost.charts.timelines`: active VMs, cumulative cost, fairness;
utilisation is every paper's, :func:`scheduling.charts.utilisation_figure`), and two
comparisons' timelines overlaid (:mod:`~scheduling.cost.charts.side_by_side`).
:func:`all_figures` builds every figure of a comparison, keyed by a stable name in display
order, for the run page, the HTML page (:mod:`scheduling.cost.html`) and the reports.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from functools import partial

from ...charts import Figure, Result, text, utilisation_figure
from .costs import cost_breakdown_figure, cost_by_framework_figure, cost_by_hour_figure
from .names import framework_colours
from .outcomes import JOBS_PER_PAGE, GanttPage, completion_figure, deadline_figure, gantt_figure, gantt_pages
from .side_by_side import side_by_side_figures
from .timelines import active_vms_figure, cumulative_cost_figure, fairness_figure

__all__ = [
    "JOBS_PER_PAGE",
    "GanttPage",
    "active_vms_figure",
    "all_figures",
    "completion_figure",
    "cost_breakdown_figure",
    "cost_by_framework_figure",
    "cost_by_hour_figure",
    "cumulative_cost_figure",
    "deadline_figure",
    "fairness_figure",
    "framework_colours",
    "gantt_figure",
    "gantt_page_size",
    "gantt_pages",
    "same_as",
    "side_by_side_figures",
]


def gantt_page_size(schedulers: int) -> int:
    """Jobs per Gantt page in a comparison of ``schedulers``: 1,000 shared out, 100 to 300.

    The page :func:`all_figures` draws and every later page (:func:`gantt_figure` with
    ``page=``) use it, so the pages of one chart follow each other.

    >>> [gantt_page_size(n) for n in (1, 4, 5, 20)]
    [300, 250, 200, 100]
    """
    return max(100, min(JOBS_PER_PAGE, 1000 // max(1, schedulers)))


def all_figures(
    results: Mapping[str, Result],
    *,
    max_points: int | None = None,
    max_jobs: int | None = None,
    currency: str = "$",
    only: Collection[str] | None = None,
) -> dict[str, Figure]:
    """Every figure of a comparison, keyed by a stable name, in display order.

    Keys (``<key>`` is the readable default, ``<key>@<view>`` another view of it):

    * ``cumulative_cost`` (lines overlaid), ``cumulative_cost@multiples``;
    * ``utilisation`` (of the whole cluster, step mean over windows), ``utilisation@raw``
      (full detail), ``utilisation@multiples`` (one panel per scheduler);
    * ``active_vms`` (total per scheduler, step mean over windows), ``active_vms@raw``,
      ``active_vms@multiples`` (one panel per scheduler, stacked by VM type);
    * ``cost_breakdown`` (per VM type), ``cost_by_framework``, ``cost_by_hour``, ``deadlines``,
      ``completion``, ``completion@multiples``;
    * ``fairness:<scheduler>`` (means over windows), ``fairness:<scheduler>@raw`` for each
      result with a fairness section;
    * ``gantt:<scheduler>``: the first page of each scheduler's Gantt chart
      (:func:`gantt_figure` with ``page=`` draws the others; ``layout.meta`` says how many).

    ``cumulative_cost@multiples``, ``utilisation@multiples`` and ``completion@multiples``
    exist only for two schedulers or more; ``active_vms@multiples`` (the only view by VM
    type) always does.

    Parameters
    ----------
    results : mapping of str to dict
        Result documents keyed by scheduler spec.
    max_points : int, optional
        Points per timeline trace after downsampling; by default 4,000 shared out between
        the schedulers (at least 400, at most 2,000), which keeps a 10,000-job,
        five-scheduler run near 1 MB of JSON (goal: under 2 MB).
    max_jobs : int, optional
        Jobs per Gantt page; by default 1,000 shared out (at least 100, at most 300).
    currency : str, default "$"
        Symbol of money axes (display only).
    only : collection of str, optional
        Build only these keys (``fairness:`` and ``gantt:`` stand for every scheduler's
        default view).
    """
    n = max(1, len(results))
    points = max_points or max(400, min(2000, 4000 // n))
    jobs = max_jobs or gantt_page_size(n)
    several = len(results) > 1
    builders: dict[str, Callable[[], Figure]] = {
        "cumulative_cost": lambda: cumulative_cost_figure(results, max_points=points, currency=currency),
        "cumulative_cost@multiples": lambda: cumulative_cost_figure(
            results, view="multiples", max_points=points, currency=currency),
        "utilisation": lambda: utilisation_figure(results, view="mean"),
        "utilisation@raw": lambda: utilisation_figure(results, view="raw", max_points=points),
        "utilisation@multiples": lambda: utilisation_figure(results, view="multiples", max_points=points),
        "active_vms": lambda: active_vms_figure(results, mode="total", view="mean"),
        "active_vms@raw": lambda: active_vms_figure(results, mode="total", view="raw", max_points=points),
        "active_vms@multiples": lambda: active_vms_figure(results, mode="stacked", max_points=points),
        "cost_breakdown": lambda: cost_breakdown_figure(results, currency=currency),
        "cost_by_framework": lambda: cost_by_framework_figure(results, currency=currency),
        "cost_by_hour": lambda: cost_by_hour_figure(results, currency=currency),
        "deadlines": lambda: deadline_figure(results),
        "completion": lambda: completion_figure(results, max_points=points),
        "completion@multiples": lambda: completion_figure(results, view="multiples", max_points=points),
    }
    for name, r in results.items():
        if r.get("fairness"):
            builders[f"fairness:{name}"] = partial(fairness_figure, r, view="mean")
            builders[f"fairness:{name}@raw"] = partial(fairness_figure, r, max_points=points)
    for name, r in results.items():
        builders[f"gantt:{name}"] = partial(gantt_figure, r, jobs)
    wanted = set(only) if only is not None else None
    figures: dict[str, Figure] = {}
    for key, build in builders.items():
        if key.endswith("@multiples") and key != "active_vms@multiples" and not several:
            continue
        prefix = key.split(":", 1)[0] + ":" if ":" in key else None
        if wanted is not None and key not in wanted and not (prefix in wanted and "@" not in key):
            continue
        figures[key] = build()
    _name_the_same(figures, results)
    return figures


def same_as(results: Mapping[str, Result]) -> dict[str, str]:
    """Schedulers whose runs are identical to an earlier one's (the same jobs' starts, finishes
    and placements, the same timelines): ``{later: earlier}``. Their curves would lie on top
    of each other, so the charts say so.

    >>> a = {"timeline": {"t": [0, 1]}, "jobs": {"id": ["j"]}, "total_cost": 1.0}
    >>> same_as({"x": a, "y": dict(a), "z": {**a, "total_cost": 2.0}})
    {'y': 'x'}
    """
    seen: dict[str, str] = {}
    out: dict[str, str] = {}
    for name, r in results.items():
        key = json.dumps([r.get(k) for k in ("timeline", "jobs", "total_cost", "makespan_s")],
                         sort_keys=True, default=str)
        if key in seen:
            out[str(name)] = seen[key]
        else:
            seen[key] = str(name)
    return out


def _name_the_same(figures: Mapping[str, Figure], results: Mapping[str, Result]) -> None:
    """A scheduler identical to another is named so in every legend: "morpheus (same as fifo)"."""
    twins = {text(later): f"{text(later)} (same as {text(earlier)})"
             for later, earlier in same_as(results).items()}
    if not twins:
        return
    for figure in figures.values():
        for trace in figure.get("data", []):
            if trace.get("name") in twins:
                trace["name"] = twins[trace["name"]]
