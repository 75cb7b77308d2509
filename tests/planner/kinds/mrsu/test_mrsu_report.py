"""The MRSU sizing run's reports (planner/kinds/mrsu/report.py in the shared report shell): the
library's tables and figures, the run's settings, every format downloadable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from planner.kinds.mrsu.report import PDF_FIGURES, mrsu_report
from planner.runs.models import Run
from planner.runs.reporting import run_report
from planner.runs.selectors import run_results

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "pdf"])
def test_reports_download(input_run: Run, api: Callable[[Any], Any], owner: Any, fmt: str) -> None:
    response = api(owner).get(f"/api/runs/{input_run.pk}/report/{fmt}/")
    assert response.status_code == 200 and len(response.content) > 1000
    if fmt == "csv":
        body = response.content.decode("utf-8-sig")
        assert "gcd-ft" in body and "MRSU tuple" in body and "VM-static" in body
        # the library's tables, with the library's columns and units
        sweep = body[body.index("Sweep (means over seeds)"):]
        assert sweep.splitlines()[1].startswith('"Dissatisfied applications: short of their requirement')
        assert sweep.splitlines()[2] == (
            "Composition,Method,Load (%),Dissatisfied applications (%),Application-slots short (%),"
            "Under-allocated part (mean rho),Over-allocated part (mean rho),"
            '"Over-allocated part, every cell (mean rho)"'
        )
        assert "Misallocation per application" in body and "Window (slots)" in body
        assert "Misallocation per dimension" in body and "\nnet,VM-static," in body


def test_the_report_holds_the_units_tables_and_figures_but_not_the_snapshots(input_run: Run) -> None:
    results = run_results(run=input_run)
    body = mrsu_report(results, baseline="gcd-ft", currency="€")
    assert body.subtitle == "MRSU sizing (paper 002)"
    # the units compared (not the sweep's parts), in the currency asked for
    assert body.comparison["variants"] == ["gcd-ft", "gcd-id", "min-ft", "min-id"]
    assert body.comparison["baseline"] == "gcd-ft" and body.comparison["currency"] == "€"
    assert body.tables[0].key == "summary" and body.tables[0].columns[0].label == "Unit"
    assert {"units", "applications", "dimensions", "sweep"} <= {t.key for t in body.tables}
    assert list(body.figures) == [
        "allocation:gcd-ft", "allocation:gcd-id", "allocation:min-ft", "allocation:min-id",
        "fig3-under", "fig3-over", "fig4-under", "fig4-over", "fig5", "fig5-slots",
    ]
    assert not any(k.startswith("snapshot:") for k in body.figures)  # thousands of points each: the page's
    assert PDF_FIGURES[0] == "allocation:"
    assert body.details == [("Units", "gcd-ft, gcd-id, min-ft, min-id")]


def test_the_shell_adds_the_header_and_the_runs_settings(input_run: Run) -> None:
    csv = run_report(run=input_run, fmt="csv", currency="€").body.decode("utf-8-sig")
    head = csv[:csv.index("\n\n")] if "\n\n" in csv else csv[:2000]
    for row in ("Run id", "Scenario", "Requirements,input", "Compositions,\"gcd, min\"", "Modes,\"ft, id\"",
                "Validity interval T,whole horizon", "Units,\"gcd-ft, gcd-id, min-ft, min-id\""):
        assert row in head, (row, head)
