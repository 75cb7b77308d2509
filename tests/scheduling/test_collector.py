"""The cyclic garbage collector is off while the library reads and simulates, and as it was after."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scheduling import parse_scenario, simulate
from scheduling.collector import collector_paused
from scheduling.errors import ScenarioError

ROOT = Path(__file__).resolve().parents[2]

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


# The command line, in a process of its own: an exit handler registered before it runs sees
# whether the live objects were frozen out of the collector's last walk, and the exit code.
_RUN_CLI = """
import atexit, gc, runpy, sys
atexit.register(lambda: print("frozen", gc.get_freeze_count() > 0, flush=True))
sys.argv = ["scheduling", *sys.argv[1:]]
runpy.run_module("scheduling", run_name="__main__")
"""


@pytest.mark.parametrize(("scenario", "code"), [(DOC, 0), ({**DOC, "jobs": [{"id": "a"}]}, 2)])
def test_the_command_line_skips_the_last_collection_and_keeps_its_exit_code(
    tmp_path: Any, scenario: dict[str, Any], code: int
) -> None:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario))
    done = subprocess.run([sys.executable, "-c", _RUN_CLI, "validate", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == code, done.stderr
    assert done.stdout.splitlines()[-1] == "frozen True"


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("3", "3")])
def test_the_library_asks_for_one_blas_thread_unless_the_process_chose(
    given: str | None, expected: str
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    script = "import os, scheduling, numpy; print(os.environ['OPENBLAS_NUM_THREADS'])"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == expected
