"""One point of a sweep, evaluated: the scenario varied by its setting, simulated by its scheduler.

:func:`point_scenario` builds the point's scenario with
:func:`scheduling.scenario.variations.vary` (counts, price factors, load with the point's seed)
and its run options; :func:`evaluate_point` simulates it with the cost engine's front door
(:func:`scheduling.cost.simulate`) and keeps the point's record: its setting, scheduler and
seed, and the figures a sweep compares (cost, deadline misses, completion, unfairness).
:func:`evaluate_points` runs a batch with progress per point.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..cost import simulate
from ..errors import ScenarioError
from ..numbers import finite, integral
from ..scenario import Scenario, SimulationOptions, parse_scenario
from ..scenario.variations import vary_apart
from .axes import option_overrides, variation
from .expand import Point

__all__ = [
    "RECORD_FIELDS",
    "evaluate_point",
    "evaluate_points",
    "point_comparison",
    "point_comparison_apart",
    "point_scenario",
    "unfairness_area",
]

#: The figures a point's record keeps of its result document (docs/results.md), in order.
RECORD_FIELDS: tuple[str, ...] = (
    "total_cost", "lower_bound_cost", "deadline_jobs", "deadline_missed", "deadline_miss_pct",
    "mean_completion_s", "makespan_s", "jobs_total",
)
_COUNTS = ("deadline_jobs", "deadline_missed", "jobs_total")


def point_scenario(doc: Mapping[str, Any], point: Point) -> tuple[Scenario, SimulationOptions]:
    """The scenario of ``point`` (``doc`` varied by its setting, load copies drawn with its seed;
    a VM type counted 0 left out) and its run options (the scenario's own with the setting's run
    options over them).

    Raises
    ------
    ScenarioError
        When the varied scenario is not valid (a count of 0 that leaves a job nowhere to run).
    """
    scenario, options, _ = _point_varied(doc, point, jobs_apart=0)
    return scenario, options


def _point_varied(
    doc: Mapping[str, Any], point: Point, *, jobs_apart: int
) -> tuple[Scenario, SimulationOptions, float]:
    """:func:`point_scenario` of a document whose ``jobs_apart`` jobs are kept apart, and the
    factor of their durations (:func:`~scheduling.scenario.variations.vary_apart`)."""
    kwargs = variation(point.settings)
    overrides = option_overrides(kwargs)
    varied, factor = vary_apart(doc, jobs_apart=jobs_apart, **kwargs, seed=point.seed)
    # vary() declares that a count of 0 takes the type out of the cluster; a scenario lists only
    # types it has (count >= 1), so the point's cluster is the types with a count.
    varied["vm_types"] = [t for t in varied.get("vm_types") or []
                          if not (isinstance(t, dict) and t.get("count") == 0)]
    scenario = parse_scenario(varied)
    options = SimulationOptions.from_dict(overrides, resources=scenario.resources, base=scenario.options)
    return scenario, options, factor


def unfairness_area(result: Mapping[str, Any]) -> float | None:
    """The frameworks' unfairness areas (share-seconds below their fair line, paper 001 §II)
    added up; ``None`` when fewer than two frameworks ran or there was no contention window.

    >>> unfairness_area({"fairness": {"frameworks": {"a": {"unfairness_area": 2.5},
    ...                                              "b": {"unfairness_area": 1.0}}}})
    3.5
    >>> unfairness_area({"fairness": None}) is None
    True
    """
    fairness = result.get("fairness") or {}
    areas = [finite((f or {}).get("unfairness_area")) for f in (fairness.get("frameworks") or {}).values()]
    known = [a for a in areas if a is not None]
    return float(sum(known)) if known else None


def evaluate_point(doc: Mapping[str, Any], point: Point) -> dict[str, Any]:
    """The record of ``point`` on the scenario document ``doc``.

    Simulates one scheduler on the varied scenario (and solves its lower bound, a small linear
    programme). The record: ``point``, ``settings``, ``scheduler``, ``seed``, ``vms`` (the
    point's cluster: VMs in all), ``cluster`` (VM type to count and hourly price: what a
    comparison of the point needs), :data:`RECORD_FIELDS` and ``unfairness_area``; a point
    whose varied scenario is not valid (no VM left that holds a job) has ``error`` (every
    problem, with its path) and no figures, so that one such point does not cost the others.
    """
    try:
        scenario, options = point_scenario(doc, point)
    except ScenarioError as exc:
        more = f"; and {len(exc.errors) - 3} more" if len(exc.errors) > 3 else ""
        return {**point.to_dict(), "error": "; ".join(str(e) for e in exc.errors[:3]) + more,
                **dict.fromkeys(RECORD_FIELDS), "unfairness_area": None}
    result = simulate(scenario, scheduler=point.scheduler, options=options, seed=point.seed).to_dict()
    record: dict[str, Any] = point.to_dict()
    record["vms"] = sum(t.count for t in scenario.vm_types)
    record["cluster"] = {t.name: {"count": t.count, "price_per_hour": t.price_per_hour}
                         for t in scenario.vm_types}
    for key in RECORD_FIELDS:
        value = result.get(key)
        record[key] = integral(value) if key in _COUNTS else finite(value)
    record["unfairness_area"] = unfairness_area(result)
    return record


def evaluate_points(
    doc: Mapping[str, Any], points: Sequence[Point], *, progress: Callable[[float], None] | None = None,
) -> list[dict[str, Any]]:
    """The records of ``points``, one after another; ``progress`` gets the fraction done after
    each point (an exception it raises stops the batch)."""
    records: list[dict[str, Any]] = []
    for k, point in enumerate(points):
        records.append(evaluate_point(doc, point))
        if progress is not None:
            progress((k + 1) / len(points))
    return records


def point_comparison(
    doc: Mapping[str, Any], point: Point, schedulers: Sequence[str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A point as an ordinary comparison: the scenario document of its cluster and load (as
    :func:`point_scenario` builds it) and a comparison's parameters
    (:data:`scheduling.cost.params.COMPARISON_PARAMS`): ``schedulers`` (the sweep's), the
    point's scheduler as the ``baseline``, its ``seed`` and its run options' overrides.

    >>> doc = {"vm_types": [{"name": "s", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 2}],
    ...        "resources": ["cpu"],
    ...        "jobs": [{"id": "a", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1},
    ...                  "duration_s": 60}]}
    >>> point = Point(3, {"counts.s": 5, "options.boot_time_s": 30.0}, "morpheus", 1)
    >>> scenario, params = point_comparison(doc, point, ["edf-bfd", "morpheus"])
    >>> scenario["vm_types"][0]["count"], params
    (5, {'schedulers': ['edf-bfd', 'morpheus'], 'baseline': 'morpheus', 'seed': 1, \
'options': {'boot_time_s': 30.0}})
    """
    scenario, params, _ = point_comparison_apart(doc, point, schedulers, jobs_apart=0)
    return scenario, params


def point_comparison_apart(
    doc: Mapping[str, Any], point: Point, schedulers: Sequence[str], *, jobs_apart: int
) -> tuple[dict[str, Any], dict[str, Any], float]:
    """:func:`point_comparison` of a document whose ``jobs_apart`` jobs are kept apart from it
    (``"jobs": []``: a planner's big run), and the factor by which their durations are to be
    scaled (:func:`~scheduling.scenario.variations.scaled_durations`; 1: leave them). A point
    that draws more jobs cannot be built from jobs kept apart (``ScenarioError`` at ``load``)."""
    scenario, _, factor = _point_varied(doc, point, jobs_apart=jobs_apart)
    overrides = option_overrides(variation(point.settings))
    specs = list(schedulers) or [point.scheduler]
    if point.scheduler not in specs:
        specs.append(point.scheduler)
    params = {"schedulers": specs, "baseline": point.scheduler, "seed": point.seed,
              "options": overrides or None}
    return scenario.to_dict(), params, factor
