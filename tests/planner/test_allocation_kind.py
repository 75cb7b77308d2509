"""The allocation study (run kind ``allocation``): start through the API, execution in parts
with the real library (paper 000's Table I set-up: small), the run page with its heatmaps,
the reports, and field errors with the library's paths."""

from __future__ import annotations

import csv
import io
import json
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
