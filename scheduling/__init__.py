"""Cluster What-If Planner's scheduling library: scenarios, simulators and measures.

Plain Python (numpy, PuLP, the standard library), never Django. See ``docs/results.md``.
"""

from .cost.bounds import lower_bound_cost
from .cost.schedulers import ORDERINGS, PLACEMENTS, SCHEDULERS, parse_scheduler
from .cost.simulator import SimulationResult, compare, simulate
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
    "compare",
    "load_scenario_json",
    "lower_bound_cost",
    "name_problem",
    "option_fields",
    "parse_overrides",
    "parse_scenario",
    "parse_scheduler",
    "parse_workload",
    "simulate",
]
