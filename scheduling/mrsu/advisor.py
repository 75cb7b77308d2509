"""The MRSU advisor: which unit to sell or schedule a planner scenario in, and what it costs.

For a scenario's frameworks (their jobs' executor sizes and their ``task_demand``) and its
cluster (VM types with capacity, hourly price and count), every candidate unit -- the GCD
composition (eq. 6 of paper 002, over the executor sizes and every VM type's capacity), the
MIN composition (eq. 7) and a unit the user types in -- is priced and measured: units the
cluster holds (a unit never spans two machines), each framework's over-allocation when its
executors are rounded up to whole full-tuple units, the capacity each VM type strands, the
price per unit, and the VM type that wastes least for that unit.

Scenario amounts need not be integers: each dimension is scaled by the smallest power of ten
(up to 10^6) that makes every amount of it whole, and the units are reported back in the
scenario's own units.

>>> from scheduling.scenario import parse_scenario
>>> s = parse_scenario({"vm_types": [{"name": "m", "capacity": {"cpu": 8, "mem": 32},
...                                   "price_per_hour": 0.4, "count": 2}],
...                     "frameworks": [{"name": "spark", "task_demand": {"cpu": 2, "mem": 8}},
...                                    {"name": "web", "task_demand": {"cpu": 1, "mem": 2}}],
...                     "jobs": []})
>>> a = mrsu_advise(s)
>>> a["candidates"]["gcd"]["mrsu"], a["candidates"]["gcd"]["units_held"]
({'cpu': 1, 'mem': 2}, 16)
>>> a["candidates"]["gcd"]["frameworks"]["spark"]["units_per_executor"]
4.0
>>> a["candidates"]["gcd"]["vm_types"]["m"]["price_per_unit"]
0.05
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import FieldError, ScenarioError
from ..scenario import Scenario
from .compose import mrsu_gcd, mrsu_min

__all__ = ["mrsu_advise", "parse_unit"]


def parse_unit(
    unit: str | Mapping[str, Any], resources: Sequence[str], *, path: str = "--unit"
) -> dict[str, float]:
    """A unit typed in, ``"cpu=1,mem=4"`` or ``{"cpu": 1, "mem": 4}``, as resource -> amount.

    Every resource of ``resources`` must be given, a positive number, and no other. Errors
    name ``<path>.<resource>`` (``path`` alone when the whole value is wrong): the command
    line's ``--unit.cpu`` by default, a request field's ``unit.cpu`` with ``path="unit"``.

    >>> parse_unit("cpu=1, mem=4", ("cpu", "mem"))
    {'cpu': 1.0, 'mem': 4.0}
    >>> parse_unit({"cpu": 2, "mem": 8}, ("cpu", "mem"), path="unit")
    {'cpu': 2.0, 'mem': 8.0}
    >>> parse_unit("cpu=0", ("cpu", "mem"))
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: --unit.cpu: must be a positive number
    --unit.mem: missing (the scenario's resources: cpu, mem)
    >>> parse_unit("cpu=1,mem=4,cpu=2", ("cpu", "mem"))
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: --unit.cpu: is given twice
    >>> parse_unit({"cpu": True}, ("cpu",), path="unit")
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: unit.cpu: must be a positive number
    """
    resources = tuple(resources)

    def at(key: str) -> str:
        return f"{path}.{key}" if key else path

    if isinstance(unit, str):
        pairs: list[tuple[str, Any, bool]] = []
        for part in filter(None, (p.strip() for p in unit.split(","))):
            name, sign, text = part.partition("=")
            pairs.append((name.strip(), text.strip(), bool(sign)))
    elif isinstance(unit, Mapping):
        pairs = [(str(k), v, True) for k, v in unit.items()]
    else:
        raise ScenarioError.single(path, "must be resource -> amount, or text like cpu=1,mem=4")
    out: dict[str, float] = {}
    errors: list[FieldError] = []
    seen: set[str] = set()
    for key, value, given in pairs:
        if key in seen:
            errors.append(FieldError(at(key), "is given twice"))
            continue
        seen.add(key)
        if not given or key not in resources:
            errors.append(
                FieldError(at(key), f"write RESOURCE=AMOUNT with resources {', '.join(resources)}")
            )
            continue
        number = isinstance(value, str | int | float) and not isinstance(value, bool)
        try:
            v = float(value) if number else math.nan
        except ValueError:
            v = math.nan
        if not (math.isfinite(v) and v > 0):
            errors.append(FieldError(at(key), "must be a positive number"))
        else:
            out[key] = v
    for r in resources:
        if r not in out and not any(e.path == at(r) for e in errors):
            errors.append(FieldError(at(r), f"missing (the scenario's resources: {', '.join(resources)})"))
    if errors:
        raise ScenarioError(errors)
    return out


def _scale(values: np.ndarray) -> int:
    """Smallest power of ten (<= 10^6) making every value whole, per column; 0 if none does."""
    for k in range(7):
        v = values * 10**k
        if np.all(np.abs(v - np.rint(v)) <= 1e-6 * np.maximum(1.0, np.abs(v))):
            return int(10**k)
    return 0


def _num(x: float) -> float | int:
    v = round(float(x), 9)
    return int(v) if v.is_integer() else v


def mrsu_advise(scenario: Scenario, *, unit: Mapping[str, float] | None = None) -> dict[str, Any]:
    """Compare the GCD, MIN and (given) user unit for ``scenario``; see the module docstring.

    Returns the advisor document (docs/mrsu.md, "Advisor document"): ``candidates`` keyed by
    ``gcd``, ``min`` and ``user``, and ``recommended``, the candidate of least
    over-allocation (ties: least stranded capacity).
    """
    res = scenario.resources
    # (framework, distinct executor size) -> executors of that size over the framework's jobs
    counted: dict[tuple[str, tuple[float, ...]], float] = {}
    for f in scenario.framework_map().values():
        jobs = [j for j in scenario.jobs if j.framework == f.name]
        for j in jobs:
            counted[(f.name, j.executor)] = counted.get((f.name, j.executor), 0.0) + j.executors
        if f.task_demand is not None:
            counted.setdefault((f.name, f.task_demand), 0.0 if jobs else 1.0)
    sizes = [(f, size, n) for (f, size), n in counted.items()]
    if not sizes:
        raise ScenarioError.single("frameworks", "no executor sizes: give jobs or frameworks' task_demand")
    ex = np.array([s[1] for s in sizes], dtype=np.float64)
    weight = np.array([s[2] for s in sizes])
    weight = np.where(weight > 0, weight, 1e-12)
    caps = np.array([t.capacity for t in scenario.vm_types], dtype=np.float64)
    counts = np.array([t.count for t in scenario.vm_types], dtype=np.int64)
    user = None if unit is None else np.array([unit[r] for r in res], dtype=np.float64)
    scale = np.ones(len(res))
    errors = []
    for d, r in enumerate(res):
        col = np.concatenate([ex[:, d], caps[:, d]] + ([user[d : d + 1]] if user is not None else []))
        scale[d] = _scale(col)
        if scale[d] == 0:
            errors.append(FieldError(f"resources.{r}", "amounts need more than 6 decimal places"))
    if errors:
        raise ScenarioError(errors)
    ex_i = np.rint(ex * scale).astype(np.int64)
    caps_i = np.rint(caps * scale).astype(np.int64)
    candidates: dict[str, np.ndarray] = {
        "gcd": mrsu_gcd(np.vstack([ex_i, caps_i]), caps_i[0]),
        "min": mrsu_min(ex_i, caps_i.max(axis=0)),
    }
    if user is not None:
        candidates["user"] = np.rint(user * scale).astype(np.int64)
    names = [s[0] for s in sizes]
    out: dict[str, Any] = {
        "study": "mrsu-advice",
        "scenario": scenario.name,
        "resources": list(res),
        "capacity": {r: _num(c) for r, c in zip(res, scenario.total_capacity(), strict=True)},
        "candidates": {},
    }
    # A dimension no executor uses has no part in the unit (0): it neither limits nor is sold.
    used = ex_i.max(axis=0) > 0
    if not used.any():
        raise ScenarioError.single("jobs", "every executor size is zero: there is nothing to size a unit on")
    cluster = (caps_i * counts[:, None]).sum(axis=0)

    def pct(part: np.ndarray, whole: np.ndarray) -> float:
        ok = used & (whole > 0)
        return round(100 * float((part[ok] / whole[ok]).mean()), 4) if ok.any() else 0.0

    for key, raw in candidates.items():
        psi = np.where(used, np.maximum(raw, 1), 0)
        div = np.where(used, psi, 1)
        per_machine = (caps_i // div)[:, used].min(axis=1)  # full tuples on one machine
        stranded = caps_i - per_machine[:, None] * psi
        need = (-(-ex_i // div))[:, used].max(axis=1)
        alloc = need[:, None] * psi
        rho = np.divide(alloc - ex_i, alloc, out=np.zeros(alloc.shape), where=alloc > 0)
        over_amount = (alloc - ex_i) / scale
        frameworks: dict[str, Any] = {}
        for fname in dict.fromkeys(names):
            idx = [i for i, n in enumerate(names) if n == fname]
            w = weight[idx] / weight[idx].sum()
            frameworks[fname] = {
                "executor_sizes": [
                    {
                        "size": {r: _num(v) for r, v in zip(res, ex[i], strict=True)},
                        "executors": _num(weight[i]),
                        "units": int(need[i]),
                    }
                    for i in idx
                ],
                "units_per_executor": round(float(w @ need[idx]), 6),
                "over_allocated": {r: round(float(w @ over_amount[idx, d]), 6) for d, r in enumerate(res)},
                "misallocation_over": round(float(w @ rho[idx].mean(axis=1)), 6),
            }
        wall = weight / weight.sum()
        vm_types: dict[str, Any] = {}
        for k, t in enumerate(scenario.vm_types):
            share = pct(stranded[k], caps_i[k]) / 100
            vm_types[t.name] = {
                "units_per_machine": int(per_machine[k]),
                "units": int(per_machine[k] * counts[k]),
                "stranded": {r: _num(stranded[k, d] * counts[k] / scale[d]) for d, r in enumerate(res)},
                "stranded_pct": round(100 * share, 4),
                "price_per_unit": round(t.price_per_hour / int(per_machine[k]), 9)
                if per_machine[k]
                else None,
            }
        held = int((per_machine * counts).sum())
        usable = [k for k in range(len(caps_i)) if per_machine[k] > 0]
        best = min(
            usable,
            key=lambda k: (
                vm_types[scenario.vm_types[k].name]["stranded_pct"],
                vm_types[scenario.vm_types[k].name]["price_per_unit"],
            ),
            default=None,
        )
        mix = None
        if best is not None and held:
            n_best = -(-held // int(per_machine[best]))
            t = scenario.vm_types[best]

            ranks = {k: (vm_types[scenario.vm_types[k].name]["stranded_pct"],
                         vm_types[scenario.vm_types[k].name]["price_per_unit"]) for k in usable}
            mix = {
                "vm_type": t.name,
                "count": int(n_best),
                "units": int(n_best * per_machine[best]),
                "price_per_hour": round(n_best * t.price_per_hour, 9),
                "stranded_pct": vm_types[t.name]["stranded_pct"],
                # the other types that strand as little at the same price per unit
                "as_good": [
                    scenario.vm_types[k].name for k in usable if k != best and ranks[k] == ranks[best]
                ],
            }
        total_stranded = (stranded * counts[:, None]).sum(axis=0)
        out["candidates"][key] = {
            "mrsu": {r: _num(psi[d] / scale[d]) for d, r in enumerate(res)},
            "units_held": held,
            "units_pooled": int((cluster // div)[used].min()),
            "misallocation_over": round(float(wall @ rho.mean(axis=1)), 6),
            "stranded": {r: _num(total_stranded[d] / scale[d]) for d, r in enumerate(res)},
            "stranded_pct": pct(total_stranded, cluster),
            "price_per_unit": round(sum(t.price_per_hour * t.count for t in scenario.vm_types) / held, 9)
            if held
            else None,
            "frameworks": frameworks,
            "vm_types": vm_types,
            "least_waste_vm_type": mix,
        }
    out["recommended"] = min(
        out["candidates"],
        key=lambda k: (out["candidates"][k]["misallocation_over"], out["candidates"][k]["stranded_pct"]),
    )
    return out
