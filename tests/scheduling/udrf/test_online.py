"""Online UDRF (paper 004 Fig. 5) and the DRF baseline: hand-worked runs, invariants, and the
trends of the paper's evaluation (§V, Figs. 9-10) on a synthetic trace."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest

from scheduling.scenario import parse_scenario
from scheduling.udrf.model import UdrfProblem
from scheduling.udrf.online import OnlineResult, online_document, simulate
from scheduling.udrf.synthetic import synthetic_scenario


def job(jid: str, demand: dict[str, dict[str, float]], *, duration: float = 10, runs: int = 1,
        arrival: float = 0) -> dict[str, Any]:
    """A complex job: ``demand`` maps a machine class to its one task's demand."""
    return {"id": jid, "duration_s": duration, "runs": runs, "arrival_s": arrival,
            "tasks": [{"machine_class": c, "demand": d} for c, d in demand.items()]}


def scenario(classes: dict[str, float], users: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """One machine per class, with ``cpu`` only."""
    return {"version": 3, "name": "hand", "resources": ["cpu"],
            "vm_types": [{"name": c, "capacity": {"cpu": cpu}, "price_per_hour": 0}
                         for c, cpu in classes.items()],
            "frameworks": [{"name": u, "complex_jobs": jobs} for u, jobs in users.items()]}


def problem_of(doc: dict[str, Any]) -> UdrfProblem:
    return UdrfProblem.from_scenario(parse_scenario(doc))


def times(result: OnlineResult, field: str) -> dict[str, float]:
    values = getattr(result, field)
    return {f"{result.users[result.job_user[j]]}.{result.job_ids[j]}": float(values[j])
            for j in range(len(result.job_ids))}


# A class of 6 cpu. u1 runs job a (2 cpu, 10 s) twice and a2 (1 cpu, 30 s) once from time 0,
# and a3 (4 cpu, 5 s) from 5 s; u2 runs b (2 cpu, 5 s) three times from 1 s.
SHARES = scenario({"n": 6}, {
    "u1": [job("a", {"n": {"cpu": 2}}, runs=2), job("a2", {"n": {"cpu": 1}}, duration=30),
           job("a3", {"n": {"cpu": 4}}, duration=5, arrival=5)],
    "u2": [job("b", {"n": {"cpu": 2}}, duration=5, runs=3, arrival=1)],
})


def test_udrf_by_hand_lowest_share_first() -> None:
    # t=0: u1 alone: a (fewest runs started, first in the queue), a2 (0 runs started beats a's 1),
    #   a again: 5 of 6 cpu. t=1: b needs 2, 1 is free. t=5: a3 needs 4.
    # t=10: both runs of a end (a done, 10 s); 5 free. u2 (share 0) before u1 (1/6): b, b
    #   (u2 at 2/6 is above u1, but a3 needs 4 of the 3 free, so u1 is passed over).
    # t=15: b's two runs end; u2 (0) first: b's third run; a3 needs 4 of 3 free.
    # t=20: b done (19 s after its arrival); a3 starts, ends at 25 (20 s). t=30: a2 done.
    result = simulate(problem_of(SHARES), policy="udrf")
    assert times(result, "started_s") == {"u1.a": 0, "u1.a2": 0, "u1.a3": 20, "u2.b": 10}
    assert times(result, "completed_s") == {"u1.a": 10, "u1.a2": 30, "u1.a3": 25, "u2.b": 20}
    assert times(result, "completion_s") == {"u1.a": 10, "u1.a2": 30, "u1.a3": 20, "u2.b": 19}
    at = {t: i for i, t in enumerate(result.times.tolist())}
    assert result.share[at[0.0]].tolist() == pytest.approx([5 / 6, 0])
    assert result.share[at[10.0]].tolist() == pytest.approx([1 / 6, 4 / 6])
    assert result.running[at[10.0]].tolist() == [1, 2]
    assert result.share[at[20.0]].tolist() == pytest.approx([5 / 6, 0])
    # Waste: a3 waits from 5 s with 1 cpu free (5-10 s), 1 (10-15 s), 3 (15-20 s).
    assert result.wasted[at[5.0], 0] == 1 and result.wasted[at[15.0], 0] == 3
    assert result.wasted[at[20.0], 0] == 0  # nothing queued wants the cpu left
    assert result.summary()["makespan_s"] == 30
    assert result.decisions == len(result.times) == 8  # 0, 1, 5, 10, 15, 20, 25, 30 (a2 ends)


# Classes x and y of 4 cpu. u2's r holds y from 0 to 10 s; u1 arrives at 1 s with p on x and
# q on y (independent jobs). DRF's bundle p+q waits for y, leaving x idle; UDRF starts p at once.
BLOCKING = scenario({"x": 4, "y": 4}, {
    "u1": [job("p", {"x": {"cpu": 2}}, arrival=1), job("q", {"y": {"cpu": 4}}, arrival=1)],
    "u2": [job("r", {"y": {"cpu": 4}})],
})


def test_drf_bundle_blocks_and_wastes_where_udrf_does_not() -> None:
    p = problem_of(BLOCKING)
    udrf, drf = simulate(p, policy="udrf"), simulate(p, policy="drf")
    assert times(udrf, "started_s") == {"u1.p": 1, "u1.q": 10, "u2.r": 0}
    assert times(drf, "started_s") == {"u1.p": 10, "u1.q": 10, "u2.r": 0}
    assert times(udrf, "completion_s") == {"u1.p": 10, "u1.q": 19, "u2.r": 10}
    assert times(drf, "completion_s") == {"u1.p": 19, "u1.q": 19, "u2.r": 10}
    assert udrf.summary()["mean_completion_s"] == 13 and drf.summary()["mean_completion_s"] == 16
    # DRF leaves x's 4 cpu idle from 1 s to 10 s while p wants them: 36 cpu-seconds over 20 s.
    assert drf.mean_wasted() == {"cpu": pytest.approx(36 / 20)}
    assert udrf.mean_wasted() == {"cpu": 0.0}
    assert drf.wasted[drf.times.tolist().index(1.0), 0] == 4


def test_drf_bundle_larger_than_the_cluster_leaves_a_job_out() -> None:
    # Two jobs of 3 cpu on a class of 4: one of each at once could never start.
    doc = scenario({"n": 4}, {"u": [job("a", {"n": {"cpu": 3}}), job("b", {"n": {"cpu": 3}})]})
    result = simulate(problem_of(doc), policy="drf")
    assert times(result, "started_s") == {"u.a": 0, "u.b": 10}


def test_runs_of_a_job_overlap_and_the_job_ends_with_its_last_run() -> None:
    doc = scenario({"n": 4}, {"u": [job("a", {"n": {"cpu": 1}}, runs=6, duration=7)]})
    result = simulate(problem_of(doc))
    assert result.running[0].tolist() == [4]
    assert times(result, "completed_s") == {"u.a": 14}
    assert result.utilisation[0, 0] == 1.0


def test_decisions_wait_for_the_next_tick() -> None:
    # A run of 2.5 s ends between ticks; the next run starts at the next whole second.
    doc = scenario({"n": 1}, {"u": [job("a", {"n": {"cpu": 1}}, runs=2, duration=2.5)]})
    assert times(simulate(problem_of(doc)), "completed_s") == {"u.a": 5.5}
    assert times(simulate(problem_of(doc), interval_s=2), "completed_s") == {"u.a": 6.5}


def test_queue_capacity_admits_jobs_in_arrival_order() -> None:
    doc = scenario({"n": 10}, {"u": [job(f"j{i}", {"n": {"cpu": 1}}, duration=5, arrival=i * 0.1)
                                     for i in range(3)]})
    one = simulate(problem_of(doc), queue_capacity=1)
    assert times(one, "completed_s") == {"u.j0": 5, "u.j1": 10, "u.j2": 15}
    assert times(simulate(problem_of(doc)), "completed_s") == {"u.j0": 5, "u.j1": 6, "u.j2": 6}


@pytest.mark.parametrize("policy", ["udrf", "drf"])
def test_queue_capacity_is_never_exceeded_on_a_trace(policy: str) -> None:
    p = UdrfProblem.from_scenario(synthetic_scenario(users=20, jobs=80, classes=10, seed=4))
    result = simulate(p, policy=policy, queue_capacity=7, seed=4)
    start, end = result.started_s, result.completed_s
    assert not np.isnan(end).any()
    for t in np.unique(start):  # a job that has started is in the queue until it is done
        assert int(((start <= t) & (end > t)).sum()) <= 7
    assert (result.utilisation <= 1.0).all() and (result.share >= 0).all()


def test_horizon_leaves_jobs_unfinished() -> None:
    doc = scenario({"n": 1}, {"u": [job("a", {"n": {"cpu": 1}}, duration=10),
                                    job("b", {"n": {"cpu": 1}}, duration=10)]})
    result = simulate(problem_of(doc), horizon_s=15)
    summary = result.summary()
    assert (summary["completed"], summary["unfinished"], summary["jobs"]) == (1, 1, 2)
    assert result.times[-1] == 15 and math.isnan(result.completed_s[1])
    out = result.to_dict()
    assert [j["completed_s"] for j in out["jobs"]] == [10.0, None]


def test_same_seed_same_document_and_ties_follow_the_seed() -> None:
    s = synthetic_scenario(users=20, jobs=60, classes=8, seed=2)
    assert online_document(s, seed=5) == online_document(s, seed=5)
    # Two users tie at share 0 for one slot: the seed decides who goes first.
    doc = scenario({"n": 1}, {"u1": [job("a", {"n": {"cpu": 1}})], "u2": [job("b", {"n": {"cpu": 1}})]})
    firsts = {min(times(simulate(problem_of(doc), seed=seed), "started_s").items(), key=lambda kv: kv[1])[0]
              for seed in range(20)}
    assert firsts == {"u1.a", "u2.b"}


def test_bad_options_are_refused() -> None:
    p = problem_of(BLOCKING)
    for kwargs in ({"policy": "fifo"}, {"interval_s": 0}, {"queue_capacity": 0}, {"horizon_s": -1}):
        with pytest.raises(ValueError):
            simulate(p, **kwargs)  # type: ignore[arg-type]


def test_document_keys_and_json() -> None:
    doc = online_document(synthetic_scenario(users=10, jobs=30, classes=6, seed=1), max_points=50)
    assert set(doc) == {"kind", "scenario", "resources", "classes", "interval_s", "horizon_s",
                        "queue_capacity", "seed", "policies", "comparison"}
    assert doc["kind"] == "udrf-online" and doc["resources"] == ["cpu", "mem"]
    assert set(doc["classes"][0]) == {"name", "capacity"}
    for policy in ("udrf", "drf"):
        part = doc["policies"][policy]
        assert set(part) == {"times", "users", "wasted", "utilisation", "classes", "jobs", "summary"}
        # Per class, the time-weighted means; their waste sums to the summary's mean waste.
        assert [c["name"] for c in part["classes"]] == [c["name"] for c in doc["classes"]]
        for kind in ("cpu", "mem"):
            total = sum(c["wasted"][kind] for c in part["classes"])
            assert total == pytest.approx(part["summary"]["mean_wasted"][kind], rel=1e-6, abs=1e-6)
            assert all(0 <= c["allocated"][kind] <= cap["capacity"][kind] + 1e-9
                       for c, cap in zip(part["classes"], doc["classes"], strict=True))
        assert 2 <= len(part["times"]) <= 50
        assert set(part["users"][0]) == {"name", "share", "global_share", "running", "mean_share",
                                         "mean_global_share", "mean_running", "allocated", "wasted"}
        assert all(len(u["share"]) == len(u["global_share"]) == len(part["times"]) for u in part["users"])
        assert set(part["wasted"]) == set(part["utilisation"]) == {"cpu", "mem"}
        assert set(part["jobs"][0]) == {"user", "id", "classes", "runs", "arrival_s", "completed_s",
                                        "completion_s"}
        assert {"completed", "jobs", "mean_completion_s", "p50_completion_s", "p95_completion_s",
                "makespan_s", "mean_wasted", "decisions"} <= set(part["summary"])
    by_classes, by_runs = doc["comparison"]["by_classes"], doc["comparison"]["by_runs"]
    assert set(by_classes[0]) == {"classes", "jobs", "udrf_mean_s", "drf_mean_s", "reduction_pct"}
    assert set(by_runs[0]) == {"runs", "jobs", "udrf_mean_s", "drf_mean_s", "reduction_pct"}
    assert by_runs[0]["runs"] == "1" and sum(r["jobs"] for r in by_runs) == 30
    json.dumps(doc, allow_nan=False)
    assert online_document(synthetic_scenario(users=3, jobs=5, classes=3), policies=("udrf",))[
        "comparison"] == {"by_classes": [], "by_runs": []}


def test_downsampling_keeps_the_waste_area() -> None:
    s = synthetic_scenario(users=20, jobs=80, classes=10, seed=0)
    full = online_document(s, policies=("drf",), max_points=100_000)["policies"]["drf"]
    small = online_document(s, policies=("drf",), max_points=40)["policies"]["drf"]
    assert len(small["times"]) <= 40 < len(full["times"])

    def area(part: dict[str, Any]) -> float:
        t, y = np.asarray(part["times"]), np.asarray(part["wasted"]["cpu"])
        return float(np.sum(y[:-1] * np.diff(t)))

    assert area(small) == pytest.approx(area(full), rel=1e-4)


# -- per user over time: the global dominant share, held and wasted per class --------------------


def fig1_online() -> UdrfProblem:
    """Paper 004's Fig. 1, every job (60 s a run) run 100 times, all arriving at 0."""
    with open("examples/paper004-fig1.json", encoding="utf-8") as f:
        doc = json.load(f)
    for user in doc["frameworks"]:
        for j in user["complex_jobs"]:
            j["runs"] = 100
    return problem_of(doc)


def test_global_share_of_each_user_at_the_first_decision_fig_1() -> None:
    # The cluster pooled: cpu 56 + 16 + 24 + 32 = 128, memory 64 + 40 + 48 + 1,024 = 1,176.
    # At 0 UDRF (Fig. 5) gives u1 the whole hadoop class (56 runs of job1, nobody else wants
    # it) and 8 runs of job2 (standard, shared with u2): 64 cpu, 56 + 16 = 72 memory -> 64/128.
    # u2 runs 8 (16 cpu over standard and public-IP) -> 1/8; u3 10 on public-IP (10 cpu, 40
    # memory) -> 10/128 = 5/64; u4 32 on high-memory (32 cpu, 800 memory) -> 800/1176 = 100/147.
    # DRF gives u1 8 + 8 (16 cpu, 24 memory) -> 1/8; the others as UDRF.
    p = fig1_online()
    udrf, drf = simulate(p, policy="udrf"), simulate(p, policy="drf")
    assert udrf.times[0] == drf.times[0] == 0.0
    assert udrf.running[0].tolist() == [64, 8, 10, 32] and drf.running[0].tolist() == [16, 8, 10, 32]
    assert udrf.global_share is not None and drf.global_share is not None
    assert udrf.global_share[0] == pytest.approx([1 / 2, 1 / 8, 5 / 64, 100 / 147], abs=1e-12)
    assert drf.global_share[0] == pytest.approx([1 / 8, 1 / 8, 5 / 64, 100 / 147], abs=1e-12)
    # At 60 s u1's 64 runs end; job1 has 44 runs left (all of them start) and job2 another 8:
    # 52 cpu -> 52/128.
    assert udrf.times[1] == 60.0 and udrf.global_share[1][0] == pytest.approx(52 / 128, abs=1e-12)
    # The RDUC-wise share is of one class: u1 holds all of hadoop at 0.
    assert udrf.share[0][0] == pytest.approx(1.0)
    # The document's series and mean (the offline document measures with the same function).
    doc = udrf.to_dict()
    u1 = doc["users"][0]
    assert u1["global_share"][:2] == [0.5, 0.40625]
    area = float(np.sum(udrf.global_share[:-1, 0] * np.diff(udrf.times)))
    assert u1["mean_global_share"] == pytest.approx(area / (udrf.times[-1] - udrf.times[0]), abs=1e-6)


def test_held_and_wasted_per_user_and_class_fig_1() -> None:
    # Both policies end at 780 s (u2's 100 runs, 8 at a time, 13 x 60 s). u1 ran job1 100 times
    # for 60 s on 1 hadoop cpu: 6,000 cpu-seconds over 780 s = 100/13 under either policy.
    # UDRF wastes hadoop memory only while job1 has runs left to start (0-60 s): 64 - 56 = 8,
    # all u1's (nobody else wants hadoop): 480 / 780 = 8/13. DRF leaves 48 cpu idle there for
    # 0-60, 60-120 (8 more runs each) ... until job1's last run starts.
    p = fig1_online()
    for policy in ("udrf", "drf"):
        r = simulate(p, policy=policy)
        assert r.times[-1] == 780.0
        mine = r.user_class_means(0)
        assert mine["allocated"]["hadoop"]["cpu"] == pytest.approx(100 / 13, abs=1e-6)
        assert set(mine["allocated"]) == set(mine["wasted"]) == {"hadoop", "standard"}
    udrf = simulate(p, policy="udrf").user_class_means(0)
    assert udrf["wasted"]["hadoop"] == {"cpu": 0.0, "mem": pytest.approx(8 / 13, abs=1e-6)}
    # Stopped at 0, the means are the state then: DRF's 8 runs of job1 leave 48 cpu and 56
    # memory of hadoop idle, all u1's part (the offline document's DRF waste, too).
    now = simulate(p, policy="drf", horizon_s=0).user_class_means(0)
    assert now["wasted"]["hadoop"] == {"cpu": 48.0, "mem": 56.0}
    assert now["allocated"]["hadoop"] == {"cpu": 8.0, "mem": 8.0}


@pytest.mark.parametrize("max_points", [40, 100_000])
def test_users_held_and_wasted_add_up_to_the_classes(max_points: int) -> None:
    doc = online_document(synthetic_scenario(users=30, jobs=120, classes=12, seed=3), max_points=max_points)
    for part in doc["policies"].values():
        for c in part["classes"]:
            for key in ("allocated", "wasted"):
                for kind, total in c[key].items():
                    users = sum(u[key].get(c["name"], {}).get(kind, 0.0) for u in part["users"])
                    assert users == pytest.approx(total, rel=1e-6, abs=1e-5), (c["name"], key, kind)
        assert any(u["wasted"] and any(v for cl in u["wasted"].values() for v in cl.values())
                   for u in part["users"])
        for u in part["users"]:
            # The global share is of the whole cluster: never above the share of a class ...
            # unless weights differ (they are 1 here); and the means are of the full series.
            assert u["mean_global_share"] <= u["mean_share"] + 1e-9
            assert all(0 <= g <= 1 for g in u["global_share"])


# -- the paper's trends (§V) on the synthetic trace, over a few seeds --------------------------------

#: Jobs need up to six classes (Fig. 8) when a group of preferred classes holds ten (60 / 6).
SEEDS = range(6)


@pytest.fixture(scope="module")
def runs() -> list[tuple[OnlineResult, OnlineResult]]:
    out = []
    for seed in SEEDS:
        p = UdrfProblem.from_scenario(synthetic_scenario(users=50, jobs=200, classes=60, seed=seed))
        out.append((simulate(p, policy="udrf", seed=seed), simulate(p, policy="drf", seed=seed)))
    return out


Runs = list[tuple[OnlineResult, OnlineResult]]


def test_drf_wastes_more_cpu_and_memory_than_udrf_fig_9(runs: Runs) -> None:
    for kind in ("cpu", "mem"):
        udrf = np.mean([u.mean_wasted()[kind] for u, _ in runs])
        drf = np.mean([d.mean_wasted()[kind] for _, d in runs])
        assert udrf < drf, kind


def test_udrf_completes_jobs_sooner_fig_10a(runs: Runs) -> None:
    for udrf, drf in runs:
        assert udrf.summary()["mean_completion_s"] < drf.summary()["mean_completion_s"]
        assert udrf.summary()["p50_completion_s"] < drf.summary()["p50_completion_s"]


def pooled_reduction(runs: Runs, by: str, test: Any) -> float:
    """Reduction of the mean completion time, DRF to UDRF, over the selected jobs of all seeds."""
    a = np.concatenate([u.completion_s[test(np.asarray(getattr(u, by)))] for u, _ in runs])
    b = np.concatenate([d.completion_s[test(np.asarray(getattr(d, by)))] for _, d in runs])
    return float(100 * (b.mean() - a.mean()) / b.mean())


def test_reduction_grows_with_classes_fig_10c(runs: Runs) -> None:
    """Pooled over the seeds (one seed's few wide jobs are noisy). It holds because a user with
    many jobs has wide ones (§V; ``breadth_noise``): under DRF those users' bundles are the ones
    that wait. With breadth drawn at random the trend reverses (UDRF starts a one-class job as
    soon as its class has room, a wide job waits for all its classes at once): see
    benchmarks/RESULTS.md section 13."""
    one = pooled_reduction(runs, "job_classes", lambda c: c == 1)
    wide = pooled_reduction(runs, "job_classes", lambda c: c >= 3)
    assert wide > one + 5


@pytest.mark.xfail(strict=True, reason="not on this trace: UDRF cuts the wait for a job's first run by "
                   "about two thirds whatever its runs, but a job of many runs then takes longer from its "
                   "first run to its last than under DRF; see benchmarks/RESULTS.md section 13")
def test_reduction_grows_with_runs_fig_10b(runs: Runs) -> None:
    assert pooled_reduction(runs, "job_runs", lambda r: r >= 6) > pooled_reduction(
        runs, "job_runs", lambda r: r == 1)
