"""The scenarios and configurations of the sharing study's tests."""

from __future__ import annotations

from typing import Any

CONFIGURATIONS = [
    {"label": "refuse 5 s", "mode": "offers", "criterion": "drf", "allocation_interval_s": 1.0, "seed": 1,
     "overrides": {"a": {"refuse_s": 5, "offer_policy": "first-fit"}}},
    {"label": "refuse 1 s", "mode": "offers", "overrides": {"a": {"refuse_s": 1}}},
]


def two_frameworks() -> dict[str, Any]:
    """Two tenants on one node, a job each (version 1: no task queues; most tests that run it
    replace ``share``)."""
    return {
        "version": 1, "name": "two tenants", "resources": ["cpu", "mem"],
        "vm_types": [{"name": "node", "capacity": {"cpu": 8, "mem": 16}, "price_per_hour": 0, "count": 1}],
        "frameworks": [{"name": "a", "task_demand": {"cpu": 1, "mem": 1}},
                       {"name": "b", "task_demand": {"cpu": 1, "mem": 1}}],
        "jobs": [{"id": f"{f}1", "framework": f, "arrival_s": 0, "executors": 2,
                  "executor": {"cpu": 1, "mem": 1}, "duration_s": 5} for f in ("a", "b")],
    }


def queued(tasks: int = 6, duration_s: float = 5, name: str = "two tenants") -> dict[str, Any]:
    """Two tenants with task queues (version 2): small enough for the real ``share``."""
    fw = {"task_demand": {"cpu": 1, "mem": 1}, "offer_policy": "first-fit", "refuse_s": 0,
          "queues": [{"tasks": tasks, "duration_s": duration_s}]}
    return {
        "version": 2, "name": name, "resources": ["cpu", "mem"],
        "vm_types": [{"name": "n", "capacity": {"cpu": 4, "mem": 4}, "price_per_hour": 0, "count": 1}],
        "frameworks": [{"name": "a", **fw}, {"name": "b", **fw}],
    }
