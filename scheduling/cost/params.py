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

import re
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


def _read(
    params: Mapping[str, Any], max_variants: int | None
) -> tuple[dict[str, Any], list[FieldError], set[str]]:
    """The declared parameters read, the problems found and the parameters they are about.

    A parameter with a problem is read as its default, so that the rules of the others still
    run: a bad seed does not hide a bad scheduler, and one response reports both.
    """
    try:
        values = read_params(COMPARISON_PARAMS, params, what="a comparison", max_variants=max_variants)
        return values, [], set()
    except ScenarioError as exc:
        bad = {re.split(r"[.\[]", e.path, maxsplit=1)[0] for e in exc.errors}
        names = {p.name for p in COMPARISON_PARAMS}
        kept = {k: v for k, v in params.items() if k in names and k not in bad}
        return read_params(COMPARISON_PARAMS, kept), list(exc.errors), bad


def _scheduler_items(
    params: Mapping[str, Any], values: Mapping[str, Any], errors: list[FieldError], bad: set[str]
) -> list[tuple[int, str]]:
    """The specs to check against the scenario, with their positions in the request: every
    one, or when some item could not be read (``schedulers[1]: must be text``), the others."""
    if "schedulers" not in bad:
        return list(enumerate(values["schedulers"]))
    raw = params.get("schedulers")
    paths = {e.path for e in errors}
    if not isinstance(raw, list) or "schedulers" in paths:  # the list itself is wrong
        return []
    return [
        (i, spec) for i, spec in enumerate(raw) if isinstance(spec, str) and f"schedulers[{i}]" not in paths
    ]


def comparison_run(
    params: Mapping[str, Any], *, scenario: Scenario | None = None, max_variants: int | None = None
) -> dict[str, Any]:
    """A comparison's options, read by :data:`COMPARISON_PARAMS` and checked by the library
    against the scenario (without one, against the default resources, so that one response
    can report every problem).

    Parameters
    ----------
    params : mapping
        The request's parameters: ``schedulers`` (default :data:`DEFAULT_SCHEDULERS`),
        ``options`` (overrides of the scenario's run options), ``baseline`` (default the first
        scheduler), ``seed`` (default 0).
    scenario : Scenario, optional
        The scenario the specs and options are checked against (its resources, its options).
    max_variants : int, optional
        The most schedulers one run may list (the planner's per-run cap).

    Returns
    -------
    dict
        The run's stored options: ``schedulers``, ``baseline``, ``seed``, ``options`` (the
        overrides as given, ``None`` for the scenario's own).

    Raises
    ------
    ScenarioError
        With every problem at its path: ``schedulers[1]: unknown placement ...``,
        ``options.rut: weights must sum to 1 ...``, ``baseline``, ``seed``.

    Examples
    --------
    >>> comparison_run({"schedulers": ["edf-bfd", "morpheus"], "seed": 3, "options": {"boot_time_s": 30}})
    {'schedulers': ['edf-bfd', 'morpheus'], 'baseline': 'edf-bfd', 'seed': 3, 'options': {'boot_time_s': 30}}
    >>> comparison_run({"schedulers": ["edf-bfd", "edf-quantum"], "seed": -1})
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: seed: must be a whole number from 0 to 9,223,372,036,854,775,807
    schedulers[1]: unknown placement 'quantum' in 'edf-quantum' (placements: bfd, ilp, consolidate, \
spread; named schedulers: fifo-spread, fifo-consolidate, morpheus, edf-bfd, edf-ilp)
    """
    values, errors, bad = _read(params, max_variants)
    resources = scenario.resources if scenario is not None else DEFAULT_RESOURCES
    base = scenario_options = scenario.options if scenario is not None else SimulationOptions()
    given = params.get("options")
    if given and "options" not in bad:
        try:
            base = SimulationOptions.from_dict(given, resources=resources, base=scenario_options)
        except ScenarioError as exc:
            errors.extend(exc.errors)
    specs: list[str] = []
    for i, spec in _scheduler_items(params, values, errors, bad):
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
    elif specs and "schedulers" not in bad and baseline.strip() not in specs:
        errors.append(FieldError("baseline", "must be one of the run's schedulers"))
    else:
        baseline = baseline.strip()
    if errors:
        raise ScenarioError(errors)
    return {"schedulers": specs, "baseline": baseline, "seed": values["seed"],
            "options": dict(given) if given else None}
