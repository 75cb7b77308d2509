"""The allocation study (run kind ``allocation``): start through the API, execution in parts
with the real library (paper 000's Table I set-up: small), the run page with its heatmaps,
the reports, and field errors with the library's paths."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from planner.runs.models import Run, RunPart, RunResult

pytestmark = pytest.mark.django_db

VARIANTS = ["drf/rrr", "tsf/rrr", "psdsf/rrr", "rpsdsf/joint", "bf-drf"]


def table_one(**more: Any) -> dict[str, Any]:
    """Paper 000, Table I: c1 = (100 cpu, 30 mem), c2 = (30, 100); f1 tasks (5, 1), f2 (1, 5)."""
    return {
        "version": 1, "name": "Table I", "resources": ["cpu", "mem"],
        "vm_types": [
            {"name": "c1", "capacity": {"cpu": 100, "mem": 30}, "price_per_hour": 0, "count": 1},
            {"name": "c2", "capacity": {"cpu": 30, "mem": 100}, "price_per_hour": 0, "count": 1},
        ],
        "frameworks": [
            {"name": "f1", "task_demand": {"cpu": 5, "mem": 1}},
            {"name": "f2", "task_demand": {"cpu": 1, "mem": 5}},
        ],
        "jobs": [],
        **more,
    }


@pytest.fixture
def started(api: Callable[[Any], Any], owner: Any, team: Any, execute_run: Callable[[int], str]) -> Run:
    response = api(owner).post("/api/runs/", {
        "kind": "allocation", "scenario": table_one(), "variants": VARIANTS, "trials": 20, "seed": 7,
    }, format="json")
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert execute_run(run.pk) == "succeeded"
    run.refresh_from_db()
    return run


def test_an_allocation_study_runs_one_part_per_variant_with_the_library(
    started: Run, api: Callable[[Any], Any], owner: Any
) -> None:
    run = started
    assert run.kind == "allocation"
    labels = ["DRF (rrr)", "TSF (rrr)", "PS-DSF (rrr)", "rPS-DSF (joint)", "BF-DRF"]
    parts = RunPart.objects.filter(run=run).order_by("position")
    assert list(parts.values_list("label", flat=True)) == labels
    assert run.options["variants"] == VARIANTS and run.options["trials"] == 20
    assert run.options["pf_reference"] is None  # no PF variant: no eq. (9)
    docs = {r.variant: r.result for r in RunResult.objects.filter(run=run)}
    assert list(docs) == labels or set(docs) == set(labels)
    # rPS-DSF with joint selection finds paper 000's allocation: 19 + 2 on c1, 2 + 19 on c2.
    assert docs["rPS-DSF (joint)"]["total_tasks"] == 42.0
    assert docs["rPS-DSF (joint)"]["mean"]["f1"] == {"c1#1": 19.0, "c2#1": 2.0}
    assert docs["DRF (rrr)"]["trials"] == 20
    detail = api(owner).get(f"/api/runs/{run.pk}/").json()
    assert detail["kind"] == "allocation"
    summaries = {r["variant"]: r["summary"] for r in detail["results"]}
    assert summaries["rPS-DSF (joint)"]["total_tasks"] == 42.0
    figures = api(owner).get(f"/api/runs/{run.pk}/figures/").json()["figures"]
    assert {f"heatmap:{label}" for label in labels} <= set(figures)
    assert figures["heatmap:rPS-DSF (joint)"]["data"][0]["type"] == "heatmap"
    assert figures["heatmap:rPS-DSF (joint)"]["data"][0]["z"] == [[19.0, 2.0], [2.0, 19.0]]
    assert {"totals", "stranded"} <= set(figures)


def test_the_run_page_shows_the_table_and_the_heatmaps(started: Run, client: Any, owner: Any) -> None:
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[started.pk])).content.decode()
    assert 'id="summary-table"' in page and 'data-prefix="heatmap:"' in page
    assert "Task efficiency (eq. 10)" in page and "Stranded cpu" in page
    assert "planner/kinds/fairness.js" in page and "Allocation study" in page
    assert 'data-variant="rPS-DSF (joint)">42.0<' in page
    listing = client.get(reverse("web:runs")).content.decode()
    assert "Allocation study" in listing and "most tasks" in listing


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


def test_the_csv_report_holds_the_library_tables(started: Run, api: Callable[[Any], Any], owner: Any) -> None:
    body = api(owner).get(f"/api/runs/{started.pk}/report/csv/").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
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


def _criteria_table(run: Run) -> dict[str, Any]:
    """The library's table of every criterion per framework, from the run's stored summaries."""
    from scheduling.fairness.tables import allocation_framework_table

    summaries = {r.variant: r.summary for r in RunResult.objects.filter(run=run).order_by("position")}
    return dict(allocation_framework_table(summaries))


def test_the_run_page_shows_every_criterion_per_framework(started: Run, client: Any, owner: Any) -> None:
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[started.pk])).content.decode()
    assert 'id="allocation-frameworks-table"' in page
    for label in ("Dominant share (DRF)", "TSF share", "PS-DSF (min over servers)",
                  "rPS-DSF (min over servers)"):
        assert f">{label}</th>" in page
    table = _criteria_table(started)
    assert len(table["shown"]) == 10  # 5 policies x 2 frameworks
    body = page.split('id="allocation-frameworks-table"', 1)[1].split("</table>", 1)[0]
    trs = re.findall(r"<tr data-.*?</tr>", body, re.S)
    shown = [re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", tr) for tr in trs]
    assert shown == table["shown"]  # the page's rows are the library's, cell for cell
    # rPS-DSF joint on Table I, by hand (19, 2 / 2, 19 in every trial): DRF 21 x 5/130 = 80.8 %,
    # PS-DSF f1 21 max(5/100, 1/30) = 105 % on c1#1, rPS-DSF f1 21 max(5/3, 1/1) = 3500 % on c1#1.
    row = ('<tr data-variant="rPS-DSF (joint)"><th scope="row" class="mono">rPS-DSF (joint)</th>'
           '<td class="mono">f1</td><td class="num">1.00</td><td class="num">21.0</td>'
           '<td class="num">0.0</td>'
           '<td class="num">80.8%</td><td class="num">80.8%</td><td class="num">105.0%</td>'
           '<td class="mono">c1#1</td><td class="num">3,500.0%</td><td class="mono">c1#1</td></tr>')
    assert row in page


def test_the_csv_report_holds_every_criterion_per_framework(
    started: Run, api: Callable[[Any], Any], owner: Any
) -> None:
    body = api(owner).get(f"/api/runs/{started.pk}/report/csv/").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert ["Fairness criteria per framework"] in rows
    head = next(i for i, r in enumerate(rows) if r[:2] == ["Variant", "Framework"] and "Weight" in r)
    header = rows[head]
    assert header[5:] == ["Dominant share (DRF) (%)", "TSF share (%)", "PS-DSF (min over servers) (%)",
                          "PS-DSF min on", "rPS-DSF (min over servers) (%)", "rPS-DSF min on"]
    section = rows[head + 1:head + 11]
    by = {(r[0], r[1]): r for r in section}
    assert len(by) == 10 and [r[0] for r in section][::2] == [
        "DRF (rrr)", "TSF (rrr)", "PS-DSF (rrr)", "rPS-DSF (joint)", "BF-DRF"]
    rps = by["rPS-DSF (joint)", "f2"]
    assert float(rps[3]) == 21.0 and float(rps[5]) == pytest.approx(80.77)  # 21 x 5/130
    assert (float(rps[7]), rps[8]) == (105.0, "c2#1")  # 21 max(1/30, 5/100) on c2
    assert (float(rps[9]), rps[10]) == (3500.0, "c2#1")  # 21 max(1/1, 5/3) on c2's residual (1, 3)
    ps = by["PS-DSF (rrr)", "f1"]
    assert ps[7] and ps[8] == "c1#1" and ps[9] and ps[10]
    # The same rows as the run page's and the CLI's table (the library's), rounded by unit.
    table = _criteria_table(started)
    assert [r[:2] for r in section] == [[str(c) for c in row[:2]] for row in table["rows"]]


def test_the_pdf_report_draws_the_heatmaps(started: Run) -> None:
    from planner.runs.kinds import get_kind
    from planner.runs.selectors import run_results

    kind = get_kind("allocation")
    content = kind.report(meta={"run_name": started.name}, results=run_results(run=started),
                          options=started.options, baseline=None, currency="$")
    assert [k for k in content.figures if k.startswith("heatmap:")] == [
        "heatmap:DRF (rrr)", "heatmap:TSF (rrr)", "heatmap:PS-DSF (rrr)", "heatmap:rPS-DSF (joint)",
        "heatmap:BF-DRF"]
    assert {"totals", "stranded"} <= set(content.figures)
    json.dumps(content.figures, allow_nan=False)


def test_bad_parameters_are_refused_with_their_paths(
    api: Callable[[Any], Any], owner: Any, team: Any
) -> None:
    response = api(owner).post("/api/runs/", {
        "kind": "allocation", "scenario": table_one(), "variants": ["drf/rrr", "drf/fast", "nope", "drf"],
        "trials": 0, "seed": -1, "schedulers": ["edf-bfd"],
    }, format="json")
    assert response.status_code == 400
    paths = {e["path"]: e["message"] for e in response.json()["errors"]}
    assert set(paths) == {"variants[1]", "variants[2]", "variants[3]", "trials", "seed", "schedulers"}
    assert "unknown server selection 'fast'" in paths["variants[1]"]
    assert "listed twice" in paths["variants[3]"]
    assert not Run.objects.exists()


def test_a_framework_without_a_task_demand_is_named(api: Callable[[Any], Any], owner: Any, team: Any) -> None:
    scenario = table_one()
    del scenario["frameworks"][1]["task_demand"]
    response = api(owner).post("/api/runs/", {"kind": "allocation", "scenario": scenario,
                                              "variants": ["drf/rrr"]}, format="json")
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["frameworks[1].task_demand"]


def test_an_invalid_scenario_and_bad_variants_are_reported_together(
    api: Callable[[Any], Any], owner: Any, team: Any
) -> None:
    scenario = table_one()
    scenario["vm_types"][0]["count"] = -1
    response = api(owner).post("/api/runs/", {"kind": "allocation", "scenario": scenario,
                                              "variants": ["drx"]}, format="json")
    assert response.status_code == 400
    paths = {e["path"] for e in response.json()["errors"]}
    assert "variants[0]" in paths and any(p.startswith("vm_types[0]") for p in paths)


def test_the_pf_allocation_is_every_variants_reference(
    api: Callable[[Any], Any], owner: Any, team: Any, execute_run: Callable[[int], str],
    client: Any,
) -> None:
    response = api(owner).post("/api/runs/", {"kind": "allocation", "scenario": table_one(),
                                              "variants": ["drf/rrr", "pf/fractional"], "trials": 10},
                               format="json")
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert run.options["pf_reference"] == "pf/fractional"
    assert execute_run(run.pk) == "succeeded", list(RunPart.objects.values_list("error", flat=True))
    docs = {r.variant: r.result for r in RunResult.objects.filter(run=run)}
    assert docs["PF (fractional)"]["pf_inequality"] == pytest.approx(0.0, abs=1e-9)
    assert docs["DRF (rrr)"]["pf_inequality"] < 0  # eq. (9): no allocation beats the PF one
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert "PF inequality Φ (eq. 9)" in page


def test_the_integer_pf_is_the_reference_without_the_fractional(
    api: Callable[[Any], Any], owner: Any, team: Any, execute_run: Callable[[int], str]
) -> None:
    response = api(owner).post("/api/runs/", {"kind": "allocation", "scenario": table_one(),
                                              "variants": ["drf/rrr", "pf/integer", "mmf"]}, format="json")
    assert response.status_code == 201
    run = Run.objects.get()
    assert run.options["pf_reference"] == "pf/integer"
    assert run.options["labels"] == ["DRF (rrr)", "PF (integer)", "U-MMF (fractional)"]
    # The exact optimisations run through the same parts (HiGHS, small problems).
    assert execute_run(run.pk) == "succeeded", list(RunPart.objects.values_list("error", flat=True))
    docs = {r.variant: r.result for r in RunResult.objects.filter(run=run)}
    assert docs["PF (integer)"]["pf_inequality"] == pytest.approx(0.0, abs=1e-9)
    assert docs["U-MMF (fractional)"]["method"] == "exact"
    assert all(d["pf_inequality"] is not None for d in docs.values())
