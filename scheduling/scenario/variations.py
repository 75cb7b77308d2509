"""What if: a scenario document varied by a load factor, prices and VM counts, seeded.

The one place a scenario is changed for a question an operator asks ("what if load doubles, spot
prices drop 60 %, I have 10 more m1.large?"): the planner's what-if panel and the sweeps vary
documents with :func:`vary`, and :func:`scheduling.scenario.scenario_differences` then names
what changed. Every random choice takes the seed.

Load, two ways (``load_mode``):

* ``"jobs"`` (the arrival rate): ``factor`` times as many jobs. Each job is kept ``floor(f)``
  times and once more with probability ``f - floor(f)``; a copy gets a new id (``<id>~2``) and
  arrives within the mean gap between arrivals after its original (seeded), its deadline
  relative to its own arrival; below 1, each job is kept with probability ``f`` (at least one).
* ``"sizes"`` (the job size): every job's duration times ``factor``; its deadline stays where it
  was (relative to its arrival), so larger jobs have less slack.

Prices and counts, per VM type: ``price_factors`` multiply on-demand prices (and the type's
reserved and spot prices with them); ``counts`` set how many VMs a type has; and, with the
reserved and spot prices of scenario version 4, ``spot_discounts`` make a type's VMs beyond its
reserved ones spot VMs at that fraction off the on-demand price (0.7: 70 % off; 0 takes spot
away), ``spot_interruptions`` set their rate of interruptions per hour, ``reserved_counts``
set how many are reserved (0 takes the reservation away) and ``reserved_discounts`` price them
at that fraction off the on-demand price. A count that leaves fewer VMs than the type reserves
(or gives spot) trims those to it.

>>> doc = {"vm_types": [{"name": "s", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 2}],
...        "resources": ["cpu"],
...        "jobs": [{"id": "a", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1}, "duration_s": 60},
...                 {"id": "b", "arrival_s": 100, "executors": 1, "executor": {"cpu": 1}, "duration_s": 60}]}
>>> [j["id"] for j in vary(doc, load=2.0, seed=1)["jobs"]]
['a', 'a~2', 'b', 'b~2']
>>> vary(doc, load=1.5, load_mode="sizes")["jobs"][0]["duration_s"]
90.0
>>> vary(doc, price_factors={"s": 0.4}, counts={"s": 5})["vm_types"][0]
{'name': 's', 'capacity': {'cpu': 4}, 'price_per_hour': 0.4, 'count': 5}
>>> varied = vary(doc, reserved_counts={"s": 1}, reserved_discounts={"s": 0.4}, spot_discounts={"s": 0.7})
>>> varied["vm_types"][0]["reserved"], varied["vm_types"][0]["spot"]
({'price_per_hour': 0.6, 'count': 1}, {'price_per_hour': 0.3})
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import FieldError, ScenarioError
from ..params import Param, read_params, seed_param

__all__ = ["LOAD_MODES", "VARIATION_PARAMS", "scaled_durations", "variation_text", "vary", "vary_apart"]

LOAD_MODES = ("jobs", "sizes")
#: The largest load factor (a scenario of 1,000 jobs becomes at most 100,000).
MAX_LOAD = 100.0
#: The most jobs a varied document may hold.
MAX_JOBS = 1_000_000

VARIATION_PARAMS: tuple[Param, ...] = (
    Param("load", "number", "Load factor", "Multiply the load: 2 doubles it, 0.5 halves it.", default=1.0,
          minimum=0, exclusive_minimum=True, maximum=MAX_LOAD),
    Param("load_mode", "choice", "Load as", "More jobs (each copy with a new id, arriving near its "
          "original), or longer jobs (each duration scaled, deadlines where they were).", default="jobs",
          choices=LOAD_MODES, choice_labels=("more jobs", "longer jobs")),
    Param("price_factors", "mapping", "Price factors", "Multiply VM types' hourly prices: a factor per "
          "VM type (0.4: 60 % off).", default={}, item=Param("factor", "number", minimum=0, maximum=1000)),
    Param("counts", "mapping", "VM counts", "Set VM types' counts (0 takes a type out of the cluster).",
          default={}, item=Param("count", "integer", minimum=0, maximum=100_000)),
    Param("spot_discounts", "mapping", "Spot discounts", "Make a VM type's VMs beyond its reserved ones "
          "spot VMs at this fraction off the on-demand price (0.7: 70 % off; 0 takes spot away).",
          default={}, item=Param("discount", "number", minimum=0, maximum=1)),
    Param("spot_interruptions", "mapping", "Spot interruptions per hour", "Set how often each spot VM "
          "of a type is reclaimed, per hour (0: never).", default={},
          item=Param("rate", "number", minimum=0, maximum=3_600)),
    Param("reserved_counts", "mapping", "Reserved VMs", "Set how many of a VM type's VMs are reserved, "
          "billed for the whole horizon (0 takes the reservation away).", default={},
          item=Param("count", "integer", minimum=0, maximum=100_000)),
    Param("reserved_discounts", "mapping", "Reserved discounts", "Price a VM type's reserved VMs at this "
          "fraction off the on-demand price (0.4: 40 % off).", default={},
          item=Param("discount", "number", minimum=0, maximum=1)),
    seed_param("The seed of the load's random choices (which jobs are copied or kept, and when)."),
)


def variation_text(values: Mapping[str, Any]) -> str:
    """A variation in words, for a run's name: ``load x2 (more jobs); m1.large price x0.4``.

    >>> variation_text({"load": 2.0, "load_mode": "jobs", "counts": {"m1.large": 10}})
    'load x2 (more jobs); m1.large: 10 VMs'
    >>> print(variation_text({"spot_discounts": {"m": 0.7}, "reserved_counts": {"m": 2},
    ...                       "reserved_discounts": {"m": 0.4}, "spot_interruptions": {"m": 0.5}}))
    m spot 70% off; m spot interrupted 0.5/h; m: 2 reserved VMs; m reserved 40% off
    """
    words = []
    load = values.get("load")
    if load is not None and load != 1:
        how = "more jobs" if values.get("load_mode", "jobs") == "jobs" else "longer jobs"
        words.append(f"load x{load:g} ({how})")
    words += [f"{t} price x{f:g}" for t, f in (values.get("price_factors") or {}).items()]
    words += [f"{t}: {n} VMs" for t, n in (values.get("counts") or {}).items()]
    words += [f"{t} spot {d * 100:g}% off" if d else f"{t} no spot"
              for t, d in (values.get("spot_discounts") or {}).items()]
    words += [f"{t} spot interrupted {r:g}/h" for t, r in (values.get("spot_interruptions") or {}).items()]
    words += [f"{t}: {n} reserved VMs" for t, n in (values.get("reserved_counts") or {}).items()]
    words += [f"{t} reserved {d * 100:g}% off" for t, d in (values.get("reserved_discounts") or {}).items()]
    return "; ".join(words) or "no change"


def scaled_durations(durations: Any, factor: float) -> list[float]:
    """Jobs' durations times a load factor (``load_mode="sizes"``), as :func:`vary` writes them:
    the one rule for a document's jobs and for jobs kept in columns apart from it.

    >>> scaled_durations([60, 0.5], 1.5)
    [90.0, 0.75]
    """
    return [round(float(d) * factor, 6) for d in durations]


def _mean_gap(jobs: list[dict[str, Any]]) -> float:
    arrivals = sorted(float(j.get("arrival_s", 0)) for j in jobs)
    if len(arrivals) < 2:
        return 0.0
    return (arrivals[-1] - arrivals[0]) / (len(arrivals) - 1)


def _more_jobs(jobs: list[dict[str, Any]], factor: float, rng: np.random.Generator) -> list[dict[str, Any]]:
    gap = _mean_gap(jobs)
    whole, part = math.floor(factor), factor - math.floor(factor)
    taken: set[str] = set()
    out: list[dict[str, Any]] = []
    ids = {str(j.get("id")) for j in jobs}
    for job in jobs:
        copies = whole + (1 if rng.random() < part else 0)
        for k in range(copies):
            if k == 0:
                out.append(job)
                continue
            new = copy.deepcopy(job)
            n = k + 1
            new_id = f"{job['id']}~{n}"
            while new_id in ids or new_id in taken:
                n += 1
                new_id = f"{job['id']}~{n}"
            taken.add(new_id)
            new["id"] = new_id
            new["arrival_s"] = round(float(job.get("arrival_s", 0)) + float(rng.uniform(0, gap)), 3)
            out.append(new)
    if not out and jobs:  # fewer jobs, but never none
        out.append(jobs[int(rng.integers(len(jobs)))])
    return sorted(out, key=lambda j: (float(j.get("arrival_s", 0)), str(j.get("id"))))


def _vary_markets(types: dict[str, dict[str, Any]], values: Mapping[str, Any]) -> None:
    """Reserved and spot prices set per VM type (in place), then trimmed to the types' counts."""
    for name, d in values["reserved_discounts"].items():
        reserved = types[name].get("reserved")
        price = round(float(types[name].get("price_per_hour", 0)) * (1 - d), 9)
        if isinstance(reserved, dict):
            reserved["price_per_hour"] = price
        elif values["reserved_counts"].get(name):
            types[name]["reserved"] = {"price_per_hour": price, "count": 0}
    for name, n in values["reserved_counts"].items():
        if not n:
            types[name].pop("reserved", None)
        elif isinstance(types[name].get("reserved"), dict):
            types[name]["reserved"]["count"] = int(n)
    for name, d in values["spot_discounts"].items():
        if not d:
            types[name].pop("spot", None)
            continue
        spot = types[name].setdefault("spot", {})
        if not isinstance(spot, dict):
            spot = types[name]["spot"] = {}
        spot["price_per_hour"] = round(float(types[name].get("price_per_hour", 0)) * (1 - d), 9)
    for name, rate in values["spot_interruptions"].items():
        spot = types[name].get("spot")
        if isinstance(spot, dict):
            spot["interruptions_per_hour"] = rate
    for t in types.values():  # reserved and spot VMs within the type's count
        count = int(t.get("count", 1)) if isinstance(t.get("count", 1), int) else 0
        reserved = t.get("reserved")
        if isinstance(reserved, dict) and isinstance(reserved.get("count"), int):
            reserved["count"] = min(reserved["count"], count)
            count -= reserved["count"]
        spot = t.get("spot")
        if isinstance(spot, dict) and isinstance(spot.get("count"), int):
            spot["count"] = min(spot["count"], max(count, 0))


def vary(
    doc: Mapping[str, Any],
    *,
    load: float = 1.0,
    load_mode: str = "jobs",
    price_factors: Mapping[str, float] | None = None,
    counts: Mapping[str, int] | None = None,
    spot_discounts: Mapping[str, float] | None = None,
    spot_interruptions: Mapping[str, float] | None = None,
    reserved_counts: Mapping[str, int] | None = None,
    reserved_discounts: Mapping[str, float] | None = None,
    seed: int = 0,
    jobs_apart: int = 0,
) -> dict[str, Any]:
    """``doc`` with its load scaled, its VM types' prices changed and their counts set.

    The arguments are read by :data:`VARIATION_PARAMS` (bounds, paths); a value for a VM type
    the document does not have is refused at its path (``counts.m9``), and so is a reserved count
    for a type without a reserved price unless a reserved discount gives one
    (``reserved_counts.m1``). The document's own jobs and types are never changed: a copy is
    returned; it says version 4 when it gains reserved or spot prices. Only version-1 jobs
    (``jobs``) are scaled by load; task queues and complex jobs are left as they are.

    ``jobs_apart`` is the number of jobs kept apart from ``doc`` (a planner's big run: its
    document has ``"jobs": []``): use :func:`vary_apart`, which says how to scale them.

    Raises
    ------
    ScenarioError
        For a value out of its bounds or a VM type the document does not name.
    """
    named: dict[str, Mapping[str, Any]] = {
        "price_factors": dict(price_factors or {}), "counts": dict(counts or {}),
        "spot_discounts": dict(spot_discounts or {}), "spot_interruptions": dict(spot_interruptions or {}),
        "reserved_counts": dict(reserved_counts or {}), "reserved_discounts": dict(reserved_discounts or {}),
    }
    given: dict[str, Any] = {"load": load, "load_mode": load_mode, **named, "seed": seed}
    errors: list[FieldError] = []
    try:
        values = read_params(VARIATION_PARAMS, given, what="a variation")
    except ScenarioError as exc:  # the VM types' names too, so that one answer says everything
        errors.extend(exc.errors)
        values = {**given, "load": 1.0}
    out = copy.deepcopy(dict(doc))
    types = {str(t.get("name")): t for t in out.get("vm_types") or [] if isinstance(t, dict)}
    errors += [FieldError(f"{key}.{name}", f"is not a VM type of the scenario ({', '.join(types)})")
               for key, by_type in named.items() for name in by_type if name not in types]
    errors += [FieldError(f"reserved_counts.{name}", "the VM type has no reserved price: give a reserved "
                          "discount too")
               for name, n in named["reserved_counts"].items()
               if n and name in types and not isinstance(types[name].get("reserved"), Mapping)
               and name not in named["reserved_discounts"]]
    jobs = [j for j in out.get("jobs") or [] if isinstance(j, dict)]
    factor = float(values["load"])
    if values["load_mode"] == "jobs" and factor != 1 and jobs_apart:
        errors.append(FieldError("load", f"more jobs cannot be drawn from a run of {jobs_apart:,} jobs "
                                 "kept apart from its document (each job copied or dropped in turn); "
                                 "give the load as longer jobs, or start a run on a bigger workload"))
    elif values["load_mode"] == "jobs" and len(jobs) * factor > MAX_JOBS:
        errors.append(FieldError("load", f"would make {len(jobs) * factor:,.0f} jobs; "
                                 f"the most is {MAX_JOBS:,}"))
    if errors:
        raise ScenarioError(errors)
    for name, f in values["price_factors"].items():
        t = types[name]
        t["price_per_hour"] = round(float(t.get("price_per_hour", 0)) * f, 9)
        for market in ("reserved", "spot"):
            if isinstance(t.get(market), dict):
                t[market]["price_per_hour"] = round(float(t[market].get("price_per_hour", 0)) * f, 9)
    for name, n in values["counts"].items():
        types[name]["count"] = int(n)
    _vary_markets(types, values)
    if any("reserved" in t or "spot" in t for t in types.values()) and out.get("version", 4) < 4:
        out["version"] = 4
    if factor != 1 and jobs:
        rng = np.random.default_rng(values["seed"])
        if values["load_mode"] == "sizes":
            for job, duration in zip(jobs, scaled_durations((j["duration_s"] for j in jobs), factor),
                                     strict=True):
                job["duration_s"] = duration
        else:
            out["jobs"] = _more_jobs(jobs, factor, rng)
    return out


def vary_apart(doc: Mapping[str, Any], *, jobs_apart: int, **values: Any) -> tuple[dict[str, Any], float]:
    """:func:`vary` of a document whose ``jobs_apart`` jobs are kept apart from it (``"jobs": []``
    in ``doc``), and the factor by which their durations are to be scaled
    (:func:`scaled_durations`; 1: leave them). More jobs cannot be drawn from jobs kept apart:
    a load in mode ``"jobs"`` is refused at ``load``. With ``jobs_apart=0`` it is :func:`vary`
    (and the factor is 1: the document's own jobs are scaled in it).

    >>> head = {"vm_types": [{"name": "s", "capacity": {"cpu": 4}, "price_per_hour": 1.0}],
    ...         "resources": ["cpu"], "jobs": []}
    >>> vary_apart(head, jobs_apart=50_000, load=2.0, load_mode="sizes")[1]
    2.0
    >>> vary_apart(head, jobs_apart=50_000, load=2.0)
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: load: more jobs cannot be drawn from a run of 50,000 jobs kept \
apart from its document (each job copied or dropped in turn); give the load as longer jobs, or start a \
run on a bigger workload
    """
    varied = vary(doc, **values, jobs_apart=jobs_apart)
    sizes = values.get("load_mode", "jobs") == "sizes"
    factor = float(values.get("load", 1.0)) if jobs_apart and sizes else 1.0
    return varied, factor
