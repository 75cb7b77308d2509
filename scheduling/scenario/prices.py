"""Version 4 of the scenario: reserved and spot prices of a VM type (issue 18).

Besides its on-demand ``price_per_hour``, a VM type may carry

* ``reserved: {"price_per_hour", "count"}``: its first ``count`` machines are reserved
  (committed), each billed ``price_per_hour`` for the whole horizon of a run, on or not;
* ``spot: {"price_per_hour", "count", "interruptions_per_hour"}``: the next ``count`` machines
  (by default every machine beyond the reserved ones) are spot VMs, billed per second while on,
  each reclaimed at the times of a Poisson process of ``interruptions_per_hour`` (default 0).

The machines of neither are billed on demand. This module reads the two fields;
:mod:`.validation` calls it for every VM type.

>>> from scheduling.scenario.checks import Problems
>>> problems = Problems()
>>> read_market_prices({"count": 6, "reserved": {"price_per_hour": 0.15, "count": 2},
...                     "spot": {"price_per_hour": 0.07, "interruptions_per_hour": 0.1}},
...                    "vm_types[0]", 6, problems)  # doctest: +NORMALIZE_WHITESPACE
(ReservedPrice(price_per_hour=0.15, count=2),
 SpotPrice(price_per_hour=0.07, count=None, interruptions_per_hour=0.1))
>>> read_market_prices({"reserved": {"price_per_hour": -1, "count": 7}}, "vm_types[2]", 6, problems)
(None, None)
>>> for p in problems.items:
...     print(p)
vm_types[2].reserved.price_per_hour: must be >= 0
vm_types[2].reserved.count: must be <= the type's count (6)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .checks import Problems, number, unknown_keys
from .document import ReservedPrice, SpotPrice
from .limits import LIMITS

__all__ = ["PRICE_FIELDS", "RESERVED_KEYS", "SPOT_KEYS", "read_market_prices", "uses_version_4"]

#: The VM type's fields that version 4 adds.
PRICE_FIELDS = ("reserved", "spot")
RESERVED_KEYS = ("price_per_hour", "count")
SPOT_KEYS = ("price_per_hour", "count", "interruptions_per_hour")


def _price(raw: Mapping[Any, Any], path: str, problems: Problems) -> float | None:
    if "price_per_hour" not in raw:
        problems.add(f"{path}.price_per_hour", "is required")
        return None
    return number(raw["price_per_hour"], f"{path}.price_per_hour", problems, minimum=0,
                  maximum=LIMITS["price_per_hour"])


def _count(raw: Any, path: str, most: int, problems: Problems, what: str) -> int | None:
    c = number(raw, path, problems, minimum=0, maximum=LIMITS["machines"], integer=True)
    if c is None:
        return None
    if c > most:
        problems.add(path, f"must be <= {what} ({most})")
        return None
    return int(c)


def read_market_prices(
    t: Mapping[Any, Any], path: str, count: int, problems: Problems
) -> tuple[ReservedPrice | None, SpotPrice | None]:
    """A VM type's ``reserved`` and ``spot`` (``None`` each when absent or invalid).

    ``count`` is the type's machine count, which the reserved and spot machines together may
    not exceed.
    """
    reserved: ReservedPrice | None = None
    raw = t.get("reserved")
    if raw is not None:
        p = f"{path}.reserved"
        if not isinstance(raw, Mapping):
            problems.add(p, "must be an object with price_per_hour and count")
        else:
            unknown_keys(raw, RESERVED_KEYS, p, problems)
            price = _price(raw, p, problems)
            n = None
            if "count" not in raw:
                problems.add(f"{p}.count", "is required")
            else:
                n = _count(raw["count"], f"{p}.count", count, problems, "the type's count")
            if price is not None and n is not None:
                reserved = ReservedPrice(price_per_hour=price, count=n)
    spot: SpotPrice | None = None
    raw = t.get("spot")
    if raw is not None:
        p = f"{path}.spot"
        if not isinstance(raw, Mapping):
            problems.add(p, "must be an object: price_per_hour; count, interruptions_per_hour if wanted")
            return reserved, None
        unknown_keys(raw, SPOT_KEYS, p, problems)
        price = _price(raw, p, problems)
        ok = price is not None
        n = None
        if raw.get("count") is not None:
            taken = reserved.count if reserved is not None else 0
            what = "the type's count less its reserved machines" if taken else "the type's count"
            n = _count(raw["count"], f"{p}.count", count - taken, problems, what)
            ok = ok and n is not None
        rate = 0.0
        if raw.get("interruptions_per_hour") is not None:
            r = number(raw["interruptions_per_hour"], f"{p}.interruptions_per_hour", problems, minimum=0,
                       maximum=LIMITS["interruptions_per_hour"])
            ok = ok and r is not None
            rate = r if r is not None else 0.0
        if ok and price is not None:
            spot = SpotPrice(price_per_hour=price, count=n, interruptions_per_hour=rate)
    return reserved, spot


def uses_version_4(raw_vm_types: Any) -> list[str]:
    """The paths of version-4 fields in a raw ``vm_types`` (for a document that says an older version)."""
    if not isinstance(raw_vm_types, list):
        return []
    return [f"vm_types[{i}].{key}" for i, t in enumerate(raw_vm_types) if isinstance(t, Mapping)
            for key in PRICE_FIELDS if key in t]
