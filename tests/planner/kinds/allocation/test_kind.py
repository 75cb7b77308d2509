"""The allocation study (run kind ``allocation``, paper 000): started through the API with the
library's declared parameters, executed in parts with the real library (Table I), the run
page with its table, criteria and heatmaps, and bad parameters refused with their paths."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from planner.runs.kinds import get_kind
from planner.runs.models import Run, RunPart, RunResult
from scheduling.fairness.params import ALLOCATION_PARAMS

from .documents import LABELS, VARIANTS, table_one

pytestmark = pytest.mark.django_db


def test_the_kind_is_registered_by_its_app() -> None:
    kind = get_kind("allocation")
    assert kind.params == ALLOCATION_PARAMS and kind.start_link() == "/runs/new/allocation/"
    assert kind.results_template == "kinds/allocation/results.html"
    assert kind.report_formats == ("csv", "xlsx", "pdf")
    assert [p.key for p in kind.presets()] == ["000-table-1"]


def test_an_allocation_study_runs_one_part_per_variant_with_the_library(
    started: Run, api: Callable[[Any], Any], owner: Any
) -> None:
    run = started
    assert run.kind == "allocation"
    parts = RunPart.objects.filter(run=run).order_by("position")
    assert list(parts.values_list("label", flat=True)) == LABELS
    assert run.options == {"variants": VARIANTS, "labels": LABELS, "trials": 20, "seed": 7,
                           "baseline": "DRF (rrr)", "pf_reference": None}  # no PF variant: no eq. (9)
    docs = {r.variant: r.result for r in RunResult.objects.filter(run=run)}
    assert list(docs) == LABELS or set(docs) == set(LABELS)
    # rPS-DSF with joint selection finds paper 000's allocation: 19 + 2 on c1, 2 + 19 on c2.
    assert docs["rPS-DSF (joint)"]["total_tasks"] == 42.0
    assert docs["rPS-DSF (joint)"]["mean"]["f1"] == {"c1#1": 19.0, "c2#1": 2.0}
    assert docs["DRF (rrr)"]["trials"] == 20 and docs["DRF (rrr)"]["seed"] == 7
    detail = api(owner).get(f"/api/runs/{run.pk}/").json()
    assert detail["kind"] == "allocation" and detail["variants"] == VARIANTS
    summaries = {r["variant"]: r["summary"] for r in detail["results"]}
    assert summaries["rPS-DSF (joint)"]["total_tasks"] == 42.0
    figures = api(owner).get(f"/api/runs/{run.pk}/figures/").json()["figures"]
    assert {f"heatmap:{label}" for label in LABELS} <= set(figures)
    assert figures["heatmap:rPS-DSF (joint)"]["data"][0]["type"] == "heatmap"
    assert figures["heatmap:rPS-DSF (joint)"]["data"][0]["z"] == [[19.0, 2.0], [2.0, 19.0]]
    assert {"totals", "stranded"} <= set(figures)


def test_the_default_variants_are_the_declared_ones(
    api: Callable[[Any], Any], owner: Any, team: Any
) -> None:
    response = api(owner).post("/api/runs/", {"kind": "allocation", "scenario": table_one()}, format="json")
    assert response.status_code == 201, response.json()
    run = Run.objects.get()
    assert run.options["variants"] == VARIANTS and run.options["trials"] == 1 and run.options["seed"] == 0
    assert run.name == "Table I: allocation of " + ", ".join(LABELS)


def test_the_run_page_shows_the_table_the_settings_and_the_heatmaps(
    started: Run, client: Any, owner: Any
) -> None:
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[started.pk])).content.decode()
    assert 'id="summary-table"' in page and 'data-prefix="heatmap:"' in page
    assert "Task efficiency (eq. 10)" in page and "Stranded cpu" in page
    assert "planner/variant_charts.js" in page and "Allocation study" in page
    assert 'data-variant="rPS-DSF (joint)">42.0<' in page
    # the settings rows: the declared parameters' labels, and the PF reference
    for label, value in (("Policies", "drf/rrr, tsf/rrr, psdsf/rrr, rpsdsf/joint, bf-drf"), ("Trials", "20"),
                         ("Seed", "7"), ("Baseline", "DRF (rrr)"), ("PF reference (eq. 9)", "none")):
        assert re.search(rf">{re.escape(label)}</\w+>\s*<\w+[^>]*>{re.escape(value)}<", page), label
    assert f"{reverse('web:allocation-start')}?clone={started.pk}" in page
    listing = client.get(reverse("web:runs")).content.decode()
    assert "Allocation study" in listing and "most tasks" in listing


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
    assert paths["trials"] == "must be a whole number from 1 to 100,000"
    assert paths["schedulers"] == "unknown field (an allocation study takes variants, trials, seed, baseline)"
    assert not Run.objects.exists()


@pytest.mark.parametrize(("params", "path", "message"), [
    ({"variants": []}, "variants", "must not be empty"),
    ({"variants": ["drf", None]}, "variants[1]", "must not be null"),
    ({"variants": ["drf", "tsf"], "baseline": "bf-drf"}, "baseline", "must be one of the run's variants"),
    ({"trials": "many"}, "trials", "must be a whole number from 1 to 100,000"),
])
def test_each_bad_parameter_is_named(
    api: Callable[[Any], Any], owner: Any, team: Any, params: dict[str, Any], path: str, message: str
) -> None:
    response = api(owner).post("/api/runs/", {"kind": "allocation", "scenario": table_one(), **params},
                               format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"path": path, "message": message}]


def test_the_variants_are_capped_by_the_planners_setting(
    api: Callable[[Any], Any], owner: Any, team: Any, settings: Any
) -> None:
    settings.PLANNER_MAX_VARIANTS_PER_RUN = 4
    response = api(owner).post("/api/runs/", {"kind": "allocation", "scenario": table_one()}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"path": "variants", "message": "lists 5; the limit is 4"}]


def test_the_baseline_is_stored_as_the_label_of_its_variant(
    api: Callable[[Any], Any], owner: Any, team: Any
) -> None:
    response = api(owner).post("/api/runs/", {"kind": "allocation", "scenario": table_one(),
                                              "variants": ["drf", "bf-drf"], "baseline": "bf-drf"},
                               format="json")
    assert response.status_code == 201, response.json()
    assert Run.objects.get().options["baseline"] == "BF-DRF"


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
    assert "PF inequality Φ (eq. 9)" in page and ">pf/fractional<" in page


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
