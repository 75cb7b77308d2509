"""Checks of a simulation's result document that hold for every scheduler (used by several tests).

Each check reads the document only through :mod:`scheduling.cost.document` and recomputes
what it asserts from the scenario, so a wrong placement, bill or queue order fails it.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from typing import Any

import pytest

from scheduling.cost.document import iter_jobs, iter_vm_intervals
from scheduling.scenario import Scenario


def assert_valid_run(scenario: Scenario, doc: dict[str, Any], label: str) -> None:
    """Jobs whole, within capacity, on VMs that are on; the bill adds up; the bound holds."""
    capacity = {f"{t.name}#{k}": t.capacity for t in scenario.vm_types for k in range(1, t.count + 1)}
    price = {f"{t.name}#{k}": t.price_per_hour for t in scenario.vm_types for k in range(1, t.count + 1)}
    specs = {j.id: j for j in scenario.jobs}
    allowed = {f.name: f.allowed_vm_types for f in scenario.frameworks}
    billing_granularity, min_billed = doc["options"]["billing_granularity_s"], doc["options"]["min_billed_s"]
    jobs = list(iter_jobs(doc))
    intervals = list(iter_vm_intervals(doc))
    assert [j["id"] for j in jobs] == [j.id for j in scenario.jobs], label
    sigma = dict(zip((j.id for j in scenario.jobs), scenario.network_sensitivities(), strict=True))
    # Jobs are placed whole, after they arrive, on VM types their framework may use, and run
    # for their duration, stretched by 1 + sigma (k - 1) / max(E - 1, 1) when network-bound
    # (notes §8: E executors on k VMs; 1 for every job of sensitivity 0).
    for j in jobs:
        spec = specs[j["id"]]
        assert sum(j["placement"].values()) == spec.executors, label
        assert j["placed_s"] >= spec.arrival_s - 1e-9, label
        assert j["start_s"] >= j["placed_s"] - 1e-9, label
        stretch = 1 + sigma[spec.id] * (len(j["placement"]) - 1) / max(spec.executors - 1, 1)
        assert j["finish_s"] == pytest.approx(j["start_s"] + spec.duration_s * stretch), label
        assert j["wait_s"] == pytest.approx(j["start_s"] - spec.arrival_s), label
        types = allowed.get(spec.framework)
        if types is not None:
            assert all(vm.rpartition("#")[0] in types for vm in j["placement"]), label
    # Capacity is never exceeded: sweep each VM's executor intervals [placed, finish).
    changes: dict[str, list[tuple[float, int, int, tuple[float, ...]]]] = defaultdict(list)
    for j in jobs:
        demand = specs[j["id"]].executor
        for vm, k in j["placement"].items():
            changes[vm].append((j["placed_s"], 1, k, demand))
            changes[vm].append((j["finish_s"], 0, k, demand))
    for vm, events in changes.items():
        used = [0.0] * len(scenario.resources)
        for _, starts, k, demand in sorted(events, key=lambda e: (e[0], e[1])):
            for r in range(len(used)):
                used[r] += (k if starts else -k) * demand[r]
                assert used[r] <= capacity[vm][r] + 1e-9, (label, vm)
    # A VM is on while it holds executors; its on-intervals do not overlap.
    on: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for iv in intervals:
        on[iv["vm"]].append((iv["on_s"], iv["off_s"]))
    for vm, spans in on.items():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans)), (label, vm)
    for j in jobs:
        for vm in j["placement"]:
            assert any(a <= j["placed_s"] and j["finish_s"] <= b for a, b in on[vm]), (label, vm)
    # The bill: price x billed time of every on-interval, billed time as the options say.
    for iv in intervals:
        seconds = iv["off_s"] - iv["on_s"]
        if billing_granularity:
            assert iv["billed_s"] >= seconds and iv["billed_s"] % billing_granularity < 1e-6, label
        assert iv["billed_s"] >= max(seconds, min_billed) - 1e-9, label
        assert iv["cost"] == pytest.approx(price[iv["vm"]] * iv["billed_s"] / 3600), label
    total = sum(price[iv["vm"]] * iv["billed_s"] / 3600 for iv in intervals)
    assert doc["total_cost"] == pytest.approx(total), label
    assert doc["timeline"]["cumulative_cost"][-1] == pytest.approx(total), label
    assert sum(doc["cost_by_vm_type"].values()) == pytest.approx(total), label
    assert sum(doc["cost_by_hour"]) == pytest.approx(total), label
    assert sum(doc["cost_by_framework"].values()) == pytest.approx(total), label
    assert doc["lower_bound_cost"] <= doc["total_cost"] + 1e-9, label
    for series in doc["timeline"]["utilisation"].values():
        assert all(-1e-9 <= u <= 1 + 1e-9 for u in series), label


def assert_fifo_order(scenario: Scenario, doc: dict[str, Any], label: str) -> None:
    """Strict FIFO: jobs are placed in arrival order (listed order breaking ties)."""
    arrival = {j.id: (j.arrival_s, k) for k, j in enumerate(scenario.jobs)}
    placed = [j["placed_s"] for j in sorted(iter_jobs(doc), key=lambda j: arrival[j["id"]])]
    assert placed == sorted(placed), label


def assert_edf_order(scenario: Scenario, doc: dict[str, Any], label: str) -> None:
    """Algorithm 1 of paper 003 (without backfill): a deadline job waiting at a pass blocks every
    job with a later deadline and every regular job."""
    jobs = {j["id"]: j for j in iter_jobs(doc)}
    deadline_jobs = [j for j in scenario.jobs if j.deadline_s is not None]
    for a in deadline_jobs:
        placed_a = jobs[a.id]["placed_s"]
        for b in scenario.jobs:
            placed_b = jobs[b.id]["placed_s"]
            if b is a or a.arrival_s > placed_b:
                continue  # a had not arrived when b was placed
            blocked = b.deadline_s is None or (
                (a.absolute_deadline_s, a.arrival_s) < (b.absolute_deadline_s, b.arrival_s)
            )
            if blocked:
                assert placed_a <= placed_b, (label, a.id, b.id)


def assert_no_waiting_job_fits(scenario: Scenario, doc: dict[str, Any], label: str) -> None:
    """An ordering that skips what does not fit (Morpheus) leaves, after every pass, no waiting
    job that the free capacity could hold whole (event-driven passes, every placement)."""
    jobs = list(iter_jobs(doc))
    machines = [(f"{t.name}#{k}", t) for t in scenario.vm_types for k in range(1, t.count + 1)]
    allowed = {f.name: f.allowed_vm_types for f in scenario.frameworks}
    specs = {j.id: j for j in scenario.jobs}
    instants = sorted({j["arrival_s"] for j in jobs} | {j["finish_s"] for j in jobs})
    for t in instants:
        free = {name: list(vm_type.capacity) for name, vm_type in machines}
        for j in jobs:
            if j["placed_s"] <= t < j["finish_s"]:
                for vm, k in j["placement"].items():
                    for r, d in enumerate(specs[j["id"]].executor):
                        free[vm][r] -= k * d
        for j in jobs:
            if not j["arrival_s"] <= t < j["placed_s"]:
                continue
            spec = specs[j["id"]]
            types = allowed.get(spec.framework)
            room = 0
            for name, vm_type in machines:
                if types is not None and vm_type.name not in types:
                    continue
                room += min(
                    int(f // d + 1e-9) for f, d in zip(free[name], spec.executor, strict=True) if d > 0
                )
            assert room < spec.executors, (label, j["id"], t)
