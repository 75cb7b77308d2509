"""The result document built from a run: summary, cost breakdowns, compact detail (format 2)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scheduling import parse_scenario, simulate
from scheduling.cost.cluster import Cluster
from scheduling.cost.document import iter_jobs
from scheduling.cost.result_builder import DELAY_DECIMALS, UNUSED_CAPACITY, Holdings, Placements, job_costs


def shared_vm() -> dict[str, object]:
    # One VM (4 cpu, 16 GB, $3.60/h); x (etl) and y (ml) share it for 100 s, then z (etl, with a
    # deadline it misses) runs alone for 50 s.
    return {
        "vm_types": [{"name": "vm", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 3.6}],
        "frameworks": [{"name": "etl"}, {"name": "ml"}],
        "jobs": [
            {
                "id": "x",
                "framework": "etl",
                "arrival_s": 0,
                "executors": 1,
                "executor": {"cpu": 2, "mem": 4},
                "duration_s": 100,
            },
            {
                "id": "y",
                "framework": "ml",
                "arrival_s": 0,
                "executors": 1,
                "executor": {"cpu": 1, "mem": 8},
                "duration_s": 100,
            },
            {
                "id": "z",
                "framework": "etl",
                "arrival_s": 20,
                "executors": 1,
                "executor": {"cpu": 4, "mem": 4},
                "duration_s": 50,
                "deadline_s": 100,
            },
        ],
    }


def test_each_job_pays_its_rut_weighted_share_of_the_vms_it_holds() -> None:
    doc = simulate(parse_scenario(shared_vm()), scheduler="edf-bfd").to_dict()
    # x and y hold the VM 0-100 s; z waits for its cpu and holds it 100-150 s: $0.15 in all.
    # Shares (eq. 8 form, RUT 0.8 / 0.2): x 0.8 x 2/4 + 0.2 x 4/16 = 0.45; y 0.2 + 0.1 = 0.3;
    # z 0.8 + 0.05 = 0.85. Each pays share x $3.60/h x the time it holds the VM.
    x, y, z = (0.45 * 0.1, 0.3 * 0.1, 0.85 * 0.05)
    assert [j["cost"] for j in iter_jobs(doc)] == pytest.approx([x, y, z])
    assert doc["total_cost"] == pytest.approx(0.15)
    assert doc["cost_by_framework"] == pytest.approx(
        {"etl": x + z, "ml": y, UNUSED_CAPACITY: 0.15 - x - y - z}
    )
    assert doc["cost_by_vm_type"] == pytest.approx({"vm": 0.15})
    assert doc["vm_hours_by_type"] == pytest.approx({"vm": 150 / 3600})
    # z arrived at 20 s with a deadline of 120 s and finished at 150 s: missed; eq. 12 is
    # missed / met = 1 / 0, undefined.
    assert (doc["deadline_jobs"], doc["deadline_met"], doc["deadline_missed"]) == (1, 0, 1)
    assert doc["deadline_miss_pct"] == 100.0 and doc["deadline_violation_eq12_pct"] is None
    assert (doc["makespan_s"], doc["mean_wait_s"]) == (150.0, pytest.approx(80 / 3))
    assert doc["median_completion_s"] == 100.0
    assert doc["ilp"] is None


def test_scheduling_delays_are_kept_to_the_microsecond() -> None:
    doc = simulate(parse_scenario(shared_vm()), scheduler="edf-ilp").to_dict()
    delay = doc["scheduling_delay"]
    # Placement calls: x, y at 0 s; z at 20 s (does not fit) and at 100 s.
    assert delay["decisions"] == len(delay["samples_ms"]) == 4 == doc["ilp"]["decisions"]
    assert all(round(s, DELAY_DECIMALS) == s for s in delay["samples_ms"])
    assert delay["max_ms"] >= delay["median_ms"] > 0
    assert doc["ilp"] == {"decisions": 4, "fallbacks": 0, "fallback_jobs": [], "method": "knapsack"}


def test_the_document_is_json_and_keeps_no_derived_column() -> None:
    doc = simulate(parse_scenario(shared_vm()), scheduler="edf-bfd").to_dict()
    assert json.loads(json.dumps(doc)) == doc
    assert "wait_s" not in doc["jobs"] and "cost" not in doc["vm_intervals"]
    assert doc["jobs"]["placement"] == [[0, 1], [0, 1], [0, 1]]
    # The VM emptied at 100 s is off when z is placed at 100 s (paper 003): two on-intervals.
    assert doc["vm_intervals"] == {
        "machine": [0, 0],
        "on_s": [0.0, 100.0],
        "off_s": [100.0, 150.0],
        "billed_s": [100.0, 50.0],
    }


def test_job_costs_add_each_jobs_holdings_in_the_order_they_ended() -> None:
    # Two VMs of one type (4 cpu, 16 GB): a $3.60/h one and a $1.08/h (spot) one. Job 0 (2 cpu,
    # 4 GB; share 0.45 an executor) holds the spot VM until it is reclaimed at 30 s, then the
    # other; job 1 (1 cpu, 8 GB; share 0.3) holds both VMs. Their rows interleave, as a run
    # records them.
    cluster = Cluster(parse_scenario({
        "vm_types": [{"name": "vm", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 3.6, "count": 2,
                      "spot": {"price_per_hour": 1.08, "count": 1}}],
        "jobs": [{"id": "j", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1, "mem": 1},
                  "duration_s": 1}],
    }))
    spot, on_demand = cluster.market.index("spot"), cluster.market.index("on_demand")
    holdings = Holdings()
    holdings.add(0, {spot: 1}, from_s=0.0, to_s=30.0)
    holdings.add(1, {spot: 2, on_demand: 1}, from_s=10.0, to_s=70.1)
    holdings.add(0, {on_demand: 1}, from_s=30.0, to_s=130.3)
    demand = np.array([[2.0, 4.0], [1.0, 8.0], [1.0, 1.0]])
    costs = job_costs(cluster, demand, np.array([0.8, 0.2]), holdings)
    # By hand: share x $/h x hours held, for each row.
    assert costs == pytest.approx([
        0.45 * 1.08 * 30 / 3600 + 0.45 * 3.6 * 100.3 / 3600,
        0.6 * 1.08 * 60.1 / 3600 + 0.3 * 3.6 * 60.1 / 3600,
        0.0,  # a job that held nothing
    ])
    # Bit for bit what a sum per job over its own rows, in their order, gives (floats add in order).
    columns = holdings.columns()
    rows = list(zip(*columns, strict=True))
    for i, cost in enumerate(costs):
        expected = 0.0
        for job, v, k, held_from, held_to in rows:
            if job == i:
                share = min(float((demand[i] * k / np.array([4.0, 16.0])) @ np.array([0.8, 0.2])), 1.0)
                expected += float(cluster.rate[v]) * (held_to - held_from) / 3600.0 * share
        assert cost == expected


def test_placements_are_sorted_pairs_in_job_order_whatever_order_jobs_started() -> None:
    placements = Placements(3)
    placements.add(2, {9: 1, 4: 3})
    placements.add(0, {5: 2})
    placements.add(1, {0: 1, 7: 1, 3: 2})
    assert placements.column() == [[5, 2], [0, 1, 3, 2, 7, 1], [4, 3, 9, 1]]
