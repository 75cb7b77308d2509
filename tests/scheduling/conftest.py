"""Fixtures shared by the library's tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from scheduling import Scenario, parse_scenario


@pytest.fixture
def scenario_of() -> Callable[..., Scenario]:
    """``scenario_of(vm_types, jobs=None, resources=None)``: the parsed scenario of these entries.

    Without ``jobs``, one placeholder job (one executor of 1 of each resource): tests of the
    cluster's state or of a placement need VM types only, but a scenario has a job.
    """

    def make(
        vm_types: list[dict[str, Any]],
        jobs: list[dict[str, Any]] | None = None,
        resources: Sequence[str] | None = None,
    ) -> Scenario:
        doc: dict[str, Any] = {"vm_types": vm_types}
        if resources is not None:
            doc["resources"] = list(resources)
        if jobs is None:
            executor = {r: 1 for r in resources or ("cpu", "mem")}
            jobs = [{"id": "j", "arrival_s": 0, "executors": 1, "executor": executor, "duration_s": 1}]
        doc["jobs"] = jobs
        return parse_scenario(doc)

    return make
