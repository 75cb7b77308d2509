"""Hourly prices by capacity, for machines that come without one (a trace's machines).

A trace says what machines a cluster had, not what renting them costs. A *price list* is a
price per unit of each resource and hour, fitted to a preset's priced VM types
(:data:`scheduling.presets.VM_PRESETS`) by least squares, so that a machine of any capacity
gets the price the preset's family would ask for it; the user can change every price.

>>> prices = price_list("paper-003")
>>> round(suggested_price({"cpu": 8, "mem": 32}, prices), 2)  # m1.xlarge's own price
0.48
>>> [name for name in PRICE_LISTS]
['paper-003']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .presets import VM_PRESETS

__all__ = ["PRICE_LISTS", "PriceList", "price_list", "suggested_price"]


@dataclass(frozen=True)
class PriceList:
    """A price per unit of each resource and hour (``unit_prices``), fitted to a preset."""

    name: str
    label: str
    unit_prices: Mapping[str, float]


def _fitted(name: str) -> PriceList | None:
    """The preset's unit prices (the least-squares fit, negative parts clipped); ``None`` when
    the preset gives no prices (paper 000's servers)."""
    description, vm_types = VM_PRESETS[name]
    priced = [t for t in vm_types if float(t["price_per_hour"]) > 0]
    if not priced:
        return None
    resources = list(dict.fromkeys(r for t in priced for r in t["capacity"]))
    a = np.array([[float(t["capacity"].get(r, 0)) for r in resources] for t in priced])
    b = np.array([float(t["price_per_hour"]) for t in priced])
    solution = np.linalg.lstsq(a, b, rcond=None)[0]
    unit = {r: max(0.0, float(x)) for r, x in zip(resources, solution, strict=True)}
    return PriceList(name=name, label=f"{description} (by capacity)", unit_prices=unit)


#: name -> price list, one per preset that has prices.
PRICE_LISTS: dict[str, PriceList] = {
    name: fitted for name in VM_PRESETS if (fitted := _fitted(name)) is not None
}


def price_list(name: str) -> PriceList:
    """The price list called ``name``; ``KeyError`` listing the others."""
    if name not in PRICE_LISTS:
        raise KeyError(f"unknown price list {name!r} (price lists: {', '.join(PRICE_LISTS)})")
    return PRICE_LISTS[name]


def suggested_price(capacity: Mapping[str, float], prices: PriceList) -> float:
    """The hourly price of a machine of ``capacity`` by ``prices``, rounded to 4 decimals (in the
    preset's currency); a resource the list does not price adds nothing."""
    total = sum(float(capacity.get(r, 0)) * p for r, p in prices.unit_prices.items())
    return round(total, 4)
