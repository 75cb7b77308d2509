"""The simulator against hand-worked cases (paper 003's Fig. 2-3 and others)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from scheduling import (
    ORDERINGS,
    PLACEMENTS,
    SCHEDULERS,
    Scenario,
    ScenarioError,
    compare,
    lower_bound_cost,
    parse_scenario,
    simulate,
)
from scheduling.cost.document import iter_jobs, iter_vm_intervals
from tests.scheduling.cost.simulation_checks import (
    assert_edf_order,
    assert_fifo_order,
    assert_no_waiting_job_fits,
    assert_valid_run,
)


def one_resource(vms, jobs, resources=("cpu",)):
    return parse_scenario(
        {
            "resources": list(resources),
            "vm_types": [
                {"name": n, "capacity": {"cpu": c}, "price_per_hour": p, "count": k} for n, c, p, k in vms
            ],
            "jobs": [
                {"id": i, "arrival_s": a, "executors": e, "executor": {"cpu": d}, "duration_s": t, **extra}
                for i, a, e, d, t, extra in jobs
            ],
        }
    )


# Paper 003, Fig. 2: VMs of 2, 4, 6 and 8 cores, priced like their size; job-1 has two
# 1-core executors and job-2 two 2-core executors. Listed largest first, so that price-blind
# consolidation picks VM-4 as in Fig. 3b. Job-2 arrives a second after job-1.
FIG2 = one_resource(
    [("vm-4", 8, 4.0, 1), ("vm-3", 6, 3.0, 1), ("vm-2", 4, 2.0, 1), ("vm-1", 2, 1.0, 1)],
    [("job-1", 0, 2, 1, 3600, {}), ("job-2", 1, 2, 2, 3600, {})],
)


def placements(result):
    return {j["id"]: j["placement"] for j in result.jobs}


def test_paper003_fig3_reproduced() -> None:
    """Fig. 3 of paper 003 on the cluster of its Fig. 2: the three placements and their costs.

    The paper draws the placements, not a timeline: (a) round-robin spreads the executors over
    every VM, the most expensive; (b) price-blind consolidation packs both jobs into VM-4;
    (c) the cost-aware placement puts job-1 on VM-1, the cheapest VM it fits, and job-2 on VM-2,
    the next cheapest, "the cheapest VM cost usage". With prices equal to sizes the hourly bills
    are (a) 4 + 3 + 2 + 1 = 10, (b) 4 and (c) 1 + 2 = 3: (c) costs 75 % of (b) and 30 % of (a).
    The simulation needs a time axis: both jobs run an hour and job-2 arrives one second after
    job-1, so a VM shared by both (VM-4 in (b)) is on 3,601 s instead of 3,600 s. The costs are
    therefore compared with a relative tolerance of 1/3600 (that second; (b) is off by exactly
    that), and the placements exactly.
    """
    spread = simulate(FIG2, scheduler="fifo-spread")
    consolidate = simulate(FIG2, scheduler="fifo-consolidate")
    cost_aware = {name: simulate(FIG2, scheduler=name) for name in ("edf-bfd", "edf-ilp")}
    # (a): executors dealt one at a time over the VMs in listed order (VM-4 first, as listed).
    assert placements(spread) == {"job-1": {"vm-4#1": 1, "vm-3#1": 1}, "job-2": {"vm-2#1": 1, "vm-1#1": 1}}
    # (b) and (c)
    assert placements(consolidate) == {"job-1": {"vm-4#1": 2}, "job-2": {"vm-4#1": 2}}
    for result in cost_aware.values():
        assert placements(result) == {"job-1": {"vm-1#1": 2}, "job-2": {"vm-2#1": 2}}
    tolerance = 1 / 3600 + 1e-12  # that second, and floating-point rounding
    assert spread.total_cost == pytest.approx(10.0, rel=tolerance)
    assert consolidate.total_cost == pytest.approx(4.0, rel=tolerance)
    for result in cost_aware.values():
        assert result.total_cost == pytest.approx(3.0, rel=tolerance)
        assert result.total_cost / consolidate.total_cost == pytest.approx(0.75, rel=tolerance)
        assert result.total_cost / spread.total_cost == pytest.approx(0.30, rel=tolerance)
    assert cost_aware["edf-ilp"].to_dict()["ilp"] == {
        "decisions": 2,
        "fallbacks": 0,
        "fallback_jobs": [],
        "method": "knapsack",
    }


def test_ilp_beats_bfd_when_the_smallest_vm_is_not_the_cheapest_cover():
    # Three 4-core executors: BFD turns on the smallest VM that fits one executor, three times
    # (3 x $1.00/h); the exact placement takes one 12-core VM at $2.00/h.
    sc = one_resource([("small", 4, 1.0, 3), ("big", 12, 2.0, 1)], [("j", 0, 3, 4, 3600, {})])
    bfd, ilp = simulate(sc, scheduler="edf-bfd"), simulate(sc, scheduler="edf-ilp")
    assert placements(bfd)["j"] == {"small#1": 1, "small#2": 1, "small#3": 1}
    assert placements(ilp)["j"] == {"big#1": 3}
    assert (bfd.total_cost, ilp.total_cost) == pytest.approx((3.0, 2.0))


def test_edf_meets_a_deadline_that_fifo_misses():
    # One 4-core VM; A and B have no deadline; C arrives last with a deadline of 250 s.
    sc = one_resource(
        [("vm", 4, 1.0, 1)],
        [("A", 0, 1, 4, 100, {}), ("B", 1, 1, 4, 100, {}), ("C", 2, 1, 4, 100, {"deadline_s": 250})],
    )
    fifo, edf = simulate(sc, scheduler="fifo-consolidate"), simulate(sc, scheduler="edf-bfd")
    assert [j["start_s"] for j in fifo.jobs] == [0, 100, 200]
    assert [j["start_s"] for j in edf.jobs] == [0, 200, 100]
    assert (fifo.deadline_missed, edf.deadline_missed) == (1, 0)
    assert fifo.to_dict()["deadline_violation_eq12_pct"] is None  # eq. 12: missed / met, met = 0
    assert edf.to_dict()["deadline_violation_eq12_pct"] == 0.0


def test_edf_regular_queue_is_by_descending_demand_and_skips_what_does_not_fit():
    # While a 4-core job runs, a 3-core VM is free: the big regular job (RD high) cannot start,
    # the small one behind it is not blocked (Algorithm 1 skips it).
    sc = one_resource(
        [("vm", 4, 1.0, 2)],
        [
            ("run", 0, 1, 4, 100, {}),
            ("fill", 0, 1, 1, 100, {}),
            ("big", 1, 2, 4, 50, {}),
            ("small", 2, 1, 3, 50, {}),
        ],
    )
    r = simulate(sc, scheduler="edf-bfd")
    starts = {j["id"]: j["start_s"] for j in r.jobs}
    assert starts["small"] == 2 and starts["big"] == 100


def test_fifo_head_blocks_the_queue():
    sc = one_resource(
        [("vm", 4, 1.0, 2)],
        [
            ("run", 0, 1, 4, 100, {}),
            ("fill", 0, 1, 1, 100, {}),
            ("big", 1, 2, 4, 50, {}),
            ("small", 2, 1, 3, 50, {}),
        ],
    )
    starts = {j["id"]: j["start_s"] for j in simulate(sc, scheduler="fifo-consolidate").jobs}
    assert starts["big"] == 100 and starts["small"] == 150


def test_morpheus_orders_by_eq10():
    # Both queued behind a running job; c_job = max((load + demand) / total) is lower for the
    # job with the smaller peak demand, which therefore starts first.
    sc = parse_scenario(
        {
            "vm_types": [{"name": "vm", "capacity": {"cpu": 8, "mem": 8}, "price_per_hour": 1, "count": 1}],
            "jobs": [
                {
                    "id": "run",
                    "arrival_s": 0,
                    "executors": 1,
                    "executor": {"cpu": 8, "mem": 8},
                    "duration_s": 10,
                },
                {
                    "id": "cpu-heavy",
                    "arrival_s": 1,
                    "executors": 1,
                    "executor": {"cpu": 6, "mem": 1},
                    "duration_s": 10,
                },
                {
                    "id": "balanced",
                    "arrival_s": 2,
                    "executors": 1,
                    "executor": {"cpu": 3, "mem": 3},
                    "duration_s": 10,
                },
            ],
        }
    )
    starts = {j["id"]: j["start_s"] for j in simulate(sc, scheduler="morpheus").jobs}
    assert starts["balanced"] == 10 and starts["cpu-heavy"] == 20


def test_vm_turns_off_when_idle_and_is_billed_per_second():
    sc = one_resource([("vm", 4, 3.6, 1)], [("a", 0, 1, 4, 100, {}), ("b", 500, 1, 4, 100, {})])
    d = simulate(sc, scheduler="edf-bfd").to_dict()
    assert [(iv["on_s"], iv["off_s"]) for iv in iter_vm_intervals(d)] == [(0, 100), (500, 600)]
    assert d["total_cost"] == pytest.approx(0.2)  # 200 s at $3.60/h
    assert d["timeline"]["cumulative_cost"][-1] == pytest.approx(0.2)
    assert d["cost_by_hour"] == pytest.approx([0.2])


def emptied_vm_scenario(b_arrival_s: float) -> Scenario:
    # Issue 7: job A fills the large VM until 100 s; job B (small) arrives at or after 100 s.
    return parse_scenario(
        {
            "vm_types": [
                {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 1},
                {"name": "large", "capacity": {"cpu": 12, "mem": 48}, "price_per_hour": 0.72, "count": 1},
            ],
            "jobs": [
                {
                    "id": "A",
                    "arrival_s": 0,
                    "executors": 1,
                    "executor": {"cpu": 12, "mem": 8},
                    "duration_s": 100,
                },
                {
                    "id": "B",
                    "arrival_s": b_arrival_s,
                    "executors": 1,
                    "executor": {"cpu": 2, "mem": 4},
                    "duration_s": 3600,
                },
            ],
        }
    )


@pytest.mark.parametrize("scheduler", ["edf-bfd", "edf-ilp"])
@pytest.mark.parametrize("b_arrival_s", [100, 101])
def test_a_vm_emptied_at_t_is_off_for_placements_at_t(scheduler: str, b_arrival_s: float) -> None:
    # Paper 003: BFD's "list of used VMs" (Algorithm 3) and the ILP's fixed y = 1 (Algorithm 2)
    # cover only VMs still running an executor (ALGORITHM-NOTES section 8). The large VM emptied
    # at 100 s is therefore not "already paid for" when B is placed at 100 s: B takes the small
    # VM, $0.72/h x 100 s + $0.24/h x 3,600 s = $0.02 + $0.24.
    r = simulate(emptied_vm_scenario(b_arrival_s), scheduler=scheduler)
    assert placements(r)["B"] == {"small#1": 1}
    assert r.total_cost == pytest.approx(0.26)
    intervals = [(iv["vm"], iv["on_s"], iv["off_s"]) for iv in iter_vm_intervals(r.to_dict())]
    assert sorted(intervals) == [("large#1", 0, 100), ("small#1", b_arrival_s, b_arrival_s + 3600)]


def test_a_vm_emptied_and_reused_at_the_same_instant_is_two_on_intervals() -> None:
    # One VM: B arrives as A ends. The VM is off for B's placement (see above), so B turns it on
    # again: a new on-interval with its own minimum billed period and its own boot time.
    sc = one_resource([("vm", 4, 3.6, 1)], [("a", 0, 1, 4, 100, {}), ("b", 100, 1, 4, 100, {})])
    plain = simulate(sc, scheduler="edf-bfd").to_dict()
    assert [(iv["on_s"], iv["off_s"]) for iv in iter_vm_intervals(plain)] == [(0, 100), (100, 200)]
    assert plain["total_cost"] == pytest.approx(0.2)  # per-second billing: as if it never stopped
    d = simulate(sc, scheduler="edf-bfd", options={"min_billed_s": 150, "boot_time_s": 30}).to_dict()
    assert [(iv["on_s"], iv["off_s"], iv["billed_s"]) for iv in iter_vm_intervals(d)] == [
        (0, 130, 150),
        (130, 260, 150),  # A boots, runs 30-130 s; B waits for the VM, boots again
    ]
    assert [j["start_s"] for j in iter_jobs(d)] == [30, 160]
    assert d["total_cost"] == pytest.approx(0.3)  # 2 x 150 s at $3.60/h
    assert d["timeline"]["cumulative_cost"][-1] == pytest.approx(0.3)


def test_billing_options():
    sc = one_resource([("vm", 4, 3.6, 1)], [("a", 0, 1, 4, 100, {}), ("b", 500, 1, 4, 100, {})])
    d = simulate(
        sc, scheduler="edf-bfd", options={"billing_granularity_s": 60, "min_billed_s": 150}
    ).to_dict()
    assert [iv["billed_s"] for iv in iter_vm_intervals(d)] == [150, 150]  # 100 s -> 120 s -> min 150 s
    assert d["total_cost"] == pytest.approx(0.3)
    assert d["timeline"]["cumulative_cost"][-1] == pytest.approx(0.3)


def test_boot_time_delays_the_start_and_is_billed():
    sc = one_resource([("vm", 4, 3.6, 1)], [("a", 0, 1, 4, 100, {"deadline_s": 110})])
    d = simulate(sc, scheduler="edf-bfd", options={"boot_time_s": 30}).to_dict()
    job = next(iter_jobs(d))
    assert (job["start_s"], job["finish_s"], job["met_deadline"]) == (30, 130, False)
    assert d["total_cost"] == pytest.approx(0.13)


def test_scheduling_interval_polls():
    sc = one_resource([("vm", 4, 1.0, 1)], [("a", 3, 1, 4, 100, {}), ("b", 4, 1, 4, 10, {})])
    starts = [
        j["start_s"] for j in simulate(sc, scheduler="fifo-bfd", options={"scheduling_interval_s": 10}).jobs
    ]
    assert starts == [10, 110]


def test_allowed_vm_types_are_respected():
    sc = parse_scenario(
        {
            "vm_types": [
                {"name": "cheap", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.1, "count": 2},
                {"name": "gpu", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 1.0, "count": 2},
            ],
            "frameworks": [{"name": "ml", "allowed_vm_types": ["gpu"]}, {"name": "etl"}],
            "jobs": [
                {
                    "id": "m",
                    "framework": "ml",
                    "arrival_s": 0,
                    "executors": 2,
                    "executor": {"cpu": 1, "mem": 1},
                    "duration_s": 10,
                },
                {
                    "id": "e",
                    "framework": "etl",
                    "arrival_s": 0,
                    "executors": 2,
                    "executor": {"cpu": 1, "mem": 1},
                    "duration_s": 10,
                },
            ],
        }
    )
    for name in ("fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp"):
        p = placements(simulate(sc, scheduler=name))
        assert all(vm.startswith("gpu#") for vm in p["m"]), name


def test_fairness_and_unfairness_area():
    # Two frameworks on a 24-core cluster; analytics holds 8 cores (share 1/3) while its fair
    # share is 1/2 during the 290 s in which both have work: area (1/2 - 1/3) x 290.
    sc = parse_scenario(
        {
            "vm_types": [
                {"name": "m", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 6}
            ],
            "frameworks": [{"name": "analytics"}, {"name": "etl"}],
            "jobs": [
                {
                    "id": "a",
                    "framework": "analytics",
                    "arrival_s": 0,
                    "executors": 4,
                    "executor": {"cpu": 2, "mem": 4},
                    "duration_s": 300,
                },
                {
                    "id": "e",
                    "framework": "etl",
                    "arrival_s": 10,
                    "executors": 6,
                    "executor": {"cpu": 2, "mem": 4},
                    "duration_s": 300,
                },
            ],
        }
    )
    f = simulate(sc, scheduler="edf-bfd").to_dict()["fairness"]
    assert f["contention_s"] == pytest.approx(290)
    assert f["frameworks"]["analytics"]["unfairness_area"] == pytest.approx(290 / 6)
    assert f["frameworks"]["analytics"]["received_pct"] == pytest.approx(200 / 3)
    assert f["frameworks"]["etl"]["unfairness_pct"] == pytest.approx(0)


def test_single_framework_has_no_fairness_section():
    assert simulate(FIG2, scheduler="edf-bfd").to_dict()["fairness"] is None


def test_fairness_needs_two_frameworks_with_jobs_not_two_declared():
    # Issue 7: three frameworks declared, one has every job: nobody shares the cluster.
    doc = {
        "vm_types": [{"name": "m", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 2}],
        "frameworks": [{"name": "analytics"}, {"name": "etl"}, {"name": "ml", "weight": 2}],
        "jobs": [
            {
                "id": f"j{k}",
                "framework": "etl",
                "arrival_s": 10 * k,
                "executors": 2,
                "executor": {"cpu": 2, "mem": 4},
                "duration_s": 100,
            }
            for k in range(3)
        ],
    }
    assert simulate(parse_scenario(doc), scheduler="edf-bfd").to_dict()["fairness"] is None
    doc["jobs"][2]["framework"] = "ml"  # now two frameworks have jobs
    fairness = simulate(parse_scenario(doc), scheduler="edf-bfd").to_dict()["fairness"]
    assert fairness is not None and fairness["contention_s"] > 0


def busy_table3_scenario(seed: int = 11, jobs: int = 40) -> Scenario:
    """The paper's 14-VM cluster (Table 3) under a burst of jobs that queue: two frameworks, one
    restricted to the two larger types; half the jobs with a deadline."""
    rng = np.random.default_rng(seed)
    arrivals = np.cumsum(rng.exponential(8.0, jobs))
    return parse_scenario(
        {
            "vm_types": [
                {"name": "m1.large", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 6},
                {"name": "m1.xlarge", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.48, "count": 5},
                {"name": "m2.xlarge", "capacity": {"cpu": 12, "mem": 48}, "price_per_hour": 0.72, "count": 3},
            ],
            "frameworks": [{"name": "etl"}, {"name": "ml", "allowed_vm_types": ["m1.xlarge", "m2.xlarge"]}],
            "jobs": [
                {
                    "id": f"j{k}",
                    "framework": "ml" if k % 3 == 0 else "etl",
                    "arrival_s": round(float(arrivals[k]), 1),
                    "executors": int(rng.integers(1, 9)),
                    "executor": {"cpu": int(rng.integers(1, 5)), "mem": int(rng.integers(2, 13))},
                    "duration_s": int(rng.integers(60, 600)),
                    **({"deadline_s": int(rng.integers(300, 1200))} if k % 2 else {}),
                }
                for k in range(jobs)
            ],
        }
    )


def test_every_ordering_placement_pair_and_named_scheduler_gives_a_valid_run() -> None:
    scenario = busy_table3_scenario()
    pairs = [f"{o}-{p}" for o in ORDERINGS for p in PLACEMENTS]
    results = compare(scenario, schedulers=[*pairs, "morpheus"])
    assert set(results) == {*pairs, "morpheus"}
    docs = {name: r.to_dict() for name, r in results.items()}
    for name, doc in docs.items():
        assert (doc["ordering"], doc["placement"]) == SCHEDULERS.get(name, tuple(name.split("-")))
        assert_valid_run(scenario, doc, name)
        assert doc["jobs_total"] == len(scenario.jobs) and doc["deadline_jobs"] == 20
    for placement in PLACEMENTS:
        assert_fifo_order(scenario, docs[f"fifo-{placement}"], placement)
        assert_edf_order(scenario, docs[f"edf-{placement}"], placement)
        assert_no_waiting_job_fits(scenario, docs[f"morpheus-{placement}"], placement)
    # The burst queues (FIFO waits) and the orderings differ where they should.
    assert docs["fifo-consolidate"]["mean_wait_s"] > 0
    assert len({docs[f"{o}-bfd"]["mean_wait_s"] for o in ORDERINGS}) == 3
    # A named scheduler is its pair (SCHEDULERS).
    for name, (ordering, placement) in SCHEDULERS.items():
        named = compare(scenario, schedulers=[name])[name].to_dict() if name not in docs else docs[name]
        pair = docs[f"{ordering}-{placement}"]
        assert without_run_fields(named) == without_run_fields(pair), name


def without_run_fields(doc: dict[str, Any]) -> dict[str, Any]:
    """A document without what differs between two runs of the same simulation."""
    return {k: v for k, v in doc.items() if k not in ("scheduler", "scheduling_delay")}


def test_one_scheduler_on_its_own_gives_the_comparison_result() -> None:
    # The web side runs each scheduler of a comparison as its own task with the run's lower
    # bound: it must get the same document as compare(), apart from wall-clock delays.
    scenario = busy_table3_scenario(seed=5, jobs=25)
    schedulers = ["fifo-spread", "edf-bfd:edf_backfill=true", "edf-ilp", "morpheus"]
    options = {"min_billed_s": 60, "rut": {"cpu": 0.5, "mem": 0.5}}
    together = compare(scenario, schedulers=schedulers, options=options, seed=4)
    bound = lower_bound_cost(scenario)
    for spec in schedulers:
        alone = simulate(scenario, scheduler=spec, options=options, seed=4, lower_bound=bound)
        a, b = alone.to_dict(), together[spec].to_dict()
        assert a["scheduling_delay"]["decisions"] == b["scheduling_delay"]["decisions"]
        assert {k: v for k, v in a.items() if k != "scheduling_delay"} == {
            k: v for k, v in b.items() if k != "scheduling_delay"
        }
        assert alone.jobs == together[spec].jobs


def test_unknown_scheduler_and_option_are_named():
    with pytest.raises(ScenarioError, match=r"schedulers\[1\]: unknown placement 'magic'"):
        compare(FIG2, schedulers=["edf-bfd", "edf-magic"])
    with pytest.raises(ScenarioError, match=r"scheduler.colour: unknown option"):
        simulate(FIG2, scheduler="edf-bfd:colour=red")


def test_results_are_reproducible():
    a = simulate(FIG2, scheduler="fifo-spread", seed=3).to_dict()
    b = simulate(FIG2, scheduler="fifo-spread", seed=3).to_dict()
    for d in (a, b):
        d.pop("scheduling_delay")
    assert a == b


def test_progress_is_reported_and_can_abort():
    seen: list[float] = []
    simulate(FIG2, scheduler="edf-bfd", progress=seen.append)
    assert seen[-1] == 1.0 and seen == sorted(seen)

    class Stop(Exception):
        pass

    def stop(_: float) -> None:
        raise Stop

    with pytest.raises(Stop):
        simulate(FIG2, scheduler="edf-bfd", progress=stop)


def test_library_does_not_import_django():
    # In a fresh interpreter: pytest-django has already imported Django into this one.
    code = (
        "import sys, scheduling, scheduling.cli, scheduling.charts, scheduling.html, scheduling.cost.html, "
        "scheduling.cost.placement.exact, scheduling.importers, scheduling.generators; "
        "bad = sorted(m for m in sys.modules "
        "if m.split('.')[0] in ('django', 'planner', 'rest_framework', 'celery')); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_edf_backfill_lets_a_fitting_deadline_job_pass_a_blocked_one():
    # A 3-core job runs on a 4-core VM; "big" (4 cores, earliest deadline) must wait for it,
    # "small" (1 core, later deadline) fits now. Algorithm 1 keeps "small" behind "big";
    # with edf_backfill it starts at once and both meet their deadlines.
    sc = one_resource(
        [("vm", 4, 1.0, 1)],
        [
            ("run", 0, 1, 3, 100, {}),
            ("big", 1, 1, 4, 50, {"deadline_s": 150}),
            ("small", 2, 1, 1, 50, {"deadline_s": 300}),
        ],
    )
    strict = {j["id"]: j["start_s"] for j in simulate(sc, scheduler="edf-bfd").jobs}
    backfill = simulate(sc, scheduler="edf-bfd:edf_backfill=true")
    starts = {j["id"]: j["start_s"] for j in backfill.jobs}
    assert (strict["big"], strict["small"]) == (100, 150)
    assert (starts["small"], starts["big"]) == (2, 100)
    assert backfill.deadline_missed == 0
    assert backfill.to_dict()["options"]["edf_backfill"] is True


def test_edf_backfill_option_values():
    from scheduling import SimulationOptions

    for raw, expected in ((True, True), (0, False), ("yes", True), ("false", False)):
        assert SimulationOptions.from_dict({"edf_backfill": raw}, resources=("cpu",)).edf_backfill is expected
    with pytest.raises(ScenarioError, match=r"options.edf_backfill: must be true or false"):
        SimulationOptions.from_dict({"edf_backfill": "maybe"}, resources=("cpu",))
