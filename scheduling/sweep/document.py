"""The sweep's result document, and the front door that makes it (:func:`sweep`).

A sweep document (format 1) holds what was asked and every point's record
(:func:`~scheduling.sweep.evaluate.evaluate_point`), with what they say computed once:

.. code-block:: text

    {"format": 1, "study": "sweep", "scenario": NAME, "frameworks": 2,
     "axes": {"counts.m1.large": [4, 8]}, "schedulers": ["edf-bfd"], "seeds": 3,
     "sample": null, "seed": 0,
     "points": [{"point": 1, "settings": {...}, "scheduler": ..., "seed": 0, "vms": 14,
                 "cluster": {TYPE: {"count", "price_per_hour"}}, "total_cost": ..., ...}],
     "fronts": {"deadline_miss_pct": [3, 1], "unfairness_area": [...]},   # point numbers
     "bands": {"total_cost": [LINE, ...], "deadline_miss_pct": [...]}}      # parameter_bands

The planner joins the records of a run's parts into the same document
(:func:`sweep_document`), so the tables and figures of the command line and of the run page
are made from one shape.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..scenario import parse_scenario
from .analysis import parameter_bands, pareto_front
from .evaluate import evaluate_points
from .expand import Point, settings_grid, settings_sample, sweep_points
from .params import sweep_run

__all__ = ["BAND_METRICS", "FRONTS", "options_of_records", "plan_points", "sweep", "sweep_document"]

#: The figures plotted against cost, each with its Pareto front (both lower is better).
FRONTS: tuple[str, ...] = ("deadline_miss_pct", "unfairness_area")
#: The figures drawn per axis with a band over the seeds.
BAND_METRICS: tuple[str, ...] = ("total_cost", "deadline_miss_pct")


def plan_points(options: Mapping[str, Any]) -> list[Point]:
    """The points of a sweep's options (:func:`~scheduling.sweep.params.sweep_run`): the grid
    or its sample, crossed with the schedulers and the seeds."""
    axes = options.get("vary") or {}
    sample = options.get("sample")
    settings = (settings_grid(axes) if sample is None
                else settings_sample(axes, size=int(sample), seed=int(options.get("seed") or 0)))
    return sweep_points(settings, list(options["schedulers"]), seeds=int(options["seeds"]))


def _value_order(values: Sequence[Any]) -> list[Any]:
    unique = list(dict.fromkeys(values))
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in unique)
    return sorted(unique) if numbers else unique


def options_of_records(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What a sweep asked for, as far as its records say: the axes (each value found, numbers
    in order), the schedulers (in order of the points) and the seeds. For a run whose options
    are not at hand (its figures are made from its results alone).

    >>> options_of_records([{"point": 2, "scheduler": "b", "seed": 1, "settings": {"load.jobs": 2.0}},
    ...                     {"point": 1, "scheduler": "a", "seed": 0, "settings": {"load.jobs": 1.0}}])
    {'vary': {'load.jobs': [1.0, 2.0]}, 'schedulers': ['a', 'b'], 'seeds': 2}
    """
    ordered = sorted(records, key=lambda r: int(r["point"]))
    keys = list(dict.fromkeys(k for r in ordered for k in r.get("settings") or {}))
    return {
        "vary": {k: _value_order([(r.get("settings") or {}).get(k) for r in ordered
                                  if k in (r.get("settings") or {})]) for k in keys},
        "schedulers": list(dict.fromkeys(str(r.get("scheduler")) for r in ordered)),
        "seeds": max((int(r.get("seed") or 0) for r in ordered), default=0) + 1,
    }


def sweep_document(
    options: Mapping[str, Any] | None, records: Sequence[Mapping[str, Any]], *, scenario: str = "",
    frameworks: int = 0,
) -> dict[str, Any]:
    """The sweep document of ``records`` (any order: they are sorted by point), with the
    Pareto fronts of cost against each of :data:`FRONTS` and the bands of :data:`BAND_METRICS`.
    Without ``options``, what the records say of them (:func:`options_of_records`).

    >>> recs = [{"point": 2, "scheduler": "s", "seed": 0, "settings": {}, "total_cost": 1.0,
    ...          "deadline_miss_pct": 10.0},
    ...         {"point": 1, "scheduler": "s", "seed": 0, "settings": {}, "total_cost": 2.0,
    ...          "deadline_miss_pct": 0.0}]
    >>> doc = sweep_document({"vary": {}, "schedulers": ["s"], "seeds": 1}, recs)
    >>> [p["point"] for p in doc["points"]], doc["fronts"]
    ([1, 2], {'deadline_miss_pct': [2, 1], 'unfairness_area': []})
    """
    points = sorted((dict(r) for r in records), key=lambda r: int(r["point"]))
    if options is None:
        options = options_of_records(points)
    axes = {k: list(v) for k, v in (options.get("vary") or {}).items()}
    return {
        "format": 1,
        "study": "sweep",
        "scenario": scenario,
        "frameworks": frameworks,
        "axes": axes,
        "schedulers": list(options.get("schedulers") or []),
        "seeds": int(options.get("seeds") or 1),
        "sample": options.get("sample"),
        "seed": int(options.get("seed") or 0),
        "points": points,
        "fronts": {y: pareto_front(points, "total_cost", y) for y in FRONTS},
        "bands": {m: parameter_bands(points, axes, m) for m in BAND_METRICS},
    }


def sweep(
    doc: Mapping[str, Any], params: Mapping[str, Any], *, progress: Callable[[float], None] | None = None,
) -> dict[str, Any]:
    """Sweep the scenario document ``doc``: every point of ``params`` (:data:`SWEEP_PARAMS`)
    simulated, in one process, and the sweep document of their records.

    Parameters
    ----------
    doc : mapping
        A scenario document (version 1-3).
    params : mapping
        ``vary``, ``schedulers``, ``seeds``, ``sample``, ``seed``.
    progress : callable, optional
        The fraction done, after each point.

    Raises
    ------
    ScenarioError
        For an invalid scenario or parameters (every problem at its path), or a point whose
        varied scenario is not valid.

    Examples
    --------
    >>> doc = {"vm_types": [{"name": "s", "capacity": {"cpu": 4}, "price_per_hour": 3.6, "count": 1}],
    ...        "resources": ["cpu"],
    ...        "jobs": [{"id": "a", "arrival_s": 0, "executors": 1, "executor": {"cpu": 4},
    ...                  "duration_s": 100}]}
    >>> out = sweep(doc, {"vary": {"counts.s": [1, 2], "prices.s": [1, 0.5]}})
    >>> [(p["settings"], round(p["total_cost"], 3)) for p in out["points"]]
    [({'counts.s': 1, 'prices.s': 1.0}, 0.1), ({'counts.s': 1, 'prices.s': 0.5}, 0.05), \
({'counts.s': 2, 'prices.s': 1.0}, 0.1), ({'counts.s': 2, 'prices.s': 0.5}, 0.05)]
    """
    scenario = parse_scenario(dict(doc))
    options = sweep_run(params, scenario=scenario)
    records = evaluate_points(scenario.to_dict(), plan_points(options), progress=progress)
    return sweep_document(options, records, scenario=scenario.name, frameworks=len(scenario.frameworks))
