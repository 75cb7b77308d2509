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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .document import Framework, Scenario, VMType
from .fit import executor_matrix
from .options import SimulationOptions

__all__ = ["JOB_NUMBERS", "JobColumns", "ScenarioDifference", "scenario_differences"]

#: How many names a line lists before it says "and N more".
SHOWN = 5


@dataclass(frozen=True)
class ScenarioDifference:
    """One part of the scenario (cluster, workload, options) and what changed in it."""

    title: str
    lines: tuple[str, ...]


def _names(names: Sequence[str] | NDArray[np.str_]) -> str:
    listed = ", ".join(str(n) for n in names[:SHOWN])
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


#: A job's numbers whose change makes it "changed", with its framework and executor (its id
#: aside; its network sensitivity has a line of its own): the keys of ``JobColumns.numbers``.
JOB_NUMBERS = ("arrival_s", "executors", "duration_s", "deadline_s")


@dataclass(frozen=True)
class JobColumns:
    """A scenario's jobs as columns, in document order: what :func:`scenario_differences` compares
    of them (built from a parsed scenario by :meth:`of`, or from a store of jobs kept in columns,
    a chunk at a time, without a million :class:`Job` objects).

    ``numbers`` holds, per compared field, one float per job (NaN: none, e.g. no deadline);
    ``executor`` one column per resource, by name; ``network_sensitivity`` a job's own (NaN:
    its framework's, as :meth:`Scenario.network_sensitivities` reads it).
    """

    ids: NDArray[np.str_]
    frameworks: NDArray[np.str_]
    numbers: Mapping[str, NDArray[np.float64]]
    executor: Mapping[str, NDArray[np.float64]]
    network_sensitivity: NDArray[np.float64]

    def sensitivities(self, scenario: Scenario) -> NDArray[np.float64]:
        """Each job's network sensitivity in ``scenario`` (its frameworks): its own, else its
        framework's, else 0 (:meth:`Scenario.network_sensitivities`)."""
        out = self.network_sensitivity.copy()
        unset = np.isnan(out)
        for f in scenario.frameworks:
            out[unset & (self.frameworks == f.name)] = f.network_sensitivity
        out[np.isnan(out)] = 0.0
        return out

    @classmethod
    def of(cls, scenario: Scenario) -> JobColumns:
        jobs = scenario.jobs
        n = len(jobs)

        def column(values: Any) -> NDArray[np.float64]:
            return np.fromiter(values, dtype=float, count=n)

        matrix = executor_matrix(jobs, len(scenario.resources))
        return cls(
            ids=np.array([j.id for j in jobs], dtype=str),
            frameworks=np.array([j.framework for j in jobs], dtype=str),
            numbers={
                key: column(np.nan if getattr(j, key) is None else getattr(j, key) for j in jobs)
                for key in JOB_NUMBERS
            },
            executor={r: matrix[:, i] for i, r in enumerate(scenario.resources)},
            network_sensitivity=column(
                np.nan if j.network_sensitivity is None else j.network_sensitivity for j in jobs
            ),
        )




def _same(x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Equal, or both none (NaN)."""
    same: NDArray[np.bool_] = (x == y) | (np.isnan(x) & np.isnan(y))
    return same


def _matched(a: JobColumns, b: JobColumns) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """The rows of A and of B of the jobs both have, in A's order (by id)."""
    if a.ids.shape == b.ids.shape and bool(np.array_equal(a.ids, b.ids)):
        rows = np.arange(len(a.ids))
        return rows, rows
    _, rows_a, rows_b = np.intersect1d(a.ids, b.ids, assume_unique=True, return_indices=True)
    order = np.argsort(rows_a, kind="stable")
    return rows_a[order], rows_b[order]


def _job_lines(a: JobColumns, b: JobColumns, scenario_a: Scenario, scenario_b: Scenario) -> list[str]:
    """What changed in the jobs, in an operator's words (the workload's first lines)."""
    lines = []
    n_a, n_b = len(a.ids), len(b.ids)
    if n_a != n_b:
        lines.append(f"{n_a:,} → {n_b:,} jobs")
    rows_a, rows_b = _matched(a, b)
    only_a = np.ones(n_a, dtype=bool)
    only_a[rows_a] = False
    only_b = np.ones(n_b, dtype=bool)
    only_b[rows_b] = False
    for side, ids, mask in (("A", a.ids, only_a), ("B", b.ids, only_b)):
        n = int(mask.sum())
        if n:
            lines.append(f"{n:,} job{'s' * (n != 1)} only in {side}: {_names(ids[mask])}")
    changed = a.frameworks[rows_a] != b.frameworks[rows_b]
    for key, column in a.numbers.items():
        changed |= ~_same(column[rows_a], b.numbers[key][rows_b])
    if set(a.executor) != set(b.executor):  # other resources: every executor differs
        changed |= True
    else:
        for r, column in a.executor.items():
            changed |= ~_same(column[rows_a], b.executor[r][rows_b])
    names = a.ids[rows_a]
    if changed.any():
        n = int(changed.sum())
        lines.append(f"{n:,} job{'s' * (n != 1)} changed (executors, sizes, times or "
                     f"deadline), e.g. {_names(names[changed])}")
    sensitivity = a.sensitivities(scenario_a)[rows_a] != b.sensitivities(scenario_b)[rows_b]
    if sensitivity.any():
        n = int(sensitivity.sum())
        lines.append(f"network sensitivity (notes §8) changed for {n:,} job{'s' * (n != 1)}, "
                     f"e.g. {_names(names[sensitivity])}")
    return lines


def _workload(a: Scenario, b: Scenario, jobs: tuple[JobColumns, JobColumns] | None = None) -> list[str]:
    lines = _job_lines(*(jobs or (JobColumns.of(a), JobColumns.of(b))), a, b)
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


def scenario_differences(
    a: Scenario, b: Scenario, *, jobs: tuple[JobColumns, JobColumns] | None = None
) -> list[ScenarioDifference]:
    """What differs between scenarios ``a`` and ``b``: cluster, workload, scenario options.

    Parameters
    ----------
    a, b : Scenario
        Two validated scenarios (two runs' copies, say).
    jobs : (JobColumns, JobColumns), optional
        The jobs of ``a`` and ``b`` as columns, for scenarios parsed without them (jobs kept
        apart from the document, read a chunk at a time); by default ``a.jobs`` and ``b.jobs``.

    Returns
    -------
    list of ScenarioDifference
        Only the parts that differ, in the order cluster, workload, options; empty when
        the two scenarios describe the same cluster, jobs and options (names and
        descriptions aside). Long lists of names are cut after a few.
    """
    out = []
    for title, lines in (("Cluster", _cluster(a, b)), ("Workload", _workload(a, b, jobs)),
                         ("Scenario options", _options(a.options, b.options))):
        if lines:
            out.append(ScenarioDifference(title, tuple(lines)))
    return out
