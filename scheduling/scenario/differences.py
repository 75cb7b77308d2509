"""How two scenarios differ, in an operator's words: before comparing two runs' results.

>>> from scheduling.scenario import parse_scenario
>>> a = parse_scenario({"vm_types": [{"name": "s", "capacity": {"cpu": 4, "mem": 16},
...     "price_per_hour": 0.24, "count": 6}], "jobs": [{"id": "j1", "arrival_s": 0,
...     "executors": 1, "executor": {"cpu": 1, "mem": 1}, "duration_s": 60}]})
>>> b = parse_scenario({"vm_types": [{"name": "s", "capacity": {"cpu": 4, "mem": 16},
...     "price_per_hour": 0.24, "count": 10}], "jobs": [{"id": "j1", "arrival_s": 0,
...     "executors": 2, "executor": {"cpu": 1, "mem": 1}, "duration_s": 60}]})
>>> for section in scenario_differences(a, b):
...     print(section.title, "|", "; ".join(section.lines))
Cluster | s: 6 → 10 VMs
Workload | 1 job changed (executors, sizes, times or deadline), e.g. j1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from .document import Framework, Job, Scenario, VMType
from .options import SimulationOptions

__all__ = ["ScenarioDifference", "scenario_differences"]

#: How many names a line lists before it says "and N more".
SHOWN = 5


@dataclass(frozen=True)
class ScenarioDifference:
    """One part of the scenario (cluster, workload, options) and what changed in it."""

    title: str
    lines: tuple[str, ...]


def _names(names: Sequence[str]) -> str:
    listed = ", ".join(names[:SHOWN])
    return listed if len(names) <= SHOWN else f"{listed} and {len(names) - SHOWN:,} more"


def _number(value: float) -> str:
    return f"{value:g}"


def _vm_type_changes(name: str, a: VMType, b: VMType, resources: tuple[str, ...]) -> list[str]:
    out = []
    if a.count != b.count:
        out.append(f"{name}: {a.count} → {b.count} VMs")
    if a.price_per_hour != b.price_per_hour:
        out.append(f"{name}: price {_number(a.price_per_hour)} → {_number(b.price_per_hour)} per hour")
    if a.reserved != b.reserved:
        out.append(f"{name}: reserved {_reserved(a)} → {_reserved(b)}")
    if a.spot != b.spot:
        out.append(f"{name}: spot {_spot(a)} → {_spot(b)}")
    if a.capacity != b.capacity:
        before = ", ".join(f"{_number(x)} {r}" for r, x in zip(resources, a.capacity, strict=True))
        after = ", ".join(f"{_number(x)} {r}" for r, x in zip(resources, b.capacity, strict=True))
        out.append(f"{name}: capacity {before} → {after}")
    return out


def _reserved(t: VMType) -> str:
    """A VM type's reserved VMs in words: ``2 at 0.15 per hour`` (version 4)."""
    r = t.reserved
    return "none" if r is None else f"{r.count} at {_number(r.price_per_hour)} per hour"


def _spot(t: VMType) -> str:
    """A VM type's spot VMs in words: ``4 at 0.07 per hour, 0.5 interruptions/h`` (version 4)."""
    s = t.spot
    if s is None:
        return "none"
    text = f"{t.market_counts()['spot']} at {_number(s.price_per_hour)} per hour"
    if s.interruptions_per_hour:
        text += f", {_number(s.interruptions_per_hour)} interruptions/h"
    return text


def _cluster(a: Scenario, b: Scenario) -> list[str]:
    types_a = {t.name: t for t in a.vm_types}
    types_b = {t.name: t for t in b.vm_types}
    lines = []
    only_a = [f"{n} ×{types_a[n].count}" for n in types_a if n not in types_b]
    only_b = [f"{n} ×{types_b[n].count}" for n in types_b if n not in types_a]
    if only_a:
        lines.append(f"only in A: {_names(only_a)}")
    if only_b:
        lines.append(f"only in B: {_names(only_b)}")
    if a.resources == b.resources:
        for name in types_a:
            if name in types_b:
                lines += _vm_type_changes(name, types_a[name], types_b[name], a.resources)
    else:
        lines.append(f"resources {', '.join(a.resources)} → {', '.join(b.resources)}")
    return lines


def _job_key(job: Job, resources: tuple[str, ...]) -> tuple[Any, ...]:
    return (job.framework, job.arrival_s, job.executors, dict(zip(resources, job.executor, strict=True)),
            job.duration_s, job.deadline_s)


def _workload(a: Scenario, b: Scenario) -> list[str]:
    lines = []
    if len(a.jobs) != len(b.jobs):
        lines.append(f"{len(a.jobs):,} → {len(b.jobs):,} jobs")
    jobs_a = {j.id: j for j in a.jobs}
    jobs_b = {j.id: j for j in b.jobs}
    only_a = [i for i in jobs_a if i not in jobs_b]
    only_b = [i for i in jobs_b if i not in jobs_a]
    if only_a:
        lines.append(f"{len(only_a):,} job{'s' * (len(only_a) != 1)} only in A: {_names(only_a)}")
    if only_b:
        lines.append(f"{len(only_b):,} job{'s' * (len(only_b) != 1)} only in B: {_names(only_b)}")
    changed = [i for i in jobs_a if i in jobs_b
               and _job_key(jobs_a[i], a.resources) != _job_key(jobs_b[i], b.resources)]
    if changed:
        lines.append(f"{len(changed):,} job{'s' * (len(changed) != 1)} changed (executors, sizes, times or "
                     f"deadline), e.g. {_names(changed)}")
    sigma_a = dict(zip((j.id for j in a.jobs), a.network_sensitivities(), strict=True))
    sigma_b = dict(zip((j.id for j in b.jobs), b.network_sensitivities(), strict=True))
    sensitivity_changed = [i for i in sigma_a if i in sigma_b and sigma_a[i] != sigma_b[i]]
    if sensitivity_changed:
        n = len(sensitivity_changed)
        lines.append(f"network sensitivity (notes §8) changed for {n:,} job{'s' * (n != 1)}, "
                     f"e.g. {_names(sensitivity_changed)}")
    frameworks_a = {f.name: f for f in a.frameworks}
    frameworks_b = {f.name: f for f in b.frameworks}
    for label, names in (("only in A", [n for n in frameworks_a if n not in frameworks_b]),
                         ("only in B", [n for n in frameworks_b if n not in frameworks_a])):
        if names:
            lines.append(f"frameworks {label}: {_names(names)}")
    reweighted = [
        f"{n} {_number(frameworks_a[n].weight)} → {_number(frameworks_b[n].weight)}"
        for n in frameworks_a
        if n in frameworks_b and frameworks_a[n].weight != frameworks_b[n].weight
    ]
    if reweighted:
        lines.append(f"framework weights: {_names(reweighted)}")
    restricted = [n for n in frameworks_a if n in frameworks_b
                  and frameworks_a[n].allowed_vm_types != frameworks_b[n].allowed_vm_types]
    if restricted:
        lines.append(f"allowed VM types changed for {_names(restricted)}")
    both = [n for n in frameworks_a if n in frameworks_b]
    answers = [
        f"{n} {_offer_answer(frameworks_a[n])} → {_offer_answer(frameworks_b[n])}"
        for n in both
        if _offer_answer(frameworks_a[n]) != _offer_answer(frameworks_b[n])
    ]
    if answers:
        lines.append(f"offer answers: {_names(answers)}")
    requeued = [n for n in both if frameworks_a[n].queues != frameworks_b[n].queues]
    if requeued:
        lines.append(f"task queues changed for {_names(requeued)}")
    return lines


def _offer_answer(f: Framework) -> str:
    """A framework's version-2 offer answer: ``first-fit, refuse 5 s`` (``, hold 300 s`` when it holds)."""
    text = f"{f.offer_policy}, refuse {_number(f.refuse_s)} s"
    return text + (f", hold {_number(f.hold_s)} s" if f.hold_s else "")


def _option_text(value: Any) -> str:
    if value is None:
        return "default"
    if isinstance(value, tuple):  # the RUT weights: ((resource, weight), ...)
        return ", ".join(f"{r}={_number(w)}" for r, w in value)
    return _number(value) if isinstance(value, float) else str(value)


def _options(a: SimulationOptions, b: SimulationOptions) -> list[str]:
    return [
        f"{f.name}: {_option_text(getattr(a, f.name))} → {_option_text(getattr(b, f.name))}"
        for f in fields(SimulationOptions)
        if getattr(a, f.name) != getattr(b, f.name)
    ]


def scenario_differences(a: Scenario, b: Scenario) -> list[ScenarioDifference]:
    """What differs between scenarios ``a`` and ``b``: cluster, workload, scenario options.

    Parameters
    ----------
    a, b : Scenario
        Two validated scenarios (two runs' copies, say).

    Returns
    -------
    list of ScenarioDifference
        Only the parts that differ, in the order cluster, workload, options; empty when
        the two scenarios describe the same cluster, jobs and options (names and
        descriptions aside). Long lists of names are cut after a few.
    """
    out = []
    for title, lines in (("Cluster", _cluster(a, b)), ("Workload", _workload(a, b)),
                         ("Scenario options", _options(a.options, b.options))):
        if lines:
            out.append(ScenarioDifference(title, tuple(lines)))
    return out
