"""The MRSU sizing run kind (paper 002) with the real library, small sizes.

What is checked: the API starts a run on an MRSU input (one part per composition x mode, one
per sweep load point) and on a scenario (plus the advisor); the run page shows the MRSU tuple,
the charts and the advisor's table; the reports download; bad parameters are refused with
their paths; the start page shows field errors next to the fields and starts a preset.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from planner.runs import kinds
from planner.runs.kinds.mrsu import combine_sweeps, input_scenario
from planner.runs.models import Run, RunPart
from scheduling.mrsu.setups import SETUPS

pytestmark = pytest.mark.django_db

EXAMPLE = json.loads((Path(__file__).resolve().parents[2] / "examples" / "mrsu" / "example.json").read_text())
SMALL_SWEEP = {"loads": [0.5, 1.2], "seeds": 2, "applications": 5, "slots": 4}


def scenario_with_jobs() -> dict[str, Any]:
    return {
        "version": 1,
        "name": "two frameworks",
        "resources": ["cpu", "mem"],
        "vm_types": [
            {"name": "m", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.4, "count": 2},
            {"name": "l", "capacity": {"cpu": 16, "mem": 48}, "price_per_hour": 0.7, "count": 1},
        ],
        "frameworks": [
            {"name": "spark", "weight": 2, "task_demand": {"cpu": 1, "mem": 4}},
            {"name": "etl", "weight": 1, "task_demand": {"cpu": 2, "mem": 4}},
        ],
        "jobs": [
            {
                "id": "a",
                "framework": "spark",
                "arrival_s": 0,
                "executors": 2,
                "executor": {"cpu": 1.5, "mem": 4},
                "duration_s": 50,
            },
            {
                "id": "b",
                "framework": "etl",
                "arrival_s": 20,
                "executors": 1,
                "executor": {"cpu": 2, "mem": 8},
                "duration_s": 60,
            },
        ],
    }


def _start(api: Any, owner: Any, **params: Any) -> Any:
    body = {"kind": "mrsu", **params}
    return api(owner).post("/api/runs/", body, format="json")


@pytest.fixture
def input_run(api: Callable[[Any], Any], owner: Any, team: Any, execute_run: Callable[[int], str]) -> Run:
    # No scenario: the run records the machine the input describes (kind.default_scenario).
    response = _start(api, owner, requirements="input", input=EXAMPLE, sweep=SMALL_SWEEP)
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert run.scenario == input_scenario(EXAMPLE) and run.team_id == team.pk
    assert execute_run(run.pk) == "succeeded"
    run.refresh_from_db()
    return run


def test_an_input_run_is_one_part_per_unit_and_per_load(input_run: Run, api: Any, owner: Any) -> None:
    labels = list(RunPart.objects.filter(run=input_run).order_by("position").values_list("label", flat=True))
    assert labels == ["gcd-ft", "gcd-id", "min-ft", "min-id", "sweep 50%", "sweep 120%"]
    figures = api(owner).get(f"/api/runs/{input_run.pk}/figures/").json()["figures"]
    assert {"allocation:gcd-ft", "snapshot:gcd-ft", "fig3-under", "fig4-over", "fig5"} <= set(figures)
    # the sweep's two parts joined: one point per load on every curve
    assert figures["fig5"]["data"][0]["x"] == [50.0, 120.0]
    names = [t["name"] for t in figures["fig4-under"]["data"]]
    assert names[:4] == ["MRSU-FT", "MRSU-ID", "VM-static", "Optimal"]


def test_the_page_shows_the_unit_table_and_charts(input_run: Run, client: Any, owner: Any) -> None:
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[input_run.pk])).content.decode()
    assert "MRSU sizing" in page and 'id="mrsu-units-table"' in page
    assert "cpu 2, mem 8, disk 100, net 500" in page  # the GCD tuple of the example
    assert 'data-prefix="allocation:"' in page and 'data-figure="fig5"' in page
    assert "Application-slots not fully served" in page
    # per dimension, each of the four units, then the baselines (4 x (4 + 2) rows)
    assert 'id="mrsu-dimensions-table"' in page and page.count('data-dimension="net"') == 6


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "pdf"])
def test_reports_download(input_run: Run, api: Callable[[Any], Any], owner: Any, fmt: str) -> None:
    response = api(owner).get(f"/api/runs/{input_run.pk}/report/{fmt}/")
    assert response.status_code == 200 and len(response.content) > 1000
    if fmt == "csv":
        body = response.content.decode("utf-8-sig")
        assert "gcd-ft" in body and "MRSU tuple" in body and "VM-static" in body
        # the library's tables, with the library's columns and units
        sweep = body[body.index("Sweep (means over seeds)"):]
        assert sweep.splitlines()[1] == (
            "Composition,Method,Load (%),Over-allocated part (mean rho),Under-allocated part (mean rho),"
            "Application-slots not fully served (%),Applications short in some slot (%)"
        )
        assert "Misallocation per application" in body and "Window (slots)" in body
        assert "Misallocation per dimension" in body and "\nnet,VM-static," in body


def test_a_scenario_run_has_the_advisor(
    api: Any, owner: Any, team: Any, execute_run: Callable[[int], str], client: Any
) -> None:
    response = _start(
        api,
        owner,
        scenario=scenario_with_jobs(),
        slots=4,
        compositions=["gcd"],
        modes=["ft"],
        unit="cpu=1,mem=4",
    )
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert list(run.parts.order_by("position").values_list("label", flat=True)) == ["gcd-ft", "advisor"]
    assert execute_run(run.pk) == "succeeded"
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert 'id="mrsu-advisor-table"' in page and 'data-candidate="user"' in page
    assert 'id="mrsu-advisor-vm-types-table"' in page and 'id="mrsu-advisor-frameworks-table"' in page
    # the tuple in the scenario's units: the GCD of 1.5 and 2 cores and of 4 and 8 GB (and the machines)
    assert "cpu 0.5, mem 4" in page
    listing = client.get(reverse("web:runs")).content.decode()
    assert "recommended unit" in listing
    csv = api(owner).get(f"/api/runs/{run.pk}/report/csv/").content.decode("utf-8-sig")
    assert "Least-waste VM type" in csv


def test_the_page_and_reports_show_the_misallocation_per_dimension_in_the_scenarios_units(
    api: Any, owner: Any, team: Any, execute_run: Callable[[int], str], client: Any
) -> None:
    # scenario_with_jobs in 4 slots of 20 s: a 1.5-core executor makes the cpu base unit 0.1 core
    # (tests/scheduling/mrsu/test_mrsu_dimensions.py works the same requirements by hand).
    # MIN-FT over-allocates 7.5 tenths of a core per slot: 0.75 cores; VM-static 12.5: 1.25 cores;
    # GCD-FT 18 GB of memory.
    response = _start(api, owner, scenario=scenario_with_jobs(), slots=4, compositions=["gcd", "min"],
                      modes=["ft"])
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert execute_run(run.pk) == "succeeded"
    stored = run.results.get(variant="min-ft")  # the document: base units, and what one stands for
    assert stored.result["misallocation"]["over_allocated"] == {"cpu": 7.5, "mem": 6}
    assert stored.result["base_units"] == {"cpu": 0.1, "mem": 1.0}
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert 'id="mrsu-dimensions-table"' in page and "Misallocation per dimension" in page
    table = page[page.index('id="mrsu-dimensions-table"'):]
    table = table[:table.index("</table>")]
    rows = [r for r in table.split("<tr")[2:]]
    assert [r.count('data-dimension="cpu"') for r in rows] == [1, 1, 1, 1, 0, 0, 0, 0]
    cells = [[c.split(">", 1)[1].split("<", 1)[0] for c in r.split("<t")[1:]] for r in rows]
    assert cells[:4] == [
        ["cpu", "gcd-ft", "0.00", "0.00", "0.0%", "0"],
        ["cpu", "min-ft", "0.00", "0.09", "0.0%", "0.75"],
        ["cpu", "VM-static", "0.00", "0.25", "0.0%", "1.25"],
        ["cpu", "Optimal", "0.00", "0.00", "0.0%", "0"],
    ]
    assert cells[4][:2] == ["mem", "gcd-ft"] and cells[4][-1] == "18"
    csv = api(owner).get(f"/api/runs/{run.pk}/report/csv/").content.decode("utf-8-sig")
    section = csv[csv.index("Misallocation per dimension"):].splitlines()
    assert section[1].startswith('"Over-allocated per slot: ') and "own units" in section[1]
    assert section[2] == (
        "Dimension,Allocation,Under-allocated part (mean rho),Over-allocated part (mean rho),"
        "Application-slots short of it (%),Over-allocated per slot"
    )
    assert section[3:11] == [
        "cpu,gcd-ft,0.0,0.0,0.0,0.0",
        "cpu,min-ft,0.0,0.094,0.0,0.75",
        "cpu,VM-static,0.0,0.25,0.0,1.25",
        "cpu,Optimal,0.0,0.0,0.0,0.0",
        "mem,gcd-ft,0.0,0.438,0.0,18.0",
        "mem,min-ft,0.0,0.188,0.0,6.0",
        "mem,VM-static,0.0,0.25,0.0,4.0",
        "mem,Optimal,0.0,0.0,0.0,0.0",
    ]


def test_bad_parameters_are_refused_with_their_paths(api: Any, owner: Any, team: Any) -> None:
    bad_input = {"capacity": {"cpu": 0}, "applications": [{"name": "a", "priority": -1, "requirements": []}]}
    response = _start(
        api,
        owner,
        scenario=input_scenario(EXAMPLE),
        requirements="input",
        input=bad_input,
        compositions=["gcd", "lcm"],
        modes="xx",
        slots_valid=0,
        colour="red",
        sweep={"loads": [0.5, 0], "seeds": 0},
    )
    assert response.status_code == 400
    paths = {e["path"] for e in response.json()["errors"]}
    assert {
        "colour",
        "compositions[1]",
        "modes[0]",
        "slots_valid",
        "sweep.loads[1]",
        "sweep.seeds",
        "input.capacity.cpu",
    } <= paths
    known = ("colour", "compositions", "modes", "slots_valid", "sweep", "input")
    assert all(p.startswith(known) for p in paths)
    response = _start(
        api,
        owner,
        requirements="input",
        input=EXAMPLE,
        sweep={"seeds": 1000, "applications": 2000, "slots": 30},
    )
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["sweep.seeds"]
    response = _start(api, owner, scenario=scenario_with_jobs(), unit="cpu=0")
    assert response.status_code == 400
    assert {e["path"] for e in response.json()["errors"]} >= {"unit.cpu"}
    response = _start(api, owner, scenario=scenario_with_jobs(), unit={"cpu": 1, "mem": -4, "gpu": 1})
    assert response.status_code == 400
    assert sorted(e["path"] for e in response.json()["errors"]) == ["unit.gpu", "unit.mem"]
    response = _start(api, owner, scenario=scenario_with_jobs(), unit=[1, 4])
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["unit"]
    assert not Run.objects.exists()


def test_the_start_page_puts_errors_on_fields_and_starts_a_preset(
    client: Any, owner: Any, team: Any, execute_run: Callable[[int], str]
) -> None:
    client.force_login(owner)
    url = reverse("web:mrsu-new")
    page = client.get(url).content.decode()
    assert 'data-preset="002-fig-2"' in page and 'data-preset="002-figs-3-5"' in page
    assert url in client.get(reverse("web:runs")).content.decode()  # the navigation links to it
    filled = client.get(url + "?preset=002-fig-2")
    assert filled.status_code == 200
    assert json.loads(filled.context["form"].initial["input"]) == SETUPS["002-fig-2"].input_document()
    assert "Fig. 2" in filled.content.decode() and not filled.context["form"].initial.get("sweep")
    data = {
        "requirements": "input",
        "input": json.dumps({**EXAMPLE, "capacity": {"cpu": -1}}),
        "compositions": ["gcd"],
        "modes": ["ft", "id"],
        "slots": "30",
    }
    bad = client.post(url, data)
    assert bad.status_code == 400
    assert any("input.capacity.cpu" in e for e in bad.context["form"].errors["input"])
    wide = {"capacity": {f"d{k}": 1 for k in range(17)}, "applications": [{"requirements": [{}]}]}
    bad = client.post(url, {**data, "input": json.dumps(wide)})
    assert bad.status_code == 400
    assert bad.context["form"].errors["input"] == ["input.capacity: has 17 dimensions; the limit is 16"]
    assert "document" not in bad.context["form"].errors
    bad = client.post(
        url,
        {
            **data,
            "input": json.dumps(EXAMPLE),
            "sweep": "on",
            "sweep_loads": "50 0",
            "sweep_seeds": "2",
            "sweep_applications": "5",
            "sweep_slots": "4",
        },
    )
    assert bad.status_code == 400 and "sweep_loads" in bad.context["form"].errors
    # a word among the loads is refused on the field, never replaced by the paper's loads
    bad = client.post(url, {**data, "input": json.dumps(EXAMPLE), "sweep": "on", "sweep_loads": "50 abc",
                            "sweep_seeds": "2", "sweep_applications": "5", "sweep_slots": "4"})
    assert bad.status_code == 400 and not Run.objects.exists()
    assert bad.context["form"].errors["sweep_loads"] == [
        "loads[1]: 'abc' is not a number (percentages of capacity, e.g. 50)"]
    response = client.post(url, {**data, "input": json.dumps(EXAMPLE)})
    assert response.status_code == 302
    run = Run.objects.get()
    assert run.kind == "mrsu" and run.options["modes"] == ["ft", "id"]
    assert execute_run(run.pk) == "succeeded"
    clone = client.get(url + f"?clone={run.pk}")
    assert clone.status_code == 200 and clone.context["form"].initial["modes"] == ["ft", "id"]


def test_the_start_page_with_a_scenario_puts_unit_errors_on_the_unit(
    client: Any, owner: Any, team: Any
) -> None:
    client.force_login(owner)
    url = reverse("web:mrsu-new")
    data = {
        "requirements": "scenario",
        "source": "document",
        "document": json.dumps(scenario_with_jobs()),
        "compositions": ["gcd", "min"],
        "modes": ["ft"],
        "slots": "4",
        "unit": "cpu=0,mem=4",
    }
    bad = client.post(url, data)
    assert bad.status_code == 400 and "unit" in bad.context["form"].errors
    no_jobs = {**scenario_with_jobs(), "jobs": []}
    bad = client.post(url, {**data, "unit": "", "document": json.dumps(no_jobs)})
    assert bad.status_code == 400 and "no jobs" in " ".join(bad.context["form"].errors["document"])
    assert client.post(url, {**data, "unit": "cpu=1,mem=4"}).status_code == 302
    run = Run.objects.get()
    assert run.options["unit"] == {"cpu": 1.0, "mem": 4.0} and run.options["requirements"] == "scenario"


def test_combine_sweeps_joins_load_points_in_order() -> None:
    from scheduling.mrsu import mrsu_sweep

    a = mrsu_sweep(loads=[1.0], seeds=1, applications=3, slots=2)
    b = mrsu_sweep(loads=[0.5], seeds=1, applications=3, slots=2)
    both = mrsu_sweep(loads=[0.5, 1.0], seeds=1, applications=3, slots=2)
    joined = combine_sweeps([a, b])
    assert joined is not None and joined["curves"] == both["curves"] and joined["loads_pct"] == [50.0, 100.0]
    assert kinds.get_kind("mrsu").label == "MRSU sizing"


def test_an_input_past_the_librarys_limits_is_refused_with_its_path(api: Any, owner: Any, team: Any) -> None:
    # No scenario given: the run would record the input as a scenario; the input's own path is named.
    wide = {"capacity": {f"d{k}": 1 for k in range(17)}, "applications": [{"requirements": [{}]}]}
    response = _start(api, owner, requirements="input", input=wide)
    assert response.status_code == 400
    assert [(e["path"], e["message"]) for e in response.json()["errors"]] == [
        ("input.capacity", "has 17 dimensions; the limit is 16")
    ]
    many = {"capacity": {"cpu": 4}, "applications": [{"requirements": [{"cpu": 1}]}] * 10_001}
    response = _start(api, owner, requirements="input", input=many)
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["input.applications"]
    # A valid input whose capacity the recorded scenario cannot hold (1e9 per resource of a machine)
    huge = {"capacity": {"cpu": 4, "net": 4_000_000_000}, "applications": [{"requirements": [{"cpu": 1}]}]}
    response = _start(api, owner, requirements="input", input=huge)
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["path"] == "input.capacity.net" and "records the input as a scenario" in error["message"]
    assert not Run.objects.exists()


def test_a_sweep_part_reports_progress_per_chunk_of_seeds() -> None:
    # The paper's 50 applications x 30 slots with 30 seeds: three chunks of ten seeds in the load point.
    kind = kinds.get_kind("mrsu")
    sweep = {"loads": [0.5, 1.0], "seeds": 30, "applications": 50, "slots": 30}
    plan = kind.plan(None, {"requirements": "input", "input": EXAMPLE, "sweep": sweep})
    part = next(p for p in plan.parts if p.payload["step"] == "sweep")
    seen: list[float] = []
    [variant] = kind.execute(None, plan.options, {}, part.payload, progress=seen.append)  # type: ignore[arg-type]
    assert variant.label == "sweep 50%" and variant.document["seeds"] == 30
    assert seen == pytest.approx([1 / 3, 2 / 3, 1.0])


def test_the_presets_are_the_librarys_set_ups_and_start_as_they_are(
    client: Any, api: Any, owner: Any, team: Any, execute_run: Callable[[int], str]
) -> None:
    from planner.web.views.mrsu import mrsu_presets

    assert [p.key for p in mrsu_presets()] == list(SETUPS)
    sweep_preset = next(p for p in mrsu_presets() if p.key == "002-figs-3-5")
    assert sweep_preset.params["sweep"] == {**SETUPS["002-figs-3-5"].sweep}
    assert "Figs. 3-5" in sweep_preset.title
    # Fig. 2's preset, as filled, starts as it is: ten applications, thirty slots, every unit
    client.force_login(owner)
    url = reverse("web:mrsu-new")
    form = client.get(url + "?preset=002-fig-2").context["form"]
    values = {name: form[name].value() for name in form.fields}
    data = {k: v for k, v in values.items() if v not in (None, "", False)}
    response = client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert run.options["compositions"] == ["gcd", "min"] and run.options["modes"] == ["ft", "id"]
    assert run.options["sweep"] is None and len(run.options["input"]["applications"]) == 10
    assert execute_run(run.pk) == "succeeded"
    figures = api(owner).get(f"/api/runs/{run.pk}/figures/").json()["figures"]
    # Fig. 2: 10 applications x 4 dimensions x 30 slots of coefficients, MRSU's and VM-static's
    assert [len(t["y"]) for t in figures["snapshot:gcd-ft"]["data"]] == [1200, 1200]


def test_the_sweeps_t_is_its_own_field(client: Any, owner: Any, team: Any) -> None:
    """T of the operator's own requirements does not change the paper's sweep (one MRSU for the
    whole horizon) unless the sweep's own T is set."""
    client.force_login(owner)
    url = reverse("web:mrsu-new")
    data = {"requirements": "input", "input": json.dumps(EXAMPLE), "compositions": ["gcd"], "modes": ["ft"],
            "slots": "30", "slots_valid": "2", "sweep": "on", "sweep_loads": "50 100", "sweep_seeds": "2",
            "sweep_applications": "5", "sweep_slots": "4"}
    assert client.post(url, data).status_code == 302
    assert client.post(url, {**data, "sweep_slots_valid": "3"}).status_code == 302
    first, second = Run.objects.order_by("pk")
    assert first.options["slots_valid"] == 2 and first.options["sweep"]["slots_valid"] is None
    assert second.options["sweep"]["slots_valid"] == 3 and second.options["sweep"]["loads"] == [0.5, 1.0]
    clone = client.get(url + f"?clone={second.pk}")
    assert clone.context["form"].initial["sweep_slots_valid"] == 3
