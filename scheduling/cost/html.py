"""The standalone HTML page of a cost comparison (paper 003): comparison table and every chart.

The table comes from :func:`scheduling.tables.comparison_table` with
:data:`scheduling.cost.tables.COST_METRICS` and the charts from
:func:`scheduling.cost.charts.all_figures`, as on the run page; buttons switch the timelines
between their readable default, full detail and small multiples. The page is every paper's
(:func:`scheduling.html.standalone_html`): offline, every user-supplied string escaped.

>>> import tempfile, pathlib
>>> r = {"scheduler": "edf-bfd", "resources": ["cpu"], "total_cost": 0.5, "jobs": [],
...      "timeline": {"t": [0.0, 60.0], "utilisation": {"cpu": [0.5, 0.0]}}}
>>> with tempfile.TemporaryDirectory() as d:
...     path = pathlib.Path(d, "report.html")
...     write_html_report(path, {"edf-bfd": r}, title="<tiny>")
...     "&lt;tiny&gt;" in path.read_text(encoding="utf-8")
True
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping

from ..charts import VIEWS, Result, scheduler_colours
from ..html import comparison_html, standalone_html, write_text_atomically
from ..numbers import finite, integral
from ..tables import comparison_table
from .charts import all_figures
from .tables import COST_METRICS

__all__ = ["render_html_report", "write_html_report"]

_VIEW_LABELS = {"raw": "Full detail", "multiples": "Small multiples"}


def _summary_table(results: Mapping[str, Result], baseline: str | None, currency: str) -> str:
    table = comparison_table(results, baseline=baseline, currency=currency, metrics=COST_METRICS)
    return comparison_html(table, scheduler_colours(results))


def _meta(results: Mapping[str, Result]) -> str:
    first = next(iter(results.values()), {})
    jobs = integral(first.get("jobs_total")) or 0
    vm_types = ", ".join(
        f"{html.escape(str(vt.get('name')))} ×{integral(vt.get('count')) or 0}"
        f" at {finite(vt.get('price_per_hour')) or 0:g}/h"
        for vt in first.get("vm_types") or []
    )
    parts = [
        f"{len(results)} scheduler(s)",
        f"{jobs:,} jobs",
        f"seed {html.escape(str(first.get('seed', 0)))}",
    ]
    if vm_types:
        parts.append(f"VM types: {vm_types}")
    return " · ".join(parts)


def render_html_report(
    results: Mapping[str, Result],
    title: str = "Cluster what-if report",
    *,
    baseline: str | None = None,
    currency: str = "$",
    max_points: int | None = None,
    max_jobs: int | None = None,
) -> str:
    """The report as one HTML string (see :func:`write_html_report`)."""
    figures = all_figures(results, max_points=max_points, max_jobs=max_jobs, currency=currency)
    views = (("", "Readable"), *((v, _VIEW_LABELS[v]) for v in VIEWS))
    return standalone_html(
        title, _meta(results), [("Comparison", _summary_table(results, baseline, currency))], figures,
        views=views,
    )


def write_html_report(
    path: str | os.PathLike[str],
    results: Mapping[str, Result],
    title: str = "Cluster what-if report",
    *,
    baseline: str | None = None,
    currency: str = "$",
    max_points: int | None = None,
    max_jobs: int | None = None,
) -> None:
    """Write ONE standalone HTML file with the comparison table and every figure.

    Parameters
    ----------
    path : str or path-like
        The file to write (UTF-8); it is replaced atomically.
    results : mapping of str to dict
        Result documents keyed by scheduler spec.
    title : str
        Page title, typically the scenario's name (escaped).
    baseline : str, optional
        Scheduler the saving row is measured against; the first one by default.
    currency : str, default "$"
        Symbol shown with money (display only).
    max_points, max_jobs : int, optional
        Passed to :func:`scheduling.cost.charts.all_figures`.
    """
    document = render_html_report(
        results, title, baseline=baseline, currency=currency, max_points=max_points, max_jobs=max_jobs
    )
    write_text_atomically(path, document)
