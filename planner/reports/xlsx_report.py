"""A report as an Excel workbook (openpyxl, streaming write-only mode), with native charts.

Sheets: Summary (the summary table, the run's description and native Excel charts of the
content's ``sheet_charts``: for a cost run, cost per VM type and utilisation), one sheet
per other table, the records (Jobs) and ``Chart data``, the numbers the charts draw. The
charts are drawn from the same figure dicts as the run page and the PDF
(:mod:`scheduling.charts`: same series, same colours), so a forwarded file stands on its
own. Numbers are stored as numbers with the number format of their unit
(:data:`scheduling.tables.UNITS`: money with 2 decimals, percentages as Excel
percentages), headers name their units, are bold and frozen, columns are sized to their
content. Every text cell is stored as a string, never a formula, and text that could start
a formula is prefixed with ``'`` as in the CSV report.
"""

from __future__ import annotations

import html
import io
import re
from typing import Any

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.chart import BarChart, Reference, ScatterChart, Series
from openpyxl.chart._chart import ChartBase
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from scheduling.tables import UNITS

from .content import Figure, ReportContent
from .tables import Cell, Table, neutralise

__all__ = ["CHART_DATA_SHEET", "build_xlsx", "number_format"]

TITLE = "Cluster What-If Planner run report"
CHART_DATA_SHEET = "Chart data"
_BOLD = Font(bold=True)
_TITLE = Font(bold=True, size=14)
_MAX_WIDTH = 60
_WIDTH_SAMPLE_ROWS = 2000
_CHART_ROWS = 18  # rows a chart takes on the summary sheet (7.5 cm high, 15 cm wide)

XLSX_MAX_JOB_ROWS = 20_000  # openpyxl writes about 6,000 job rows a second


def number_format(unit: str) -> str:
    """Excel's number format of a unit, from its decimals (percent cells hold fractions).

    >>> number_format("money"), number_format("percent"), number_format("seconds"), number_format("text")
    ('#,##0.0000', '0.00%', '#,##0', '@')
    """
    decimals = UNITS[unit].decimals
    if decimals is None:
        return "@"
    places = "." + "0" * decimals if decimals else ""
    return f"0{places}%" if unit == "percent" else f"#,##0{places}"


def _text(value: str) -> str:
    return neutralise(ILLEGAL_CHARACTERS_RE.sub("", value))


def _cell(ws: WriteOnlyWorksheet, value: Cell, unit: str = "text", font: Font | None = None) -> WriteOnlyCell:
    if isinstance(value, str):
        cell = WriteOnlyCell(ws, value=_text(value))
        cell.data_type = "s"  # a string, whatever it starts with: never a formula
    elif value is None:
        cell = WriteOnlyCell(ws, value=None)
    else:
        cell = WriteOnlyCell(ws, value=value / 100.0 if unit == "percent" else value)
        if unit != "text":
            cell.number_format = number_format(unit)
    if font is not None:
        cell.font = font
    return cell


def _display_width(value: Cell, unit: str) -> int:
    if value is None:
        return 0
    if isinstance(value, str):
        return len(value) + (1 if value.startswith("=") else 0)
    decimals = UNITS[unit].decimals or 0
    return len(f"{value:,.{decimals}f}") + (1 if unit == "percent" else 0)


def _widths(table: Table, header: list[str]) -> list[float]:
    widths = [len(label) for label in header]
    for row in table.rows[:_WIDTH_SAMPLE_ROWS]:
        for i, (value, col) in enumerate(zip(row, table.columns, strict=False)):
            widths[i] = max(widths[i], _display_width(value, col.unit))
    return [min(_MAX_WIDTH, max(8, w + 2)) for w in widths]


def _write_table(
    ws: WriteOnlyWorksheet, table: Table, heading: str, currency: str, after: list[list[Cell]] | None = None
) -> int:
    """A heading, the table's notes, its header (frozen) and rows, then the ``after`` rows.

    Write-only sheets need column widths and panes before the first row. Returns the number
    of rows written.
    """
    header = table.header(currency)
    for i, w in enumerate(_widths(table, header), start=1):
        ws.column_dimensions[get_column_letter(i)].width = w
    ws.freeze_panes = f"A{len(table.notes) + 3}"
    ws.append([_cell(ws, heading, font=_TITLE)])
    for note in table.notes:
        ws.append([_cell(ws, note)])
    ws.append([_cell(ws, label, font=_BOLD) for label in header])
    units = [c.unit for c in table.columns]
    for row in table.rows:
        ws.append([_cell(ws, v, u) for v, u in zip(row, units, strict=False)])
    for row in after or []:
        ws.append([_cell(ws, v, font=_BOLD if i == 0 else None) for i, v in enumerate(row)])
    return 2 + len(table.notes) + len(table.rows) + len(after or [])


def _sheet_name(title: str, taken: set[str]) -> str:
    name = re.sub(r"[\[\]:*?/\\]", " ", ILLEGAL_CHARACTERS_RE.sub("", title)).strip("' ")[:31] or "Sheet"
    base, k = name, 2
    while name.lower() in taken:
        name = f"{base[:28]} {k}"
        k += 1
    taken.add(name.lower())
    return name


# --------------------------------------------------------------------------- native charts


def _plain(text: Any) -> str:
    """Figure text (HTML-escaped names, a few tags) as plain text."""
    return html.unescape(re.sub(r"<br\s*/?>", " ", re.sub(r"<(?!br)[^>]*>", "", str(text or ""))))


def _hex(colour: Any) -> str | None:
    match = re.fullmatch(r"#([0-9A-Fa-f]{6})", str(colour or ""))
    return match.group(1).upper() if match else None


class _ChartData:
    """Columns of numbers for the charts, laid side by side on the chart data sheet."""

    def __init__(self) -> None:
        self.columns: list[list[Cell]] = []

    def add(self, header: str, values: list[Any]) -> int:
        """A column (header, then values); returns its 1-based column index."""
        self.columns.append([header, *values])
        return len(self.columns)

    def gap(self) -> None:
        self.columns.append([])

    def rows(self) -> list[list[Cell]]:
        height = max((len(c) for c in self.columns), default=0)
        return [[c[i] if i < len(c) else None for c in self.columns] for i in range(height)]


def _bar_chart(fig: Figure, data: _ChartData, ws_title: str) -> list[ChartBase]:
    bars = [t for t in fig.get("data") or [] if t.get("type") == "bar"]
    if not bars:
        return []
    layout = fig.get("layout") or {}
    categories = [_plain(x) for x in bars[0].get("x") or []]
    cat_col = data.add("Scheduler", categories)
    chart = BarChart()
    chart.type = "col"
    if layout.get("barmode") == "stack":
        chart.grouping = "stacked"
        chart.overlap = 100
    for trace in bars:
        col = data.add(
            _plain(trace.get("name")), [v if isinstance(v, int | float) else None for v in trace["y"]]
        )
        chart.add_data(
            Reference(_Sheet(ws_title), min_col=col, min_row=1, max_row=len(categories) + 1),
            titles_from_data=True,
        )
        colour = _hex((trace.get("marker") or {}).get("color"))
        if colour:
            chart.series[-1].graphicalProperties.solidFill = colour
            chart.series[-1].graphicalProperties.line.solidFill = colour
    chart.set_categories(Reference(_Sheet(ws_title), min_col=cat_col, min_row=2, max_row=len(categories) + 1))
    data.gap()
    _titles(chart, _plain((layout.get("title") or {}).get("text")), layout.get("xaxis"), layout.get("yaxis"))
    return [chart]


def _steps(x: list[Any], y: list[Any], shape: str) -> tuple[list[Any], list[Any]]:
    """Points of a step line (value holds until the next point) drawn with straight segments."""
    if shape != "hv" or len(x) < 2:
        return list(x), list(y)
    xs, ys = [x[0]], [y[0]]
    for k in range(1, len(x)):
        xs += [x[k], x[k]]
        ys += [y[k - 1], y[k]]
    return xs, ys


def _line_charts(fig: Figure, data: _ChartData, ws_title: str) -> list[ChartBase]:
    layout = fig.get("layout") or {}
    lines = [t for t in fig.get("data") or [] if t.get("type") == "scatter" and "lines" in str(t.get("mode"))]
    by_axis: dict[str, list[dict[str, Any]]] = {}
    for trace in lines:
        by_axis.setdefault(str(trace.get("yaxis") or "y"), []).append(trace)
    x_keys = sorted((k for k in layout if re.fullmatch(r"xaxis\d*", k)), key=lambda k: int(k[5:] or 1))
    x_title = next(
        (
            _plain((layout[k].get("title") or {}).get("text"))
            for k in reversed(x_keys)
            if (layout[k].get("title") or {}).get("text")
        ),
        "",
    )
    charts: list[ChartBase] = []
    for ref, traces in by_axis.items():
        axis = layout.get("yaxis" + ref[1:]) or {}
        chart = ScatterChart()
        chart.style = 13
        for trace in traces:
            xs, ys = _steps(
                list(trace.get("x") or []),
                list(trace.get("y") or []),
                str((trace.get("line") or {}).get("shape") or "linear"),
            )
            if axis.get("tickformat", "").endswith("%"):
                ys = [v * 100 if isinstance(v, int | float) else None for v in ys]
            name = _plain(trace.get("name"))
            x_col = data.add(f"{name}: x", xs)
            y_col = data.add(name, ys)
            sheet = _Sheet(ws_title)
            series = Series(
                Reference(sheet, min_col=y_col, min_row=1, max_row=len(ys) + 1),
                Reference(sheet, min_col=x_col, min_row=2, max_row=len(xs) + 1),
                title_from_data=True,
            )
            series.marker.symbol = "none"
            series.smooth = False
            colour = _hex((trace.get("line") or {}).get("color"))
            if colour:
                series.graphicalProperties.line.solidFill = colour
            series.graphicalProperties.line.width = 19050  # 1.5 pt
            chart.series.append(series)
            data.gap()
        y_title = _plain((axis.get("title") or {}).get("text"))
        if axis.get("tickformat", "").endswith("%"):
            y_title += " (%)"
        title = _plain((layout.get("title") or {}).get("text"))
        if len(by_axis) > 1:
            title = f"{_plain((axis.get('title') or {}).get('text'))}: {title}"
        _titles(chart, title, {"title": {"text": x_title}}, {"title": {"text": y_title}})
        charts.append(chart)
    return charts


class _Sheet:
    """What a chart reference needs of a sheet: its title (the sheet is written later)."""

    def __init__(self, title: str) -> None:
        self.title = title


def _titles(chart: ChartBase, title: str, x_axis: Any, y_axis: Any) -> None:
    chart.title = title
    chart.x_axis.title = _plain(((x_axis or {}).get("title") or {}).get("text"))
    chart.y_axis.title = _plain(((y_axis or {}).get("title") or {}).get("text"))
    # openpyxl >= 3.1 hides the axes unless told otherwise.
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.legend.position = "b"
    chart.width, chart.height = 18.0, 8.5


def _charts(content: ReportContent, data: _ChartData) -> list[ChartBase]:
    charts: list[ChartBase] = []
    for key in content.sheet_charts:
        fig = content.figures.get(key)
        if not fig:
            continue
        kinds = {t.get("type") for t in fig.get("data") or []}
        make = _bar_chart if "bar" in kinds else _line_charts
        charts += make(fig, data, CHART_DATA_SHEET)
    return charts


# --------------------------------------------------------------------------- entry points


def build_xlsx(content: ReportContent, *, max_records: int = XLSX_MAX_JOB_ROWS) -> bytes:
    """The report as XLSX bytes (see the module); the records sheet holds ``max_records`` rows."""
    wb = Workbook(write_only=True)
    title = content.title or "Run report"
    wb.properties.title = ILLEGAL_CHARACTERS_RE.sub("", title)[:255]
    wb.properties.creator = "Cluster What-If Planner"
    taken: set[str] = set()
    tables = list(content.tables)
    details: list[list[Cell]] = [[], ["Run"], *([label, value] for label, value in content.details)]
    summary_ws = wb.create_sheet(_sheet_name(tables[0].title if tables else "Summary", taken))
    written = (
        _write_table(summary_ws, tables[0], f"{TITLE}: {title}", content.currency, details) if tables else 0
    )
    chart_data = _ChartData()
    for k, chart in enumerate(_charts(content, chart_data)):
        summary_ws.add_chart(chart, f"A{written + 3 + k * _CHART_ROWS}")
    for table in tables[1:]:
        _write_table(wb.create_sheet(_sheet_name(table.title, taken)), table, table.title, content.currency)
    if content.records is not None:
        records = content.records(max_records)
        _write_table(
            wb.create_sheet(_sheet_name(records.title, taken)), records, records.title, content.currency
        )
    if chart_data.columns:
        ws = wb.create_sheet(_sheet_name(CHART_DATA_SHEET, taken))
        for row in chart_data.rows():
            ws.append([_cell(ws, v) if isinstance(v, str) else v for v in row])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()

