"""Version 4 of the scenario: reserved and spot prices of VM types (issue 18)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from scheduling import ScenarioError, parse_scenario
from scheduling.scenario import SCENARIO_VERSION, ReservedPrice, SpotPrice

ROOT = Path(__file__).resolve().parents[3]


def doc(**vm_type: Any) -> dict[str, Any]:
    return {
        "version": 4,
        "resources": ["cpu"],
        "vm_types": [{"name": "m", "capacity": {"cpu": 4}, "price_per_hour": 0.24, "count": 10, **vm_type}],
        "jobs": [{"id": "a", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1}, "duration_s": 60}],
    }


def messages(document: Any) -> dict[str, str]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(document)
    return {e.path: e.message for e in info.value.errors}


def test_reserved_and_spot_machines_in_listed_order_and_a_round_trip() -> None:
    d = doc(reserved={"price_per_hour": 0.15, "count": 2},
            spot={"price_per_hour": 0.07, "count": 5, "interruptions_per_hour": 0.2})
    scenario = parse_scenario(d)
    (t,) = scenario.vm_types
    assert t.reserved == ReservedPrice(0.15, 2)
    assert t.spot == SpotPrice(0.07, 5, 0.2)
    assert t.market_counts() == {"reserved": 2, "spot": 5, "on_demand": 3}
    assert [t.market_price(m) for m in ("reserved", "spot", "on_demand")] == [0.15, 0.07, 0.24]
    assert scenario.version == SCENARIO_VERSION == 4 and scenario.has_market_prices
    written = scenario.to_dict()
    assert written["vm_types"][0]["reserved"] == {"price_per_hour": 0.15, "count": 2}
    spot = written["vm_types"][0]["spot"]
    assert spot == {"price_per_hour": 0.07, "count": 5, "interruptions_per_hour": 0.2}
    assert parse_scenario(written) == scenario
    # Without a spot count, every machine beyond the reserved ones is a spot VM.
    assert parse_scenario(doc(spot={"price_per_hour": 0.07})).vm_types[0].market_counts() == {
        "reserved": 0, "spot": 10, "on_demand": 0}


def test_older_documents_read_unchanged_and_are_written_as_they_were() -> None:
    for name in ("paper003-light.json", "paper000-table1.json", "paper001-marathon-scylla.json",
                 "paper004-fig1.json"):
        original = json.loads((ROOT / "examples" / name).read_text())
        scenario = parse_scenario(original)
        assert not scenario.has_market_prices
        assert scenario.to_dict()["version"] == original.get("version", 1), name
        assert all("reserved" not in t and "spot" not in t for t in scenario.to_dict()["vm_types"])


def test_a_document_of_an_older_version_may_not_use_them() -> None:
    for version in (1, 2, 3):
        d = doc(reserved={"price_per_hour": 0.1, "count": 1}, spot={"price_per_hour": 0.05})
        d["version"] = version
        assert messages(d) == {
            "vm_types[0].reserved": f"is a version-4 field (the document says version {version})",
            "vm_types[0].spot": f"is a version-4 field (the document says version {version})",
        }


@pytest.mark.parametrize(
    "fields, path, message",
    [
        ({"spot": {"price_per_hour": -1}}, "vm_types[0].spot.price_per_hour", "must be >= 0"),
        ({"spot": {"count": 2}}, "vm_types[0].spot.price_per_hour", "is required"),
        ({"spot": {"price_per_hour": 0.1, "interruptions_per_hour": -0.5}},
         "vm_types[0].spot.interruptions_per_hour", "must be >= 0"),
        ({"spot": {"price_per_hour": 0.1, "interruptions_per_hour": 1e6}},
         "vm_types[0].spot.interruptions_per_hour", "must be <= 3600"),
        ({"spot": {"price_per_hour": 0.1, "count": 11}}, "vm_types[0].spot.count",
         "must be <= the type's count (10)"),
        ({"reserved": {"price_per_hour": 0.1, "count": 4}, "spot": {"price_per_hour": 0.1, "count": 7}},
         "vm_types[0].spot.count", "must be <= the type's count less its reserved machines (6)"),
        ({"reserved": {"price_per_hour": 0.1}}, "vm_types[0].reserved.count", "is required"),
        ({"reserved": {"price_per_hour": 0.1, "count": 1.5}}, "vm_types[0].reserved.count",
         "must be an integer"),
        ({"reserved": {"price_per_hour": 0.1, "count": 11}}, "vm_types[0].reserved.count",
         "must be <= the type's count (10)"),
        ({"reserved": {"price_per_hour": float("nan"), "count": 1}}, "vm_types[0].reserved.price_per_hour",
         "must be a finite number"),
        ({"reserved": 3}, "vm_types[0].reserved", "must be an object"),
        ({"spot": {"price_per_hour": 0.1, "discount": 0.5}}, "vm_types[0].spot.discount", "unknown field"),
    ],
)
def test_bad_prices_are_named_at_their_path(fields: dict[str, Any], path: str, message: str) -> None:
    found = messages(doc(**fields))
    assert path in found and message in found[path], found


def test_every_problem_of_a_document_at_once() -> None:
    d = doc(spot={"price_per_hour": -1})
    d["vm_types"].append(copy.deepcopy(d["vm_types"][0]) | {"name": "n", "reserved": {"price_per_hour": -2,
                                                                                      "count": 1}})
    assert set(messages(d)) == {"vm_types[0].spot.price_per_hour", "vm_types[1].spot.price_per_hour",
                                "vm_types[1].reserved.price_per_hour"}
