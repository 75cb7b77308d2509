"""The sweep's standalone page: the schedulers compared, every point, and every figure."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from ..charts import scheduler_colours
from ..html import comparison_html, detail_html, standalone_html, write_text_atomically
from ..tables import comparison_table
from .charts import all_figures
from .tables import points_table, scheduler_summaries, sweep_metrics

__all__ = ["sweep_html", "write_sweep_html"]


def sweep_html(doc: Mapping[str, Any], *, title: str = "") -> str:
    """The page of a sweep document (offline: plotly.js inlined, every string escaped)."""
    summaries = scheduler_summaries(doc)
    table = comparison_table(summaries, metrics=sweep_metrics(doc))
    axes = ", ".join(f"{k} ({len(v)} values)" for k, v in (doc.get("axes") or {}).items()) or "no axis"
    sample = f", a sample of {doc['sample']} settings (seed {doc['seed']})" if doc.get("sample") else ""
    meta = html.escape(f"{len(doc.get('points') or []):,} points: {axes}{sample}; "
                       f"{len(doc.get('schedulers') or [])} schedulers; {doc.get('seeds')} seeds")
    return standalone_html(
        title or f"Sweep of {doc.get('scenario') or 'a scenario'}", meta,
        [("Schedulers over the points", comparison_html(table, scheduler_colours(list(summaries)))),
         ("Every point", detail_html(points_table(doc), max_rows=5000))],
        all_figures(doc),
    )


def write_sweep_html(path: str, doc: Mapping[str, Any], *, title: str = "") -> None:
    """Write :func:`sweep_html` to ``path`` (atomically)."""
    write_text_atomically(path, sweep_html(doc, title=title))
