"""A small two-framework scenario every point of a sweep simulates in milliseconds."""

from __future__ import annotations

from typing import Any

import pytest

from scheduling.generators import synthetic_jobs


@pytest.fixture
def small_doc() -> dict[str, Any]:
    return {
        "version": 1,
        "name": "small",
        "resources": ["cpu", "mem"],
        "vm_types": [
            {"name": "m1.large", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 3},
            {"name": "m1.xlarge", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.48, "count": 2},
        ],
        "frameworks": [{"name": "analytics"}, {"name": "etl"}],
        "jobs": synthetic_jobs(jobs=24, seed=3, arrival_rate_per_s=0.05, frameworks=["analytics", "etl"],
                               executors=(1, 3), executor={"cpu": (1, 4), "mem": (1, 8)}),
    }
