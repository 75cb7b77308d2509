"""Scheduler names: a job ordering and an executor placement, with per-scheduler options.

A spec is ``<ordering>-<placement>`` (or one of the named schedulers), optionally followed
by option overrides: ``edf-bfd:rut.cpu=0.5,rut.mem=0.5`` or ``edf-ilp:ilp_time_limit_s=0.5``.

>>> spec = parse_scheduler("edf-bfd:rut.cpu=0.5,rut.mem=0.5", resources=("cpu", "mem"))
>>> spec.ordering, spec.placement, spec.options.rut_weights(("cpu", "mem"))
('edf', 'bfd', (0.5, 0.5))
>>> parse_scheduler("lifo-bfd", resources=("cpu", "mem"))
Traceback (most recent call last):
...
scheduling.errors.ScenarioError: scheduler: unknown ordering 'lifo' (orderings: fifo, edf, morpheus)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ScenarioError
from ..scenario import SimulationOptions, option_fields, parse_overrides
from .orderings import ORDERING_CLASSES
from .placement import PLACEMENT_DESCRIPTIONS, PLACEMENT_FUNCTIONS

#: Job orderings (:mod:`scheduling.cost.orderings`) and executor placements
#: (:mod:`scheduling.cost.placement`).
ORDERINGS = tuple(ORDERING_CLASSES)
PLACEMENTS = tuple(PLACEMENT_FUNCTIONS)

#: The named schedulers of paper 003's evaluation and their (ordering, placement).
SCHEDULERS: dict[str, tuple[str, str]] = {
    "fifo-spread": ("fifo", "spread"),  # Spark's default: arrival order, round-robin executors
    "fifo-consolidate": ("fifo", "consolidate"),  # the paper's FIFO baseline
    "morpheus": ("morpheus", "consolidate"),  # eq. 10 ordering, packed executors
    "edf-bfd": ("edf", "bfd"),  # Algorithm 1 + Algorithm 3
    "edf-ilp": ("edf", "ilp"),  # Algorithm 1 + Algorithm 2
}
# ``edf-bfd:edf_backfill=true``: EDF where a waiting deadline job does not block later ones.


def describe_scheduler(name: str) -> str:
    """What a scheduler does, in one line: its ordering, then its placement.

    >>> describe_scheduler("edf-bfd")  # doctest: +ELLIPSIS
    'Ordering: deadline jobs earliest deadline first, ... Placement: best-fit decreasing: ...'
    """
    key = name.strip().lower().partition(":")[0]
    ordering, _, placement = key.partition("-")
    if key in SCHEDULERS:
        ordering, placement = SCHEDULERS[key]
    if ordering not in ORDERING_CLASSES or placement not in PLACEMENT_DESCRIPTIONS:
        raise ValueError(f"unknown scheduler {name!r}")
    return (f"Ordering: {ORDERING_CLASSES[ordering].description}. "
            f"Placement: {PLACEMENT_DESCRIPTIONS[placement]}.")


@dataclass(frozen=True)
class SchedulerSpec:
    spec: str  # as given; results are keyed by it
    ordering: str
    placement: str
    options: SimulationOptions


def parse_scheduler(
    spec: str,
    *,
    resources: tuple[str, ...],
    base: SimulationOptions | None = None,
    path: str = "scheduler",
) -> SchedulerSpec:
    """Parse a scheduler spec; raises :class:`ScenarioError` naming ``path``.

    The overrides after ``:`` are read by :func:`~scheduling.scenario.parse_overrides`
    against the declared options of a scenario with ``resources``, over ``base``.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ScenarioError.single(path, "must be a scheduler name such as edf-bfd")
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name in SCHEDULERS:
        ordering, placement = SCHEDULERS[name]
    else:
        ordering, _, placement = name.partition("-")
        if ordering not in ORDERINGS:
            raise ScenarioError.single(
                path, f"unknown ordering {ordering!r} (orderings: {', '.join(ORDERINGS)})"
            )
        if placement not in PLACEMENTS:
            raise ScenarioError.single(
                path,
                f"unknown placement {placement!r} in {name!r} (placements: {', '.join(PLACEMENTS)}; "
                f"named schedulers: {', '.join(SCHEDULERS)})",
            )
    overrides = parse_overrides(rest, option_fields(resources), path=path)
    options = SimulationOptions.from_dict(overrides, resources=resources, path=path, base=base)
    return SchedulerSpec(spec=spec.strip(), ordering=ordering, placement=placement, options=options)

