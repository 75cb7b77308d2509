"""A report as a PDF drawn with matplotlib: the comparison table, then the run page's figures.

Pages (A4 landscape):

1. the run's description and the comparison table of the library
   (:func:`scheduling.tables.comparison_table`: the values as the run page shows them,
   one page per 6 variants), with the notes that explain its rows;
2. one page per figure of ``content.figures``: the very Plotly figure dicts the run page
   draws (:mod:`scheduling.charts`), drawn by :mod:`planner.reports.plotly_mpl`, so series,
   colours, time units, downsampling and captions are the page's. For a cost run:
   cumulative cost, cost per hour, utilisation of the whole cluster (as on the page), active
   VMs, active VMs by type, cost per VM type and per framework, deadlines, completion times
   and each scheduler's fairness.

Figures are built with :class:`matplotlib.figure.Figure` directly, never through pyplot,
so nothing global (backend, figure registry) is touched and nothing leaks in a long-lived
worker; mathtext is off, so names with ``$`` print as they are. The file is deterministic:
no creation date is written.
"""

from __future__ import annotations

import io
import math
import textwrap
from collections.abc import Mapping
from typing import Any

from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from scheduling.tables import ComparisonRow

from .content import VERDICT, ReportContent
from .plotly_mpl import draw_figure, plain_text

__all__ = ["CREATOR", "build_pdf", "fit_text", "pdf_page_count", "pdf_pages"]

CREATOR = "Cluster What-If Planner"
PAGE_SIZE = (11.69, 8.27)  # A4 landscape, inches
VARIANTS_PER_PAGE = 6
_MARGIN = 0.04  # of the page width, left and right
_GOOD, _GOOD_TEXT = "#E3F1E3", "#1D5E20"

_RC: Any = {  # Any: matplotlib types rc keys as a Literal union
    "font.size": 9,
    "axes.titlesize": 11,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "text.parse_math": False,  # user text with "$" is text, not mathtext
    "pdf.fonttype": 42,  # embedded TrueType: the text is selectable and searchable
}


def fit_text(
    text: str, width_in: float, size: float, *, min_size: float = 9.0, max_lines: int = 2
) -> tuple[str, float]:
    """``text`` wrapped to ``width_in`` inches: shrunk down to ``min_size`` points to fit in
    ``max_lines`` lines, then cut with an ellipsis (bold sans-serif, about 0.62 em a character).

    >>> fit_text("Run report: short", 10.0, 15)
    ('Run report: short', 15)
    >>> text, size = fit_text("x" * 400, 10.0, 15)
    >>> size, text.count("\\n"), text.endswith("…")
    (9.0, 1, True)
    """
    current = size
    while True:
        per_line = max(10, int(width_in * 72 / (0.62 * current)))
        lines = textwrap.wrap(text, per_line, break_long_words=True) or [""]
        if len(lines) <= max_lines:
            return "\n".join(lines), current
        if current <= min_size:
            kept = lines[:max_lines]
            kept[-1] = kept[-1][: per_line - 1].rstrip() + "…"
            return "\n".join(kept), current
        current = max(min_size, current - 1)


def _heading(fig: Figure, title: str, subtitle: str = "") -> float:
    """The page's title (wrapped or shrunk to fit) and subtitle; returns where content may start."""
    width_in = PAGE_SIZE[0] * (1 - 2 * _MARGIN)
    text, size = fit_text(title, width_in, 15)
    lines = text.count("\n") + 1
    fig.text(_MARGIN, 0.955, text, fontsize=size, fontweight="bold", va="top")
    y = 0.955 - lines * size * 1.25 / 72 / PAGE_SIZE[1]
    if subtitle:
        sub, sub_size = fit_text(subtitle, width_in, 9, min_size=8, max_lines=2)
        fig.text(_MARGIN, y - 0.008, sub, fontsize=sub_size, color="#555555", va="top")
        y -= 0.008 + (sub.count("\n") + 1) * sub_size * 1.3 / 72 / PAGE_SIZE[1]
    return y - 0.02


def _footer(fig: Figure, run_name: str, number: int, total: int) -> None:
    left = f"{CREATOR} - {run_name}" if run_name else CREATOR
    fig.text(_MARGIN, 0.02, textwrap.shorten(left, 140), fontsize=7, color="#777777")
    fig.text(1 - _MARGIN, 0.02, f"page {number} / {total}", fontsize=7, color="#777777", ha="right")


def _chunks(items: list[str], size: int) -> list[list[str]]:
    return [items[i : i + size] for i in range(0, len(items), size)] or [[]]


# --------------------------------------------------------------------------- the summary pages


def _draw_details(fig: Figure, details: list[tuple[str, Any]], y: float) -> float:
    """The run's description, label then value, the values in a column past the longest label
    as drawn (measured, so no label runs into its value); the recommendation
    (:data:`planner.reports.content.VERDICT`) in bold green. Returns where content may start."""
    labels = []
    for k, (label, _) in enumerate(details):
        labels.append(fig.text(_MARGIN, y - 0.03 * k, f"{label}:", fontsize=9, fontweight="bold", va="top"))
    renderer = FigureCanvasAgg(fig).get_renderer()
    right = max((t.get_window_extent(renderer).x1 for t in labels), default=0.0) / fig.bbox.width
    values_x = max(0.16, right + 0.008)
    per_line = max(20, int((1 - _MARGIN - values_x) * PAGE_SIZE[0] * 72 / (0.55 * 9)))
    for label, value in details:
        text = "" if value is None else f"{value:,}" if isinstance(value, int) else str(value)
        verdict = label == VERDICT
        fig.text(
            values_x, y, textwrap.shorten(text, per_line, placeholder="…") or "-", fontsize=9, va="top",
            fontweight="bold" if verdict else "normal", color=_GOOD_TEXT if verdict else "black",
        )
        y -= 0.03
    return y - 0.01


def _draw_table(
    ax: Axes, rows: list[ComparisonRow], variants: list[str], all_variants: list[str], baseline: str | None
) -> None:
    columns = [all_variants.index(v) for v in variants]
    label_w = 0.3
    col_w = min(0.16, (1.0 - label_w) / max(1, len(variants)))
    # Cells wrap at spaces to the column's width (about 0.62 em a character at 8.5 pt).
    chars = max(8, int(col_w * ax.get_position().width * PAGE_SIZE[0] * 72 / (0.62 * 8.5)))
    text = [
        [textwrap.fill(row["cells"][k]["shown"], chars, break_long_words=False) for k in columns]
        for row in rows
    ]
    header = [
        "\n".join(textwrap.wrap(v + (" (baseline)" if v == baseline else ""), 18, break_long_words=True)) or v
        for v in variants
    ]
    header_lines = max((h.count("\n") + 1 for h in header), default=1)
    label_lines = [textwrap.fill(row["label"], 44) for row in rows]
    lines_of = [
        max([lbl.count("\n") + 1] + [t.count("\n") + 1 for t in cells])
        for lbl, cells in zip(label_lines, text, strict=True)
    ]
    tbl = ax.table(
        cellText=text,
        rowLabels=label_lines,
        colLabels=header,
        cellLoc="right",
        rowLoc="left",
        colLoc="center",
        loc="upper right",
    )
    tbl.auto_set_font_size(False)
    tbl.set_fontsize(8.5)
    n_units = sum(max(1.0, 0.8 * lines) for lines in lines_of) + max(1.3, 0.8 * header_lines + 0.5)
    unit = 1.0 / n_units
    for (r, c), cell in tbl.get_celld().items():
        cell.set_edgecolor("#cccccc")
        lines = header_lines if r == 0 else lines_of[r - 1]
        cell.set_height(unit * (max(1.3, 0.8 * lines + 0.5) if r == 0 else max(1.0, 0.8 * lines)))
        cell.set_width(label_w if c == -1 else col_w)
        if r == 0:
            cell.set_facecolor("#eef2f7")
            cell.get_text().set_fontweight("bold")
        else:
            cell.set_facecolor("#f7f7f7" if r % 2 else "white")
            if c == -1:
                cell.get_text().set_fontweight("bold")
            elif rows[r - 1]["cells"][columns[c]]["best"]:
                cell.set_facecolor(_GOOD)
                cell.get_text().set_color(_GOOD_TEXT)
                cell.get_text().set_fontweight("bold")


def _summary_pages(content: ReportContent) -> list[Figure]:
    comparison = content.comparison
    variants = comparison["variants"]
    chunks = _chunks(variants, VARIANTS_PER_PAGE)
    pages = []
    notes = list(dict.fromkeys(row["note"] for row in comparison["rows"] if row["note"]))
    for n, chunk in enumerate(chunks):
        suffix = f" ({n + 1}/{len(chunks)})" if len(chunks) > 1 else ""
        fig = Figure(figsize=PAGE_SIZE)
        title = f"Run report: {content.title}" if content.title else "Run report"
        y = _heading(fig, title + suffix, content.subtitle)
        if n == 0:
            y = _draw_details(fig, content.details, y)
        if not chunk:
            fig.text(_MARGIN, y, "This run has no results.", fontsize=11, va="top")
        else:
            bottom = 0.07 + 0.022 * len(notes)
            ax = fig.add_axes((_MARGIN, bottom, 1 - 2 * _MARGIN, max(0.2, y - 0.01 - bottom)))
            ax.axis("off")
            _draw_table(ax, comparison["rows"], chunk, variants, comparison["baseline"])
            for k, note in enumerate(notes):
                fig.text(
                    _MARGIN,
                    0.05 + 0.022 * (len(notes) - k),
                    textwrap.shorten(note, 190, placeholder="…"),
                    fontsize=7.5,
                    color="#555555",
                    va="top",
                )
        pages.append(fig)
    return pages


# --------------------------------------------------------------------------- figure pages


def _figure_page(plotly: Mapping[str, Any]) -> Figure:
    fig = Figure(figsize=PAGE_SIZE)
    layout = plotly.get("layout") or {}
    top = _heading(fig, plain_text((layout.get("title") or {}).get("text")) or "Chart")
    captions = [
        a for a in layout.get("annotations") or [] if a.get("xref") == "paper" and a.get("yref") == "paper"
    ]
    caption_lines = sum(plain_text(a.get("text")).count("\n") + 1 for a in captions)
    # Room for the caption above the plot, the legend below it.
    legend_rows = math.ceil(
        sum(1 for t in plotly.get("data") or [] if t.get("showlegend", True) is not False) / 4
    )
    bottom = 0.1 + 0.028 * min(legend_rows, 5)
    plot_top = top - 0.02 - 0.03 * caption_lines
    draw_figure(fig, plotly, (0.08, bottom, 0.88, max(0.25, plot_top - bottom)))
    return fig


def pdf_pages(content: ReportContent) -> list[Figure]:
    """The report's pages as matplotlib figures (what :func:`build_pdf` writes)."""
    with rc_context(_RC):
        pages = _summary_pages(content)
        pages += [_figure_page(fig) for fig in content.figures.values()]
        return pages


def pdf_page_count(content: ReportContent) -> int:
    """How many pages :func:`build_pdf` writes for ``content``."""
    return len(_chunks(content.comparison["variants"], VARIANTS_PER_PAGE)) + len(content.figures)


def build_pdf(content: ReportContent) -> bytes:
    """The report as PDF bytes (see the module); :func:`pdf_page_count` tells how many pages."""
    metadata = {
        "Title": f"Run report: {content.title}" if content.title else "Run report",
        "Subject": content.subtitle,
        "Keywords": content.keywords,
        "Creator": CREATOR,
        "CreationDate": None,
    }
    buf = io.BytesIO()
    with rc_context(_RC):
        pages = pdf_pages(content)
        with PdfPages(buf, metadata=metadata) as pdf:
            for n, fig in enumerate(pages, start=1):
                _footer(fig, content.title, n, len(pages))
                pdf.savefig(fig)
    return buf.getvalue()

