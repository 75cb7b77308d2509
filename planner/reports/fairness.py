"""The report content of a fairness study (the allocation and sharing kinds' part of every format).

Everything comes from the library: the comparison table is
:func:`scheduling.fairness.tables.fairness_table`, the criteria per framework are
:func:`scheduling.fairness.allocation_tables.allocation_framework_table` (the run page's and the CLI's
table), the other detail tables are its row functions (``allocation_cell_rows`` ...) with
their column declarations, and the figures are
:func:`scheduling.fairness.charts.allocation_figures` or :func:`scheduling.fairness.charts.sharing_figures`.
This module only lays them out as :class:`~planner.reports.tables.Table` objects.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scheduling.fairness.charts import allocation_figures, sharing_figures
from scheduling.fairness.tables import (
    ALLOCATION_CELL_COLUMNS,
    ALLOCATION_RESOURCE_COLUMNS,
    SHARING_FRAMEWORK_COLUMNS,
    allocation_cell_rows,
    allocation_framework_table,
    allocation_resource_rows,
    fairness_table,
    sharing_framework_rows,
    study_of,
)
from scheduling.tables import Column, detail_table

from .content import ReportContent
from .tables import Cell, Table, detail_as_table, summary_table

__all__ = ["ALLOCATION_PDF_FIGURES", "SHARING_PDF_FIGURES", "fairness_report", "rows_table"]

#: Figures the PDF draws, by key or key prefix (``heatmap:`` every variant's), in order; the
#: other views (``@overlay``, ``@raw``) stay on the page.
ALLOCATION_PDF_FIGURES: tuple[str, ...] = ("heatmap:", "totals", "stranded", "outcomes:")
SHARING_PDF_FIGURES: tuple[str, ...] = ("share:", "unfairness", "running", "utilisation", "completion")
#: Figures the XLSX draws as native charts on its summary sheet (bar charts).
ALLOCATION_SHEET_CHARTS = ("stranded",)
SHARING_SHEET_CHARTS = ("unfairness",)

SUBTITLES = {
    "allocation": "Cluster What-If Planner - static allocation study (paper 000)",
    "sharing": "Cluster What-If Planner - online sharing study (paper 001)",
}


def rows_table(key: str, title: str, columns: Sequence[Column], rows: Sequence[Mapping[str, Any]]
               ) -> Table:
    """The library's row dicts and column declarations as a report :class:`Table`."""
    return detail_as_table(detail_table(key, title, columns, rows))


def _ordered(figures: Mapping[str, Any], wanted: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for want in wanted:
        for key, figure in figures.items():
            if "@" in key:
                continue
            if key == want or (want.endswith(":") and key.startswith(want)):
                out.setdefault(key, figure)
    return out


def fairness_report(
    meta: Mapping[str, Any],
    results: Mapping[str, Mapping[str, Any]],
    *,
    baseline: str | None = None,
    currency: str = "$",
    details: Sequence[tuple[str, Cell]] = (),
) -> ReportContent:
    """A fairness study's report content, for any format of :data:`planner.reports.FORMATS`.

    ``results``: the documents keyed by variant (allocation policies or sharing
    configurations; one study). ``details``: the kind's description rows (variants, trials...).
    """
    docs = dict(results)
    study = study_of(next(iter(docs.values()))) if docs else "allocation"
    comparison = fairness_table(docs, baseline=baseline, currency=currency, detail=True)
    tables: list[Table]
    wanted: tuple[str, ...]
    sheet: tuple[str, ...]
    build: Callable[[Mapping[str, Mapping[str, Any]]], Mapping[str, Any]]
    if study == "allocation":
        corner = "Policy"
        tables = [
            summary_table(comparison, corner),
            detail_as_table(allocation_framework_table(docs, currency=currency)),
            rows_table("allocation", "Tasks per server", ALLOCATION_CELL_COLUMNS,
                       allocation_cell_rows(docs)),
            rows_table("resources", "Resources", ALLOCATION_RESOURCE_COLUMNS,
                       allocation_resource_rows(docs)),
        ]
        build, wanted, sheet = allocation_figures, ALLOCATION_PDF_FIGURES, ALLOCATION_SHEET_CHARTS
    else:
        corner = "Configuration"
        tables = [
            summary_table(comparison, corner),
            rows_table("frameworks", "Frameworks", SHARING_FRAMEWORK_COLUMNS, sharing_framework_rows(docs)),
        ]
        build, wanted, sheet = sharing_figures, SHARING_PDF_FIGURES, SHARING_SHEET_CHARTS
    drawn = _ordered(build(docs), wanted) if docs else {}
    run_id = meta.get("run_id")
    head: list[tuple[str, Cell]] = [
        ("Run", str(meta.get("run_name") or "")),
        ("Run id", run_id if isinstance(run_id, int) and not isinstance(run_id, bool) else str(run_id or "")),
        ("Scenario", str(meta.get("scenario_name") or "")),
        ("Created at", str(meta.get("created_at") or "")),
        (f"{corner}s", ", ".join(docs)),
    ]
    return ReportContent(
        title=str(meta.get("run_name") or ""),
        subtitle=SUBTITLES[study],
        details=[*head, *details],
        comparison=comparison,
        tables=tables,
        figures=drawn,
        sheet_charts=tuple(k for k in sheet if k in drawn),
        currency=currency,
        keywords=", ".join(docs),
    )
