"""The sharing study's reports: the kind's body (the library's tables and figures, as the old
``planner/reports/fairness.py`` laid them out) in the one report shell, in every format."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

import pytest

from planner.kinds.sharing.report import PDF_FIGURES, SHEET_CHARTS, sharing_report
from planner.reports import report_content
from planner.runs.kinds import get_kind
from planner.runs.models import Run
from planner.runs.selectors import run_results

pytestmark = pytest.mark.django_db

LABELS = ["refuse 5 s", "refuse 1 s"]


def _body(run: Run, currency: str = "$") -> Any:
    return get_kind("sharing").report(results=run_results(run=run), options=run.options, baseline=None,
                                      currency=currency)


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "pdf"])
def test_reports_download(sharing_run: Run, api: Callable[[Any], Any], owner: Any, fmt: str) -> None:
    response = api(owner).get(f"/api/runs/{sharing_run.pk}/report/{fmt}/")
    assert response.status_code == 200 and len(response.content) > 1000
    if fmt == "csv":
        body = response.content.decode("utf-8-sig")
        assert "Configuration" in body and "Unfairness area" in body and "refuse 1 s" in body
        rows = list(csv.reader(io.StringIO(body)))
        assert ["refuse 1 s", "mode=offers, criterion=drf, interval 1.0 s, seed 0; a: refuse_s=1.0"] in rows


def test_the_report_draws_every_configurations_share(sharing_run: Run) -> None:
    body = _body(sharing_run)
    assert list(body.figures) == ["share:refuse 5 s", "share:refuse 1 s", "unfairness", "running",
                                  "utilisation", "completion"]
    assert PDF_FIGURES == ("share:", "unfairness", "running", "utilisation", "completion")
    assert body.sheet_charts == SHEET_CHARTS == ("unfairness",)
    json.dumps(body.figures, allow_nan=False)


def test_the_body_is_the_librarys_tables(sharing_run: Run) -> None:
    body = _body(sharing_run)
    assert body.subtitle == "online sharing study (paper 001)"
    assert [(t.key, t.title) for t in body.tables][1:] == [("frameworks", "Frameworks")]
    assert body.tables[0].header("$")[0] == "Configuration"
    assert [r[0] for r in body.tables[0].rows] == LABELS and body.details == []
    assert [r[:2] for r in body.tables[1].rows] == [
        ["refuse 5 s", "a"], ["refuse 5 s", "b"], ["refuse 1 s", "a"], ["refuse 1 s", "b"]]
    assert sharing_report({}).figures == {}


def test_the_shell_adds_the_header_and_each_configuration(sharing_run: Run) -> None:
    kind = get_kind("sharing")
    content = report_content(_body(sharing_run), meta={"run_name": "r", "run_id": 3}, currency="€",
                             settings=kind.settings(sharing_run.options), variants=LABELS)
    assert content.subtitle == "Cluster What-If Planner - online sharing study (paper 001)"
    assert content.details == [
        ("Run", "r"), ("Run id", 3), ("Scenario", ""), ("Created at", ""),
        ("refuse 5 s", "mode=offers, criterion=drf, interval 1.0 s, seed 1; a: offer_policy=first-fit, "
                       "refuse_s=5.0"),
        ("refuse 1 s", "mode=offers, criterion=drf, interval 1.0 s, seed 0; a: refuse_s=1.0"),
    ]
    assert content.currency == "€" and content.keywords == "refuse 5 s, refuse 1 s"
