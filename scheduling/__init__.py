"""Cluster What-If Planner's scheduling library: scenarios, simulators and measures.

Plain Python (numpy, PuLP, the standard library), never Django. See ``docs/results.md``.

The front door of every paper: the scenario (:mod:`scheduling.scenario`) and errors every paper
shares, and each paper package's entry points, re-exported from its own front door:

* the cost engine (paper 003, :mod:`scheduling.cost`): :func:`simulate`, :func:`compare`,
  :func:`lower_bound_cost`, :func:`parse_scheduler` and the schedulers' names;
* the fairness engine (papers 000 and 001, :mod:`scheduling.fairness`): :func:`allocate`,
  :func:`share`;
* MRSU sizing (paper 002, :mod:`scheduling.mrsu`): :func:`mrsu_result`, :func:`mrsu_sweep`,
  :func:`mrsu_advise`;
* UDRF (paper 004, :mod:`scheduling.udrf`): :func:`offline_document`, :func:`online_document`.

The cost engine and the scenario are imported with the package; the other papers' entry points
on first use (``scheduling.allocate`` imports the fairness engine then), so that ``import
scheduling`` costs no more than it did before they were exported here. The cost engine's hot
modules run compiled when their current source has been built (:mod:`scheduling.compiled`,
installed first, before any of them is imported).
"""

import importlib
from typing import TYPE_CHECKING, Any

from . import blas_threads as blas_threads  # first: before numpy starts OpenBLAS's threads
from . import compiled as compiled  # then the compiled core's finder, before any module it serves
from .cost import (
    ORDERINGS,
    PLACEMENTS,
    SCHEDULERS,
    SimulationResult,
    compare,
    lower_bound_cost,
    parse_scheduler,
    simulate,
)
from .errors import FieldError, ScenarioError, SchedulingError, SolverTimeout
from .scenario import (
    DEFAULT_RESOURCES,
    LIMITS,
    OptionField,
    Scenario,
    SimulationOptions,
    Workload,
    load_scenario_json,
    name_problem,
    option_fields,
    parse_overrides,
    parse_scenario,
    parse_workload,
)

#: Entry points imported on first use, and the paper package each comes from.
_ON_FIRST_USE = {
    "allocate": "scheduling.fairness",
    "share": "scheduling.fairness",
    "mrsu_advise": "scheduling.mrsu",
    "mrsu_result": "scheduling.mrsu",
    "mrsu_sweep": "scheduling.mrsu",
    "offline_document": "scheduling.udrf",
    "online_document": "scheduling.udrf",
}

if TYPE_CHECKING:  # what the type checker sees: the names themselves, with their types
    from .fairness import allocate, share
    from .mrsu import mrsu_advise, mrsu_result, mrsu_sweep
    from .udrf import offline_document, online_document
else:  # at run time, the paper is imported when one of its names is first asked for (PEP 562)

    def __getattr__(name: str) -> Any:
        if name not in _ON_FIRST_USE:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(_ON_FIRST_USE[name]), name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})


__all__ = [
    "DEFAULT_RESOURCES",
    "LIMITS",
    "ORDERINGS",
    "PLACEMENTS",
    "SCHEDULERS",
    "FieldError",
    "OptionField",
    "Scenario",
    "ScenarioError",
    "SchedulingError",
    "SimulationOptions",
    "SimulationResult",
    "SolverTimeout",
    "Workload",
    "allocate",
    "compare",
    "load_scenario_json",
    "lower_bound_cost",
    "mrsu_advise",
    "mrsu_result",
    "mrsu_sweep",
    "name_problem",
    "offline_document",
    "online_document",
    "option_fields",
    "parse_overrides",
    "parse_scenario",
    "parse_scheduler",
    "parse_workload",
    "share",
    "simulate",
]
