"""A cluster's totals: machines, capacity per resource and the price per hour with every machine on."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["cluster_totals"]


def cluster_totals(entries: Iterable[tuple[Mapping[str, Any], float, int]]) -> dict[str, Any]:
    """VMs, capacity per resource and the price per hour with every VM on, of ``(capacity, price,
    count)`` rows.

    >>> cluster_totals([({"cpu": 4, "mem": 16}, 0.24, 6), ({"cpu": 8, "mem": 32}, 0.48, 5)])
    {'machines': 11, 'capacity': {'cpu': 64, 'mem': 256}, 'price_per_hour': 3.84}
    """
    machines = 0
    capacity: dict[str, float] = {}
    price = 0.0
    for cap, price_per_hour, count in entries:
        machines += int(count)
        price += float(price_per_hour) * int(count)
        for r, v in cap.items():
            capacity[r] = capacity.get(r, 0) + v * int(count)
    return {"machines": machines, "capacity": capacity, "price_per_hour": round(price, 6)}
