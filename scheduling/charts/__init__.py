"""What every paper's figures are made of: plain Plotly figure dicts, their views and helpers.

Every chart function of the library is pure: it reads result documents (docs/results.md) and
returns ``{"data": [...], "layout": {...}}`` made of plain Python lists, floats, ints and
strings, which passes ``json.dumps(fig, allow_nan=False)``. The run page draws them with
Plotly.js, the CLI writes them into a standalone HTML file (:mod:`scheduling.html`) and the PDF
report draws the very same dicts with matplotlib (``planner.reports.plotly_mpl``): one
definition of every chart.

Each paper draws its own documents: the cost comparison in :mod:`scheduling.cost.charts`
(:func:`~scheduling.cost.charts.all_figures`), the fairness studies in
:mod:`scheduling.fairness.charts`, UDRF in :mod:`scheduling.udrf.charts` and MRSU in
:mod:`scheduling.mrsu.charts`. This package holds what they share, and papers import it from
here:

* Colours come from :mod:`scheduling.charts.palettes` (one colour-blind-safe palette per
  kind of thing; a name keeps its colour everywhere); :func:`scheduler_colours` and
  :func:`variant_colours` colour the variants a run compares.
* Time axes pick their unit (s, min, h) from the span; timelines are downsampled on the
  server (:func:`downsample_step`, :func:`downsample_linear`) keeping peaks and troughs,
  or smoothed on purpose (:func:`window_mean_step`) for the readable default view; a figure
  key ``<key>@<view>`` is another view (:data:`VIEWS`) of ``<key>`` (:func:`figure_for`).
* Layout, axes and trace helpers (:mod:`scheduling.charts._common`,
  :mod:`scheduling.charts.timelines`), and :func:`utilisation_figure`, which draws a cost
  comparison's results and a sharing study's documents alike.
* User-supplied strings (scenario, job, framework, VM type names) are HTML-escaped in
  figure text (:func:`text`): Plotly.js renders text as pseudo-HTML and decodes ``&lt;`` and
  friends.

>>> import json
>>> r = {"scheduler": "edf-bfd", "resources": ["cpu"], "total_cost": 0.5,
...      "lower_bound_cost": 0.4, "timeline": {"t": [0.0, 60.0], "utilisation": {"cpu": [0.5, 0.0]},
...      "active_vms": {"small": [1, 0]}, "cumulative_cost": [0.0, 0.5]}}
>>> fig = utilisation_figure({"edf-bfd": r}, view="raw")
>>> [(tr["name"], tr["line"]["shape"], tr["y"]) for tr in fig["data"]]
[('edf-bfd', 'hv', [0.5, 0.0])]
>>> len(json.dumps(fig)) > 0
True
"""

from __future__ import annotations

from collections.abc import Mapping

from ..tables import format_duration, format_money
from ._common import (
    D3_NUM,
    SHORT_LABEL,
    Figure,
    Result,
    axis,
    axis_key,
    axis_ref,
    base_layout,
    caption,
    clock,
    colour_ticks,
    fmt,
    round_sig,
    scheduler_colours,
    short_text,
    short_texts,
    stacked_rows,
    text,
    time_unit,
    timeline_end,
    variant_colours,
)
from .downsample import downsample_linear, downsample_step, window_duration, window_mean_step
from .palettes import colours
from .timelines import (
    DASHES,
    FAIRNESS_CAPTION,
    WINDOWS,
    View,
    aligned,
    rgba,
    scale_times,
    step_trace,
    utilisation_figure,
    window_words,
)

__all__ = [
    "D3_NUM",
    "DASHES",
    "FAIRNESS_CAPTION",
    "SHORT_LABEL",
    "VIEWS",
    "WINDOWS",
    "Figure",
    "Result",
    "View",
    "aligned",
    "axis",
    "axis_key",
    "axis_ref",
    "base_layout",
    "caption",
    "clock",
    "colour_ticks",
    "colours",
    "downsample_linear",
    "downsample_step",
    "figure_for",
    "fmt",
    "format_duration",
    "format_money",
    "rgba",
    "round_sig",
    "scale_times",
    "scheduler_colours",
    "short_text",
    "short_texts",
    "stacked_rows",
    "step_trace",
    "text",
    "time_unit",
    "timeline_end",
    "utilisation_figure",
    "variant_colours",
    "window_duration",
    "window_mean_step",
    "window_words",
]

#: The views a figure key may have besides its default, as ``<key>@<view>`` keys.
VIEWS = ("raw", "multiples")


def figure_for(figures: Mapping[str, Figure], key: str, view: str | None = None) -> Figure | None:
    """The figure ``key`` in ``view`` (``raw``, ``multiples``), else its default, else ``None``.

    >>> figure_for({"utilisation": {"data": []}}, "utilisation", "raw")
    {'data': []}
    """
    if view and f"{key}@{view}" in figures:
        return figures[f"{key}@{view}"]
    return figures.get(key)
