"""Cluster What-If Planner's scheduling library: scenarios, simulators and measures.

Plain Python (numpy, PuLP, the standard library), never Django. See ``docs/results.md``.
"""

from .bounds import lower_bound_cost
from .errors import FieldError, ScenarioError, SchedulingError, SolverTimeout
from .scenario import LIMITS, Scenario, SimulationOptions, load_scenario_json, parse_scenario
from .schedulers import ORDERINGS, PLACEMENTS, SCHEDULERS, parse_scheduler
from .simulator import SimulationResult, compare, simulate

__all__ = [
    "LIMITS",
    "ORDERINGS",
    "PLACEMENTS",
    "SCHEDULERS",
    "FieldError",
    "Scenario",
    "ScenarioError",
    "SchedulingError",
    "SimulationOptions",
    "SimulationResult",
    "SolverTimeout",
    "compare",
    "load_scenario_json",
    "lower_bound_cost",
    "parse_scenario",
    "parse_scheduler",
    "simulate",
]
