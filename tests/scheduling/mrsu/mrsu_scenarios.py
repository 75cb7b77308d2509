"""A small planner scenario the MRSU tests share: two VM types, two frameworks, one executor of
1.5 cores (so a base unit of 0.1 cpu)."""

from __future__ import annotations

from typing import Any

SCENARIO: dict[str, Any] = {
    "vm_types": [
        {"name": "m", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.4, "count": 2},
        {"name": "c", "capacity": {"cpu": 16, "mem": 16}, "price_per_hour": 0.5, "count": 1},
    ],
    "frameworks": [{"name": "spark", "weight": 2}, {"name": "etl"}],
    "jobs": [
        {"id": "a", "framework": "spark", "arrival_s": 0, "executors": 2, "executor": {"cpu": 1.5, "mem": 4},
         "duration_s": 50},
        {"id": "b", "framework": "etl", "arrival_s": 20, "executors": 1, "executor": {"cpu": 2, "mem": 8},
         "duration_s": 60},
    ],
}
