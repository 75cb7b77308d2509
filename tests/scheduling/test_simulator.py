"""The simulator against hand-worked cases (paper 003's Fig. 2-3 and others)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from scheduling import Scenario, ScenarioError, compare, parse_scenario, simulate


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


def test_fig3c_cost_aware_placement_uses_the_cheapest_vms():
    r = simulate(FIG2, scheduler="edf-bfd")
    assert placements(r) == {"job-1": {"vm-1#1": 2}, "job-2": {"vm-2#1": 2}}
    assert r.total_cost == pytest.approx(3.0)  # VM-1 and VM-2 for one hour each


def test_fig3b_price_blind_consolidation_packs_into_vm4():
    r = simulate(FIG2, scheduler="fifo-consolidate")
    assert placements(r) == {"job-1": {"vm-4#1": 2}, "job-2": {"vm-4#1": 2}}
    assert r.total_cost == pytest.approx(4.0 * 3601 / 3600)


def test_fig3a_round_robin_uses_every_vm():
    r = simulate(FIG2, scheduler="fifo-spread")
    used = {vm for p in placements(r).values() for vm in p}
    assert used == {"vm-1#1", "vm-2#1", "vm-3#1", "vm-4#1"}
    assert r.total_cost == pytest.approx(10.0, rel=1e-3)  # the highest cost, as the paper says


def test_ilp_matches_fig3c():
    r = simulate(FIG2, scheduler="edf-ilp")
    assert r.total_cost == pytest.approx(3.0)
    assert r.to_dict()["ilp"]["fallbacks"] == 0


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
        [("run", 0, 1, 4, 100, {}), ("fill", 0, 1, 1, 100, {}), ("big", 1, 2, 4, 50, {}), ("small", 2, 1, 3, 50, {})],
    )
    r = simulate(sc, scheduler="edf-bfd")
    starts = {j["id"]: j["start_s"] for j in r.jobs}
    assert starts["small"] == 2 and starts["big"] == 100


def test_fifo_head_blocks_the_queue():
    sc = one_resource(
        [("vm", 4, 1.0, 2)],
        [("run", 0, 1, 4, 100, {}), ("fill", 0, 1, 1, 100, {}), ("big", 1, 2, 4, 50, {}), ("small", 2, 1, 3, 50, {})],
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
                {"id": "run", "arrival_s": 0, "executors": 1, "executor": {"cpu": 8, "mem": 8}, "duration_s": 10},
                {"id": "cpu-heavy", "arrival_s": 1, "executors": 1, "executor": {"cpu": 6, "mem": 1}, "duration_s": 10},
                {"id": "balanced", "arrival_s": 2, "executors": 1, "executor": {"cpu": 3, "mem": 3}, "duration_s": 10},
            ],
        }
    )
    starts = {j["id"]: j["start_s"] for j in simulate(sc, scheduler="morpheus").jobs}
    assert starts["balanced"] == 10 and starts["cpu-heavy"] == 20


def test_vm_turns_off_when_idle_and_is_billed_per_second():
    sc = one_resource([("vm", 4, 3.6, 1)], [("a", 0, 1, 4, 100, {}), ("b", 500, 1, 4, 100, {})])
    d = simulate(sc, scheduler="edf-bfd").to_dict()
    assert [(iv["on_s"], iv["off_s"]) for iv in d["vm_intervals"]] == [(0, 100), (500, 600)]
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
                {"id": "A", "arrival_s": 0, "executors": 1, "executor": {"cpu": 12, "mem": 8}, "duration_s": 100},
                {"id": "B", "arrival_s": b_arrival_s, "executors": 1, "executor": {"cpu": 2, "mem": 4},
                 "duration_s": 3600},
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
    intervals = [(iv["vm"], iv["on_s"], iv["off_s"]) for iv in r.to_dict()["vm_intervals"]]
    assert sorted(intervals) == [("large#1", 0, 100), ("small#1", b_arrival_s, b_arrival_s + 3600)]


def test_a_vm_emptied_and_reused_at_the_same_instant_is_two_on_intervals() -> None:
    # One VM: B arrives as A ends. The VM is off for B's placement (see above), so B turns it on
    # again: a new on-interval with its own minimum billed period and its own boot time.
    sc = one_resource([("vm", 4, 3.6, 1)], [("a", 0, 1, 4, 100, {}), ("b", 100, 1, 4, 100, {})])
    plain = simulate(sc, scheduler="edf-bfd").to_dict()
    assert [(iv["on_s"], iv["off_s"]) for iv in plain["vm_intervals"]] == [(0, 100), (100, 200)]
    assert plain["total_cost"] == pytest.approx(0.2)  # per-second billing: as if it never stopped
    d = simulate(sc, scheduler="edf-bfd", options={"min_billed_s": 150, "boot_time_s": 30}).to_dict()
    assert [(iv["on_s"], iv["off_s"], iv["billed_s"]) for iv in d["vm_intervals"]] == [
        (0, 130, 150), (130, 260, 150)  # A boots, runs 30-130 s; B waits for the VM, boots again
    ]
    assert [j["start_s"] for j in d["jobs"]] == [30, 160]
    assert d["total_cost"] == pytest.approx(0.3)  # 2 x 150 s at $3.60/h
    assert d["timeline"]["cumulative_cost"][-1] == pytest.approx(0.3)


def test_billing_options():
    sc = one_resource([("vm", 4, 3.6, 1)], [("a", 0, 1, 4, 100, {}), ("b", 500, 1, 4, 100, {})])
    d = simulate(sc, scheduler="edf-bfd", options={"billing_granularity_s": 60, "min_billed_s": 150}).to_dict()
    assert [iv["billed_s"] for iv in d["vm_intervals"]] == [150, 150]  # 100 s -> 120 s -> min 150 s
    assert d["total_cost"] == pytest.approx(0.3)
    assert d["timeline"]["cumulative_cost"][-1] == pytest.approx(0.3)


def test_boot_time_delays_the_start_and_is_billed():
    sc = one_resource([("vm", 4, 3.6, 1)], [("a", 0, 1, 4, 100, {"deadline_s": 110})])
    d = simulate(sc, scheduler="edf-bfd", options={"boot_time_s": 30}).to_dict()
    job = d["jobs"][0]
    assert (job["start_s"], job["finish_s"], job["met_deadline"]) == (30, 130, False)
    assert d["total_cost"] == pytest.approx(0.13)


def test_scheduling_interval_polls():
    sc = one_resource([("vm", 4, 1.0, 1)], [("a", 3, 1, 4, 100, {}), ("b", 4, 1, 4, 10, {})])
    starts = [j["start_s"] for j in simulate(sc, scheduler="fifo-bfd", options={"scheduling_interval_s": 10}).jobs]
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
                {"id": "m", "framework": "ml", "arrival_s": 0, "executors": 2, "executor": {"cpu": 1, "mem": 1}, "duration_s": 10},
                {"id": "e", "framework": "etl", "arrival_s": 0, "executors": 2, "executor": {"cpu": 1, "mem": 1}, "duration_s": 10},
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
            "vm_types": [{"name": "m", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 6}],
            "frameworks": [{"name": "analytics"}, {"name": "etl"}],
            "jobs": [
                {"id": "a", "framework": "analytics", "arrival_s": 0, "executors": 4, "executor": {"cpu": 2, "mem": 4}, "duration_s": 300},
                {"id": "e", "framework": "etl", "arrival_s": 10, "executors": 6, "executor": {"cpu": 2, "mem": 4}, "duration_s": 300},
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
            {"id": f"j{k}", "framework": "etl", "arrival_s": 10 * k, "executors": 2,
             "executor": {"cpu": 2, "mem": 4}, "duration_s": 100}
            for k in range(3)
        ],
    }
    assert simulate(parse_scenario(doc), scheduler="edf-bfd").to_dict()["fairness"] is None
    doc["jobs"][2]["framework"] = "ml"  # now two frameworks have jobs
    fairness = simulate(parse_scenario(doc), scheduler="edf-bfd").to_dict()["fairness"]
    assert fairness is not None and fairness["contention_s"] > 0


def test_any_ordering_placement_pair_and_named_schedulers_run():
    names = [f"{o}-{p}" for o in ("fifo", "edf", "morpheus") for p in ("bfd", "ilp", "consolidate", "spread")]
    names += ["fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp"]
    results = compare(FIG2, schedulers=names)
    assert set(results) == set(names)


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
        "import sys, scheduling, scheduling.cli, scheduling.charts, scheduling.html_report, "
        "scheduling.placement.exact, scheduling.importers, scheduling.generators; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'planner', 'rest_framework', 'celery')); "
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
        [("run", 0, 1, 3, 100, {}), ("big", 1, 1, 4, 50, {"deadline_s": 150}),
         ("small", 2, 1, 1, 50, {"deadline_s": 300})],
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
