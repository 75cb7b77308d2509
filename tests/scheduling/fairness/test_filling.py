"""Progressive filling (paper 000, Section IV): hand-worked cases, Table I, invariants."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scheduling.errors import ScenarioError
from scheduling.fairness import criteria, filling
from scheduling.fairness.filling import POLICIES, SERVER_SELECTIONS, progressive_filling
from scheduling.fairness.model import FairnessProblem
from tests.scheduling.fairness.fairness_documents import table_one_problem

#: Paper 000, Table I (200 trials), as printed: mean tasks of f1 on c1, f1 on c2, f2 on c1, f2 on c2.
PAPER_TABLE_I = {
    "drf": (6.55, 4.69, 4.69, 6.55),
    "tsf": (6.5, 4.7, 4.7, 6.5),
    "psdsf": (19.44, 1.15, 1.07, 19.42),
}
#: Table II: the sample standard deviations of the same cells.
PAPER_TABLE_II = {
    "drf": (2.31, 0.46, 0.46, 2.31),
    "tsf": (2.29, 0.46, 0.46, 2.29),
    "psdsf": (0.59, 0.99, 1.0, 0.49),
}
PAPER_TRIALS = 200


def problem(capacity, demand, weight=None, allowed=None) -> FairnessProblem:
    capacity = np.asarray(capacity, dtype=float)
    demand = np.asarray(demand, dtype=float)
    n, i = demand.shape[0], capacity.shape[0]
    return FairnessProblem(
        resources=tuple(f"r{k}" for k in range(capacity.shape[1])),
        machines=tuple(f"s#{k + 1}" for k in range(i)),
        machine_types=("s",) * i,
        capacity=capacity,
        frameworks=tuple(f"f{k}" for k in range(n)),
        demand=demand,
        weight=np.ones(n) if weight is None else np.asarray(weight, dtype=float),
        allowed=np.ones((n, i), bool) if allowed is None else np.asarray(allowed, dtype=bool),
    )


def combos():
    return [(p, s) for p in POLICIES for s in SERVER_SELECTIONS if p != "bf-drf"] + [
        ("bf-drf", "best-fit"), ("bf-drf", "best-fit-all")
    ]


def outcomes(x: np.ndarray) -> dict[tuple[int, ...], float]:
    """Each trial's allocation (f1 on c1, f1 on c2, f2 on c1, f2 on c2) and its share of the trials."""
    rows = [tuple(r) for r in x.reshape(len(x), -1).tolist()]
    return {k: rows.count(k) / len(rows) for k in set(rows)}


# ---------------------------------------------------------------- hand-worked


def test_drf_on_one_server_equalises_dominant_shares():
    # 9 cpu, 18 mem; a needs (1 cpu, 4 mem): dominant mem 4/18; b needs (3 cpu, 1 mem): dominant cpu 3/9.
    # DRF gives tasks alternately by the smaller dominant share: a 3 (12/18 = 2/3), b 2 (6/9 = 2/3)
    # uses 9 cpu and 14 mem; nothing else fits (cpu is full).
    p = problem([[9, 18]], [[1, 4], [3, 1]])
    x = progressive_filling(p, policy="drf", trials=20, seed=0)
    assert x[:, :, 0].tolist() == [[3, 2]] * 20


def test_weights_scale_the_share_and_limits_stop_a_framework():
    p = problem([[12]], [[1], [1]], weight=[3, 1])
    assert progressive_filling(p, policy="drf")[0, :, 0].tolist() == [9, 3]
    x = progressive_filling(p, policy="drf", limit=np.array([2, 100]))
    assert x[0, :, 0].tolist() == [2, 10]


def test_allowed_servers_are_respected_and_tasks_already_placed_count():
    p = problem([[4], [4]], [[1], [1]], allowed=[[True, False], [True, True]])
    x = progressive_filling(p, policy="drf", servers="joint", trials=50, seed=3)
    assert (x[:, 0, 1] == 0).all() and (x.sum(axis=(1, 2)) == 8).all()
    # b already runs 4 tasks: a catches up first, so a gets all of server 1 (b cannot go there
    # under DRF before a reaches 4) -- with 4 slots left on server 1 only a fits first.
    placed = np.array([[0, 0], [0, 4]], dtype=float)
    residual = np.array([[4.0], [0.0]])
    x = progressive_filling(p, policy="drf", residual=residual, tasks=placed, trials=10, seed=1)
    assert x[:, 0, 0].tolist() == [4] * 10


def test_rps_dsf_gives_table_one_exactly():
    x = progressive_filling(table_one_problem(), policy="rpsdsf", servers="joint", trials=200, seed=5)
    assert (x == np.array([[19, 2], [2, 19]])).all()


def test_best_fit_drf_on_table_one_packs_each_framework_on_its_server():
    # The paper reports 20, 2 / 0, 19 (41 tasks); best fit as the notes define it (§2) gives
    # 19, 2 / 2, 19 (42): each framework fills the server that matches its shape, then the
    # two leftovers take the other's; docs/reproductions.md explains the difference.
    x = progressive_filling(table_one_problem(), policy="bf-drf", trials=50, seed=0)
    assert (x == np.array([[19, 2], [2, 19]])).all()


def test_ps_dsf_joint_on_table_one_ends_in_41_or_42():
    x = progressive_filling(table_one_problem(), policy="psdsf", servers="joint", trials=400, seed=2)
    totals = x.sum(axis=(1, 2))
    assert set(totals.tolist()) <= {40, 41, 42}
    assert abs(totals.mean() - 41.0) < 0.2


@pytest.mark.parametrize("servers", ["rrr", "rrr-task"])
@pytest.mark.parametrize("policy", sorted(PAPER_TABLE_I))
def test_table_one_within_sampling_error(policy, servers):
    """Our mean of 2,000 trials against the paper's of 200: within three standard errors of the
    difference (each side's standard error from our sample standard deviation; notes §2). Both
    readings of RRR pass this; only ``rrr-task`` has the paper's outcomes (below)."""
    trials = 2000
    x = progressive_filling(table_one_problem(), policy=policy, servers=servers, trials=trials, seed=11)
    cells = x.reshape(trials, -1).astype(float)  # (f1, c1), (f1, c2), (f2, c1), (f2, c2)
    for k, paper in enumerate(PAPER_TABLE_I[policy]):
        s = cells[:, k].std(ddof=1)
        se = s * math.sqrt(1 / trials + 1 / PAPER_TRIALS)
        assert abs(cells[:, k].mean() - paper) <= 3 * se + 1e-9, (k, cells[:, k].mean(), paper, se)
    # the mirror image: f2 on c2 as f1 on c1
    assert abs(x[:, 1, 1].mean() - x[:, 0, 0].mean()) < 0.3


@pytest.mark.parametrize("policy", ["drf", "tsf"])
def test_rrr_task_gives_table_one_two_outcomes_rrr_rounds_four(policy):
    """Table I and II of DRF and TSF fit two outcomes, 5, 5 / 5, 5 (69 %) and 10, 4 / 4, 10 (31 %):
    (10 - 6.55) / 5 = 0.69, and 5 * sqrt(0.69 * 0.31) = 2.31 is Table II's deviation. With a fresh
    server order per task (``rrr-task``) the others are 0.3 % of trials (none in 200 with
    probability 0.55); with the notes' rounds over every server (``rrr``) 15, 3 and 0, 6 are about
    4 % (none in 200: about 2e-4), since a round gives its two servers to different frameworks."""
    p = table_one_problem()
    two = {(5, 5, 5, 5), (10, 4, 4, 10)}
    task = outcomes(progressive_filling(p, policy=policy, servers="rrr-task", trials=6000, seed=3))
    assert sum(v for k, v in task.items() if k not in two) < 0.01
    assert task[(5, 5, 5, 5)] == pytest.approx(0.69, abs=0.03)
    rounds = outcomes(progressive_filling(p, policy=policy, servers="rrr", trials=6000, seed=3))
    assert sum(v for k, v in rounds.items() if k not in two) > 0.025
    assert rounds[(15, 3, 3, 15)] > 0.015 and rounds[(0, 6, 6, 0)] > 0.008


@pytest.mark.parametrize("policy", sorted(PAPER_TABLE_II))
def test_rrr_task_gives_table_two(policy):
    x = progressive_filling(table_one_problem(), policy=policy, servers="rrr-task", trials=4000, seed=9)
    sd = x.reshape(len(x), -1).std(axis=0, ddof=1)
    assert sd == pytest.approx(PAPER_TABLE_II[policy], rel=0.2)


def test_rrr_task_rps_dsf_performs_as_rps_dsf():
    """"RRR-rPS-DSF performed just as rPS-DSF over 200 trials" (§IV): 19, 2 / 2, 19 in 99.9 %."""
    x = progressive_filling(table_one_problem(), policy="rpsdsf", servers="rrr-task", trials=2000, seed=4)
    assert outcomes(x)[(19, 2, 2, 19)] > 0.995


def test_best_fit_over_all_servers_gives_41_in_every_trial_and_the_papers_row():
    """BF-DRF with the best fit over every server (``best-fit-all``): a framework whose best-fit
    server cannot take its task is passed over. At 17 tasks each on their own server, f2 gets
    its 18th and 19th on c2, f1 two on c2 (c2's residual 12, 10 then matches f1's shape better
    than c1's 15, 13): c2 is left with 1 cpu, 3 mem and is still f2's best fit, so f2 stops at
    19 though c1 could take it; f1 fills c1 to 20 (the paper's 20, 2 / 0, 19, when DRF's ties
    go to f2). Every outcome allocates 41."""
    p = table_one_problem()
    x = progressive_filling(p, policy="bf-drf", servers="best-fit-all", trials=400, seed=6)
    assert set(x.sum(axis=(1, 2)).tolist()) == {41}
    seen = outcomes(x)
    assert (20, 2, 0, 19) in seen and (19, 0, 2, 20) in seen
    assert set(seen) <= {(20, 2, 0, 19), (19, 0, 2, 20), (19, 2, 1, 19), (19, 1, 2, 19)}


def test_same_seed_same_result_and_seeds_differ():
    p = table_one_problem()
    a = progressive_filling(p, policy="drf", trials=30, seed=4)
    b = progressive_filling(p, policy="drf", trials=30, seed=4)
    c = progressive_filling(p, policy="drf", trials=30, seed=5)
    assert (a == b).all() and not (a == c).all()


def test_errors_name_the_field():
    p = table_one_problem()
    with pytest.raises(ScenarioError) as e:
        progressive_filling(p, policy="drfx")
    assert e.value.errors[0].path == "policy"
    with pytest.raises(ScenarioError) as e:
        progressive_filling(p, policy="drf", servers="fast")
    assert e.value.errors[0].path == "servers"
    with pytest.raises(ScenarioError) as e:
        progressive_filling(p, policy="drf", trials=0)
    assert e.value.errors[0].path == "trials"


def test_progress_is_reported_and_can_stop_the_filling():
    p = problem([[1000.0]], [[1.0], [1.0]])
    seen: list[float] = []
    progressive_filling(p, policy="drf", progress=seen.append)
    assert seen and seen[-1] == 1.0 and seen == sorted(seen)

    class Stop(Exception):
        pass

    def stop(_f: float) -> None:
        raise Stop

    with pytest.raises(Stop):
        progressive_filling(p, policy="drf", progress=stop)


@pytest.mark.parametrize("policy", ["psdsf", "rpsdsf"])
@pytest.mark.parametrize("servers", ["joint", "best-fit"])
def test_the_incremental_path_agrees_with_the_vectorised_one(monkeypatch, policy, servers):
    """Above INCREMENTAL_CELLS the per-server criteria are kept incrementally; the outcomes'
    distribution on Table I must be the same as the vectorised path's."""
    p = table_one_problem()
    trials = 400 if policy == "psdsf" else 40  # rPS-DSF is deterministic here (19, 2 / 2, 19)
    vectorised = progressive_filling(p, policy=policy, servers=servers, trials=trials, seed=8)
    monkeypatch.setattr(filling, "INCREMENTAL_CELLS", 0)
    incremental = progressive_filling(p, policy=policy, servers=servers, trials=trials, seed=8)
    for k in range(2):
        for i in range(2):
            a, b = vectorised[:, k, i], incremental[:, k, i]
            se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
            assert abs(a.mean() - b.mean()) <= 4 * se + 1e-9


# ---------------------------------------------------------------- invariants

sizes = st.tuples(st.integers(1, 4), st.integers(1, 5), st.integers(1, 3))


@st.composite
def problems(draw):
    n, i, r = draw(sizes)
    vals = st.floats(0.5, 20, allow_nan=False)
    capacity = np.array(draw(st.lists(st.lists(vals, min_size=r, max_size=r), min_size=i, max_size=i))) * 4
    demand = np.array(
        draw(st.lists(st.lists(st.floats(0.1, 10), min_size=r, max_size=r), min_size=n, max_size=n))
    )
    weight = np.array(draw(st.lists(st.sampled_from([1.0, 2.0, 0.5]), min_size=n, max_size=n)))
    allowed = np.array(
        draw(st.lists(st.lists(st.booleans(), min_size=i, max_size=i), min_size=n, max_size=n))
    )
    return problem(capacity, demand, weight, allowed)


@settings(max_examples=80, deadline=None)
@given(p=problems(), combo=st.sampled_from(combos()), seed=st.integers(0, 1000), incremental=st.booleans())
def test_fillings_are_feasible_and_maximal(p, combo, seed, incremental):
    """Feasible, and maximal: except under ``best-fit-all``, which stops when no framework's task
    fits on its best-fit server (checked instead)."""
    policy, servers = combo
    old = filling.INCREMENTAL_CELLS
    filling.INCREMENTAL_CELLS = 0 if incremental else old
    try:
        x = progressive_filling(p, policy=policy, servers=servers, trials=3, seed=seed)
    finally:
        filling.INCREMENTAL_CELLS = old
    assert x.shape == (3, len(p.frameworks), len(p.machines)) and (x >= 0).all()
    for trial in x:
        assert (trial[~p.allowed] == 0).all()
        used = np.einsum("ni,nr->ir", trial, p.demand)
        assert (used <= p.capacity + 1e-6).all()
        residual = p.capacity - used
        fits = (p.demand[:, None, :] <= residual[None, :, :] + 1e-9).all(axis=2) & p.allowed
        if servers != "best-fit-all":
            # maximal: no framework fits one more task on any server it is allowed on
            assert not fits.any()
            continue
        distance = np.where(p.allowed, criteria.best_fit_distance(p.demand, residual[None, :, :]), np.inf)
        for n in range(len(p.frameworks)):
            if p.allowed[n].any():  # no task fits on a best-fit server of its framework
                best = distance[n] <= distance[n].min() * (1 + 1e-12)
                assert not (fits[n] & best).any()
