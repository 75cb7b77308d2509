"""VM type presets taken from the papers, as scenario-document ``vm_types`` entries."""

from __future__ import annotations

from typing import Any

#: name -> (description, vm_types). Counts are the papers' own cluster sizes.
VM_PRESETS: dict[str, tuple[str, list[dict[str, Any]]]] = {
    "paper-003": (
        "Paper 003, Table 3: the 14-VM Nectar cluster priced as AWS Sydney on-demand instances",
        [
            {"name": "m1.large", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 6},
            {"name": "m1.xlarge", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.48, "count": 5},
            {"name": "m2.xlarge", "capacity": {"cpu": 12, "mem": 48}, "price_per_hour": 0.72, "count": 3},
        ],
    ),
    "paper-000": (
        "Paper 000, Section V: three private-cloud server types, two of each (the paper gives no "
        "prices: set your own)",
        [
            {"name": "type-1", "capacity": {"cpu": 4, "mem": 14}, "price_per_hour": 0.0, "count": 2},
            {"name": "type-2", "capacity": {"cpu": 8, "mem": 8}, "price_per_hour": 0.0, "count": 2},
            {"name": "type-3", "capacity": {"cpu": 6, "mem": 11}, "price_per_hour": 0.0, "count": 2},
        ],
    ),
}


def preset_vm_types(name: str, *, scale: int = 1) -> list[dict[str, Any]]:
    """A preset's VM types with every count multiplied by ``scale``.

    >>> [t["count"] for t in preset_vm_types("paper-003", scale=10)]
    [60, 50, 30]
    """
    if name not in VM_PRESETS:
        raise KeyError(f"unknown preset {name!r} (presets: {', '.join(VM_PRESETS)})")
    return [{**t, "capacity": dict(t["capacity"]), "count": t["count"] * scale} for t in VM_PRESETS[name][1]]
