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

from ..errors import FieldError, ScenarioError
from ..scenario import Scenario

__all__ = ["MAX_CELLS", "MrsuProblem", "parse_mrsu_input", "scenario_problem"]

#: Largest applications x slots x dimensions accepted from a document.
MAX_CELLS = 20_000_000


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


def _int(value: Any, path: str, errors: list[FieldError], *, positive: bool) -> int:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    ok = ok and (value > 0 if positive else value >= 0) and abs(value) < 2**53
    if not ok:
        errors.append(
            FieldError(path, "must be a positive integer" if positive else "must be an integer >= 0")
        )
        return 0
    return int(value)


def parse_mrsu_input(doc: Any) -> MrsuProblem:
    """Validate an MRSU input document (docs/mrsu.md) and return its :class:`MrsuProblem`.

    Raises :class:`~scheduling.errors.ScenarioError` listing every problem with its path
    (``applications[2].requirements[5].mem``). A dimension an application's slot leaves out
    counts as 0; a dimension the capacity does not list is an error.
    """
    errors: list[FieldError] = []
    if not isinstance(doc, Mapping):
        raise ScenarioError.single("", "the document must be a JSON object")
    for key in doc:
        if key not in ("capacity", "applications", "name", "description"):
            errors.append(FieldError(str(key), "unknown field (expected capacity, applications)"))
    cap_doc = doc.get("capacity")
    dims: list[str] = []
    caps: list[int] = []
    if not isinstance(cap_doc, Mapping) or not cap_doc:
        errors.append(FieldError("capacity", 'must be an object of dimension -> amount, e.g. {"cpu": 64}'))
    else:
        for d, v in cap_doc.items():
            dims.append(str(d))
            caps.append(_int(v, f"capacity.{d}", errors, positive=True))
    apps = doc.get("applications")
    names: list[str] = []
    prios: list[float] = []
    reqs: list[list[list[int]]] = []
    if not isinstance(apps, list) or not apps:
        errors.append(FieldError("applications", "at least one application is needed"))
        apps = []
    slots: int | None = None
    for n, app in enumerate(apps):
        path = f"applications[{n}]"
        if not isinstance(app, Mapping):
            errors.append(FieldError(path, "must be an object with name, priority, requirements"))
            continue
        for key in app:
            if key not in ("name", "priority", "requirements"):
                errors.append(FieldError(f"{path}.{key}", "unknown field"))
        name = app.get("name", f"app{n + 1}")
        if not isinstance(name, str) or not name:
            errors.append(FieldError(f"{path}.name", "must be a non-empty string"))
        elif name in names:
            errors.append(FieldError(f"{path}.name", f"duplicate name {name!r}"))
        names.append(str(name))
        prio = app.get("priority", 1)
        if (
            not isinstance(prio, int | float)
            or isinstance(prio, bool)
            or not prio > 0
            or prio == float("inf")
        ):
            errors.append(FieldError(f"{path}.priority", "must be a positive number"))
            prio = 1
        prios.append(float(prio))
        rows = app.get("requirements")
        if not isinstance(rows, list) or not rows:
            errors.append(
                FieldError(f"{path}.requirements", "must be a non-empty list of dimension -> amount")
            )
            reqs.append([])
            continue
        if slots is None:
            slots = len(rows)
        elif len(rows) != slots:
            errors.append(
                FieldError(f"{path}.requirements", f"has {len(rows)} slots, applications[0] has {slots}")
            )
        app_rows: list[list[int]] = []
        for t, row in enumerate(rows):
            rpath = f"{path}.requirements[{t}]"
            if not isinstance(row, Mapping):
                errors.append(FieldError(rpath, "must be an object of dimension -> amount"))
                app_rows.append([0] * len(dims))
                continue
            for d in row:
                if d not in dims and dims:
                    errors.append(
                        FieldError(f"{rpath}.{d}", f"not a dimension of capacity ({', '.join(dims)})")
                    )
            app_rows.append([_int(row.get(d, 0), f"{rpath}.{d}", errors, positive=False) for d in dims])
        reqs.append(app_rows)
    if slots is not None and len(apps) * slots * max(len(dims), 1) > MAX_CELLS:
        errors.append(
            FieldError("applications", f"more than {MAX_CELLS:,} application x slot x dimension cells")
        )
    if errors:
        raise ScenarioError(errors)
    return MrsuProblem(
        dimensions=tuple(dims),
        capacity=np.asarray(caps, dtype=np.int64),
        names=tuple(names),
        priorities=np.asarray(prios, dtype=np.float64),
        requirements=np.asarray(reqs, dtype=np.int64).reshape(len(names), slots or 0, len(dims)),
    )


def scenario_problem(scenario: Scenario, *, slots: int = 30) -> tuple[MrsuProblem, dict[str, float]]:
    """The MRSU problem of a planner scenario: its frameworks as applications, its cluster as capacity.

    The horizon (first arrival to last arrival + duration) is cut into ``slots`` equal slots;
    a framework's requirement in a slot is the sum of ``executors x executor`` over its jobs
    that run at any time in the slot, as if each started on arrival (the demand, not a
    schedule). Priorities are the frameworks' weights. Amounts are scaled per dimension by the
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
    """
    res = scenario.resources
    if not scenario.jobs:
        raise ScenarioError.single("jobs", "the scenario has no jobs to take requirements from")
    if slots < 1:
        raise ScenarioError.single("slots", "must be at least 1")
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
    index = {n: i for i, n in enumerate(names)}
    for j in scenario.jobs:
        first = int(min(slots - 1, (j.arrival_s - start) // width))
        # the last slot the job runs in: its end is exclusive
        last = int(min(slots - 1, max(first, np.ceil((j.arrival_s + j.duration_s - start) / width) - 1)))
        amount = np.rint(np.asarray(j.executor) * scale).astype(np.int64) * j.executors
        req[index[j.framework], first : last + 1] += amount
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
