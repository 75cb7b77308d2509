"""A real workload small enough to simulate every candidate of a space: the first jobs of the
authors' light-load workload (paper 003) on the paper's three VM types."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scheduling import Scenario, parse_scenario

LIGHT = Path(__file__).resolve().parents[4] / "examples" / "paper003-light.json"


@pytest.fixture(scope="session")
def light_head() -> Callable[..., Scenario]:
    """``light_head(jobs, prices=None)``: the first ``jobs`` jobs of the light workload, the VM
    types' prices replaced by ``prices`` (by name) when given."""
    doc = json.loads(LIGHT.read_text())

    def make(jobs: int, prices: dict[str, float] | None = None) -> Scenario:
        d: dict[str, Any] = {**doc, "jobs": doc["jobs"][:jobs]}
        d["vm_types"] = [
            {**t, "price_per_hour": (prices or {}).get(t["name"], t["price_per_hour"])}
            for t in doc["vm_types"]
        ]
        return parse_scenario(d)

    return make
