"""The online sharing simulator (paper 000 §V, paper 001; notes §4-5): hand-worked cases,
invariants, reproducibility, errors, and the document read by the presentation layer."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scheduling.errors import ScenarioError
from scheduling.fairness.charts import sharing_figures
from scheduling.fairness.html import render_fairness_html
from scheduling.fairness.sharing import SHARING_MODES, SharingResult, share
from scheduling.fairness.tables import fairness_table, sharing_framework_rows, sharing_summary
from scheduling.scenario import parse_scenario

UNIT = {"cpu": 1, "mem": 1}


def framework(
    name: str,
    tasks: int = 4,
    *,
    policy: str = "first-fit",
    refuse: float = 0,
    duration: float = 100,
    demand: dict[str, float] | None = None,
    **queue: Any,
) -> dict[str, Any]:
    return {
        "name": name,
        "task_demand": demand or UNIT,
        "offer_policy": policy,
        "refuse_s": refuse,
        "queues": [{"tasks": tasks, "duration_s": duration, **queue}] if tasks else [],
    }


def scenario(
    *frameworks: dict[str, Any],
    agents: int = 1,
    capacity: dict[str, float] | None = None,
    jobs: list[dict[str, Any]] | None = None,
) -> Any:
    doc: dict[str, Any] = {
        "resources": list((capacity or {"cpu": 4, "mem": 4}).keys()),
        "vm_types": [
            {
                "name": "agent",
                "capacity": capacity or {"cpu": 4, "mem": 4},
                "price_per_hour": 0,
                "count": agents,
            }
        ],
        "frameworks": list(frameworks),
    }
    if jobs is not None:
        doc["jobs"] = jobs
    return parse_scenario(doc)


def starts(result: SharingResult, fw: int) -> list[float]:
    return sorted(result.start_s[result.framework == fw].tolist())


# --------------------------------------------------------------------------- hand-worked cases


def test_first_fit_launches_one_task_per_offer_bin_packing_all_that_fit() -> None:
    # One agent of 4 cpu, one framework, refuse 0: first fit takes one task a decision.
    assert starts(share(scenario(framework("a"))), 0) == [0.0, 1.0, 2.0, 3.0]
    assert starts(share(scenario(framework("a", policy="bin-packing"))), 0) == [0.0] * 4


@pytest.mark.parametrize("seed", range(6))
def test_first_fit_against_bin_packing_on_one_agent(seed: int) -> None:
    # Decision 0 goes to either (equal shares, a tie at random). If first-fit a gets it, it
    # launches 1 and declines 3 cpu; at decision 1 b (share 0 < 1/4) packs all 3. If b gets
    # it, b packs 4 and a waits for b's tasks to end.
    r = share(scenario(framework("a"), framework("b", policy="bin-packing")), seed=seed)
    by_1s = [(r.start_s[r.framework == k] <= 1.0).sum() for k in (0, 1)]
    assert by_1s in ([1, 3], [0, 4])
    offers = r.to_dict()["offers"]
    assert offers["b"]["accepted"] >= 1 and offers["a"]["accepted"] == 4


def test_refuse_filter_delays_the_next_offer_of_that_agent() -> None:
    # First fit uses part of each offer, so it filters the agent for refuse_s: one task every 5 s.
    r = share(scenario(framework("a", refuse=5)))
    assert starts(r, 0) == [0.0, 5.0, 10.0, 15.0]
    assert r.to_dict()["makespan_s"] == 115.0
    # Two agents: one task on each, then both filtered for 3 s.
    r2 = share(scenario(framework("a", refuse=3), agents=2))
    assert starts(r2, 0) == [0.0, 0.0, 3.0, 3.0]


def test_greedy_sets_no_filter_while_it_has_work() -> None:
    r = share(
        scenario(framework("m", 6, policy="greedy", refuse=5, duration=10), capacity={"cpu": 4, "mem": 4})
    )
    # 4 at once; the 2 left launch as soon as the first ones end (no filter from the partial use).
    assert starts(r, 0) == [0.0] * 4 + [10.0] * 2


def aurora(*, disk: float = 100, mem: float = 16, **rules: Any) -> SharingResult:
    """Paper 001 §V-C: Scylla packs its tasks of 1 cpu, 2 GB and ``disk`` MB first; Aurora's come a
    second later and it holds, 300 s, the offers it cannot use."""
    cap = {"cpu": 8, "mem": mem, "disk": 32000}
    task = {"cpu": 1, "mem": 2, "disk": disk}
    scylla = framework("scylla", 64, policy="bin-packing", refuse=5, duration=50, demand=task)
    a = framework("aurora", 32, policy="hold", refuse=5, duration=50, demand=task, start_s=1)
    a["hold_s"] = 300
    return share(scenario(scylla, a, agents=4, capacity=cap), seed=3, **rules)


def test_no_disk_only_offers_on_16_gb_agents() -> None:
    """Scylla's 8 tasks of 2 GB fill an agent's cpu and memory and leave 31,200 MB of disk: under
    Mesos' allocatable() (0.01 cpu or 32 MB) that is not offered, so Aurora holds nothing and gets
    the first freed resources; offering it (``minimum_offer="none"``) is the paper's explanation:
    Aurora holds the disk of all four agents (4 x 31,200 of 128,000 MB: 97.5 %) and starves."""
    mesos = aurora().to_dict()
    assert max(mesos["timeline"]["held"]["aurora"]) == 0.0
    any_offer = aurora(minimum_offer="none")
    doc = any_offer.to_dict()
    assert max(doc["timeline"]["held"]["aurora"]) == pytest.approx(0.975)
    # Scylla gets every freed cpu until it has launched all 64 tasks: no contention window (§II).
    assert max(starts(any_offer, 0)) < min(starts(any_offer, 1))
    assert doc["fairness"]["window"] is None
    assert doc["fairness"]["frameworks"]["aurora"]["unfairness_pct"] is None
    assert doc["fairness"]["pending_work"]["frameworks"]["aurora"]["unfairness_pct"] > 80.0


def test_on_15_gb_agents_aurora_holds_what_seven_tasks_leave() -> None:
    """On the 15 GB Mesos advertises on a 16 GB host, Scylla fits 7 tasks an agent and leaves
    (1 cpu, 1 GB, 31,300 MB): allocatable, offered to Aurora, which cannot use it (2 GB tasks) and
    holds it: 4 x 31,300 of 128,000 MB of disk, 97.81 % (paper 001's Table 3)."""
    held = aurora(mem=15)
    doc = held.to_dict()
    assert max(doc["timeline"]["held"]["aurora"]) == pytest.approx(0.978125)
    assert max(starts(held, 0)) < min(starts(held, 1))
    # Bigger tasks (4,096 MB) leave no disk to hold: Aurora shares the first freed resources.
    bigger = aurora(disk=4096, mem=15)
    assert max(bigger.to_dict()["timeline"]["held"]["aurora"]) < 0.2
    assert min(starts(bigger, 1)) < max(starts(bigger, 0))


def idle_makespan(idle: int, *, idle_refuse: float = 5, active_refuse: float = 5, seed: int = 0) -> float:
    active = framework("active", 100, policy="first-fit", refuse=active_refuse, duration=20, interval_s=2)
    idlers = [framework(f"idle{k}", 0, refuse=idle_refuse) for k in range(idle)]
    r = share(scenario(active, *idlers, agents=4, capacity={"cpu": 8, "mem": 16}), seed=seed)
    makespan = r.to_dict()["makespan_s"]
    assert makespan is not None
    return float(makespan)


def test_idle_frameworks_lengthen_the_makespan_and_refusal_on_them_restores_it() -> None:
    """Paper 001 §V-D: up to four idle frameworks (each filtering the agents it declines for 5 s)
    leave the active one unharmed on four agents; the fifth leaves every agent filtered by some
    idle framework much of the time (a threshold, not the paper's gradual rise)."""
    alone, five = idle_makespan(0), idle_makespan(5)
    assert alone == pytest.approx(2 * 99 + 20, abs=2)  # each task launched at (about) its arrival
    assert idle_makespan(4) <= alone + 2
    assert five > 1.25 * alone
    assert idle_makespan(5, idle_refuse=10, active_refuse=2) <= alone + 2


# --------------------------------------------------------------------------- the offer cycle's rules


def test_greedy_launches_at_most_max_tasks_per_offer() -> None:
    """Marathon 1.4: at most 5 tasks on one offer, the rest of the offer returned with no filter
    while tasks wait: 5 at 0 s, the other 3 at the next decision; with no limit all 8 at once."""
    s = scenario(framework("m", 8, policy="greedy", refuse=5, duration=10), capacity={"cpu": 8, "mem": 8})
    assert starts(share(s), 0) == [0.0] * 5 + [1.0] * 3
    assert starts(share(s, max_tasks_per_offer=2), 0) == [0.0] * 2 + [1.0] * 2 + [2.0] * 2 + [3.0] * 2
    assert starts(share(s, max_tasks_per_offer=0), 0) == [0.0] * 8


def test_a_framework_registers_when_its_first_queue_starts() -> None:
    """Registered from the start, a framework whose queue starts at 3 s declines the offers before
    (nothing waits) and filters the agent for its 5 s: its task waits until 5 s. Mesos does not know
    it before it registers, at 3 s, so its task starts at once."""
    s = scenario(framework("a", 1, refuse=5, start_s=3))
    assert starts(share(s), 0) == [3.0]
    assert starts(share(s, registration="start"), 0) == [5.0]


@pytest.mark.parametrize("seed", range(4))
def test_an_offer_counts_in_whole_until_the_decision_ends(seed: int) -> None:
    """Two agents of 4 cpu. At 0 s only b is registered: it packs its 3 tasks on one agent (share
    3/8). At 1 s a (first fit, 2 tasks) registers and is offered an agent first (share 0). Counting
    only what it launches, a's share is 1/8 < 3/8 and it gets the other agent too: both its tasks
    start at 1 s, whatever the agents' order. Counting the whole offer until the decision ends,
    when the empty agent comes first a's share is 4/8 > 3/8, the second agent goes to b (nothing
    waiting: declined), and a's second task waits for the next decision."""
    s = scenario(framework("b", 3, policy="bin-packing", refuse=0),
                 framework("a", 2, refuse=0, start_s=1), agents=2)
    assert starts(share(s, seed=seed, offers_count="launched"), 1) == [1.0, 1.0]
    assert starts(share(s, seed=seed), 1) in ([1.0, 1.0], [1.0, 2.0])


def test_counting_the_whole_offer_delays_a_second_task_on_some_seeds() -> None:
    s = scenario(framework("b", 3, policy="bin-packing", refuse=0),
                 framework("a", 2, refuse=0, start_s=1), agents=2)
    assert any(starts(share(s, seed=seed), 1) == [1.0, 2.0] for seed in range(8))


def test_only_allocatable_agents_are_offered() -> None:
    """Mesos offers an agent only with 0.01 cpu or 32 MB of memory unallocated: a task of 1 cpu and
    1 GB on (1 cpu, 1.03 GB) leaves 30.7 MB, not offered (one offer in the run); on (1 cpu,
    1.03125 GB) it leaves 32 MB, offered at every decision while the task runs (and declined)."""
    small = scenario(framework("a", 1, policy="bin-packing", refuse=0, duration=5),
                     capacity={"cpu": 1, "mem": 1.03})
    assert share(small).to_dict()["offers"]["a"]["made"] == 1
    assert share(small, minimum_offer="none").to_dict()["offers"]["a"]["made"] > 1
    enough = scenario(framework("a", 1, policy="bin-packing", refuse=0, duration=5),
                      capacity={"cpu": 1, "mem": 1.03125})
    assert share(enough).to_dict()["offers"]["a"]["made"] > 1


@pytest.mark.parametrize("seed", range(4))
def test_drf_ties_go_to_the_fewest_allocations_then_the_name(seed: int) -> None:
    """One agent of 4 cpu; a (1 task) and b (2 tasks), first fit, no refusal, long tasks. 0 s: a tie,
    a by name; 1 s: b (share 0); 2 s: a tie at 1/4, one allocation each, a by name, which declines
    (nothing waits); 3 s: a tie, but a has two allocations, b one: b launches its second task. By
    name alone b would wait for a's task to end."""
    s = scenario(framework("b", 2, refuse=0), framework("a", 1, refuse=0))
    r = share(s, seed=seed)
    assert starts(r, 1) == [0.0] and starts(r, 0) == [1.0, 3.0]


def test_random_drf_ties_differ_between_seeds() -> None:
    s = scenario(framework("b", 2, refuse=0), framework("a", 1, refuse=0))
    firsts = {starts(share(s, seed=seed, drf_ties="random"), 0)[0] for seed in range(12)}
    assert firsts == {0.0, 1.0}


def test_the_rules_are_in_the_document() -> None:
    doc = share(scenario(framework("a")), max_tasks_per_offer=0, drf_ties="random").to_dict()
    assert doc["rules"] == {"max_tasks_per_offer": 0, "registration": "queues", "offers_count": "decision",
                            "minimum_offer": "mesos", "drf_ties": "random"}


# --------------------------------------------------------------------------- unfairness (paper 001 §II)


def test_unfairness_is_over_the_window_of_section_ii() -> None:
    """Two first-fit frameworks on one agent of 4 cpu: a at 0 s and 2 s (a tie, then a tie with one
    allocation each: a by name), b at 1 s and 3 s. Window [1, 2]: from b's first start (both have
    started launching) to a's last (a has launched all its tasks); fair line 1/2 each, and each
    holds 1/4 of the agent there: 50 % received, unfairness 50 %. The pending-work reading is
    beside it, under its own name."""
    s = scenario(framework("a", 2, refuse=0), framework("b", 2, refuse=0))
    doc = share(s).to_dict()
    f = doc["fairness"]
    assert f["definition"] == "paper-001-ii" and f["window"] == [1.0, 2.0] and f["contention_s"] == 1.0
    assert f["frameworks"]["b"]["received_pct"] == pytest.approx(50.0)
    assert f["frameworks"]["a"]["unfairness_pct"] == pytest.approx(50.0)
    assert f["frameworks"]["a"]["unfairness_area"] == pytest.approx(0.25)
    assert set(f["pending_work"]) == {"contention_s", "window", "frameworks"}
    assert doc["timeline"]["fair_share"]["a"] == [0.5] * len(doc["timeline"]["t"])


def test_no_contention_window_is_said_never_a_zero() -> None:
    """a packs its 4 tasks at 0 s; b's arrive at 1 s and start when a's end: a has launched all its
    tasks before b launches one, so there is no window: no figure in the document, "no contention
    window" in the tables and on the figures."""
    s = scenario(framework("a", 4, policy="bin-packing", duration=10),
                 framework("b", 4, policy="bin-packing", duration=10, start_s=1))
    doc = share(s, label="apart").to_dict()
    assert doc["fairness"]["window"] is None and doc["fairness"]["contention_s"] is None
    assert all(v["unfairness_pct"] is None for v in doc["fairness"]["frameworks"].values())
    summary = sharing_summary(doc)
    assert summary["no_contention_window"] is True and summary["worst_unfairness_pct"] is None
    table = fairness_table({"apart": summary})
    shown = {row["key"]: row["cells"][0]["shown"] for row in table["rows"]}
    assert shown["worst_unfairness_pct"] == "no contention window"
    rows = sharing_framework_rows({"apart": doc})
    assert {r["unfairness_pct"] for r in rows} == {"no contention window"}
    figures = sharing_figures({"apart": doc})
    assert "no contention window (no bars): apart" in json.dumps(figures["unfairness"]["layout"]).lower()
    assert "no contention window" in figures["share:apart"]["layout"]["title"]["text"]


def test_sequential_jobs_arrive_when_the_job_before_finishes() -> None:
    fw = framework("pi", 6, policy="bin-packing", duration=10, tasks_per_job=2, sequential=True)
    r = share(scenario(fw))
    assert r.arrival_s.tolist() == [0.0, 0.0, 10.0, 10.0, 20.0, 20.0]
    assert r.to_dict()["makespan_s"] == 30.0


def test_arrival_rules() -> None:
    listed = share(scenario(framework("a", 3, policy="bin-packing", arrival_s=[5, 0, 2.5])))
    assert sorted(listed.arrival_s.tolist()) == [0.0, 2.5, 5.0]
    spaced = share(scenario(framework("a", 3, policy="bin-packing", interval_s=4, start_s=1)))
    assert spaced.arrival_s.tolist() == [1.0, 5.0, 9.0]
    poisson = [
        share(scenario(framework("a", 20, policy="bin-packing", rate_per_s=0.5)), seed=s).arrival_s
        for s in (4, 4, 5)
    ]
    assert np.array_equal(poisson[0], poisson[1]) and not np.array_equal(poisson[0], poisson[2])
    assert np.all(np.diff(poisson[0]) >= 0) and poisson[0][-1] > 10


def test_jobs_feed_sharing_as_their_executors() -> None:
    s = scenario(
        framework("a", 0),
        jobs=[
            {
                "id": "j1",
                "framework": "a",
                "arrival_s": 3,
                "executors": 3,
                "executor": {"cpu": 1, "mem": 1},
                "duration_s": 7,
            }
        ],
    )
    doc = share(s, mode="offers").to_dict()
    assert doc["completion"]["a"]["tasks"] == 3
    assert doc["completion"]["a"]["first_start_s"] == 3.0 and doc["makespan_s"] == 12.0


def test_overrides_replace_the_scenarios_policy() -> None:
    s = scenario(framework("a", refuse=5))
    assert starts(share(s, overrides={"a": {"refuse_s": 0}}), 0) == [0.0, 1.0, 2.0, 3.0]
    assert starts(share(s, overrides={"a": {"offer_policy": "bin-packing"}}), 0) == [0.0] * 4
    doc = share(s, overrides={"a": {"refuse_s": 0}}).to_dict()
    assert doc["frameworks"][0]["refuse_s"] == 0


def test_allocation_interval_spaces_the_decisions() -> None:
    assert starts(share(scenario(framework("a")), allocation_interval_s=2.5), 0) == [0.0, 2.5, 5.0, 7.5]


def test_horizon_stops_the_run() -> None:
    doc = share(scenario(framework("a", refuse=5)), horizon_s=7).to_dict()
    assert doc["makespan_s"] is None
    assert doc["completion"]["a"]["launched"] == 2 and doc["completion"]["a"]["finished"] == 0


def test_progress_is_reported_and_may_stop_the_run() -> None:
    seen: list[float] = []
    share(scenario(framework("a", 50, duration=1)), progress=seen.append)
    assert seen and seen[-1] == 1.0 and seen == sorted(seen)

    def stop(fraction: float) -> None:
        if fraction > 0.2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        share(scenario(framework("a", 5000, policy="bin-packing", duration=1, interval_s=0.1)), progress=stop)


# --------------------------------------------------------------------------- characterized mode


def table_one(**kwargs: Any) -> Any:
    return parse_scenario(
        {
            "vm_types": [
                {"name": "c1", "capacity": {"cpu": 100, "mem": 30}, "price_per_hour": 0},
                {"name": "c2", "capacity": {"cpu": 30, "mem": 100}, "price_per_hour": 0},
            ],
            "frameworks": [
                {
                    "name": "f1",
                    "task_demand": {"cpu": 5, "mem": 1},
                    "queues": [{"tasks": 60, "duration_s": 10, **kwargs}],
                },
                {
                    "name": "f2",
                    "task_demand": {"cpu": 1, "mem": 5},
                    "queues": [{"tasks": 60, "duration_s": 10, **kwargs}],
                },
            ],
        }
    )


def test_characterized_mode_fills_by_the_criterion() -> None:
    # Paper 000's Table I servers: rPS-DSF packs 42 tasks at once (19, 2 / 2, 19); RRR-DRF fewer.
    r = share(table_one(), mode="characterized", criterion="rpsdsf", servers="joint", seed=1)
    at_zero = [(r.start_s[r.framework == k] == 0).sum() for k in (0, 1)]
    assert at_zero == [21, 21]
    drf = share(table_one(), mode="characterized", criterion="drf", seed=1)
    assert (drf.start_s == 0).sum() < 42
    doc = r.to_dict()
    assert doc["mode"] == "characterized" and doc["servers"] == "joint" and doc["criterion"] == "rpsdsf"
    assert doc["offers"]["f1"]["made"] == doc["offers"]["f1"]["accepted"] == 60
    assert doc["makespan_s"] <= drf.to_dict()["makespan_s"]


# --------------------------------------------------------------------------- invariants


def check_invariants(r: SharingResult) -> None:
    p = r.problem
    started = ~np.isnan(r.start_s)
    assert started.all(), "every task runs"
    assert np.all(r.start_s >= r.arrival_s - 1e-9), "no task starts before it arrives"
    assert np.allclose(r.finish_s - r.start_s, r.finish_s - r.start_s), "finite times"
    # Capacity is never exceeded: at every start, the tasks running on each machine fit it.
    for t in np.unique(r.start_s):
        on = (r.start_s <= t) & (r.finish_s > t)
        for i in np.unique(r.machine[on]):
            used = r.demand[on & (r.machine == i)].sum(axis=0)
            assert np.all(used <= p.capacity[i] + 1e-6), (t, i, used)
            assert all(p.allowed[r.framework[on & (r.machine == i)], i])


policies = st.sampled_from(["first-fit", "bin-packing", "greedy", "hold"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    specs=st.lists(
        st.tuples(
            policies,
            st.integers(1, 12),
            st.integers(1, 3),
            st.integers(1, 3),
            st.sampled_from([0, 1, 5]),
            st.integers(1, 30),
            st.sampled_from([0, 0.5, 3]),
        ),
        min_size=1,
        max_size=4,
    ),
    agents=st.integers(1, 3),
    seed=st.integers(0, 5),
    mode=st.sampled_from(SHARING_MODES),
)
def test_invariants(specs: list[tuple[Any, ...]], agents: int, seed: int, mode: str) -> None:
    fws = []
    for k, (policy, tasks, cpu, mem, refuse, duration, interval) in enumerate(specs):
        fw = framework(
            f"f{k}",
            tasks,
            policy=policy,
            refuse=refuse,
            duration=duration,
            demand={"cpu": cpu, "mem": mem},
            interval_s=interval,
        )
        fw["hold_s"] = 4
        fws.append(fw)
    s = scenario(*fws, agents=agents)
    r = share(s, mode=mode, seed=seed)
    check_invariants(r)
    durations = np.array([q.duration_s for f in s.frameworks for q in f.queues for _ in range(q.tasks)])
    assert np.allclose(np.sort(r.finish_s - r.start_s), np.sort(durations)), "never preempted"
    doc = r.to_dict()
    assert sum(c["finished"] for c in doc["completion"].values()) == len(r.start_s), "each runs once"
    assert doc["makespan_s"] == pytest.approx(float(r.finish_s.max()))
    for series in doc["timeline"]["utilisation"].values():
        assert max(series) <= 1 + 1e-9
    assert json.dumps(share(s, mode=mode, seed=seed).to_dict()) == json.dumps(doc), "same seed, same document"


def test_same_seed_same_document_and_seeds_differ() -> None:
    s = scenario(
        framework("a", 40, duration=7), framework("b", 40, policy="bin-packing", duration=5), agents=3
    )
    a, b = share(s, seed=11).to_dict(), share(s, seed=11).to_dict()
    assert json.dumps(a) == json.dumps(b)
    docs = {json.dumps(share(s, seed=k).to_dict()["timeline"]) for k in range(6)}
    assert len(docs) > 1


# --------------------------------------------------------------------------- the document


def test_document_shape_and_presentation() -> None:
    s = scenario(
        framework("marathon", 100, policy="greedy", refuse=5),
        framework("scylla", 100),
        agents=4,
        capacity={"cpu": 8, "mem": 16},
    )
    doc = share(s, seed=2, label="Marathon against Scylla").to_dict()
    assert json.loads(json.dumps(doc)) == doc
    assert {
        "study",
        "format",
        "label",
        "mode",
        "criterion",
        "servers",
        "allocation_interval_s",
        "seed",
        "resources",
        "machines",
        "frameworks",
        "timeline",
        "fairness",
        "makespan_s",
        "completion",
        "offers",
        "utilisation_stats",
    } <= set(doc)
    assert doc["study"] == "sharing" and doc["format"] == 1 and doc["label"] == "Marathon against Scylla"
    assert doc["machines"][0] == {"id": "agent#1", "vm_type": "agent", "capacity": {"cpu": 8, "mem": 16}}
    assert doc["frameworks"][0] == {
        "name": "marathon",
        "weight": 1,
        "policy": "greedy",
        "refuse_s": 5,
        "hold_s": 0,
        "tasks": 100,
        "task_demand": {"cpu": 1, "mem": 1},
    }
    tl = doc["timeline"]
    n = len(tl["t"])
    for kind in ("running", "share", "held", "fair_share", "pending"):
        assert set(tl[kind]) == {"marathon", "scylla"} and all(len(v) == n for v in tl[kind].values())
    assert set(tl["utilisation"]) == {"cpu", "mem"}
    assert tl["t"] == sorted(tl["t"]) and tl["t"][0] == 0.0 and tl["t"][-1] == doc["makespan_s"]
    assert doc["fairness"]["contention_s"] > 0
    lo, hi = doc["fairness"]["window"]
    assert 0 <= lo < hi <= doc["makespan_s"]
    assert set(doc["fairness"]["frameworks"]["scylla"]) >= {
        "unfairness_pct",
        "unfairness_area",
        "received_pct",
    }
    # The presentation layer reads it.
    summary = sharing_summary(doc)
    assert summary["tasks"] == 200 and summary["finished"] == 200
    assert summary["worst_unfairness_framework"] == "scylla"
    rows = sharing_framework_rows({"a": doc})
    assert [r["framework"] for r in rows] == ["marathon", "scylla"] and rows[1]["launched"] == 100
    other = share(
        s, seed=2, overrides={"scylla": {"offer_policy": "bin-packing"}}, label="bin packing"
    ).to_dict()
    table = fairness_table({"first fit": doc, "bin packing": other})
    assert table["rows"]
    figures = sharing_figures({"first fit": doc, "bin packing": other})
    assert {"share:first fit", "unfairness", "running", "utilisation", "completion"} <= set(figures)
    assert "<html" in render_fairness_html({"first fit": doc}, title="t").lower()


def test_long_runs_keep_a_bounded_timeline() -> None:
    s = scenario(
        framework("a", 3000, policy="bin-packing", duration=3, rate_per_s=2),
        framework("b", 3000, policy="first-fit", duration=2, rate_per_s=2),
        agents=2,
    )
    doc = share(s).to_dict()
    from scheduling.fairness.sharing import MAX_TIMELINE_POINTS

    assert len(doc["timeline"]["t"]) <= MAX_TIMELINE_POINTS + 100
    assert doc["completion"]["a"]["finished"] == 3000


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"mode": "lottery"}, "mode: unknown mode 'lottery' (choose offers, characterized)"),
        ({"criterion": "tsf"}, "criterion: the offer cycle sorts frameworks by DRF (criterion drf)"),
        ({"servers": "joint"}, "servers: the offer cycle visits the agents in random order (rrr)"),
        ({"mode": "characterized", "criterion": "fifo"}, "criterion: unknown criterion 'fifo'"),
        (
            {"mode": "characterized", "criterion": "bf-drf", "servers": "rrr"},
            "servers: bf-drf chooses servers",
        ),
        ({"allocation_interval_s": 0}, "allocation_interval_s: must be a number > 0"),
        ({"horizon_s": -1}, "horizon_s: must be a number > 0"),
        ({"overrides": {"zeta": {"refuse_s": 1}}}, "overrides.zeta: unknown framework 'zeta'"),
        ({"overrides": {"a": {"refuse_s": -1}}}, "overrides.a.refuse_s: must be a number >= 0"),
        ({"overrides": {"a": {"offer_policy": "lazy"}}}, "overrides.a.offer_policy: must be one of"),
        ({"overrides": {"a": {"colour": 1}}}, "overrides.a.colour: unknown field"),
    ],
)
def test_errors_name_the_argument(kwargs: dict[str, Any], expected: str) -> None:
    with pytest.raises(ScenarioError) as info:
        share(scenario(framework("a")), **kwargs)
    assert any(str(e).startswith(expected) for e in info.value.errors), info.value.errors


def test_a_scenario_without_work_is_refused() -> None:
    with pytest.raises(ScenarioError) as info:
        share(scenario(framework("a", 0), jobs=[]))
    assert str(info.value.errors[0]).startswith("frameworks: the sharing simulator needs")


def test_a_scenario_document_is_validated_first() -> None:
    doc = {
        "vm_types": [{"name": "n", "capacity": {"cpu": 2, "mem": 2}, "price_per_hour": 0}],
        "frameworks": [framework("a", 2, policy="bin-packing")],
    }
    assert share(doc).to_dict()["makespan_s"] == 100.0
    doc["frameworks"][0]["queues"][0]["duration_s"] = 0
    with pytest.raises(ScenarioError, match=r"frameworks\[0\].queues\[0\].duration_s: must be > 0"):
        share(doc)


def test_a_run_past_the_step_limit_stops_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight tasks of 1,000 s on one 4-cpu agent: the four waiting keep a decision every second
    for 1,000 s. With a limit of 50 steps the run stops there, and its document says why."""
    from scheduling.fairness import sharing_run

    s = scenario(framework("a", tasks=8, duration=1000, refuse=0))
    full = share(s).to_dict()
    assert full["stopped"] is None and full["makespan_s"] == 2003.0  # one task a decision
    monkeypatch.setattr(sharing_run, "MAX_STEPS", 50)
    doc = share(s).to_dict()
    assert doc["stopped"]["steps"] == 50 and doc["stopped"]["at_s"] < 100
    assert "with 8 tasks unfinished" in doc["stopped"]["reason"] and doc["makespan_s"] is None
    assert sharing_summary(doc)["stopped"] == doc["stopped"]
    json.dumps(doc, allow_nan=False)


@pytest.mark.parametrize("seed", [-1, True, 2**63, 1.5])
def test_a_bad_seed_is_refused_on_its_field(seed: Any) -> None:
    from scheduling.fairness.allocation import allocate

    s = scenario(framework("a"))
    with pytest.raises(ScenarioError, match=r"^seed: must be an integer between 0 and 2\*\*63 - 1"):
        share(s, seed=seed)
    with pytest.raises(ScenarioError, match=r"^seed: must be an integer between 0 and 2\*\*63 - 1"):
        allocate(s, policy="drf", seed=seed)


def test_the_step_limit_shrinks_with_the_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    from scheduling.fairness import sharing_run

    monkeypatch.setattr(sharing_run, "MAX_AGENT_STEPS", 200)
    doc = share(scenario(framework("a", tasks=40, duration=1000, refuse=0), agents=4)).to_dict()
    assert doc["stopped"]["steps"] == 50  # 200 / 4 agents
    assert "the most a simulation of 4 agents takes" in doc["stopped"]["reason"]
