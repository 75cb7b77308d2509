"""The UDRF study's reports (paper 004): the kind's content (planner.kinds.udrf.report) in the
shared shell (the run's header rows, its settings, the currency), laid out as CSV, XLSX and PDF."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest

from planner.kinds.udrf.report import udrf_report
from planner.runs.models import Run
from planner.runs.reporting import run_report
from scheduling.udrf.charts import udrf_figures

pytestmark = pytest.mark.django_db


def _results(run: Run) -> dict[str, dict[str, Any]]:
    return {r.variant: r.result for r in run.results.all()}


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "pdf"])
def test_reports_download(online_run: Run, api: Callable[[Any], Any], owner: Any, fmt: str) -> None:
    response = api(owner).get(f"/api/runs/{online_run.pk}/report/{fmt}/")
    assert response.status_code == 200 and len(response.content) > 1000
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
        text = "\n".join(",".join(r) for r in rows)
        assert "Policy" in text and "UDRF" in text and "Jobs per job (UDRF)" in text
        assert "job1 28, job2 8" in text and "Machine class" in text and "Reduction (%)" in text


def test_the_content_is_the_librarys_tables_and_figures(online_run: Run) -> None:
    results = _results(online_run)
    body = udrf_report(results, baseline="DRF", currency="€")
    assert body.subtitle == "UDRF study (paper 004)"
    assert body.tables[0].key == "summary"
    keys = [t.key for t in body.tables[1:]]
    assert {"users", "classes", "rducs"} <= set(keys)
    assert list(body.figures) == list(udrf_figures(results))  # every figure, as on the page
    assert {"graph", "allocation", "waste", "cdf"} <= set(body.figures)


def test_the_shell_adds_the_header_and_the_declared_settings(offline_run: Run) -> None:
    report = run_report(run=offline_run, fmt="csv", currency="€")
    text = report.body.decode("utf-8-sig")
    rows = {r[0]: r[1:] for r in csv.reader(io.StringIO(text)) if r}
    assert rows["Run id"] == [str(offline_run.pk)]
    assert rows["Policies"] == ["UDRF, DRF"] and rows["Online"] == ["no"]
    assert "Decision interval" not in rows  # offline: the online options are not the run's
