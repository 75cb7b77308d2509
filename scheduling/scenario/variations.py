"""What if: a scenario document varied by a load factor, price factors and VM counts, seeded.

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
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import FieldError, ScenarioError
from ..params import Param, read_params, seed_param

__all__ = ["LOAD_MODES", "VARIATION_PARAMS", "variation_text", "vary"]

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
    seed_param("The seed of the load's random choices (which jobs are copied or kept, and when)."),
)


def variation_text(values: Mapping[str, Any]) -> str:
    """A variation in words, for a run's name: ``load x2 (more jobs); m1.large price x0.4``.

    >>> variation_text({"load": 2.0, "load_mode": "jobs", "counts": {"m1.large": 10}})
    'load x2 (more jobs); m1.large: 10 VMs'
    """
    words = []
    load = values.get("load")
    if load is not None and load != 1:
        how = "more jobs" if values.get("load_mode", "jobs") == "jobs" else "longer jobs"
        words.append(f"load x{load:g} ({how})")
    words += [f"{t} price x{f:g}" for t, f in (values.get("price_factors") or {}).items()]
    words += [f"{t}: {n} VMs" for t, n in (values.get("counts") or {}).items()]
    return "; ".join(words) or "no change"


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


def vary(
    doc: Mapping[str, Any],
    *,
    load: float = 1.0,
    load_mode: str = "jobs",
    price_factors: Mapping[str, float] | None = None,
    counts: Mapping[str, int] | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """``doc`` with its load scaled, its VM types' prices multiplied and their counts set.

    The arguments are read by :data:`VARIATION_PARAMS` (bounds, paths); a price factor or a count
    for a VM type the document does not have is refused at its path (``counts.m9``). The
    document's own jobs and types are never changed: a copy is returned. Only version-1 jobs
    (``jobs``) are scaled by load; task queues and complex jobs are left as they are.

    Raises
    ------
    ScenarioError
        For a value out of its bounds or a VM type the document does not name.
    """
    named: dict[str, Mapping[str, Any]] = {"price_factors": dict(price_factors or {}),
                                           "counts": dict(counts or {})}
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
    jobs = [j for j in out.get("jobs") or [] if isinstance(j, dict)]
    factor = float(values["load"])
    if values["load_mode"] == "jobs" and len(jobs) * factor > MAX_JOBS:
        errors.append(FieldError("load", f"would make {len(jobs) * factor:,.0f} jobs; "
                                 f"the most is {MAX_JOBS:,}"))
    if errors:
        raise ScenarioError(errors)
    for name, f in values["price_factors"].items():
        types[name]["price_per_hour"] = round(float(types[name].get("price_per_hour", 0)) * f, 9)
    for name, n in values["counts"].items():
        types[name]["count"] = int(n)
    if factor != 1 and jobs:
        rng = np.random.default_rng(values["seed"])
        if values["load_mode"] == "sizes":
            for job in jobs:
                job["duration_s"] = round(float(job["duration_s"]) * factor, 6)
        else:
            out["jobs"] = _more_jobs(jobs, factor, rng)
    return out
