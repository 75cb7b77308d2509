"""The MRSU problem (paper 002): a capacity per dimension and applications with per-slot requirements.

Requirements and capacities are integers in each dimension's base unit (cores, GB, Mbps; notes
§6), because the GCD composition (eq. 6 of paper 002) needs integers. :func:`parse_mrsu_input`
validates a JSON document and names every problem by its field path.

>>> p = parse_mrsu_input({"capacity": {"cpu": 12, "mem": 48},
...                       "applications": [{"name": "a", "priority": 2,
...                                         "requirements": [{"cpu": 4, "mem": 8}, {"cpu": 2}]}]})
>>> p.dimensions, p.requirements.tolist()
(('cpu', 'mem'), [[[4, 8], [2, 0]]])
>>> parse_mrsu_input({"capacity": {"cpu": 0}, "applications": []})
Traceback (most recent call last):
...
scheduling.errors.ScenarioError: capacity.cpu: must be a positive integer
applications: at least one application is needed
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import ScenarioError
from ..scenario import Scenario
from ..scenario.checks import Problems, name_problem, text_problem
from ..scenario.limits import LIMITS as SCENARIO_LIMITS

__all__ = ["LIMITS", "MAX_CELLS", "MrsuProblem", "input_document", "parse_mrsu_input", "scenario_problem"]

#: Size limits of an MRSU problem (docs/mrsu.md, "Limits"): of an input document, refused with
#: the field's path before its requirements are read, and of a scenario's horizon in slots.
#: Dimensions are at most a scenario's resources, because the planner records an input as a
#: scenario whose resources are its dimensions; names follow the scenario's rule for names
#: (:func:`scheduling.scenario.checks.name_problem`).
LIMITS: dict[str, int] = {
    "applications": 10_000,
    "slots": 10_000,
    "dimensions": int(SCENARIO_LIMITS["resources"]),
    # applications x slots x dimensions: the requirements' array (8 bytes a cell)
    "cells": 20_000_000,
    # every amount (capacity, requirement) is below this: integers a JSON number holds exactly
    "amount": 2**53,
}
#: Largest applications x slots x dimensions accepted (``LIMITS["cells"]``).
MAX_CELLS = LIMITS["cells"]


@dataclass(frozen=True, eq=False)
class MrsuProblem:
    """Arrays of one problem. ``requirements[n, t, d]`` is application ``n``'s need in slot ``t``.

    ``priorities`` are the raw weights (positive); the allocation normalises them.
    """

    dimensions: tuple[str, ...]
    capacity: NDArray[np.int64]  # (D,)
    names: tuple[str, ...]
    priorities: NDArray[np.float64]  # (N,)
    requirements: NDArray[np.int64]  # (N, S, D)

    @property
    def slots(self) -> int:
        return int(self.requirements.shape[1])


def _int(value: Any, path: str, problems: Problems, *, positive: bool) -> int:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    ok = ok and (value > 0 if positive else value >= 0)
    if not ok:
        problems.add(path, "must be a positive integer" if positive else "must be an integer >= 0")
        return 0
    if value >= LIMITS["amount"]:
        problems.add(path, f"must be below 2^53 ({LIMITS['amount']:,})")
        return 0
    return int(value)


def _over(problems: Problems, path: str, count: int, key: str, what: str) -> bool:
    """Whether ``count`` passes ``LIMITS[key]`` (and says so at ``path``)."""
    if count <= LIMITS[key]:
        return False
    problems.add(path, f"has {count:,} {what}; the limit is {LIMITS[key]:,}")
    return True


def parse_mrsu_input(doc: Any) -> MrsuProblem:
    """Validate an MRSU input document (docs/mrsu.md) and return its :class:`MrsuProblem`.

    Raises :class:`~scheduling.errors.ScenarioError` listing every problem with its path
    (``applications[2].requirements[5].mem``; at most ``errors_reported`` of the scenario's
    limits, then a count). A dimension an application's slot leaves out counts as 0; a
    dimension the capacity does not list is an error. A document past :data:`LIMITS`
    (applications, slots, dimensions, cells) is refused before its requirements are read.

    >>> parse_mrsu_input({"capacity": {f"d{k}": 1 for k in range(17)}, "applications": [{}]})
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: capacity: has 17 dimensions; the limit is 16
    """
    problems = Problems()
    if not isinstance(doc, Mapping):
        raise ScenarioError.single("", "the document must be a JSON object")
    for key in doc:
        if key not in ("capacity", "applications", "name", "description"):
            problems.add(str(key), "unknown field (expected capacity, applications)")
    for key, check in (("name", name_problem), ("description", text_problem)):
        if key in doc and (problem := check(doc[key])) is not None:
            problems.add(key, problem)
    cap_doc = doc.get("capacity")
    dims: list[str] = []
    caps: list[int] = []
    too_big = False
    if not isinstance(cap_doc, Mapping) or not cap_doc:
        problems.add("capacity", 'must be an object of dimension -> amount, e.g. {"cpu": 64}')
    elif _over(problems, "capacity", len(cap_doc), "dimensions", "dimensions"):
        too_big = True
    else:
        for d, v in cap_doc.items():
            if (problem := name_problem(d)) is not None:
                problems.add(f"capacity.{d}", f"a dimension's name {problem}")
            dims.append(str(d))
            caps.append(_int(v, f"capacity.{d}", problems, positive=True))
    apps = doc.get("applications")
    if not isinstance(apps, list) or not apps:
        problems.add("applications", "at least one application is needed")
        apps = []
    # Sizes first: a document past a limit is refused before anything large is read.
    too_big |= _over(problems, "applications", len(apps), "applications", "applications")
    slots: int | None = None
    for n, app in enumerate([] if too_big else apps):
        rows = app.get("requirements") if isinstance(app, Mapping) else None
        if isinstance(rows, list) and rows:
            too_big |= _over(problems, f"applications[{n}].requirements", len(rows), "slots", "slots")
            slots = len(rows) if slots is None else slots
    cells = len(apps) * (slots or 0) * max(len(dims), 1)
    if not too_big and cells > LIMITS["cells"]:
        problems.add(
            "applications",
            f"{len(apps):,} applications x {slots:,} slots x {len(dims)} dimensions is {cells:,} cells; "
            f"the limit is {LIMITS['cells']:,}",
        )
        too_big = True
    if too_big:
        problems.raise_if_any()
    names: list[str] = []
    prios: list[float] = []
    reqs: list[list[list[int]]] = []
    slots = None
    for n, app in enumerate(apps):
        path = f"applications[{n}]"
        if not isinstance(app, Mapping):
            problems.add(path, "must be an object with name, priority, requirements")
            continue
        for key in app:
            if key not in ("name", "priority", "requirements"):
                problems.add(f"{path}.{key}", "unknown field")
        name = app.get("name", f"app{n + 1}")
        if (problem := name_problem(name)) is not None:
            problems.add(f"{path}.name", problem)
        elif name in names:
            problems.add(f"{path}.name", f"duplicate name {name!r}")
        names.append(str(name))
        prio = app.get("priority", 1)
        if not isinstance(prio, int | float) or isinstance(prio, bool) or not 0 < prio < float("inf"):
            problems.add(f"{path}.priority", "must be a positive number")
            prio = 1
        prios.append(float(prio))
        rows = app.get("requirements")
        if not isinstance(rows, list) or not rows:
            problems.add(f"{path}.requirements", "must be a non-empty list of dimension -> amount")
            reqs.append([])
            continue
        if slots is None:
            slots = len(rows)
        elif len(rows) != slots:
            problems.add(f"{path}.requirements", f"has {len(rows)} slots, applications[0] has {slots}")
        app_rows: list[list[int]] = []
        for t, row in enumerate(rows):
            rpath = f"{path}.requirements[{t}]"
            if not isinstance(row, Mapping):
                problems.add(rpath, "must be an object of dimension -> amount")
                app_rows.append([0] * len(dims))
                continue
            for d in row:
                if d not in dims and dims:
                    problems.add(f"{rpath}.{d}", f"not a dimension of capacity ({', '.join(dims)})")
            app_rows.append([_int(row.get(d, 0), f"{rpath}.{d}", problems, positive=False) for d in dims])
        reqs.append(app_rows)
    problems.raise_if_any()
    return MrsuProblem(
        dimensions=tuple(dims),
        capacity=np.asarray(caps, dtype=np.int64),
        names=tuple(names),
        priorities=np.asarray(prios, dtype=np.float64),
        requirements=np.asarray(reqs, dtype=np.int64).reshape(len(names), slots or 0, len(dims)),
    )


def input_document(problem: MrsuProblem, *, name: str | None = None) -> dict[str, Any]:
    """The MRSU input document of ``problem``: what :func:`parse_mrsu_input` reads back into it.

    >>> p = parse_mrsu_input({"capacity": {"cpu": 12, "mem": 48},
    ...                       "applications": [{"name": "a", "priority": 2, "requirements": [{"cpu": 4}]}]})
    >>> input_document(p, name="one")
    {'name': 'one', 'capacity': {'cpu': 12, 'mem': 48}, 'applications': [{'name': 'a', 'priority': 2.0, \
'requirements': [{'cpu': 4, 'mem': 0}]}]}
    """
    doc: dict[str, Any] = {"name": name} if name else {}
    doc["capacity"] = {d: int(c) for d, c in zip(problem.dimensions, problem.capacity.tolist(), strict=True)}
    doc["applications"] = [
        {
            "name": app,
            "priority": float(prio),
            "requirements": [dict(zip(problem.dimensions, map(int, slot), strict=True)) for slot in rows],
        }
        for app, prio, rows in zip(problem.names, problem.priorities.tolist(), problem.requirements.tolist(),
                                   strict=True)
    ]
    return doc


def _peak_per_slot(jobs: list[Any], scale: np.ndarray, start: float, width: float, slots: int) -> np.ndarray:
    """Per slot and dimension, the most the ``jobs`` (each running from its arrival for its
    duration, end exclusive) demand at one instant of the slot, in scaled whole units."""
    amounts = np.array([np.rint(np.asarray(j.executor) * scale) * j.executors for j in jobs], dtype=np.int64)
    begins = np.array([j.arrival_s for j in jobs], dtype=float)
    ends = begins + np.array([j.duration_s for j in jobs], dtype=float)
    # Events in time order, ends before starts at the same instant (a job ending at t frees
    # its resources for one starting at t); the running level after each event.
    times = np.concatenate([ends, begins])
    deltas = np.concatenate([-amounts, amounts])
    order = np.lexsort((np.r_[np.zeros(len(jobs)), np.ones(len(jobs))], times))
    times, level = times[order], np.cumsum(deltas[order], axis=0)
    out = np.zeros((slots, amounts.shape[1]), dtype=np.int64)
    # the level at each slot's beginning (after every event at or before it) ...
    slot_begins = start + width * np.arange(slots)
    before = np.searchsorted(times, slot_begins, side="right") - 1
    out[before >= 0] = level[before[before >= 0]]
    # ... and every level reached inside the slot (a level reached at the horizon's end is 0)
    inside = np.minimum(slots - 1, ((times - start) // width).astype(np.int64))
    np.maximum.at(out, inside, level)
    return out


def scenario_problem(scenario: Scenario, *, slots: int = 30) -> tuple[MrsuProblem, dict[str, float]]:
    """The MRSU problem of a planner scenario: its frameworks as applications, its cluster as capacity.

    The horizon (first arrival to last arrival + duration) is cut into ``slots`` equal slots;
    a framework's requirement in a slot is, per dimension, the most its jobs demand at once
    (``executors x executor`` summed over the jobs running at an instant) at any instant of the
    slot, as if each job started on arrival (the demand, not a schedule): what must be
    reserved for the slot, whatever the slot's width. Jobs that follow one another in a slot
    do not add up. Priorities are the frameworks' weights. Amounts are scaled per dimension by the
    smallest power of ten (<= 10^6) making every executor size and VM capacity whole; the
    second value returned is each dimension's base unit (``1 / scale``) to convert back.

    >>> from scheduling.scenario import parse_scenario
    >>> s = parse_scenario({"vm_types": [{"name": "m", "capacity": {"cpu": 8, "mem": 32},
    ...                                   "price_per_hour": 0.4, "count": 2}],
    ...                     "jobs": [{"id": "a", "arrival_s": 0, "executors": 2,
    ...                               "executor": {"cpu": 1.5, "mem": 4}, "duration_s": 50},
    ...                              {"id": "b", "arrival_s": 50, "executors": 1,
    ...                               "executor": {"cpu": 2, "mem": 8}, "duration_s": 50}]})
    >>> p, base = scenario_problem(s, slots=2)
    >>> p.names, p.capacity.tolist(), p.requirements.tolist(), base
    (('default',), [160, 64], [[[30, 8], [20, 8]]], {'cpu': 0.1, 'mem': 1.0})
    >>> scenario_problem(s, slots=1)[0].requirements.tolist()  # a then b: at most 3 cpu at once
    [[[30, 8]]]
    """
    res = scenario.resources
    if not scenario.jobs:
        raise ScenarioError.single("jobs", "the scenario has no jobs to take requirements from")
    if not 1 <= slots <= LIMITS["slots"]:
        raise ScenarioError.single("slots", f"must be in 1..{LIMITS['slots']:,}")
    frameworks = list(scenario.framework_map().values())
    names = [f.name for f in frameworks if any(j.framework == f.name for j in scenario.jobs)]
    sizes = np.array(
        [j.executor for j in scenario.jobs] + [t.capacity for t in scenario.vm_types], dtype=float
    )
    scale = np.ones(len(res))
    for d in range(len(res)):
        for k in range(7):
            v = sizes[:, d] * 10**k
            if np.all(np.abs(v - np.rint(v)) <= 1e-6 * np.maximum(1.0, np.abs(v))):
                scale[d] = 10**k
                break
        else:
            raise ScenarioError.single(f"resources.{res[d]}", "amounts need more than 6 decimal places")
    start = min(j.arrival_s for j in scenario.jobs)
    end = max(j.arrival_s + j.duration_s for j in scenario.jobs)
    width = (end - start) / slots if end > start else 1.0
    req = np.zeros((len(names), slots, len(res)), dtype=np.int64)
    for f, name in enumerate(names):
        req[f] = _peak_per_slot([j for j in scenario.jobs if j.framework == name], scale, start, width, slots)
    cap = np.rint(np.array(scenario.total_capacity()) * scale).astype(np.int64)
    weights = {f.name: f.weight for f in frameworks}
    problem = MrsuProblem(
        dimensions=tuple(res),
        capacity=np.maximum(cap, 1),
        names=tuple(names),
        priorities=np.array([weights[n] for n in names], dtype=np.float64),
        requirements=req,
    )
    return problem, {r: float(1 / scale[d]) for d, r in enumerate(res)}
