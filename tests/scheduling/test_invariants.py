"""Invariants that hold for every scheduler on every valid scenario (hypothesis)."""

from __future__ import annotations

import itertools
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scheduling import ScenarioError, compare, parse_scenario

ALL = ["fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp", "morpheus-spread", "fifo-ilp"]


@st.composite
def scenarios(draw):
    n_types = draw(st.integers(1, 3))
    vm_types = [
        {
            "name": f"t{k}",
            "capacity": {"cpu": draw(st.integers(1, 12)), "mem": draw(st.integers(1, 48))},
            "price_per_hour": draw(st.sampled_from([0.1, 0.24, 0.5, 0.72, 1.0, 3.6])),
            "count": draw(st.integers(1, 4)),
        }
        for k in range(n_types)
    ]
    frameworks = [{"name": "a", "weight": 2}, {"name": "b", "allowed_vm_types": ["t0"]}]
    jobs = []
    for i in range(draw(st.integers(1, 12))):
        job = {
            "id": f"j{i}",
            "framework": draw(st.sampled_from(["a", "b"])),
            "arrival_s": draw(st.integers(0, 200)),
            "executors": draw(st.integers(1, 4)),
            "executor": {"cpu": draw(st.integers(1, 4)), "mem": draw(st.integers(0, 8))},
            "duration_s": draw(st.integers(1, 300)),
        }
        if draw(st.booleans()):
            job["deadline_s"] = draw(st.integers(1, 600))
        jobs.append(job)
    options = draw(
        st.sampled_from(
            [{}, {"billing_granularity_s": 60}, {"min_billed_s": 120, "boot_time_s": 15}, {"scheduling_interval_s": 10}]
        )
    )
    doc = {"vm_types": vm_types, "frameworks": frameworks, "jobs": jobs, "options": options}
    try:
        return parse_scenario(doc)
    except ScenarioError:
        assume(False)  # a job that can never fit: validation rejects it (tested elsewhere)
        raise


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(scenarios())
def test_invariants(sc):
    results = compare(sc, schedulers=ALL)
    capacity = {f"{t.name}#{k}": t.capacity for t in sc.vm_types for k in range(1, t.count + 1)}
    price = {f"{t.name}#{k}": t.price_per_hour for t in sc.vm_types for k in range(1, t.count + 1)}
    jobs = {j.id: j for j in sc.jobs}
    opts = sc.options
    for name, result in results.items():
        d = result.to_dict()
        # Jobs are placed whole, after they arrive, and run for their duration.
        for j in d["jobs"]:
            spec = jobs[j["id"]]
            assert sum(j["placement"].values()) == spec.executors, name
            assert j["start_s"] >= spec.arrival_s - 1e-9
            assert j["finish_s"] == pytest.approx(j["start_s"] + spec.duration_s)
            if spec.framework == "b":
                assert all(vm.startswith("t0#") for vm in j["placement"]), name
        # Capacity is never exceeded: sweep each VM's executor intervals [placed, finish).
        changes = defaultdict(list)
        for j in d["jobs"]:
            ex = jobs[j["id"]].executor
            for vm, k in j["placement"].items():
                changes[vm].append((j["placed_s"], 1, k, ex))
                changes[vm].append((j["finish_s"], 0, k, ex))
        for vm, evs in changes.items():
            used = [0.0, 0.0]
            for _, start, k, ex in sorted(evs, key=lambda e: (e[0], e[1])):
                for r in range(2):
                    used[r] += (k if start else -k) * ex[r]
                    assert used[r] <= capacity[vm][r] + 1e-9, (name, vm)
        # A VM is on while it holds executors; its on-intervals do not overlap.
        on = defaultdict(list)
        for iv in d["vm_intervals"]:
            on[iv["vm"]].append((iv["on_s"], iv["off_s"]))
        for vm, ivs in on.items():
            ivs.sort()
            assert all(a[1] <= b[0] for a, b in itertools.pairwise(ivs)), (name, vm)
        for j in d["jobs"]:
            for vm in j["placement"]:
                assert any(a <= j["placed_s"] and j["finish_s"] <= b for a, b in on[vm]), (name, vm)
        # Cost is the sum of price x billed time on; billed time follows the options.
        for iv in d["vm_intervals"]:
            s = iv["off_s"] - iv["on_s"]
            if opts.billing_granularity_s:
                assert iv["billed_s"] >= s and iv["billed_s"] % opts.billing_granularity_s < 1e-6
            assert iv["billed_s"] >= max(s, opts.min_billed_s) - 1e-9
        expected = sum(price[iv["vm"]] * iv["billed_s"] / 3600 for iv in d["vm_intervals"])
        assert d["total_cost"] == pytest.approx(expected)
        assert d["timeline"]["cumulative_cost"][-1] == pytest.approx(d["total_cost"])
        assert sum(d["cost_by_vm_type"].values()) == pytest.approx(d["total_cost"])
        assert sum(d["cost_by_hour"]) == pytest.approx(d["total_cost"])
        assert sum(d["cost_by_framework"].values()) == pytest.approx(d["total_cost"])
        # No scheduler beats the lower bound.
        assert d["lower_bound_cost"] <= d["total_cost"] + 1e-9, name
        # Utilisation is a fraction.
        for series in d["timeline"]["utilisation"].values():
            assert all(-1e-9 <= u <= 1 + 1e-9 for u in series)
    # Strict FIFO: jobs start in arrival order.
    for name in ("fifo-spread", "fifo-consolidate", "fifo-ilp"):
        d = results[name].to_dict()
        order = sorted(d["jobs"], key=lambda j: (j["arrival_s"], [x.id for x in sc.jobs].index(j["id"])))
        starts = [j["placed_s"] for j in order]
        assert starts == sorted(starts), name
