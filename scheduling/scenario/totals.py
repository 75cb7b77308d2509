"""A cluster's totals: machines, capacity per resource and the price per hour with every machine on."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .document import MARKETS, ReservedPrice, SpotPrice, VMType

__all__ = ["cluster_totals", "price_per_hour_all_on"]


def price_per_hour_all_on(
    price_per_hour: float, count: int, markets: Mapping[str, Any] | None = None
) -> float:
    """What ``count`` VMs of a type cost an hour when every one is on: each at its market's price.

    ``markets`` holds the type's ``reserved`` and ``spot`` as a scenario document writes them
    (version 4); without them every VM is on demand.

    >>> price_per_hour_all_on(0.24, 10, {"reserved": {"price_per_hour": 0.15, "count": 2},
    ...                                  "spot": {"price_per_hour": 0.07, "count": 5}})  # 0.30 + 0.35 + 0.72
    1.37
    """
    markets = markets or {}
    reserved, spot = markets.get("reserved"), markets.get("spot")
    vm_type = VMType(
        name="", capacity=(), price_per_hour=float(price_per_hour), count=int(count),
        reserved=(ReservedPrice(float(reserved["price_per_hour"]), int(reserved["count"]))
                  if reserved else None),
        spot=SpotPrice(float(spot["price_per_hour"]), spot.get("count")) if spot else None,
    )
    counts = vm_type.market_counts()
    return sum((vm_type.market_price(m) * counts[m] for m in MARKETS), 0.0)


def cluster_totals(entries: Iterable[tuple[Any, ...]]) -> dict[str, Any]:
    """VMs, capacity per resource and the price per hour with every VM on, of ``(capacity, price,
    count)`` rows, or ``(capacity, price, count, markets)`` with a type's reserved and spot VMs
    (:func:`price_per_hour_all_on`).

    >>> cluster_totals([({"cpu": 4, "mem": 16}, 0.24, 6), ({"cpu": 8, "mem": 32}, 0.48, 5)])
    {'machines': 11, 'capacity': {'cpu': 64, 'mem': 256}, 'price_per_hour': 3.84}
    """
    machines = 0
    capacity: dict[str, float] = {}
    price = 0.0
    for cap, price_per_hour, count, *markets in entries:
        machines += int(count)
        price += price_per_hour_all_on(price_per_hour, count, markets[0] if markets else None)
        for r, v in cap.items():
            capacity[r] = capacity.get(r, 0) + v * int(count)
    return {"machines": machines, "capacity": capacity, "price_per_hour": round(price, 6)}
