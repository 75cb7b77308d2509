"""MRSU sizing (paper 002): compose the multi-resource schedulable unit, allocate it, measure it.

One module per part (docs/mrsu.md): :mod:`.model` (input), :mod:`.compose` (GCD/MIN, FT/ID
units), :mod:`.allocate` (weighted-fair MRSU, VM-static, optimal), :mod:`.metrics`
(misallocation coefficient), :mod:`.workload` and :mod:`.sweep` (Figs. 3-5), :mod:`.advisor`
(which unit for a planner scenario), :mod:`.document` (the result document), :mod:`.tables`,
:mod:`.charts` and :mod:`.cli` (its tables, figures and sub-commands), :mod:`.setups`, and
:mod:`.reproduce` (the paper's claims, measured).
"""

from .advisor import mrsu_advise
from .allocate import mrsu_allocate, optimal_allocation, vm_static_allocation, weighted_fair
from .compose import mrsu_gcd, mrsu_min, units_available
from .document import mrsu_result
from .metrics import misallocation
from .model import MrsuProblem, parse_mrsu_input, scenario_problem
from .sweep import mrsu_sweep
from .workload import synthetic_workload

__all__ = [
    "MrsuProblem",
    "misallocation",
    "mrsu_advise",
    "mrsu_allocate",
    "mrsu_gcd",
    "mrsu_min",
    "mrsu_result",
    "mrsu_sweep",
    "optimal_allocation",
    "parse_mrsu_input",
    "scenario_problem",
    "synthetic_workload",
    "units_available",
    "vm_static_allocation",
    "weighted_fair",
]
