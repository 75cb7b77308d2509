"""A standalone HTML report of a fairness study (allocation or sharing), for the CLI.

The page is the cost report's (:func:`scheduling.html.standalone_html`): offline,
plotly.js inlined, figures embedded as JSON with ``<``, ``>`` and ``&`` escaped, every
user-supplied string escaped. It holds the study's comparison table
(:func:`scheduling.fairness.tables.fairness_table`), its per-framework tables (an allocation
study's criteria: :func:`scheduling.fairness.allocation_tables.allocation_framework_table`) and every
figure of :func:`scheduling.fairness.charts.allocation_figures` or
:func:`scheduling.fairness.charts.sharing_figures`; which study it is comes from the documents'
``study``.

>>> import tempfile, pathlib
>>> doc = {"study": "allocation", "label": "<rPS-DSF>", "trials": 1, "resources": ["cpu"],
...        "machines": [{"id": "c1#1", "vm_type": "c1", "capacity": {"cpu": 100}}],
...        "frameworks": [{"name": "f1"}], "mean": {"f1": {"c1#1": 19.0}}, "std": {"f1": {"c1#1": 0.0}},
...        "tasks": {"f1": {"mean": 19.0, "std": 0.0}}, "total_tasks": 19.0, "task_efficiency": 19.0}
>>> with tempfile.TemporaryDirectory() as d:
...     path = pathlib.Path(d, "fairness.html")
...     write_fairness_html(path, {"<rPS-DSF>": doc}, title="Table I")
...     page = path.read_text(encoding="utf-8")
>>> "&lt;rPS-DSF&gt;" in page and "<rPS-DSF>" not in page
True
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..charts import variant_colours
from ..html import comparison_html, detail_html, standalone_html, write_text_atomically
from ..numbers import integral
from ..tables import cell_text
from .charts import allocation_figures, sharing_figures
from .tables import (
    ALLOCATION_CELL_COLUMNS,
    ALLOCATION_RESOURCE_COLUMNS,
    SHARING_FRAMEWORK_COLUMNS,
    Column,
    allocation_cell_rows,
    allocation_framework_table,
    allocation_resource_rows,
    fairness_table,
    framework_names,
    sharing_framework_rows,
    study_of,
)

__all__ = ["MAX_CELL_ROWS", "render_fairness_html", "rows_html", "write_fairness_html"]

Doc = Mapping[str, Any]

#: The allocation's framework x server table is written up to this many rows.
MAX_CELL_ROWS = 2000

#: Buttons of the views a sharing study's figures have (shown only when a figure has one).
_SHARING_VIEWS = (
    ("overlay", "Shares overlaid"),
    ("raw", "Full detail"),
    ("multiples", "Small multiples"),
)


def rows_html(columns: Sequence[Column], rows: Sequence[Mapping[str, Any]]) -> str:
    """Row dicts as an HTML table: text columns as they are, numbers as their unit shows them.

    >>> page = rows_html([Column("fw", "Framework"), Column("pct", "Unfairness", "percent")],
    ...                  [{"fw": "<a>", "pct": 38.04}])
    >>> page.splitlines()[1]
    '<tr><td>&lt;a&gt;</td><td>38.0%</td></tr>'
    """
    head = "".join(f'<th scope="col">{html.escape(label)}</th>' for _, label, _ in columns)
    body = []
    for row in rows:
        cells = []
        for key, _, unit in columns:
            cells.append(f"<td>{html.escape(cell_text(row.get(key), unit))}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    return (f'<table class="detail"><thead><tr>{head}</tr></thead><tbody>\n' + "\n".join(body)
            + "\n</tbody></table>")


def _meta(study: str, docs: Mapping[str, Doc]) -> str:
    first = next(iter(docs.values()), {})
    machines = [m for m in first.get("machines") or [] if isinstance(m, Mapping)]
    types: dict[str, int] = {}
    for m in machines:
        types[str(m.get("vm_type"))] = types.get(str(m.get("vm_type")), 0) + 1
    frameworks = framework_names(first)
    what = "variant" if study == "allocation" else "configuration"
    parts = [
        f"{'Allocation' if study == 'allocation' else 'Sharing'} study",
        f"{len(docs)} {what}{'s' if len(docs) != 1 else ''}",
        f"{len(frameworks)} framework{'s' if len(frameworks) != 1 else ''}: "
        + ", ".join(html.escape(f) for f in frameworks),
        f"{len(machines):,} server{'s' if len(machines) != 1 else ''}: "
        + ", ".join(f"{html.escape(t)} ×{n}" for t, n in types.items()),
    ]
    trials = {integral(d.get("trials")) for d in docs.values()} - {None}
    if study == "allocation" and trials:
        parts.append("trials " + ", ".join(f"{t:,}" for t in sorted(t for t in trials if t is not None)))
    seeds = list(dict.fromkeys(str(d.get("seed")) for d in docs.values() if d.get("seed") is not None))
    if seeds:
        parts.append("seed " + html.escape(", ".join(seeds)))
    return " · ".join(parts)


def render_fairness_html(docs: Mapping[str, Doc], *, title: str, max_points: int | None = None) -> str:
    """The report as one HTML string (see :func:`write_fairness_html`)."""
    studies = {study_of(d) for d in docs.values()}
    if len(studies) != 1:
        raise ValueError("a fairness report needs documents of one study (allocation or sharing)")
    study = studies.pop()
    table = comparison_html(fairness_table(docs), variant_colours(docs))
    sections: list[tuple[str, str]] = [("Comparison", table)]
    views: list[tuple[str, str]] = []
    if study == "allocation":
        figures = allocation_figures(docs)
        criteria = allocation_framework_table(docs)
        sections.append((criteria["title"], detail_html(criteria)))
        cells = allocation_cell_rows(docs)
        if len(cells) <= MAX_CELL_ROWS:
            sections.append(("Tasks per framework and server", rows_html(ALLOCATION_CELL_COLUMNS, cells)))
        per_resource = allocation_resource_rows(docs)
        sections.append(("Per resource", rows_html(ALLOCATION_RESOURCE_COLUMNS, per_resource)))
    else:
        figures = sharing_figures(docs, max_points=max_points)
        sections.append(("Per framework", rows_html(SHARING_FRAMEWORK_COLUMNS, sharing_framework_rows(docs))))
        present = {key.split("@", 1)[1] for key in figures if "@" in key}
        views = [("", "Readable"), *((v, label) for v, label in _SHARING_VIEWS if v in present)]
    return standalone_html(title, _meta(study, docs), sections, figures, views=views, views_label="Charts")


def write_fairness_html(
    path: str | os.PathLike[str], docs: Mapping[str, Doc], *, title: str, max_points: int | None = None
) -> None:
    """Write ONE standalone HTML file with a fairness study's tables and every figure.

    Parameters
    ----------
    path : str or path-like
        The file to write (UTF-8); it is replaced atomically.
    docs : mapping of str to dict
        Allocation documents, or sharing documents, keyed by variant (configuration) label,
        in column order.
    title : str
        Page title, typically the scenario's or the preset's name (escaped).
    max_points : int, optional
        Points per timeline trace of a sharing study (:func:`scheduling.fairness.charts.sharing_figures`).

    Raises
    ------
    ValueError
        If the documents are not all of one study.
    """
    write_text_atomically(path, render_fairness_html(docs, title=title, max_points=max_points))
