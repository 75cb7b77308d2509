"""The scenario document (JSON, version 4): parsing, validation and serialisation.

Documents of versions 1, 2 and 3 stay valid and are written back as they were.

A scenario describes a cluster (VM types with capacities, hourly prices and counts), the
frameworks (tenants) that share it and their jobs; a workload is the frameworks and jobs
alone. The package has seven parts:

* :mod:`~scheduling.scenario.limits`: the version, the default resources and the size limits;
* :mod:`~scheduling.scenario.checks`: the rules fields are read by, the name rule among them;
* :mod:`~scheduling.scenario.options`: run options, declared once (:func:`option_fields`)
  and overridden with ``key=value`` text (:func:`parse_overrides`);
* :mod:`~scheduling.scenario.document`: the dataclasses (:class:`Scenario`, :class:`Workload`, ...);
* :mod:`~scheduling.scenario.validation`: :func:`parse_scenario` and :func:`parse_workload`;
* :mod:`~scheduling.scenario.workload_fields`: the frameworks and jobs they read field by field;
* :mod:`~scheduling.scenario.differences`: how two scenarios differ (:func:`scenario_differences`).

The front doors are :func:`parse_scenario` (a whole document) and :func:`parse_workload`
(frameworks and jobs without a cluster); their docstrings show them at work.
"""

from .checks import name_problem, text_problem
from .differences import ScenarioDifference, scenario_differences
from .document import (
    MARKETS,
    ComplexJob,
    ComplexTask,
    Framework,
    Job,
    ReservedPrice,
    Scenario,
    SpotPrice,
    TaskQueue,
    VMType,
    Workload,
)
from .fit import JobShapes, check_jobs_fit, executor_matrix
from .limits import DEFAULT_RESOURCES, LIMITS, OFFER_POLICIES, SCENARIO_VERSION
from .options import (
    OPTION_DECLARATIONS,
    OptionDeclaration,
    OptionField,
    SimulationOptions,
    option_fields,
    parse_overrides,
    read_option_values,
)
from .validation import executors_that_fit, load_scenario_json, parse_scenario, parse_workload, read_json_text

__all__ = [
    "DEFAULT_RESOURCES",
    "LIMITS",
    "MARKETS",
    "OFFER_POLICIES",
    "OPTION_DECLARATIONS",
    "SCENARIO_VERSION",
    "ComplexJob",
    "ComplexTask",
    "Framework",
    "Job",
    "JobShapes",
    "OptionDeclaration",
    "OptionField",
    "ReservedPrice",
    "Scenario",
    "ScenarioDifference",
    "SimulationOptions",
    "SpotPrice",
    "TaskQueue",
    "VMType",
    "Workload",
    "check_jobs_fit",
    "executor_matrix",
    "executors_that_fit",
    "load_scenario_json",
    "name_problem",
    "option_fields",
    "parse_overrides",
    "parse_scenario",
    "parse_workload",
    "read_json_text",
    "read_option_values",
    "scenario_differences",
    "text_problem",
]
