"""Paper 000's Table I as the allocation study's tests use it (small: every policy allocates it
in a fraction of a second), and the policies they run."""

from __future__ import annotations

from typing import Any

VARIANTS = ["drf/rrr", "tsf/rrr", "psdsf/rrr", "rpsdsf/joint", "bf-drf"]
LABELS = ["DRF (rrr)", "TSF (rrr)", "PS-DSF (rrr)", "rPS-DSF (joint)", "BF-DRF"]


def table_one(**more: Any) -> dict[str, Any]:
    """Paper 000, Table I: c1 = (100 cpu, 30 mem), c2 = (30, 100); f1 tasks (5, 1), f2 (1, 5)."""
    return {
        "version": 1, "name": "Table I", "resources": ["cpu", "mem"],
        "vm_types": [
            {"name": "c1", "capacity": {"cpu": 100, "mem": 30}, "price_per_hour": 0, "count": 1},
            {"name": "c2", "capacity": {"cpu": 30, "mem": 100}, "price_per_hour": 0, "count": 1},
        ],
        "frameworks": [
            {"name": "f1", "task_demand": {"cpu": 5, "mem": 1}},
            {"name": "f2", "task_demand": {"cpu": 1, "mem": 5}},
        ],
        "jobs": [],
        **more,
    }
