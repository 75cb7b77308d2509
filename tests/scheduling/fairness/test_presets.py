"""The fairness studies' presets (``scheduling.fairness.presets``): the papers' set-ups grouped
into one run each, as a start page's buttons, and every one of them a run that starts."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest

from scheduling import parse_scenario
from scheduling.fairness.params import allocation_run, sharing_run
from scheduling.fairness.presets import library_presets, study_presets
from scheduling.params import Preset


def table_one() -> Preset:
    preset = next((p for p in study_presets("allocation") if p.key == "000-table-1"), None)
    assert preset is not None
    return preset


def _setup(key: str, section: str, document: dict[str, Any], study: str = "sharing", **more: Any) -> Any:
    """A set-up shaped as scheduling.fairness.setups.Setup."""
    fields = {"key": key, "paper": "001", "section": section, "title": more.pop("title", key),
              "document": document, "study": study, "figure": "Scylla's unfairness (%)",
              "measure": ("unfairness", "b"), "paper_value": None, "share_args": {"mode": "offers"},
              "notes": ""}
    return types.SimpleNamespace(**{**fields, **more})


def _two(policy_b: str = "first-fit", refuse_b: float = 5, demand_b: float = 1) -> dict[str, Any]:
    fw = {"offer_policy": "first-fit", "queues": [{"tasks": 4, "duration_s": 10}]}
    return {"version": 2, "name": "Two tenants", "resources": ["cpu", "mem"],
            "vm_types": [{"name": "n", "capacity": {"cpu": 4, "mem": 4}, "price_per_hour": 0, "count": 2}],
            "frameworks": [{"name": "a", "task_demand": {"cpu": 1, "mem": 1}, **fw},
                           {"name": "b", "task_demand": {"cpu": demand_b, "mem": 1}, **fw,
                            "offer_policy": policy_b, "refuse_s": refuse_b}]}


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``registry(*setups)``: the library's set-ups replaced by these."""

    def install(*setups: Any) -> None:
        module = types.ModuleType("scheduling.fairness.setups")
        module.SETUPS = {s.key: s for s in setups}  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "scheduling.fairness.setups", module)

    return install


def test_the_registrys_set_ups_become_presets_side_by_side(registry: Any) -> None:
    scenario = table_one().scenario
    assert scenario is not None
    registry(
        _setup("001-v-b-first-fit", "§V-B, Figure 1", _two(), paper_value=38.0, title="b first fit"),
        _setup("001-v-b-bin-packing", "§V-B, Figure 6", _two("bin-packing", 0), title="b bin packing"),
        _setup("001-v-b-bigger", "§V-B, Figure 9", _two(demand_b=2), title="b bigger tasks"),
        _setup("000-table-1-drf", "§IV, Table I", scenario, study="allocation", paper="000",
               share_args={"policy": "drf", "servers": "rrr", "trials": 200}),
        _setup("000-table-1-bf-drf", "§IV, Table I", scenario, study="allocation", paper="000",
               share_args={"policy": "bf-drf", "servers": "best-fit", "trials": 200}),
        _setup("broken", "§V-Z", {"vm_types": "nope"}),
    )
    sharing = study_presets("sharing")
    # The first two differ by b's offer answer and refusal only: one preset, two configurations.
    assert [p.key for p in sharing] == ["001-v-b", "001-v-b-bigger"]
    configurations = sharing[0].params["configurations"]
    assert [c["label"] for c in configurations] == ["b first fit", "b bin packing"]
    assert configurations[1]["overrides"] == {"b": {"offer_policy": "bin-packing", "refuse_s": 0.0}}
    assert "38 in the paper" in sharing[0].description  # the registry's value
    assert [p.title for p in sharing] == ["Paper 001 §V-B: Two tenants", "Paper 001 §V-B: b bigger tasks"]
    # Table I's set-ups: one allocation preset, its policies side by side.
    allocation = study_presets("allocation")
    assert [p.key for p in allocation] == ["000-table-1"]
    assert allocation[0].params == {"variants": ["drf/rrr", "bf-drf"], "trials": 200, "seed": 0}
    assert all(isinstance(p, Preset) for p in [*sharing, *allocation])


def test_an_allocation_set_up_of_another_scenario_is_a_preset_of_its_own(registry: Any) -> None:
    scenario = table_one().scenario
    assert scenario is not None
    other = {**scenario, "name": "Table I, doubled",
             "vm_types": [{**vm, "count": 2} for vm in scenario["vm_types"]]}
    registry(
        _setup("000-table-1-drf", "§IV, Table I", scenario, study="allocation", paper="000",
               share_args={"policy": "drf", "servers": "rrr"}),
        _setup("000-table-1-double", "§IV, Table I", other, study="allocation", paper="000",
               share_args={"policy": "tsf", "servers": "joint"}),
    )
    allocation = study_presets("allocation")
    assert [p.params["variants"] for p in allocation] == [["drf/rrr"], ["tsf/joint"]]
    assert [p.params["trials"] for p in allocation] == [1, 1]
    assert len({p.key for p in allocation}) == 2


def test_the_librarys_own_presets() -> None:
    preset = table_one()
    assert preset.title == "Paper 000, Table I" and preset.scenario is not None
    assert preset.params["trials"] == 200
    # the paper's procedure as read (docs/table-one.md), and the notes' RRR rounds beside it
    variants = set(preset.params["variants"])
    assert {"drf/rrr-task", "drf/rrr", "rpsdsf/joint", "bf-drf/best-fit-all"} <= variants
    study = next(p for p in library_presets() if p.key == preset.key)
    assert "000-table-1-drf" in study.setups and "000-table-1-drf-rounds" in study.setups
    sharing = {p.key: p for p in study_presets("sharing")}
    assert "001-v-b-greedy" in sharing
    configurations = sharing["001-v-b-greedy"].params["configurations"]
    labels = [c["label"] for c in configurations]
    assert len(labels) == 5 and all("Scylla" in label for label in labels)
    # Figures 1, 6 and 7 with Mesos' rules, then Figure 1 with one rule turned off each
    assert [c.get("max_tasks_per_offer") for c in configurations] == [None, None, None, 0, None]
    assert [c.get("offers_count") for c in configurations][-1] == "launched"
    assert sharing["001-v-c-aurora-hold"].params["configurations"][1]["minimum_offer"] == "none"
    assert study_presets("nothing") == []


@pytest.mark.parametrize("study", ["allocation", "sharing"])
def test_every_preset_is_a_run_that_starts(study: str) -> None:
    """Each preset's parameters, read by the study's declarations against its own scenario."""
    read = allocation_run if study == "allocation" else sharing_run
    presets = study_presets(study)
    assert presets and len({p.key for p in presets}) == len(presets)
    for preset in presets:
        assert preset.scenario is not None, preset.key
        options = read(preset.params, scenario=parse_scenario(preset.scenario), max_variants=12)
        if study == "sharing":
            labels = [c["label"] for c in preset.params["configurations"]]
            assert [c["label"] for c in options["configurations"]] == labels, preset.key
