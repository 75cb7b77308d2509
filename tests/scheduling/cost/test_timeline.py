"""The timelines: one row per instant, rows that carry no information left out."""

from __future__ import annotations

import numpy as np
import pytest

from scheduling import parse_scenario, simulate
from scheduling.cost.timeline import PENDING_ROWS, RATE_DECIMALS, TimelineRecorder


def row(
    recorder: TimelineRecorder,
    t: float,
    *,
    used: float,
    active: int,
    rate: float,
    cost: float,
    queued: int = 0,
) -> None:
    recorder.record(
        t,
        utilisation=[used],
        utilisation_of_on=[used],
        active_vms=[active],
        cost_rate_per_hour=rate,
        cumulative_cost=cost,
        queued_jobs=queued,
        running_jobs=active,
        dominant_share=[],
        fair_share=[],
    )


def one_vm() -> TimelineRecorder:
    return TimelineRecorder(["cpu"], ["vm"], ["default"], shared=False)


def test_a_second_row_at_the_same_instant_replaces_the_first() -> None:
    recorder = one_vm()
    row(recorder, 0.0, used=0.5, active=1, rate=3.6, cost=0.0)
    row(recorder, 0.0, used=1.0, active=2, rate=7.2, cost=0.0)
    assert recorder.timeline_section()["active_vms"] == {"vm": [2]}


def test_rows_that_repeat_the_one_before_on_the_same_cost_line_are_left_out() -> None:
    recorder = one_vm()
    # A VM at $3.60/h ($0.001/s) from 0 s; polls at 10 s and 20 s change nothing; at 30 s a job
    # starts; at 40 s nothing changes but a billing surcharge of $0.05 lands at 50 s.
    row(recorder, 0.0, used=0.5, active=1, rate=3.6, cost=0.0, queued=1)
    row(recorder, 10.0, used=0.5, active=1, rate=3.6, cost=0.01, queued=1)  # on the line: left out
    row(recorder, 20.0, used=0.5, active=1, rate=3.6, cost=0.02, queued=1)  # on the line: left out
    row(recorder, 30.0, used=1.0, active=1, rate=3.6, cost=0.03)  # a job started
    row(recorder, 40.0, used=1.0, active=1, rate=3.6, cost=0.04)  # the cost jumps after it: kept
    row(recorder, 50.0, used=1.0, active=1, rate=3.6, cost=0.10)  # surcharge: kept
    row(recorder, 60.0, used=1.0, active=1, rate=3.6, cost=0.11)  # the last row: kept
    assert recorder.informative_rows().tolist() == [True, False, False, True, True, True, True]
    timeline = recorder.timeline_section()
    assert timeline["t"] == [0.0, 30.0, 40.0, 50.0, 60.0]
    assert timeline["utilisation"] == {"cpu": [0.5, 1.0, 1.0, 1.0, 1.0]}
    assert timeline["queued_jobs"] == [1, 0, 0, 0, 0]
    assert timeline["cumulative_cost"] == [0.0, 0.03, 0.04, 0.10, 0.11]
    # The cost line through the kept rows passes through every left-out one.
    assert np.interp([10.0, 20.0], timeline["t"], timeline["cumulative_cost"]) == pytest.approx([0.01, 0.02])


def test_the_cost_rate_is_kept_to_a_billionth() -> None:
    recorder = one_vm()
    row(recorder, 0.0, used=0.5, active=3, rate=0.24 + 0.48 + 0.72 - 0.48, cost=0.0)  # 0.9599999999999999
    row(recorder, 10.0, used=0.0, active=0, rate=0.0, cost=0.00266)
    assert recorder.timeline_section()["cost_rate_per_hour"] == [0.96, 0.0]
    assert RATE_DECIMALS == 9


def test_fairness_figures_use_every_row_and_its_series_the_kept_ones() -> None:
    recorder = TimelineRecorder(["cpu"], ["vm"], ["a", "b"], shared=True)
    for t, share_a in ((0.0, 0.25), (10.0, 0.25), (20.0, 0.5), (30.0, 0.0)):
        recorder.record(
            t,
            utilisation=[0.5],
            utilisation_of_on=[0.5],
            active_vms=[1],
            cost_rate_per_hour=0.0,
            cumulative_cost=0.0,
            queued_jobs=0,
            running_jobs=1,
            dominant_share=[share_a, 0.25],
            fair_share=[0.5, 0.5] if t < 30 else [0.0, 0.0],
        )
    fairness = recorder.fairness_section(np.ones(2))
    assert fairness is not None
    assert fairness["t"] == [0.0, 20.0, 30.0]
    assert fairness["share"]["a"] == [0.25, 0.5, 0.0]
    # Over the 30 s of contention a is 0.25 under its fair share (0.5) for 20 s: 5 share-seconds;
    # it received 0.25 x 20 + 0.5 x 10 = 10 of 0.5 x 30 = 15 share-seconds.
    assert fairness["frameworks"]["a"]["unfairness_area"] == pytest.approx(5.0)
    assert fairness["frameworks"]["a"]["received_pct"] == pytest.approx(200 / 3)
    assert TimelineRecorder(["cpu"], ["vm"], ["a", "b"], shared=False).fairness_section(np.ones(2)) is None


def test_polling_passes_that_start_nothing_leave_no_rows() -> None:
    # One 4-cpu VM; b waits for a behind 10-second polls: the polls at 20, 30, ... 90 s change
    # nothing. Every row left is where a step series or the cost line changes.
    scenario = parse_scenario(
        {
            "resources": ["cpu"],
            "vm_types": [{"name": "vm", "capacity": {"cpu": 4}, "price_per_hour": 3.6}],
            "jobs": [
                {"id": "a", "arrival_s": 0, "executors": 1, "executor": {"cpu": 4}, "duration_s": 95},
                {"id": "b", "arrival_s": 5, "executors": 1, "executor": {"cpu": 4}, "duration_s": 10},
            ],
        }
    )
    doc = simulate(scenario, scheduler="fifo-bfd", options={"scheduling_interval_s": 10}).to_dict()
    timeline = doc["timeline"]
    assert timeline["t"] == [0.0, 5.0, 95.0, 100.0, 110.0]
    assert timeline["queued_jobs"] == [0, 1, 1, 0, 0]
    assert timeline["running_jobs"] == [1, 1, 0, 1, 0]
    assert timeline["active_vms"] == {"vm": [1, 1, 0, 1, 0]}
    assert timeline["cumulative_cost"] == pytest.approx([0.0, 0.005, 0.095, 0.095, 0.105])
    assert doc["total_cost"] == pytest.approx(0.105)


def busy_rows(recorder: TimelineRecorder, n: int, *, seed: int = 3) -> list[tuple[float, ...]]:
    """``n`` rows of a seeded random walk (times 0.5-1.5 s apart); the rows given."""
    rng = np.random.default_rng(seed)
    rows, t, cost, active = [], 0.0, 0.0, 1
    for _ in range(n):
        active = max(0, active + int(rng.integers(-1, 2)))
        used = float(rng.random()) * active / 4
        share = float(rng.random())
        fair = [0.5, 0.5] if active else [0.0, 0.0]
        recorder.record(
            t, utilisation=[used], utilisation_of_on=[used], active_vms=[active],
            cost_rate_per_hour=3.6 * active, cumulative_cost=cost, queued_jobs=int(rng.integers(0, 5)),
            running_jobs=active, dominant_share=[share, 1 - share], fair_share=fair,
        )
        rows.append((t, used, active, cost, share, fair[0]))
        dt = float(rng.uniform(0.5, 1.5))
        cost += 3.6 * active * dt / 3600.0
        t += dt
    return rows


def test_a_long_run_keeps_its_rows_bounded_and_its_envelope() -> None:
    recorder = TimelineRecorder(["cpu"], ["vm"], ["a", "b"], shared=True, rows_max=200)
    rows = busy_rows(recorder, 5_000)
    assert recorder.reductions > 0
    assert len(recorder.t) <= 2 * recorder.rows_max + 1  # bounded while produced
    timeline = recorder.timeline_section()
    assert timeline["envelope_s"] == recorder._width > 0  # says what the rows are
    t = np.array(timeline["t"])
    assert t[0] == rows[0][0] and t[-1] == rows[-1][0] and (np.diff(t) > 0).all()
    # Every kept row is a row produced, whole; every series keeps its extremes.
    produced = {r[0]: r for r in rows}
    for k, tk in enumerate(timeline["t"]):
        assert timeline["utilisation"]["cpu"][k] == produced[tk][1]
        assert timeline["active_vms"]["vm"][k] == produced[tk][2]
        assert timeline["cumulative_cost"][k] == produced[tk][3]
    used = [r[1] for r in rows]
    assert max(timeline["utilisation"]["cpu"]) == max(used)
    assert min(timeline["utilisation"]["cpu"]) == min(used)
    assert max(timeline["active_vms"]["vm"]) == max(r[2] for r in rows)


def test_a_long_runs_fairness_figures_are_those_of_every_row() -> None:
    bounded = TimelineRecorder(["cpu"], ["vm"], ["a", "b"], shared=True, rows_max=200)
    whole = TimelineRecorder(["cpu"], ["vm"], ["a", "b"], shared=True, rows_max=10_000)
    busy_rows(bounded, 5_000)
    busy_rows(whole, 5_000)
    assert bounded.reductions > 0 and whole.reductions == 0
    a, b = bounded.fairness_section(np.ones(2)), whole.fairness_section(np.ones(2))
    assert a is not None and b is not None
    assert len(a["t"]) < len(b["t"]) == 5_000
    assert a["contention_s"] == pytest.approx(b["contention_s"], rel=1e-12)
    for name in ("a", "b"):
        for figure in ("unfairness_area", "received_pct", "unfairness_pct"):
            assert a["frameworks"][name][figure] == pytest.approx(b["frameworks"][name][figure], rel=1e-12)


def test_rows_reduced_in_steps_are_those_of_one_reduction() -> None:
    # Buckets only widen by powers of two, aligned on 0, and a bucket's envelope holds the
    # envelopes of its halves: reducing in steps as rows come keeps what one reduction of every
    # row keeps at the last width.
    stepwise = TimelineRecorder(["cpu"], ["vm"], ["a", "b"], shared=True, rows_max=200)
    busy_rows(stepwise, 3_000)
    assert stepwise.reductions >= 2
    stepwise._reduce()
    whole = TimelineRecorder(["cpu"], ["vm"], ["a", "b"], shared=True, rows_max=1_000_000)
    busy_rows(whole, 3_000)
    assert whole.reductions == 0
    whole.rows_max, whole._width = 200, stepwise._width
    whole._reduce()
    assert whole._width == stepwise._width
    assert list(stepwise.t) == list(whole.t)
    assert list(stepwise._utilisation) == list(whole._utilisation)
    assert list(stepwise._active_vms) == list(whole._active_vms)


def test_a_run_whose_rows_are_bounded_changes_nothing_but_its_timelines() -> None:
    # 600 jobs of two frameworks, kept to 60 rows: the jobs, the bill and the fairness figures
    # are those of the same run keeping every row; its timelines are the envelope of them.
    from scheduling.cost import parse_scheduler, simulator
    from scheduling.generators import synthetic_jobs

    jobs = synthetic_jobs(seed=5, jobs=600, arrival_rate_per_s=0.05, executors=(1, 4),
                          executor={"cpu": (1, 4), "mem": (2, 8)}, duration_s=(10, 300))
    for k, job in enumerate(jobs):
        job["framework"] = "a" if k % 3 else "b"
    scenario = parse_scenario({
        "vm_types": [{"name": "vm", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.4, "count": 12}],
        "frameworks": [{"name": "a"}, {"name": "b"}],
        "jobs": jobs,
    })
    whole = simulate(scenario, scheduler="edf-bfd", lower_bound=1.0).to_dict()
    # The same run with its recorder bounded (set on the run's own recorder: a compiled engine
    # binds its classes, so a patched module attribute would not reach it).
    run = simulator._Simulation(scenario, parse_scheduler("edf-bfd", resources=scenario.resources), 0, None)
    run.timeline.rows_max = 60
    bounded = run.run(1.0).to_dict()
    assert len(whole["timeline"]["t"]) > 2 * 60  # the whole run would keep more
    assert bounded["timeline"]["envelope_s"] > 0 and "envelope_s" not in whole["timeline"]
    assert len(bounded["timeline"]["t"]) <= 2 * 60 + 1 < len(whole["timeline"]["t"])
    for key in ("jobs", "vm_intervals", "total_cost", "cost_by_hour", "cost_by_framework", "makespan_s"):
        assert bounded[key] == whole[key], key
    # Kept rows are rows of the whole run, and the extremes and the ends are among them.
    at = {t: k for k, t in enumerate(whole["timeline"]["t"])}
    for series in ("cumulative_cost", "queued_jobs", "running_jobs"):
        kept = [whole["timeline"][series][at[t]] for t in bounded["timeline"]["t"]]
        assert bounded["timeline"][series] == kept, series
        assert max(kept) == max(whole["timeline"][series]) and kept[-1] == whole["timeline"][series][-1]
    assert max(bounded["timeline"]["utilisation"]["cpu"]) == max(whole["timeline"]["utilisation"]["cpu"])
    a, b = bounded["fairness"], whole["fairness"]
    assert a["contention_s"] == pytest.approx(b["contention_s"], rel=1e-12)
    for name in ("a", "b"):
        assert a["frameworks"][name]["unfairness_area"] == pytest.approx(
            b["frameworks"][name]["unfairness_area"], rel=1e-12, abs=1e-12
        )


@pytest.mark.parametrize("rows", [PENDING_ROWS - 1, PENDING_ROWS, PENDING_ROWS + 1, 3 * PENDING_ROWS + 5])
def test_a_second_row_at_an_instant_replaces_the_first_wherever_the_first_is_kept(rows: int) -> None:
    # The newest rows wait in lists and are copied into the typed arrays a block at a time: a
    # row recorded again at its instant replaces the first whether that one is still in the
    # lists or was just copied (the PENDING_ROWS-th row is copied as it is recorded).
    recorder = TimelineRecorder(["cpu"], ["vm"], [], shared=False, rows_max=10 * rows)
    for k in range(rows):
        row(recorder, float(k), used=0.0, active=0, rate=0.0, cost=0.0, queued=k)  # replaced
        row(recorder, float(k), used=(k % 7) / 7, active=k % 5, rate=3.6 * (k % 5), cost=float(k), queued=0)
    timeline = recorder.timeline_section()
    kept = timeline["t"]
    assert kept[0] == 0.0 and kept[-1] == rows - 1 and len(kept) > rows // 2
    for k, tk in enumerate(kept):
        j = int(tk)
        assert timeline["utilisation"]["cpu"][k] == (j % 7) / 7
        assert timeline["active_vms"]["vm"][k] == j % 5
        assert timeline["cumulative_cost"][k] == float(j) and timeline["queued_jobs"][k] == 0
    assert len(recorder.t) == rows  # every row in the arrays once the document is built
