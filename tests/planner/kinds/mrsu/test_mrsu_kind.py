"""The MRSU sizing run kind (paper 002) with the real library, small sizes.

What is checked: the API starts a run on an MRSU input (one part per composition x mode, one
per sweep load point) and on a scenario (plus the advisor); the run page shows the MRSU tuple,
the charts, the advisor's table and the run's settings; bad parameters are refused with their
paths; a request on an input without a scenario records the input's machine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from planner.kinds.mrsu.kind import MrsuKind
from planner.runs import kinds
from planner.runs.models import Run, RunPart
from scheduling.mrsu.params import MRSU_PARAMS, input_scenario
from scheduling.mrsu.setups import SETUPS

pytestmark = pytest.mark.django_db


def test_the_kind_is_registered_by_its_app_with_the_librarys_parameters_and_presets() -> None:
    kind = kinds.get_kind("mrsu")
    assert isinstance(kind, MrsuKind) and kind.label == "MRSU sizing"
    assert kind.params is MRSU_PARAMS
    assert [p.key for p in kind.presets()] == list(SETUPS)
    assert kind.start_link("?clone=3") == "/runs/new/mrsu/?clone=3"


def test_an_input_run_is_one_part_per_unit_and_per_load(input_run: Run, api: Any, owner: Any) -> None:
    labels = list(RunPart.objects.filter(run=input_run).order_by("position").values_list("label", flat=True))
    assert labels == ["gcd-ft", "gcd-id", "min-ft", "min-id", "sweep 50%", "sweep 120%"]
    figures = api(owner).get(f"/api/runs/{input_run.pk}/figures/").json()["figures"]
    assert {"allocation:gcd-ft", "snapshot:gcd-ft", "fig3-under", "fig4-over", "fig5", "fig5-slots"} <= set(
        figures
    )
    # the sweep's two parts joined: one point per load on every curve
    assert figures["fig5"]["data"][0]["x"] == [50.0, 120.0]
    # Fig. 5 in dissatisfied applications, application-slots short beside it
    assert figures["fig5"]["layout"]["title"]["text"] == "Dissatisfied applications"
    assert figures["fig5-slots"]["layout"]["title"]["text"] == "Application-slots short"
    names = [t["name"] for t in figures["fig4-under"]["data"]]
    assert names[:4] == ["MRSU-FT", "MRSU-ID", "VM-static", "Optimal"]
    assert api(owner).get(f"/api/runs/{input_run.pk}/").json()["requirements"] == "input"


def test_the_page_shows_the_unit_table_and_charts(input_run: Run, client: Any, owner: Any) -> None:
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[input_run.pk])).content.decode()
    assert "MRSU sizing" in page and 'id="mrsu-units-table"' in page
    assert "cpu 2, mem 8, disk 100, net 500" in page  # the GCD tuple of the example
    assert 'data-prefix="allocation:"' in page and 'data-figure="fig5"' in page
    assert 'data-figure="fig5-slots"' in page
    # the comparison's headline is Fig. 5's measure, application-slots short beside it
    assert page.index("Dissatisfied applications") < page.index("Application-slots short")
    # per dimension, each of the four units, then the baselines (4 x (4 + 2) rows)
    assert 'id="mrsu-dimensions-table"' in page and page.count('data-dimension="net"') == 6
    assert f'href="/runs/new/mrsu/?clone={input_run.pk}"' in page  # the shell's Clone… link


def test_the_run_lists_headline_is_the_unit_with_the_fewest_dissatisfied_applications() -> None:
    kind = kinds.get_kind("mrsu")
    summaries = {
        "gcd-ft": {"study": "mrsu", "dissatisfied_apps_pct": 40.0, "dissatisfied_pct": 2.0, "under": 0.01},
        "gcd-id": {"study": "mrsu", "dissatisfied_apps_pct": 10.0, "dissatisfied_pct": 5.0, "under": 0.05},
        "sweep 50%": {"study": "mrsu-sweep", "loads_pct": [50.0]},
    }
    headline = kind.headline(summaries, currency="$")
    assert headline is not None
    assert (headline.value, headline.caption) == ("10.0%", "fewest dissatisfied applications: gcd-id")
    assert kind.headline({"sweep 50%": summaries["sweep 50%"]}, currency="$") is None


def test_the_settings_are_the_declared_parameters_as_they_apply(input_run: Run) -> None:
    kind = kinds.get_kind("mrsu")
    rows = dict(kind.settings(input_run.options))
    assert rows["Requirements"] == "input" and rows["Compositions"] == "gcd, min"
    assert rows["Modes"] == "ft, id"
    assert rows["Validity interval T"] == "whole horizon" and rows["Baseline"] == "gcd-ft"
    assert "Slots" not in rows  # an input has its own
    assert "loads=50 120, seeds=2, applications=5, slots=4" in rows["Run the paper's sweep too (Figs. 3-5)"]
    scenario_run = {**input_run.options, "requirements": "scenario", "input": None, "sweep": None,
                    "slots_valid": 2, "unit": {"cpu": 1.0, "mem": 4.0}}
    rows = dict(kind.settings(scenario_run))
    assert rows["Slots"] == 30 and rows["Validity interval T"] == "2"
    assert rows["Your unit (advisor)"] == "cpu=1,mem=4"
    assert "Run the paper's sweep too (Figs. 3-5)" not in rows


def test_a_scenario_run_has_the_advisor(
    start_mrsu: Callable[..., Any], api: Any, owner: Any, team: Any, execute_run: Callable[[int], str],
    client: Any, jobs_scenario: dict[str, Any],
) -> None:
    response = start_mrsu(scenario=jobs_scenario, slots=4, compositions=["gcd"], modes=["ft"],
                          unit="cpu=1,mem=4")
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert list(run.parts.order_by("position").values_list("label", flat=True)) == ["gcd-ft", "advisor"]
    assert run.options["requirements"] == "scenario" and run.options["unit"] == {"cpu": 1.0, "mem": 4.0}
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
    start_mrsu: Callable[..., Any], api: Any, owner: Any, team: Any, execute_run: Callable[[int], str],
    client: Any, jobs_scenario: dict[str, Any],
) -> None:
    # jobs_scenario in 4 slots of 20 s: a 1.5-core executor makes the cpu base unit 0.1 core
    # (tests/scheduling/mrsu/test_mrsu_dimensions.py works the same requirements by hand).
    # MIN-FT over-allocates 7.5 tenths of a core per slot: 0.75 cores; VM-static 12.5: 1.25 cores;
    # GCD-FT 18 GB of memory. The cluster holds every requirement, so nobody is ever short and none
    # of it counts as over-allocation the way paper 002 counts it (only while someone suffers).
    response = start_mrsu(scenario=jobs_scenario, slots=4, compositions=["gcd", "min"], modes=["ft"])
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert execute_run(run.pk) == "succeeded"
    stored = run.results.get(variant="min-ft")  # the document: base units, and what one stands for
    assert stored.result["misallocation"]["over_allocated_every_cell"] == {"cpu": 7.5, "mem": 6}
    assert stored.result["misallocation"]["over_allocated"] == {"cpu": 0, "mem": 0}
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
        ["cpu", "gcd-ft", "0.00", "0.00", "0.0%", "0", "0"],
        ["cpu", "min-ft", "0.00", "0.00", "0.0%", "0", "0.75"],
        ["cpu", "VM-static", "0.00", "0.00", "0.0%", "0", "1.25"],
        ["cpu", "Optimal", "0.00", "0.00", "0.0%", "0", "0"],
    ]
    assert cells[4][:2] == ["mem", "gcd-ft"] and cells[4][-1] == "18"
    csv = api(owner).get(f"/api/runs/{run.pk}/report/csv/").content.decode("utf-8-sig")
    section = csv[csv.index("Misallocation per dimension"):].splitlines()
    assert section[1].startswith('"Over-allocated part and amount: ') and "own units" in section[1]
    assert section[2] == (
        "Dimension,Allocation,Under-allocated part (mean rho),Over-allocated part (mean rho),"
        "Application-slots short of it (%),\"Over-allocated per slot, while others are short\","
        "\"Over-allocated per slot, every slot\""
    )
    assert section[3:11] == [
        "cpu,gcd-ft,0.0,0.0,0.0,0.0,0.0",
        "cpu,min-ft,0.0,0.0,0.0,0.0,0.75",
        "cpu,VM-static,0.0,0.0,0.0,0.0,1.25",
        "cpu,Optimal,0.0,0.0,0.0,0.0,0.0",
        "mem,gcd-ft,0.0,0.0,0.0,0.0,18.0",
        "mem,min-ft,0.0,0.0,0.0,0.0,6.0",
        "mem,VM-static,0.0,0.0,0.0,0.0,4.0",
        "mem,Optimal,0.0,0.0,0.0,0.0,0.0",
    ]


def test_bad_parameters_are_refused_with_their_paths(
    start_mrsu: Callable[..., Any], team: Any, mrsu_input: dict[str, Any], jobs_scenario: dict[str, Any],
) -> None:
    bad_input = {"capacity": {"cpu": 0}, "applications": [{"name": "a", "priority": -1, "requirements": []}]}
    response = start_mrsu(
        scenario=input_scenario(mrsu_input),
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
    response = start_mrsu(requirements="input", input=mrsu_input, sweep={"seeds": 1000, "applications": 2000,
                                                                          "slots": 30})
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["sweep.seeds"]
    response = start_mrsu(scenario=jobs_scenario, unit="cpu=0")
    assert response.status_code == 400
    assert {e["path"] for e in response.json()["errors"]} >= {"unit.cpu"}
    response = start_mrsu(scenario=jobs_scenario, unit={"cpu": 1, "mem": -4, "gpu": 1})
    assert response.status_code == 400
    assert sorted(e["path"] for e in response.json()["errors"]) == ["unit.gpu", "unit.mem"]
    response = start_mrsu(scenario=jobs_scenario, unit=[1, 4])
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["unit"]
    response = start_mrsu(scenario=jobs_scenario, requirements="scenario", input=mrsu_input)
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["input"]
    response = start_mrsu(requirements="scenario")  # no scenario, no input
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["scenario"]
    assert not Run.objects.exists()


def test_an_input_past_the_librarys_limits_is_refused_with_its_path(
    start_mrsu: Callable[..., Any], team: Any
) -> None:
    # No scenario given: the run would record the input as a scenario; the input's own path is named.
    wide = {"capacity": {f"d{k}": 1 for k in range(17)}, "applications": [{"requirements": [{}]}]}
    response = start_mrsu(requirements="input", input=wide)
    assert response.status_code == 400
    assert [(e["path"], e["message"]) for e in response.json()["errors"]] == [
        ("input.capacity", "has 17 dimensions; the limit is 16")
    ]
    many = {"capacity": {"cpu": 4}, "applications": [{"requirements": [{"cpu": 1}]}] * 10_001}
    response = start_mrsu(requirements="input", input=many)
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["input.applications"]
    # A valid input whose capacity the recorded scenario cannot hold (1e9 per resource of a machine)
    huge = {"capacity": {"cpu": 4, "net": 4_000_000_000}, "applications": [{"requirements": [{"cpu": 1}]}]}
    response = start_mrsu(requirements="input", input=huge)
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["path"] == "input.capacity.net" and "records the input as a scenario" in error["message"]
    assert not Run.objects.exists()


def test_a_request_on_an_input_without_a_scenario_records_the_inputs_machine(
    mrsu_input: dict[str, Any], jobs_scenario: dict[str, Any]
) -> None:
    kind = kinds.get_kind("mrsu")
    recorded = input_scenario(mrsu_input)
    assert kind.default_scenario({"input": mrsu_input}) == recorded  # the default requirements: the input
    assert kind.default_scenario({"requirements": "input", "input": mrsu_input}) == recorded
    assert kind.default_scenario({"requirements": None, "input": mrsu_input}) == recorded
    assert kind.default_scenario({"requirements": "scenario", "input": mrsu_input}) is None
    assert kind.default_scenario({"requirements": "input"}) is None  # the request names what is missing
    assert kind.default_scenario({}) is None


def test_a_sweep_part_reports_progress_per_chunk_of_seeds(mrsu_input: dict[str, Any]) -> None:
    # The paper's 50 applications x 30 slots with 30 seeds: three chunks of ten seeds in the load point.
    kind = kinds.get_kind("mrsu")
    sweep = {"loads": [0.5, 1.0], "seeds": 30, "applications": 50, "slots": 30}
    plan = kind.plan(None, {"requirements": "input", "input": mrsu_input, "sweep": sweep})
    part = next(p for p in plan.parts if p.payload["step"] == "sweep")
    seen: list[float] = []
    [variant] = kind.execute(None, plan.options, {}, part.payload, progress=seen.append)  # type: ignore[arg-type]
    assert variant.label == "sweep 50%" and variant.document["seeds"] == 30
    assert seen == pytest.approx([1 / 3, 2 / 3, 1.0])
