"""Exact fair allocations (paper 000, Section III): U-MMF, PF and inequality (9).

Hand-worked examples (one server of one resource, paper 000's Table I set-up, a two-stage
water-filling), brute force over every whole-task allocation of tiny problems, and invariants
on random problems checked by an independent PuLP model and against progressive filling.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
import pulp
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scheduling.errors import ScenarioError
from scheduling.fairness import exact_model
from scheduling.fairness.exact import (
    DEFAULT_PF_TOLERANCE,
    ExactResult,
    mmf_allocation,
    pf_allocation,
    pf_inequality,
)
from scheduling.fairness.filling import progressive_filling
from scheduling.fairness.model import FairnessProblem

EPS = 1e-6


def make(
    capacity: Sequence[Sequence[float]],
    demand: Sequence[Sequence[float]],
    weight: Sequence[float] | None = None,
    allowed: Sequence[Sequence[bool]] | None = None,
) -> FairnessProblem:
    cap = np.array(capacity, dtype=float)
    dem = np.array(demand, dtype=float)
    n, i = len(dem), len(cap)
    return FairnessProblem(
        resources=tuple(f"r{k}" for k in range(cap.shape[1])),
        machines=tuple(f"s#{k + 1}" for k in range(i)),
        machine_types=("s",) * i,
        capacity=cap,
        frameworks=tuple(f"f{k + 1}" for k in range(n)),
        demand=dem,
        weight=np.ones(n) if weight is None else np.array(weight, dtype=float),
        allowed=np.ones((n, i), bool) if allowed is None else np.array(allowed, dtype=bool),
    )


def table_one() -> FairnessProblem:
    """Paper 000's Table I: c1 = (100, 30), c2 = (30, 100), d1 = (5, 1), d2 = (1, 5)."""
    return make([[100, 30], [30, 100]], [[5, 1], [1, 5]])


def assert_feasible(p: FairnessProblem, x: np.ndarray, *, integer: bool) -> None:
    assert x.shape == p.allowed.shape
    assert (x >= -EPS).all()
    assert (x[~p.allowed] == 0).all()
    used = np.einsum("ni,nr->ir", x, p.demand)
    assert (used <= p.capacity + 1e-6 * np.maximum(1.0, p.capacity)).all()
    if integer:
        assert np.array_equal(x, np.round(x))


# ------------------------------------------------------------------ by hand


def test_one_server_one_resource_mmf_splits_tasks_by_weight() -> None:
    # 12 cpu; tasks of 1 and 2 cpu; weights 2 and 1: x1 / 2 = x2, x1 + 2 x2 = 12.
    p = make([[12]], [[1], [2]], weight=[2, 1])
    for integer in (False, True):
        r = mmf_allocation(p, integer=integer)
        assert r.x[:, 0] == pytest.approx([6.0, 3.0])
        assert r.meta["levels"] == pytest.approx({"f1": 3.0, "f2": 3.0})
        assert r.meta["objective"] == pytest.approx(3.0)


def test_one_server_one_resource_pf_splits_resource_by_weight() -> None:
    # max 2 log x1 + log x2 s.t. x1 + 2 x2 <= 12: x1 = 8, x2 = 2 (8 and 4 cpu, 2 : 1).
    p = make([[12]], [[1], [2]], weight=[2, 1])
    frac = pf_allocation(p, integer=False)
    assert frac.x[:, 0] == pytest.approx([8.0, 2.0], rel=1e-3)
    assert frac.meta["objective"] == pytest.approx(2 * math.log(8) + math.log(2), abs=1e-6)
    assert frac.meta["upper_bound"] >= frac.meta["objective"] - 1e-9
    assert frac.meta["gap"] <= DEFAULT_PF_TOLERANCE * 3
    whole = pf_allocation(p, integer=True)
    assert whole.x[:, 0].tolist() == [8.0, 2.0]


def test_table_one_mmf_fractional() -> None:
    # By symmetry x = [[a, b], [b, a]]; c1 is full in both resources at the optimum:
    # 5a + b = 100 and a + 5b = 30, so a = 470/24, b = 50/24 and each framework has 520/24.
    r = mmf_allocation(table_one(), integer=False)
    assert r.x.sum(axis=1) == pytest.approx([520 / 24, 520 / 24])
    assert r.x == pytest.approx(np.array([[470, 50], [50, 470]]) / 24)
    assert r.meta["stages"] == 1
    assert_feasible(table_one(), r.x, integer=False)


def test_table_one_whole_tasks_are_19_2_2_19() -> None:
    # 22 tasks for f1 leave f2 at most 19 (f1 = 20 + 2 fills c1's cpu) or 17 (19 + 3), so the
    # leximin is 21 each: rPS-DSF's allocation of Table I (19, 2, 2, 19), 42 tasks in all.
    for f in (mmf_allocation, pf_allocation):
        r = f(table_one(), integer=True)
        assert r.x.tolist() == [[19.0, 2.0], [2.0, 19.0]]
        assert r.meta["integer"] is True


def test_table_one_pf_fractional_and_inequality_nine() -> None:
    p = table_one()
    pf = pf_allocation(p, integer=False)
    assert pf.x.sum(axis=1) == pytest.approx([520 / 24, 520 / 24], rel=1e-4)
    assert pf.meta["objective"] == pytest.approx(2 * math.log(520 / 24), abs=1e-6)
    # Against the paper's progressive-filling rows of Table I: Phi <= 0.
    for x in ([[19, 2], [2, 19]], [[20, 2], [0, 19]], [[19, 0], [2, 20]], [[5, 5], [5, 5]]):
        d = pf_inequality(p, np.array(x, dtype=float), pf.x)
        assert d["holds"] and d["value"] < 0
        assert d["reference"] == "pf" and set(d["per_framework"]) == {"f1", "f2"}
    # (20, 2, 0, 19): 41 tasks, Phi = (22 - 520/24 + 19 - 520/24) / (520/24)
    d = pf_inequality(p, np.array([[20.0, 2.0], [0.0, 19.0]]), pf.x)
    assert d["value"] == pytest.approx((41 - 2 * 520 / 24) / (520 / 24), rel=1e-4)


def test_integer_is_never_better_than_fractional() -> None:
    p = table_one()
    assert mmf_allocation(p, integer=True).meta["objective"] <= mmf_allocation(p, integer=False).meta[
        "objective"] + EPS
    assert pf_allocation(p, integer=True).meta["objective"] <= pf_allocation(p, integer=False).meta[
        "upper_bound"] + EPS


def test_water_filling_freezes_the_constrained_framework_first() -> None:
    # f1 may use only server A (2 cpu); f2 and f3 share what is left and server B (10 cpu).
    p = make([[2], [10]], [[1], [1], [1]], allowed=[[True, False], [True, True], [True, True]])
    r = mmf_allocation(p, integer=False)
    assert r.x.sum(axis=1) == pytest.approx([2.0, 5.0, 5.0])
    assert r.meta["stages"] == 2
    assert r.x[0, 1] == 0
    whole = mmf_allocation(p, integer=True)
    assert whole.x.sum(axis=1).tolist() == [2.0, 5.0, 5.0]


def test_frameworks_that_fit_nowhere_get_nothing_and_are_excluded() -> None:
    # f2 needs a gpu; no server has one. Without excluding it, the max-min level would be 0.
    p = make([[10, 0]], [[1, 0], [1, 1]])
    for f in (mmf_allocation, pf_allocation):
        for integer in (False, True):
            r = f(p, integer=integer)
            assert r.meta["excluded"] == ["f2"]
            assert r.x.tolist() == [[10.0], [0.0]]
    d = pf_inequality(p, np.array([[7.0], [0.0]]), np.array([[10.0], [0.0]]))
    assert d["per_framework"]["f2"] is None


def test_whole_task_pf_keeps_the_most_frameworks_it_can_serve() -> None:
    # One task fits at a time: log 0 = -inf for whoever gets none, so one framework is excluded.
    p = make([[3]], [[2], [2]])
    r = pf_allocation(p, integer=True)
    assert r.x.sum() == 1 and len(r.meta["excluded"]) == 1


def test_pooled_servers_split_evenly_and_fractional_pools_are_counted() -> None:
    p = make([[10, 10]] * 4 + [[20, 5]], [[1, 1], [2, 1]])
    r = mmf_allocation(p, integer=False)
    assert r.meta["server_pools"] == 2
    assert np.allclose(r.x[:, :4], r.x[:, :1])
    assert_feasible(p, r.x, integer=False)


COMMON = {"method", "integer", "tolerance", "solver", "status", "objective", "seconds", "excluded"}


def test_meta_keys() -> None:
    r = mmf_allocation(table_one(), integer=False)
    assert isinstance(r, ExactResult)
    assert {*COMMON, "stages"} <= set(r.meta)
    assert r.meta["method"] == "mmf" and r.meta["status"] == "optimal" and "HiGHS" in r.meta["solver"]
    r = pf_allocation(table_one(), integer=False, tolerance=1e-3)
    assert {*COMMON, "cuts"} <= set(r.meta)
    assert r.meta["tolerance"] == 1e-3 and r.meta["largest_log_gap"] <= 1e-3
    with pytest.raises(AttributeError):
        r.x = np.zeros(2)  # type: ignore[misc]


def test_solvers_print_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    for f in (mmf_allocation, pf_allocation):
        for integer in (False, True):
            f(table_one(), integer=integer)
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_errors_name_the_field() -> None:
    with pytest.raises(ScenarioError) as e:
        mmf_allocation(make([[10]], [[0], [1]]), integer=False)
    assert e.value.errors[0].path == "policy" and "f1" in e.value.errors[0].message
    with pytest.raises(ScenarioError) as e:
        pf_allocation(make([[10]], [[1]], weight=[0]), integer=False)
    assert e.value.errors[0].path == "policy"
    for bad in (0.0, 1.0, -1e-3, float("nan")):
        with pytest.raises(ScenarioError) as e:
            pf_allocation(table_one(), integer=False, tolerance=bad)
        assert e.value.errors[0].path == "tolerance"


def test_whole_tasks_give_up_at_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exact_model, "INTEGER_TIME_LIMIT_S", 0.0)
    for f in (mmf_allocation, pf_allocation):
        with pytest.raises(ScenarioError) as e:
            f(table_one(), integer=True)
        assert e.value.errors[0].path == "policy" and "fractional" in e.value.errors[0].message
    assert mmf_allocation(table_one(), integer=False).meta["status"] == "optimal"  # no limit


# ------------------------------------------------------------------ brute force (whole tasks)


def whole_allocations(p: FairnessProblem) -> list[np.ndarray]:
    """Every feasible whole-task allocation of a tiny problem."""
    with np.errstate(divide="ignore"):
        most = np.where(p.demand[:, None, :] > 0, np.floor(p.capacity[None] / p.demand[:, None, :]), np.inf)
    most = np.where(p.allowed, most.min(axis=2), 0).astype(int)
    out = []
    for cells in itertools.product(*(range(m + 1) for m in most.ravel())):
        x = np.array(cells, dtype=float).reshape(p.allowed.shape)
        if (np.einsum("ni,nr->ir", x, p.demand) <= p.capacity + 1e-9).all():
            out.append(x)
    return out


tiny = st.tuples(
    st.lists(st.lists(st.integers(0, 6), min_size=2, max_size=2), min_size=1, max_size=2),  # capacity
    st.lists(st.lists(st.integers(1, 3), min_size=2, max_size=2), min_size=2, max_size=2),  # demand
    st.lists(st.sampled_from([1.0, 2.0]), min_size=2, max_size=2),
    st.integers(0, 15),  # allowed bits
)


Tiny = tuple[list[list[int]], list[list[int]], list[float], int]


def tiny_problem(data: Tiny) -> FairnessProblem:
    cap, dem, w, bits = data
    allowed = [[bool(bits >> (2 * n + i) & 1) or i >= len(cap) for i in range(len(cap))] for n in range(2)]
    return make(cap, dem, weight=w, allowed=allowed)


@settings(max_examples=40, deadline=None)
@given(tiny)
def test_whole_task_mmf_and_pf_match_brute_force(data: Tiny) -> None:
    p = tiny_problem(data)
    allocations = whole_allocations(p)
    mmf = mmf_allocation(p, integer=True)
    assert_feasible(p, mmf.x, integer=True)
    best = max(tuple(sorted(x.sum(axis=1) / p.weight)) for x in allocations)
    assert tuple(sorted(mmf.x.sum(axis=1) / p.weight)) == pytest.approx(best)
    pf = pf_allocation(p, integer=True, tolerance=1e-7)  # proven optimal, not within the default 1%
    assert_feasible(p, pf.x, integer=True)
    # The most frameworks with a task, then the largest sum of phi log x_n over them.
    def key(x: np.ndarray) -> tuple[int, float]:
        xn = x.sum(axis=1)
        return int((xn > 0).sum()), float(sum(p.weight[n] * math.log(v) for n, v in enumerate(xn) if v > 0))
    top = max(key(x) for x in allocations)
    got = key(pf.x)
    assert got[0] == top[0] and got[1] == pytest.approx(top[1], abs=1e-6)


# ------------------------------------------------------------------ invariants (fractional)


def can_rise(p: FairnessProblem, levels: np.ndarray, n: int) -> float:
    """Independent check (PuLP): the most ``x_n / phi_n`` with every framework at or below
    ``n``'s level kept at its level."""
    prob = pulp.LpProblem("rise", pulp.LpMaximize)
    x = {(m, i): pulp.LpVariable(f"x_{m}_{i}", 0) for m, i in zip(*np.nonzero(p.allowed), strict=True)}
    tasks = [pulp.lpSum(v for (m, _), v in x.items() if m == k) for k in range(len(levels))]
    prob += tasks[n] * (1 / p.weight[n])
    for i in range(p.capacity.shape[0]):
        for r in range(p.capacity.shape[1]):
            prob += pulp.lpSum(p.demand[m, r] * v for (m, j), v in x.items() if j == i) <= p.capacity[i, r]
    # "At or below" within the solver's tolerance: levels the water-filling froze at one stage
    # may differ in the 7th digit, and a level a hair above n's must not be free to drop.
    for m in range(len(levels)):
        if m != n and levels[m] <= levels[n] * (1 + 1e-5) + 1e-9:
            prob += tasks[m] * (1 / p.weight[m]) >= levels[m] * (1 - 1e-7) - 1e-9
    prob.solve(pulp.HiGHS(msg=False))
    assert pulp.LpStatus[prob.status] == "Optimal"
    return float(pulp.value(prob.objective) or 0.0)


Random = tuple[list[list[int]], list[list[int]], list[float], list[list[bool]]]


@st.composite
def random_problems(draw: st.DrawFn) -> Random:
    """Up to 4 frameworks, 4 servers, 2 resources; capacities may lack a resource."""
    n, i, r = draw(st.integers(1, 4)), draw(st.integers(1, 4)), draw(st.integers(1, 2))
    return (
        draw(st.lists(st.lists(st.integers(0, 40), min_size=r, max_size=r), min_size=i, max_size=i)),
        draw(st.lists(st.lists(st.integers(1, 9), min_size=r, max_size=r), min_size=n, max_size=n)),
        draw(st.lists(st.sampled_from([1.0, 2.0, 3.0]), min_size=n, max_size=n)),
        draw(st.lists(st.lists(st.booleans(), min_size=i, max_size=i), min_size=n, max_size=n)),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_problems())
# CI once drew this: two frameworks frozen together at 0.1 whose levels came back 1e-7 apart.
@example(([[1], [0], [0]], [[3], [1]], [3.0, 1.0], [[True, False, False], [True, False, False]]))
def test_fractional_invariants(data: Random) -> None:
    cap, dem, w, allowed = data
    p = make(cap, dem, weight=w, allowed=allowed)
    mmf = mmf_allocation(p, integer=False)
    pf = pf_allocation(p, integer=False)
    for r in (mmf, pf, mmf_allocation(p, integer=True), pf_allocation(p, integer=True)):
        assert_feasible(p, r.x, integer=r.meta["integer"])
    levels = mmf.x.sum(axis=1) / p.weight
    included = [n for n, f in enumerate(p.frameworks) if f not in mmf.meta["excluded"]]
    assert (mmf.x[[n for n in range(len(levels)) if n not in included]] == 0).all()
    # U-MMF: no framework can rise without lowering one at or below its level.
    for n in included:
        assert can_rise(p, levels, n) <= levels[n] * (1 + 1e-5) + 1e-9
    # Against progressive filling (feasible whole-task allocations): MMF's smallest level is
    # not below theirs; PF satisfies inequality (9).
    filled = [progressive_filling(p, policy=policy, servers="joint", seed=1)[0].astype(float)
              for policy in ("drf", "tsf", "psdsf", "rpsdsf")]
    filled.append(mmf.x)
    for x in filled:
        if included:
            assert levels[included].min() >= (x.sum(axis=1) / p.weight)[included].min() - 1e-6
        assert pf_inequality(p, x, pf.x)["holds"]


# ------------------------------------------------------------------ U-MMF of other criteria


def test_mmf_of_dominant_shares_is_drf_on_one_server() -> None:
    """One server of (12 cpu, 12 mem); f1 tasks (1, 0.5), f2 (0.5, 2). Max-min of tasks: both
    4.8 (memory full). Max-min of dominant shares (x1 / 12 = x2 / 6 = t, memory 6t + 12t = 12):
    t = 2/3, x = (8, 4), DRF's classic answer. TSF equals DRF on one server."""
    p = make([[12, 12]], [[1, 0.5], [0.5, 2]])
    tasks = mmf_allocation(p, integer=False)
    assert tasks.x[:, 0] == pytest.approx([4.8, 4.8], abs=1e-6)
    for criterion in ("drf", "tsf"):
        r = mmf_allocation(p, integer=False, criterion=criterion)
        assert r.x[:, 0] == pytest.approx([8.0, 4.0], abs=1e-6)
        assert r.meta["objective"] == pytest.approx(2 / 3, abs=1e-6)
        assert mmf_allocation(p, integer=True, criterion=criterion).x[:, 0].tolist() == [8.0, 4.0]
    assert "DRF" in mmf_allocation(p, integer=False, criterion="drf").meta["criterion"]


def test_mmf_of_tsf_shares_differs_when_frameworks_may_use_different_servers() -> None:
    """Two servers of (10, 10); tasks (1, 1); f1 only on the first. Tasks and dominant shares
    (both 1/20 a task) are max-min fair at 10 and 10; TSF counts f1's share of the 10 tasks it
    could run alone against f2's of 20: x1 / 10 = x2 / 20 with x1 + x2 = 20, so 20/3 and 40/3,
    and with whole tasks (7, 13) (levels 0.7 and 0.65; (6, 14) has 0.6)."""
    p = make([[10, 10], [10, 10]], [[1, 1], [1, 1]], allowed=[[True, False], [True, True]])
    for criterion in ("tasks", "drf"):
        assert mmf_allocation(p, integer=False, criterion=criterion).x.sum(axis=1) == pytest.approx(
            [10, 10], abs=1e-6)
    tsf_mmf = mmf_allocation(p, integer=False, criterion="tsf")
    assert tsf_mmf.x.sum(axis=1) == pytest.approx([20 / 3, 40 / 3], abs=1e-6)
    assert_feasible(p, tsf_mmf.x, integer=False)
    assert mmf_allocation(p, integer=True, criterion="tsf").x.sum(axis=1).tolist() == [7.0, 13.0]
    with pytest.raises(ScenarioError, match=r"^criterion: unknown U-MMF criterion 'psdsf'"):
        mmf_allocation(p, integer=False, criterion="psdsf")


def test_the_other_criteria_are_variants_of_the_planner_and_the_cli() -> None:
    from scheduling.fairness.allocation import ALLOCATION_VARIANTS, allocate, parse_allocation_variant

    assert {"mmf-drf/fractional", "mmf-tsf/integer"} <= set(ALLOCATION_VARIANTS)
    assert parse_allocation_variant("mmf-drf", path="p").label == "DRF-MMF (fractional)"
    p = make([[12, 12]], [[1, 0.5], [0.5, 2]])
    doc = allocate(p, policy="mmf-drf").to_dict()
    assert [doc["mean"][f]["s#1"] for f in ("f1", "f2")] == pytest.approx([8.0, 4.0], abs=1e-6)
