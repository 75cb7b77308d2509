"""The replay of a result document: hand-worked instants, the timeline's points, invariants.

Every check runs on the document as the simulator writes it and on its columnar layout
(format 2, ``to_columnar``), which must give the same snapshots.
"""

from __future__ import annotations

import bisect
import json
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scheduling import ScenarioError, parse_scenario, simulate
from scheduling.cost.document import iter_jobs, to_columnar
from scheduling.cost.replay import QUEUE_ORDERS, ReplayIndex, parse_instant, replay_snapshot, time_axis
from scheduling.generators import synthetic_jobs

LAYOUTS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "listed": lambda doc: doc,
    "columnar": to_columnar,
}


@pytest.fixture(params=list(LAYOUTS))
def layout(request: pytest.FixtureRequest) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return LAYOUTS[request.param]


def one_cpu(jobs: list[dict[str, Any]], *, count: int = 2, **options: Any) -> Any:
    """VMs "small" of 4 cpu at $3.60 per hour ($0.001 per second)."""
    return parse_scenario({
        "resources": ["cpu"],
        "vm_types": [{"name": "small", "capacity": {"cpu": 4}, "price_per_hour": 3.6, "count": count}],
        "jobs": jobs,
        "options": options,
    })


def job(name: str, arrival: float, executors: int, cpu: float, duration: float, deadline: float | None = None
        ) -> dict[str, Any]:
    out: dict[str, Any] = {"id": name, "arrival_s": arrival, "executors": executors, "executor": {"cpu": cpu},
                           "duration_s": duration}
    if deadline is not None:
        out["deadline_s"] = deadline
    return out


# a and b take 3 of the 4 cpu of one VM each; c (deadline 60 s absolute) needs two 2-cpu
# executors, which fit nowhere until a finishes at 100; d (1 cpu, no deadline) would fit at 30
# but waits behind c: EDF tries no regular job while a deadline job waits (Algorithm 1).
# At 100, c goes on small#1 and d on small#2 (b's VM, 1 cpu free); b and d finish at 110.
WORKED = [
    job("a", 0, 1, 3, 100),
    job("b", 10, 1, 3, 100),
    job("c", 20, 2, 2, 50, deadline=40),
    job("d", 30, 1, 1, 10),
]


def vms(snapshot: dict[str, Any]) -> dict[str, tuple[float, float, list[tuple[str, int]]]]:
    """``{vm: (used cpu, free cpu, [(job, executors)])}``."""
    return {
        vm["vm"]: (vm["used"]["cpu"], vm["free"]["cpu"], [(e["job"], e["count"]) for e in vm["executors"]])
        for vm in snapshot["vms"]
    }


def queue(snapshot: dict[str, Any]) -> list[str]:
    return [q["job"] for q in snapshot["queue"]["jobs"]]


def test_a_hand_worked_run_at_four_instants(layout: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    doc = layout(simulate(one_cpu(WORKED), scheduler="edf-bfd").to_dict())
    index = ReplayIndex(doc)
    assert index.end_s == 150.0

    at50 = index.snapshot(50)
    assert vms(at50) == {"small#1": (3.0, 1.0, [("a", 1)]), "small#2": (3.0, 1.0, [("b", 1)])}
    assert queue(at50) == ["c", "d"]  # the deadline job first, then the regular one
    c, d = at50["queue"]["jobs"]
    fields = ("arrival_s", "deadline_s", "waited_s", "overdue", "met_deadline")
    assert [c[k] for k in fields] == [20, 60, 30, False, False]
    assert (d["deadline_s"], d["waited_s"], d["met_deadline"]) == (None, 20, None)
    assert at50["queue"]["order"] == "edf"
    assert at50["jobs"] == {
        "total": 4, "not_arrived": 0, "queued": 2, "running": 2, "booting": 0, "finished": 0
    }
    # small#1 on for 50 s and small#2 for 40 s at $0.001 per second.
    assert at50["cost"]["so_far"] == pytest.approx(0.09)
    assert at50["cost"]["rate_per_hour"] == pytest.approx(7.2)
    assert at50["utilisation"] == {"cpu": 0.75} and at50["utilisation_of_on"] == {"cpu": 0.75}
    assert at50["vms_on"] == 2 and at50["vms_on_by_type"] == {"small": 2}

    at65 = index.snapshot(65)
    assert at65["queue"]["jobs"][0]["overdue"] is True  # c's deadline (60 s) has passed

    at105 = index.snapshot(105)
    assert vms(at105) == {"small#1": (4.0, 0.0, [("c", 2)]), "small#2": (4.0, 0.0, [("b", 1), ("d", 1)])}
    assert queue(at105) == []
    assert at105["jobs"]["running"] == 3 and at105["jobs"]["finished"] == 1
    assert at105["cost"]["so_far"] == pytest.approx(0.105 + 0.095)

    at110 = index.snapshot(110)  # b and d finished at 110: small#2 is off over [10, 110)
    assert vms(at110) == {"small#1": (4.0, 0.0, [("c", 2)])}
    assert at110["cost"]["so_far"] == pytest.approx(0.110 + 0.100)
    assert at110["utilisation"] == {"cpu": 0.5} and at110["utilisation_of_on"] == {"cpu": 1.0}

    end = index.snapshot(150)
    assert end["vms"] == [] and end["jobs"]["finished"] == 4 and end["clamped"] is False
    assert end["cost"]["so_far"] == pytest.approx(0.25) == doc["total_cost"]
    later = index.snapshot(10_000)
    assert (later["t_s"], later["requested_t_s"], later["clamped"]) == (150.0, 10_000.0, True)
    assert later["cost"] == end["cost"] and later["jobs"] == end["jobs"]

    before = index.snapshot(0)
    assert before["jobs"]["not_arrived"] == 3 and vms(before) == {"small#1": (3.0, 1.0, [("a", 1)])}


def test_fifo_lists_the_queue_by_arrival_and_morpheus_by_c_job() -> None:
    fifo = replay_snapshot(simulate(one_cpu(WORKED), scheduler="fifo-consolidate").to_dict(), 50)
    assert queue(fifo) == ["c", "d"] and fifo["queue"]["order"] == "fifo"
    # Morpheus places d at 30 (it fits and has the smallest c_job); c waits alone.
    morpheus = replay_snapshot(simulate(one_cpu(WORKED), scheduler="morpheus-bfd").to_dict(), 50)
    assert queue(morpheus) == ["c"] and morpheus["queue"]["order"] == "morpheus"


def hand_doc(ordering: str, jobs: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """A document written by hand: one VM of 10 cpu and 10 GB, on from 0 to 1,000 s."""
    return {
        "scheduler": f"{ordering}-bfd", "ordering": ordering, "resources": ["cpu", "mem"], "total_cost": 1.0,
        "vm_types": [{"name": "box", "count": 1, "capacity": {"cpu": 10, "mem": 10}, "price_per_hour": 3.6}],
        "jobs": [{"framework": "f", "deadline_s": None, "met_deadline": None, "cost": 0.0, "placement": {},
                  "placed_s": 500.0, "start_s": 500.0, "finish_s": 600.0, **j} for j in jobs],
        "vm_intervals": [{"vm": "box#1", "vm_type": "box", "on_s": 0.0, "off_s": 1000.0, "billed_s": 1000.0,
                          "cost": 1.0}],
        **extra,
    }


# At t = 100 the running job holds 6 cpu and 2 GB. Waiting: x needs 4 cpu (c_job = (6+4)/10 = 1.0),
# y 5 cpu (1.1), z 2 cpu (0.8); eq. 10 takes the largest share over resources.
MORPHEUS_JOBS = [
    {"id": "run", "arrival_s": 0.0, "placed_s": 0.0, "start_s": 0.0, "finish_s": 1000.0, "executors": 3,
     "executor": {"cpu": 2, "mem": 2 / 3}, "placement": {"box#1": 3}},
    {"id": "x", "arrival_s": 10.0, "executors": 2, "executor": {"cpu": 2, "mem": 1}},
    {"id": "y", "arrival_s": 20.0, "executors": 1, "executor": {"cpu": 5, "mem": 1}},
    {"id": "z", "arrival_s": 30.0, "executors": 1, "executor": {"cpu": 2, "mem": 1}},
]


def test_morpheus_orders_the_queue_by_c_job_at_the_instants_load() -> None:
    snapshot = replay_snapshot(hand_doc("morpheus", MORPHEUS_JOBS), 100)
    assert queue(snapshot) == ["z", "x", "y"]
    assert snapshot["used"] == {"cpu": 6.0, "mem": pytest.approx(2.0)}


def test_edf_orders_deadline_jobs_by_deadline_then_regular_jobs_by_rd_job() -> None:
    jobs = [
        {"id": "r-small", "arrival_s": 1.0, "executors": 1, "executor": {"cpu": 1, "mem": 1}},
        {"id": "r-big", "arrival_s": 2.0, "executors": 2, "executor": {"cpu": 1, "mem": 1}},
        {"id": "late", "arrival_s": 3.0, "executors": 1, "executor": {"cpu": 1, "mem": 1},
         "deadline_s": 90.0},
        {"id": "soon", "arrival_s": 4.0, "executors": 1, "executor": {"cpu": 1, "mem": 1},
         "deadline_s": 50.0},
        # RD_job with RUT 0.8 cpu / 0.2 mem: 2 x (0.8 x 1/10 + 0.2 x 1/10) = 0.2 for r-big,
        # 0.8 x 1/10 + 0.2 x 4/10 = 0.16 here, 0.1 for r-small.
        {"id": "r-mem", "arrival_s": 0.0, "executors": 1, "executor": {"cpu": 1, "mem": 4}},
    ]
    assert queue(replay_snapshot(hand_doc("edf", jobs), 10)) == ["soon", "late", "r-big", "r-mem", "r-small"]
    # With RUT weights all on memory, r-mem (0.4) passes r-big (0.2).
    options = {"rut": {"cpu": 0.0, "mem": 1.0}}
    edf = replay_snapshot(hand_doc("edf", jobs, options=options), 10)
    assert queue(edf) == ["soon", "late", "r-mem", "r-big", "r-small"]
    assert edf["queue"]["order_text"] == QUEUE_ORDERS["edf"]


def test_an_unknown_ordering_lists_the_queue_by_arrival_and_says_so() -> None:
    snapshot = replay_snapshot(hand_doc("lottery", MORPHEUS_JOBS), 100)
    assert queue(snapshot) == ["x", "y", "z"] and snapshot["queue"]["order"] == "arrival"


def test_the_queue_list_is_cut_at_the_limit_but_the_counts_are_whole() -> None:
    snapshot = replay_snapshot(hand_doc("fifo", MORPHEUS_JOBS), 100, queue_limit=2)
    assert queue(snapshot) == ["x", "y"] and snapshot["queue"]["truncated"] is True
    assert snapshot["jobs"]["queued"] == 3


def test_executors_hold_capacity_from_placement_while_their_vm_boots(
    layout: Callable[[dict[str, Any]], dict[str, Any]],
) -> None:
    # The simulator takes the capacity at placement and starts the job once its VM has booted.
    doc = layout(simulate(one_cpu([job("a", 0, 2, 1, 100)], boot_time_s=30), scheduler="edf-bfd").to_dict())
    (record,) = iter_jobs(doc)
    assert (record["placed_s"], record["start_s"], record["finish_s"]) == (0.0, 30.0, 130.0)
    index = ReplayIndex(doc)
    booting = index.snapshot(10)
    assert vms(booting) == {"small#1": (2.0, 2.0, [("a", 2)])}
    assert booting["vms"][0]["executors"][0]["state"] == "booting"
    assert booting["jobs"]["running"] == 1 and booting["jobs"]["booting"] == 1
    running = index.snapshot(30)
    assert running["vms"][0]["executors"][0]["state"] == "running" and running["jobs"]["booting"] == 0
    assert index.snapshot(130)["vms"] == []


def test_billing_rounding_lands_when_the_vm_is_turned_off(
    layout: Callable[[dict[str, Any]], dict[str, Any]],
) -> None:
    # 100 s on, billed by the hour: $0.001 per second while on, then the whole hour at turn-off,
    # as the timeline's cumulative cost does.
    doc = layout(simulate(one_cpu([job("a", 0, 1, 1, 100)], billing_granularity_s=3600), scheduler="edf-bfd")
                 .to_dict())
    index = ReplayIndex(doc)
    assert index.snapshot(50)["cost"]["so_far"] == pytest.approx(0.05)
    assert index.snapshot(99.5)["cost"]["so_far"] == pytest.approx(0.0995)
    assert index.snapshot(100)["cost"]["so_far"] == pytest.approx(3.6) == doc["total_cost"]
    assert doc["timeline"]["cumulative_cost"] == pytest.approx([0.0, 3.6])


# ---------------------------------------------------------------------- the timeline and invariants

SCHEDULERS = [
    "fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp", "edf-bfd:edf_backfill=true",
]


def busy_scenario(**options: Any) -> Any:
    """Sixty jobs of two frameworks on a small cluster: queues, several VM types, deadlines."""
    return parse_scenario({
        "resources": ["cpu", "mem"],
        "vm_types": [
            {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 3},
            {"name": "big", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.48, "count": 2},
        ],
        "frameworks": [{"name": "analytics", "weight": 1}, {"name": "etl", "weight": 2}],
        "jobs": synthetic_jobs(jobs=60, seed=3, arrival_rate_per_s=0.05, frameworks=["analytics", "etl"],
                               executors=(1, 4), executor={"cpu": (1, 4), "mem": (1, 8)},
                               deadline_fraction=0.5),
        "options": options,
    })


@pytest.fixture(scope="module", params=SCHEDULERS)
def result(request: pytest.FixtureRequest) -> dict[str, Any]:
    options = {"boot_time_s": 20, "min_billed_s": 60} if "backfill" in request.param else {}
    doc = simulate(busy_scenario(**options), scheduler=request.param).to_dict()
    assert max(doc["timeline"]["queued_jobs"]) >= 3  # the queue is exercised
    return doc


def check_invariants(doc: dict[str, Any], snapshot: dict[str, Any]) -> None:
    t = snapshot["t_s"]
    jobs = list(iter_jobs(doc))
    holding = {j["id"]: j for j in jobs if j["placed_s"] <= t < j["finish_s"]}
    seen: dict[str, dict[str, int]] = {}
    for vm in snapshot["vms"]:
        for r in snapshot["resources"]:
            assert vm["used"][r] + vm["free"][r] == pytest.approx(vm["capacity"][r], abs=1e-9)
            assert vm["used"][r] <= vm["capacity"][r] + 1e-9
            assert vm["free"][r] >= -1e-9
        for e in vm["executors"]:
            assert vm["vm"] not in seen.setdefault(e["job"], {})  # each job once per VM
            seen[e["job"]][vm["vm"]] = e["count"]
            assert e["executor"] == holding[e["job"]]["executor"]
            assert e["state"] == ("booting" if t < holding[e["job"]]["start_s"] else "running")
    # Every job holding capacity shows all its executors, on the VMs of its placement.
    assert seen == {name: j["placement"] for name, j in holding.items()}
    counts = snapshot["jobs"]
    assert counts["queued"] == sum(j["arrival_s"] <= t < j["placed_s"] for j in jobs)
    assert counts["running"] == len(holding)
    assert counts["finished"] == sum(j["finish_s"] <= t for j in jobs)
    parts = ("not_arrived", "queued", "running", "finished")
    assert sum(counts[k] for k in parts) == counts["total"] == len(jobs)
    assert {q["job"] for q in snapshot["queue"]["jobs"]} == {
        j["id"] for j in jobs if j["arrival_s"] <= t < j["placed_s"]
    }
    json.dumps(snapshot, allow_nan=False)


def test_the_snapshot_at_each_timeline_point_is_the_timelines_state(result: dict[str, Any]) -> None:
    index = ReplayIndex(result)
    columnar = ReplayIndex(to_columnar(result))
    tl = result["timeline"]
    for k, t in enumerate(tl["t"]):
        snapshot = index.snapshot(t)
        assert columnar.snapshot(t) == snapshot
        check_invariants(result, snapshot)
        assert snapshot["jobs"]["queued"] == tl["queued_jobs"][k]
        assert snapshot["jobs"]["running"] == tl["running_jobs"][k]
        assert snapshot["cost"]["so_far"] == pytest.approx(tl["cumulative_cost"][k], rel=1e-9, abs=1e-12)
        assert snapshot["cost"]["rate_per_hour"] == pytest.approx(tl["cost_rate_per_hour"][k], abs=1e-9)
        assert snapshot["vms_on_by_type"] == {name: series[k] for name, series in tl["active_vms"].items()}
        for r in result["resources"]:
            assert snapshot["utilisation"][r] == pytest.approx(tl["utilisation"][r][k], abs=1e-9)
            assert snapshot["utilisation_of_on"][r] == pytest.approx(tl["utilisation_of_on"][r][k], abs=1e-9)
    assert index.snapshot(index.end_s)["cost"]["so_far"] == pytest.approx(result["total_cost"], rel=1e-12)
    assert index.end_s == tl["t"][-1]


@settings(max_examples=60, deadline=None)
@given(instants=st.lists(st.floats(min_value=0, max_value=1.1, allow_nan=False), min_size=2, max_size=8))
def test_between_points_the_invariants_hold_and_the_cost_never_falls(instants: list[float]) -> None:
    for scheduler in ("fifo-consolidate", "edf-bfd:edf_backfill=true"):
        doc = _between_docs(scheduler)
        index = ReplayIndex(doc)
        tl = doc["timeline"]
        last_cost = 0.0
        for t in sorted(x * index.end_s for x in instants):
            snapshot = index.snapshot(t)
            check_invariants(doc, snapshot)
            assert snapshot["cost"]["so_far"] >= last_cost - 1e-12
            last_cost = snapshot["cost"]["so_far"]
            # Between points the cost is the last point's plus the rate of the VMs on since then.
            # (Before the first point, the first arrival, nothing is on.)
            k = bisect.bisect_right(tl["t"], snapshot["t_s"]) - 1
            expected = 0.0 if k < 0 else (
                tl["cumulative_cost"][k] + tl["cost_rate_per_hour"][k] * (snapshot["t_s"] - tl["t"][k]) / 3600
            )
            assert snapshot["cost"]["so_far"] == pytest.approx(expected, rel=1e-9, abs=1e-12)


_DOCS: dict[str, dict[str, Any]] = {}


def _between_docs(scheduler: str) -> dict[str, Any]:
    if scheduler not in _DOCS:
        options = {"boot_time_s": 20, "billing_granularity_s": 60} if "backfill" in scheduler else {}
        _DOCS[scheduler] = simulate(busy_scenario(**options), scheduler=scheduler).to_dict()
    return _DOCS[scheduler]


def test_the_queue_is_listed_in_the_order_the_simulator_serves_it(result: dict[str, Any]) -> None:
    """Checked against what the simulator did: FIFO places the queue in its order; EDF (without
    backfill) places deadline jobs by deadline and no regular job before a waiting deadline job."""
    index = ReplayIndex(result)
    placed = {j["id"]: j["placed_s"] for j in iter_jobs(result)}
    deadlines = {j["id"]: j["deadline_s"] for j in iter_jobs(result)}
    backfill = result["options"]["edf_backfill"]
    checked = 0
    for t in result["timeline"]["t"]:
        order = queue(index.snapshot(t))
        times = [placed[name] for name in order]
        if result["ordering"] == "fifo":
            assert times == sorted(times)
        elif result["ordering"] == "edf" and not backfill:
            with_deadline = [placed[n] for n in order if deadlines[n] is not None]
            regular = [placed[n] for n in order if deadlines[n] is None]
            first = [n for n in order if deadlines[n] is not None]
            assert order == first + [n for n in order if deadlines[n] is None]
            assert with_deadline == sorted(with_deadline)
            if with_deadline and regular:
                assert max(with_deadline) <= min(regular)
        checked += len(order) > 1
    assert checked or result["ordering"] not in ("fifo", "edf")


# ---------------------------------------------------------------------- instants and the time axis


@pytest.mark.parametrize(
    "bad", ["", "soon", "nan", "NaN", "inf", "-inf", "1e999", float("nan"), True, None, [1]]
)
def test_an_instant_that_is_not_a_finite_number_is_refused_by_name(bad: object) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_instant(bad)
    assert [e.path for e in info.value.errors] == ["t"]
    assert "finite number of seconds" in str(info.value)


@pytest.mark.parametrize("bad", ["-1", -0.5])
def test_a_negative_instant_is_refused_by_name(bad: object) -> None:
    with pytest.raises(ScenarioError, match=r"^t: must be >= 0"):
        parse_instant(bad)


def test_the_snapshot_refuses_a_bad_instant() -> None:
    doc = simulate(one_cpu(WORKED), scheduler="edf-bfd").to_dict()
    with pytest.raises(ScenarioError, match=r"^t: "):
        replay_snapshot(doc, "-3")


@pytest.mark.parametrize(
    ("end", "unit"), [(120, "s"), (179, "s"), (180, "min"), (10_799, "min"), (10_800, "h")]
)
def test_the_time_axis_uses_the_charts_units(end: float, unit: str) -> None:
    from scheduling.charts import time_unit

    axis = time_axis(end)
    assert axis["unit"] == unit and (axis["divisor"], axis["unit"]) == time_unit(end)
    assert math.isclose(axis["end_s"], end)


def test_replay_stays_out_of_django() -> None:
    import subprocess
    import sys

    code = "import sys, scheduling.cost.replay; sys.exit('django' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
