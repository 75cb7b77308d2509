"""Every paper's standalone HTML page: its tables and its figures, offline, in one file.

:func:`standalone_html` lays out a title, a meta line, sections (the tables of
:func:`comparison_html` and :func:`detail_html`) and every figure; :func:`write_text_atomically`
writes it. Each paper's page builds on it: the cost comparison's
(:mod:`scheduling.cost.html`), the fairness studies' (:mod:`scheduling.fairness.html`), UDRF's
(:mod:`scheduling.udrf.html`) and MRSU's (its ``--html`` options).

The file works offline: plotly.js is inlined from the installed ``plotly`` package and
the figures are embedded as JSON. Every user-supplied string (title, variant, VM type,
framework and job names) is escaped: with :func:`html.escape` in the page, and with
``<``, ``>`` and ``&`` written as ``\\u003c``, ``\\u003e`` and ``\\u0026`` in the embedded
JSON, so no name can close the ``<script>`` element.

>>> page = standalone_html("<tiny>", "one figure", [], {"f": {"data": [], "layout": {}}})
>>> "<h1>&lt;tiny&gt;</h1>" in page and 'data-figure="f"' in page
True
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .charts import Figure
from .tables import Comparison, DetailTable

__all__ = [
    "MAX_DETAIL_ROWS",
    "comparison_html",
    "detail_html",
    "standalone_html",
    "write_text_atomically",
]

#: A detail table (:func:`detail_html`) is written up to this many rows (a note says when it is cut).
MAX_DETAIL_ROWS = 2000

_CSS = """
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif;
       color: #222; margin: 0 auto; max-width: 1200px; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
p.meta { color: #666; margin-top: 0; }
table { border-collapse: collapse; margin: 1rem 0 2rem; font-size: 0.95rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.35rem 0.8rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead th { border-bottom: 2px solid #888; }
td.best { font-weight: 600; background: #eef7ee; }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 2px; margin-right: 0.35em; }
.chart { width: 100%; margin: 0 0 2rem; }
p.note { color: #555; font-size: 0.85rem; margin: 0.2rem 0; }
.views button { margin-left: 0.3rem; }
.views button[aria-pressed="true"] { font-weight: 600; }
"""


#: Layout only: each chart draws its figure in the chosen view, or its default.
_SCRIPT = (
    "(function () {\n"
    "  var data = JSON.parse(document.getElementById('figures-data').textContent);\n"
    "  var config = {responsive: true, displaylogo: false};\n"
    "  var buttons = document.querySelectorAll('.views button');\n"
    "  function draw(view) {\n"
    "    data.charts.forEach(function (c) {\n"
    "      var fig = (view && data.figures[c.key + '@' + view]) || data.figures[c.key];\n"
    "      Plotly.react(c.id, fig.data, fig.layout, config);\n"
    "    });\n"
    "    buttons.forEach(function (b) {\n"
    "      b.setAttribute('aria-pressed', String(b.dataset.view === view));\n"
    "    });\n"
    "  }\n"
    "  buttons.forEach(function (b) {\n"
    "    b.addEventListener('click', function () { draw(b.dataset.view); });\n"
    "  });\n"
    "  draw('');\n"
    "})();"
)


def _json_for_script(value: Any) -> str:
    """JSON that is safe inside ``<script>``: no ``<``, ``>`` or ``&`` characters at all."""
    text = json.dumps(value, allow_nan=False, separators=(",", ":"), ensure_ascii=False)
    return (
        text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    )


def comparison_html(table: Comparison, colours: Mapping[str, str]) -> str:
    """A comparison table (:func:`scheduling.tables.comparison_table`) as an HTML table, each
    variant with its colour swatch, the best cells marked, and the metrics' notes under it (every
    string escaped)."""
    head = "".join(
        f'<th scope="col"><span class="swatch" style="background:{colours[n]}"></span>{html.escape(n)}</th>'
        for n in table["variants"]
    )
    lines = [f'<table class="summary"><thead><tr><th scope="col">Metric</th>{head}</tr></thead><tbody>']
    notes: list[str] = []
    for row in table["rows"]:
        cells = "".join(
            ('<td class="best">' if cell["best"] else "<td>") + html.escape(cell["shown"]) + "</td>"
            for cell in row["cells"]
        )
        lines.append(f'<tr><th scope="row">{html.escape(row["label"])}</th>{cells}</tr>')
        if row["note"] and row["note"] not in notes:
            notes.append(row["note"])
    lines.append("</tbody></table>")
    lines.append("".join(f'<p class="note">{html.escape(note)}</p>' for note in notes))
    return "\n".join(lines)


def detail_html(table: DetailTable, *, max_rows: int = MAX_DETAIL_ROWS) -> str:
    """A library detail table as an HTML table (the cells as :func:`scheduling.tables.cell_text`
    shows them, escaped); at most ``max_rows`` rows, with a note when it is cut.

    >>> from scheduling.tables import Column, detail_table
    >>> detail_html(detail_table("u", "Users", [Column("u", "User")], [{"u": "<a>"}])).splitlines()[1]
    '<tr><td>&lt;a&gt;</td></tr>'
    """
    head = "".join(f'<th scope="col">{html.escape(c["label"])}</th>' for c in table["columns"])
    body = [
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>"
        for row in table["shown"][:max_rows]
    ]
    notes = list(table["notes"])
    if len(table["shown"]) > max_rows:
        notes.append(f"The first {max_rows:,} of {len(table['shown']):,} rows.")
    return (
        f'<table class="detail"><thead><tr>{head}</tr></thead><tbody>\n'
        + "\n".join(body)
        + "\n</tbody></table>"
        + "".join(f'<p class="note">{html.escape(n)}</p>' for n in notes)
    )


def standalone_html(
    title: str,
    meta: str,
    sections: Sequence[tuple[str, str]],
    figures: Mapping[str, Figure],
    *,
    views: Sequence[tuple[str, str]] = (),
    views_label: str = "Timelines",
) -> str:
    """One offline HTML page: title, meta line, sections, then every default figure.

    ``meta`` and each section's body are HTML (escape what they hold); ``title`` and the
    sections' headings are text. The figures (``<key>`` and ``<key>@<view>`` as
    :func:`scheduling.cost.charts.all_figures` keys them) are embedded as JSON and drawn with the
    inlined plotly.js; each ``(view, label)`` of ``views`` is a button that redraws every
    chart in that view where it has one (``""``: the defaults).
    """
    from plotly.offline import get_plotlyjs

    charts = [key for key in figures if "@" not in key]
    divs = "\n".join(
        f'<div class="chart" id="chart-{i}" data-figure="{html.escape(key)}"></div>'
        for i, key in enumerate(charts)
    )
    buttons = "".join(
        f'<button type="button" data-view="{html.escape(view)}" aria-pressed="{str(not view).lower()}">'
        f"{html.escape(label)}</button>"
        for view, label in views
    )
    switch = f'<p class="views">{html.escape(views_label)}: {buttons}</p>\n' if buttons else ""
    payload = _json_for_script({
        "figures": figures, "charts": [{"id": f"chart-{i}", "key": key} for i, key in enumerate(charts)],
    })
    body = "".join(f"<h2>{html.escape(heading)}</h2>\n{content}\n" for heading, content in sections)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n"
        f'<script type="text/javascript">{get_plotlyjs()}</script>\n'
        "</head>\n<body>\n"
        f"<h1>{html.escape(title)}</h1>\n<p class=\"meta\">{meta}</p>\n"
        f"{body}"
        f"<h2>Charts</h2>\n{switch}{divs}\n"
        f'<script type="application/json" id="figures-data">{payload}</script>\n'
        f"<script>{_SCRIPT}</script>\n"
        "</body>\n</html>\n"
    )


def write_text_atomically(path: str | os.PathLike[str], document: str) -> None:
    """Write ``document`` (UTF-8) to ``path``, replacing it atomically."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.write_text(document, encoding="utf-8")
    os.replace(tmp, target)
