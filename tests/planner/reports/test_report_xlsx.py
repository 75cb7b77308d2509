"""The XLSX report: sheets, values, number formats, native charts, no formulas."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from openpyxl import load_workbook
from openpyxl.worksheet.worksheet import Worksheet

from planner.kinds.compare.report import SHEET_CHARTS
from planner.reports import build_xlsx
from planner.reports.tables import neutralise
from scheduling.cost.charts import all_figures
from scheduling.cost.document import iter_jobs, job_count
from scheduling.cost.tables import placement_text

SHEETS = ["Summary", "Cost per VM type", "Cost per framework", "Cost per hour", "Jobs", "Chart data"]


def _header_row(ws: Worksheet, first: str = "Scheduler") -> int:
    for row in ws.iter_rows(min_col=1, max_col=1):
        if row[0].value == first:
            return row[0].row
    raise AssertionError(f"no header row in {ws.title}")


def _records(ws: Worksheet, first: str = "Scheduler") -> tuple[list[str], list[tuple[Any, ...]]]:
    h = _header_row(ws, first)
    header = [c.value for c in ws[h]]
    rows = []
    for row in ws.iter_rows(min_row=h + 1, values_only=True):
        if row[0] is None:
            break
        rows.append(row)
    return header, rows


@pytest.fixture(scope="module")
def workbook_bytes(results: dict[str, dict[str, Any]], names: Any, report: Any) -> bytes:
    meta = {"run_name": names.run, "scenario_name": names.scenario, "created_at": "2026-11-22", "run_id": 7}
    # As a download builds it: the figures the XLSX charts natively.
    return build_xlsx(report(meta, results, "fifo-spread", figures=SHEET_CHARTS))


def test_sheets_and_values(workbook_bytes: bytes, results: dict[str, dict[str, Any]]) -> None:
    wb = load_workbook(io.BytesIO(workbook_bytes))
    assert wb.sheetnames == SHEETS
    assert wb.properties.creator == "Cluster What-If Planner"

    header, rows = _records(wb["Summary"])
    assert [r[0] for r in rows] == list(results)
    base = results["fifo-spread"]["total_cost"]
    for r in rows:
        res = results[r[0]]
        assert r[header.index("Total cost ($)")] == pytest.approx(res["total_cost"])
        # Percentages are Excel percentages: fractions shown with a % format.
        saving = r[header.index("Saving vs fifo-spread (%)")]
        if r[0] == "fifo-spread":
            assert saving == "baseline"
        else:
            assert saving == pytest.approx((base - res["total_cost"]) / base)
        assert r[header.index("Gap to lower bound (%)")] == pytest.approx(res["gap_to_lower_bound"])
        assert r[header.index("Deadlines missed")] == res["deadline_missed"]

    header, rows = _records(wb["Cost per VM type"])
    sums: dict[str, float] = {}
    for r in rows:
        sums[r[0]] = sums.get(r[0], 0.0) + r[header.index("Cost ($)")]
    assert sums == pytest.approx({k: v["total_cost"] for k, v in results.items()})

    header, rows = _records(wb["Cost per framework"])
    assert "(unused capacity)" in {r[1] for r in rows}

    header, rows = _records(wb["Cost per hour"], "Hour")
    assert header[2:] == [f"{spec} ($)" for spec in results]
    assert len(rows) == max(len(r["cost_by_hour"]) for r in results.values())

    header, rows = _records(wb["Jobs"])
    assert len(rows) == sum(job_count(r) for r in results.values())
    job = next(iter_jobs(results["fifo-spread"]))
    assert rows[0][header.index("Cost ($)")] == pytest.approx(job["cost"])
    assert rows[0][header.index("Start (s)")] == pytest.approx(job["start_s"])
    assert rows[0][header.index("Placement")] == neutralise(placement_text(job["placement"]))


def test_formats_and_layout(workbook_bytes: bytes) -> None:
    wb = load_workbook(io.BytesIO(workbook_bytes))
    ws = wb["Summary"]
    h = _header_row(ws)
    header = [c.value for c in ws[h]]
    data = ws[h + 1]
    assert data[header.index("Total cost ($)")].number_format == "#,##0.0000"  # as the page shows it
    assert data[header.index("Makespan (s)")].number_format == "#,##0"  # whole seconds
    assert data[header.index("Gap to lower bound (%)")].number_format == "0.00%"
    assert data[header.index("Total cost ($)")].data_type == "n"
    assert all(c.font.bold for c in ws[h] if c.value is not None)
    assert ws.freeze_panes == f"A{h + 1}"
    assert ws.column_dimensions["A"].width >= len("fifo-spread")
    for name in SHEETS[1:-1]:
        sheet = wb[name]
        assert (
            sheet.freeze_panes
            == f"A{_header_row(sheet, 'Hour' if name == 'Cost per hour' else 'Scheduler') + 1}"
        )


def test_no_formulas_and_strings_neutralised(workbook_bytes: bytes, names: Any) -> None:
    wb = load_workbook(io.BytesIO(workbook_bytes))
    strings: set[str] = set()
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                assert c.data_type != "f", (ws.title, c.coordinate, c.value)
                if isinstance(c.value, str):
                    assert c.data_type == "s"
                    assert not c.value.startswith(("=", "+", "-", "@", "\t", "\r", "\n")), c.value
                    strings.add(c.value)
    for evil in names.evil:
        assert "'" + evil in strings, evil
    # And in the raw XML: not a single formula element.
    with zipfile.ZipFile(io.BytesIO(workbook_bytes)) as z:
        for name in z.namelist():
            if name.startswith("xl/worksheets/"):
                assert b"<f>" not in z.read(name) and b"<f " not in z.read(name)


def test_jobs_cap(results: dict[str, dict[str, Any]], report: Any) -> None:
    wb = load_workbook(io.BytesIO(build_xlsx(report({}, results, None, figures=SHEET_CHARTS), max_records=5)))
    _, rows = _records(wb["Jobs"])
    assert len(rows) == 5
    assert any("Truncated" in str(c.value) for row in wb["Jobs"].iter_rows(max_row=3) for c in row)


def _chart_xml(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n).decode() for n in z.namelist() if n.startswith("xl/charts/chart")}


def test_native_charts_of_cost_and_utilisation_on_the_summary_sheet(
    workbook_bytes: bytes, results: dict[str, dict[str, Any]]
) -> None:
    charts = _chart_xml(workbook_bytes)
    kinds = sorted("bar" if "<barChart>" in x else "scatter" for x in charts.values())
    resources = len(results["edf-bfd"]["resources"])
    assert kinds == ["bar"] + ["scatter"] * resources  # cost per VM type; utilisation per resource
    with zipfile.ZipFile(io.BytesIO(workbook_bytes)) as z:
        # The charts sit on the Summary sheet (sheet 1) and read the Chart data sheet.
        rels = z.read("xl/worksheets/_rels/sheet1.xml.rels").decode()
        assert "drawing" in rels
    bar = next(x for x in charts.values() if "<barChart>" in x)
    assert '<grouping val="stacked"/>' in bar and "'Chart data'!" in bar
    assert "Cost by VM type" in bar and "Cost ($)" in bar
    # The same colours as the page and the PDF: the figure's own.
    figure = all_figures(results, only=["cost_breakdown"])["cost_breakdown"]
    for trace in figure["data"]:
        if trace["type"] == "bar":
            assert trace["marker"]["color"].lstrip("#").upper() in bar
    lines = [x for x in charts.values() if "<scatterChart>" in x]
    assert all("whole cluster" in x for x in lines)
    assert sorted(
        r for r in results["edf-bfd"]["resources"] for x in lines if f"Utilisation ({r})" in x
    ) == sorted(results["edf-bfd"]["resources"])
    wb = load_workbook(io.BytesIO(workbook_bytes))
    data = wb["Chart data"]
    headers = [c.value for c in data[1] if c.value is not None]
    assert "Scheduler" in headers and any(str(h).startswith("edf-bfd") for h in headers)
    # Utilisation is written in percent for the chart (the figure's .0% axis).
    # (a scheduler identical to another is named so: "edf-bfd (same as morpheus)")
    column = next(k for k, h in enumerate(headers) if h in ("edf-bfd", "edf-bfd (same as morpheus)")) + 1
    values = [
        r[0]
        for r in data.iter_rows(min_row=2, min_col=column, max_col=column, values_only=True)
        if r[0] is not None
    ]
    assert values and max(values) <= 100 and max(values) > 1
