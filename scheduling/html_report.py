"""A standalone HTML report of simulation results: comparison table and every chart.

The table comes from :func:`scheduling.presenter.comparison_table` and the charts from
:func:`scheduling.charts.all_figures`, as on the run page; buttons switch the timelines
between their readable default, full detail and small multiples.

The file works offline: plotly.js is inlined from the installed ``plotly`` package and
the figures are embedded as JSON. Every user-supplied string (title, scheduler, VM type,
framework and job names) is escaped: with :func:`html.escape` in the page, and with
``<``, ``>`` and ``&`` written as ``\\u003c``, ``\\u003e`` and ``\\u0026`` in the embedded
JSON, so no name can close the ``<script>`` element.

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
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .charts import VIEWS, all_figures, scheduler_colours
from .charts._common import Figure, Result
from .numbers import finite, integral
from .presenter import Comparison, DetailTable, comparison_table

__all__ = [
    "MAX_DETAIL_ROWS",
    "comparison_html",
    "detail_html",
    "render_html_report",
    "standalone_html",
    "write_html_report",
    "write_text_atomically",
]

#: A detail table (:func:`detail_html`) is written up to this many rows (a note says when it is cut).
MAX_DETAIL_ROWS = 2000

_VIEW_LABELS = {"raw": "Full detail", "multiples": "Small multiples"}

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
    """The presenter's comparison table as an HTML table, each variant with its colour swatch,
    the best cells marked, and the metrics' notes under it (every string escaped)."""
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
    """A library detail table as an HTML table (the cells as the presenter shows them, escaped);
    at most ``max_rows`` rows, with a note when it is cut.

    >>> from scheduling.presenter import Column, detail_table
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


def _summary_table(results: Mapping[str, Result], baseline: str | None, currency: str) -> str:
    table = comparison_table(results, baseline=baseline, currency=currency)
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
    :func:`scheduling.charts.all_figures` keys them) are embedded as JSON and drawn with the
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


def write_text_atomically(path: str | os.PathLike[str], document: str) -> None:
    """Write ``document`` (UTF-8) to ``path``, replacing it atomically."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.write_text(document, encoding="utf-8")
    os.replace(tmp, target)


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
        Passed to :func:`scheduling.charts.all_figures`.
    """
    document = render_html_report(
        results, title, baseline=baseline, currency=currency, max_points=max_points, max_jobs=max_jobs
    )
    write_text_atomically(path, document)
