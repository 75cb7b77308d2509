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

__all__ = ["MAX_CELLS", "MrsuProblem", "parse_mrsu_input"]

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
