"""Fixtures of the MRSU sizing kind's tests: the example input, a scenario with jobs, a run."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from planner.runs.models import Run
from scheduling.mrsu.params import input_scenario

ROOT = Path(__file__).resolve().parents[4]
SMALL_SWEEP = {"loads": [0.5, 1.2], "seeds": 2, "applications": 5, "slots": 4}


@pytest.fixture
def mrsu_input() -> dict[str, Any]:
    """examples/mrsu/example.json: three applications, four dimensions, four slots."""
    doc: dict[str, Any] = json.loads((ROOT / "examples" / "mrsu" / "example.json").read_text())
    return doc


@pytest.fixture
def jobs_scenario() -> dict[str, Any]:
    """Two frameworks' jobs on two VM types: requirements (and the advisor) from a scenario."""
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
            {"id": "a", "framework": "spark", "arrival_s": 0, "executors": 2,
             "executor": {"cpu": 1.5, "mem": 4}, "duration_s": 50},
            {"id": "b", "framework": "etl", "arrival_s": 20, "executors": 1,
             "executor": {"cpu": 2, "mem": 8}, "duration_s": 60},
        ],
    }


@pytest.fixture
def start_mrsu(api: Callable[[Any], Any], owner: Any) -> Callable[..., Any]:
    """``start_mrsu(**fields)``: POST /api/runs/ of an MRSU run as the owner."""

    def start(**params: Any) -> Any:
        return api(owner).post("/api/runs/", {"kind": "mrsu", **params}, format="json")

    return start


@pytest.fixture
def input_run(start_mrsu: Callable[..., Any], team: Any, execute_run: Callable[[int], str],
              mrsu_input: dict[str, Any]) -> Run:
    """A finished run on the example input with a small sweep, started without a scenario: the
    run records the machine the input describes (the kind's ``default_scenario``)."""
    response = start_mrsu(requirements="input", input=mrsu_input, sweep=SMALL_SWEEP)
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert run.scenario == input_scenario(mrsu_input) and run.team_id == team.pk
    assert execute_run(run.pk) == "succeeded"
    run.refresh_from_db()
    return run
