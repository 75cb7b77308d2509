"""What VM time costs: the one rule the simulator bills with and the result's readers derive
costs with (:mod:`scheduling.cost.document` re-exports it), so both get the same float.

Compiled with the engine (:mod:`scheduling.compiled`): the simulator applies it twice at every
VM it turns off.
"""

from __future__ import annotations

__all__ = ["horizon_cost", "vm_interval_cost"]


def vm_interval_cost(billed_s: float, price_per_hour: float) -> float:
    """What an on-interval costs: its billed seconds at the VM's hourly price.

    >>> vm_interval_cost(1800.0, 0.24)
    0.12
    """
    return billed_s * price_per_hour / 3600.0


def horizon_cost(horizon_s: float, price_per_hour: float) -> float:
    """What a reserved VM costs over a run's horizon (scenario version 4): the whole horizon, from
    0 until the last job finishes, at its reserved hourly price, whether it was on or not.

    >>> horizon_cost(7200.0, 0.15)  # two hours
    0.3
    """
    return vm_interval_cost(horizon_s, price_per_hour)
