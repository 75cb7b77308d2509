"""Fixtures of the cost engine's tests (``scenario_of`` is every library test's: ../conftest.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from scheduling import Scenario
from scheduling.cost.cluster import Cluster


@pytest.fixture
def cluster_of(scenario_of: Callable[..., Scenario]) -> Callable[..., Cluster]:
    """``cluster_of(vm_types, resources=None)``: the cluster of these VM types, every VM off."""

    def make(vm_types: list[dict[str, Any]], resources: Sequence[str] | None = None) -> Cluster:
        return Cluster(scenario_of(vm_types, resources=resources))

    return make
