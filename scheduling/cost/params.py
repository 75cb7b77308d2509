"""The parameters of a scheduler comparison (paper 003), declared once (:mod:`scheduling.params`).

:data:`COMPARISON_PARAMS` declares what a comparison takes: the schedulers (specs such as
``edf-bfd`` or ``edf-ilp:ilp_time_limit_s=0.5``), overrides of the scenario's run options
(:func:`~scheduling.scenario.options.option_params`), the baseline and the seed;
:func:`comparison_run` reads a request's parameters with them and checks each spec and option
against the scenario's resources, returning the run's options.

>>> comparison_run({"schedulers": ["edf-bfd", "fifo-spread"]})["baseline"]
'edf-bfd'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import FieldError, ScenarioError
from ..params import Param, read_params, seed_param
from ..scenario import DEFAULT_RESOURCES, Scenario, SimulationOptions
from ..scenario.options import option_params
from .schedulers import SCHEDULERS, parse_scheduler

__all__ = ["COMPARISON_PARAMS", "DEFAULT_SCHEDULERS", "comparison_run"]

#: The schedulers a comparison compares when the request names none: paper 003's FIFO baseline
#: against its cost-aware EDF + best-fit-decreasing scheduler.
DEFAULT_SCHEDULERS = ("fifo-consolidate", "edf-bfd")

COMPARISON_PARAMS: tuple[Param, ...] = (
    Param("schedulers", "list", "Schedulers", "Scheduler specs <ordering>-<placement>[:key=value,...], e.g. "
          "edf-bfd, morpheus-ilp or edf-bfd:rut.cpu=0.5,rut.mem=0.5; one part of the run each.",
          default=list(DEFAULT_SCHEDULERS), choices=tuple(SCHEDULERS), item=Param("scheduler", "text"),
          min_items=1, variants=True),
    Param("options", "object", "Options", "Overrides of the scenario's run options (null: its own).",
          fields=option_params()),
    Param("baseline", "text", "Baseline", "The scheduler savings are measured against (default: the first)."),
    seed_param("The seed of the schedulers' random choices."),
)


def comparison_run(
    params: Mapping[str, Any], *, scenario: Scenario | None = None, max_variants: int | None = None
) -> dict[str, Any]:
    """A comparison's options, read by :data:`COMPARISON_PARAMS` and checked by the library
    against the scenario (without one, against the default resources, so that one response
    can report every problem): ``schedulers[1]: unknown placement ...``,
    ``options.rut: weights must sum to 1 ...``, ``baseline``, ``seed``."""
    values = read_params(COMPARISON_PARAMS, params, what="a comparison", max_variants=max_variants)
    errors: list[FieldError] = []
    resources = scenario.resources if scenario is not None else DEFAULT_RESOURCES
    base = scenario_options = scenario.options if scenario is not None else SimulationOptions()
    given = params.get("options")
    if given:
        try:
            base = SimulationOptions.from_dict(given, resources=resources, base=scenario_options)
        except ScenarioError as exc:
            errors.extend(exc.errors)
    specs: list[str] = []
    for i, spec in enumerate(values["schedulers"]):
        path = f"schedulers[{i}]"
        try:
            parsed = parse_scheduler(spec, resources=resources, base=base, path=path)
        except ScenarioError as exc:
            errors.extend(exc.errors)
            continue
        if parsed.spec in specs:
            errors.append(FieldError(path, f"{parsed.spec!r} is listed twice"))
            continue
        specs.append(parsed.spec)
    baseline = values["baseline"]
    if baseline is None:
        baseline = specs[0] if specs else None
    elif specs and baseline.strip() not in specs:
        errors.append(FieldError("baseline", "must be one of the run's schedulers"))
    else:
        baseline = baseline.strip()
    if errors:
        raise ScenarioError(errors)
    return {"schedulers": specs, "baseline": baseline, "seed": values["seed"],
            "options": dict(given) if given else None}
