"""The allocation study's reports: the kind's body (the library's tables and figures, as the
old ``planner/reports/fairness.py`` laid them out) in the one report shell, in every format."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

import pytest

from planner.kinds.allocation.report import PDF_FIGURES, SHEET_CHARTS, allocation_report
from planner.reports import report_content
from planner.runs.kinds import get_kind
from planner.runs.models import Run, RunResult
from planner.runs.selectors import run_results

from .documents import LABELS

pytestmark = pytest.mark.django_db


def _body(run: Run, currency: str = "$") -> Any:
    return get_kind("allocation").report(results=run_results(run=run), options=run.options, baseline=None,
                                         currency=currency)


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "pdf"])
def test_every_report_format_downloads(started: Run, api: Callable[[Any], Any], owner: Any, fmt: str) -> None:
    response = api(owner).get(f"/api/runs/{started.pk}/report/{fmt}/")
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert len(body) > 1000
    if fmt == "pdf":
        assert body.startswith(b"%PDF")
    if fmt == "xlsx":
        assert body.startswith(b"PK")


def test_the_body_is_the_librarys_tables_and_figures(started: Run) -> None:
    body = _body(started)
    assert body.subtitle == "static allocation study (paper 000)"
    assert [(t.key, t.title) for t in body.tables][1:] == [
        ("frameworks", "Fairness criteria per framework"), ("allocation", "Tasks per server"),
        ("resources", "Resources")]
    assert body.tables[0].header("$")[0] == "Policy"
    assert [r[0] for r in body.tables[0].rows] == LABELS
    assert body.comparison["variants"] == LABELS and body.comparison["baseline"] == "DRF (rrr)"
    assert list(body.figures) == [*(f"heatmap:{label}" for label in LABELS), "totals", "stranded",
                                  *(k for k in body.figures if k.startswith("outcomes:"))]
    assert PDF_FIGURES == ("heatmap:", "totals", "stranded", "outcomes:") and SHEET_CHARTS == ("stranded",)
    assert body.sheet_charts == ("stranded",) and body.details == []
    json.dumps(body.figures, allow_nan=False)
    assert allocation_report({}).figures == {} and allocation_report({}).tables[0].rows == []


def test_the_shell_adds_the_header_and_the_settings(started: Run) -> None:
    kind = get_kind("allocation")
    content = report_content(_body(started, "€"), meta={"run_name": started.name, "run_id": started.pk,
                                                        "scenario_name": "Table I", "created_at": "today"},
                             settings=kind.settings(started.options), currency="€", variants=LABELS)
    assert content.title == started.name
    assert content.subtitle == "Cluster What-If Planner - static allocation study (paper 000)"
    assert content.details == [
        ("Run", started.name), ("Run id", started.pk), ("Scenario", "Table I"), ("Created at", "today"),
        ("Policies", "drf/rrr, tsf/rrr, psdsf/rrr, rpsdsf/joint, bf-drf"), ("Trials", 20), ("Seed", 7),
        ("Baseline", "DRF (rrr)"), ("PF reference (eq. 9)", "none"),
    ]
    assert content.currency == "€" and content.keywords == ", ".join(LABELS)


def test_the_pdf_report_draws_the_heatmaps(started: Run) -> None:
    content = _body(started)
    assert [k for k in content.figures if k.startswith("heatmap:")] == [f"heatmap:{x}" for x in LABELS]
    assert {"totals", "stranded"} <= set(content.figures)


def test_the_csv_report_holds_the_library_tables(started: Run, api: Callable[[Any], Any], owner: Any) -> None:
    body = api(owner).get(f"/api/runs/{started.pk}/report/csv/").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert ["Trials", "20"] in rows and ["PF reference (eq. 9)", "none"] in rows
    header = next(r for r in rows if r and r[0] == "Policy")
    assert "Tasks allocated" in header
    first = rows[rows.index(header) + 1]
    assert first[0] == "DRF (rrr)"
    # The framework x server table (paper 000's Table I cells).
    cells = next(i for i, r in enumerate(rows) if r[:3] == ["Variant", "Framework", "Server"])
    section = rows[cells + 1:]
    end = next((i for i, r in enumerate(section) if not r or r[0] in ("Variant", "")), len(section))
    section = section[:end]
    rps = [r for r in section if r[0] == "rPS-DSF (joint)"]
    assert [(r[1], r[2], float(r[4])) for r in rps] == [
        ("f1", "c1#1", 19.0), ("f1", "c2#1", 2.0), ("f2", "c1#1", 2.0), ("f2", "c2#1", 19.0)]


def test_the_csv_report_holds_every_criterion_per_framework(
    started: Run, api: Callable[[Any], Any], owner: Any
) -> None:
    from scheduling.fairness.tables import allocation_framework_table

    body = api(owner).get(f"/api/runs/{started.pk}/report/csv/").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert ["Fairness criteria per framework"] in rows
    head = next(i for i, r in enumerate(rows) if r[:2] == ["Variant", "Framework"] and "Weight" in r)
    header = rows[head]
    assert header[5:] == ["Dominant share (DRF) (%)", "TSF share (%)", "PS-DSF (min over servers) (%)",
                          "PS-DSF min on", "rPS-DSF (min over servers) (%)", "rPS-DSF min on"]
    section = rows[head + 1:head + 11]
    by = {(r[0], r[1]): r for r in section}
    assert len(by) == 10 and [r[0] for r in section][::2] == LABELS
    rps = by["rPS-DSF (joint)", "f2"]
    assert float(rps[3]) == 21.0 and float(rps[5]) == pytest.approx(80.77)  # 21 x 5/130
    assert (float(rps[7]), rps[8]) == (105.0, "c2#1")  # 21 max(1/30, 5/100) on c2
    assert (float(rps[9]), rps[10]) == (3500.0, "c2#1")  # 21 max(1/1, 5/3) on c2's residual (1, 3)
    ps = by["PS-DSF (rrr)", "f1"]
    assert ps[7] and ps[8] == "c1#1" and ps[9] and ps[10]
    # The same rows as the run page's and the CLI's table (the library's), rounded by unit.
    summaries = {r.variant: r.summary for r in RunResult.objects.filter(run=started).order_by("position")}
    table = allocation_framework_table(summaries)
    assert [r[:2] for r in section] == [[str(c) for c in row[:2]] for row in table["rows"]]
