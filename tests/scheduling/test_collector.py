"""The cyclic garbage collector is off while the library reads and simulates, and as it was after."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from scheduling import parse_scenario, simulate
from scheduling.collector import collector_paused
from scheduling.errors import ScenarioError

DOC = {
    "resources": ["cpu"],
    "vm_types": [{"name": "vm", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 2}],
    "jobs": [{"id": f"j{i}", "arrival_s": i, "executors": 2, "executor": {"cpu": 1}, "duration_s": 50}
             for i in range(5)],
}


@pytest.fixture(autouse=True)
def collector_restored() -> Iterator[None]:
    was = gc.isenabled()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_a_simulation_runs_without_the_collector_and_switches_it_on_again() -> None:
    seen: list[bool] = []
    scenario = parse_scenario(DOC)
    assert gc.isenabled()
    simulate(scenario, scheduler="edf-bfd", progress=lambda _: seen.append(gc.isenabled()))
    assert seen and not any(seen)
    assert gc.isenabled()


def test_the_collector_is_on_again_after_a_call_that_raises() -> None:
    with pytest.raises(ScenarioError):
        parse_scenario({**DOC, "jobs": [{"id": "a"}]})
    assert gc.isenabled()
    with pytest.raises(RuntimeError, match="stop"):
        simulate(parse_scenario(DOC), scheduler="edf-bfd", progress=_stop)
    assert gc.isenabled()


def test_a_collector_the_caller_switched_off_stays_off() -> None:
    gc.disable()
    simulate(parse_scenario(DOC), scheduler="fifo-spread")
    assert not gc.isenabled()


def test_nested_pauses_switch_it_on_only_at_the_outermost_end() -> None:
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def _stop(_: float) -> None:
    raise RuntimeError("stop")
