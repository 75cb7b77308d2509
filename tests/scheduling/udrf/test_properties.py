"""The fairness properties of paper 004 (§II-D, §IV) on offline UDRF, and where DRF falls short.

The paper's example (``examples/paper004-fig1.json``) and random small instances (hypothesis:
2-4 users, 1-3 jobs each of 1-3 tasks, 2-4 machine classes, cpu and memory, whole numbers),
all in fractions so every comparison but the linear programs' is exact. The counter-examples
are explicit tests: DRF is not Pareto efficient in the sense UDRF is (the paper's u1 could run
28 of job1, not 8, with nobody losing), and UDRF is not strategy-proof, neither when a user is
measured by how many times its gross demand fits (eq. 9 with x^u of eq. 7: a user whose job
grew past its others and filled a shared resource gains by reporting every job as its gross
demand) nor by its job counts (a user saturated by one resource gains by claiming that a job
needs a resource only it wants). Both come from Fig. 3's line 25. The two-class case that broke
eq. 9 when a user's job mix was fixed before its level rose does not under the lockstep reading
(notes §7). A user with one job gains nothing by lying, as under DRF; see
docs/udrf-properties.md.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scheduling.errors import ScenarioError
from scheduling.scenario import parse_scenario
from scheduling.udrf.graph import rducs
from scheduling.udrf.model import UdrfProblem
from scheduling.udrf.properties import (
    Verdict,
    allocate,
    envy_freeness,
    gross_job_count,
    holdings,
    pareto_efficiency,
    saturated_resource_per_user,
    sharing_incentive,
    strategy_proofness,
)

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "paper004-fig1.json"
KINDS = ("cpu", "mem")

Demands = list[dict[int, Any]]


def exact(doc: dict[str, Any]) -> UdrfProblem:
    return UdrfProblem.from_scenario(parse_scenario(doc), exact=True)


@pytest.fixture(scope="module")
def paper() -> UdrfProblem:
    return exact(json.loads(EXAMPLE.read_text()))


def groups_of(problem: UdrfProblem) -> list[list[int]]:
    return rducs([problem.positive_demand(u) for u in range(len(problem.users))])


def assert_fair(problem: UdrfProblem, counts: list[Any]) -> None:
    """Lemma 1, Theorem 1 (in UDRF's sense), Theorems 2 and 3 (both splits)."""
    groups = groups_of(problem)
    for verdict in (saturated_resource_per_user(problem, counts), pareto_efficiency(problem, counts),
                    envy_freeness(problem, counts), sharing_incentive(problem, counts, groups),
                    sharing_incentive(problem, counts, groups, split="users")):
        assert verdict.holds, verdict.to_dict()
        assert verdict.witness is None


# ------------------------------------------------------------------ the paper's example


def test_udrf_on_the_paper_example_has_every_property(paper: UdrfProblem) -> None:
    levels, counts = allocate(paper, mix="udrf")
    assert levels == [F(1, 2), F(1, 2), F(5, 6), F(1)]
    assert_fair(paper, counts)
    # Misreports of u1 (job1 in hadoop, job2 in standard): scale, add a class, drop one, merge.
    job1, job2 = (paper.demands[j] for j in paper.user_jobs[0])
    gross = paper.gross_demand(0)
    public_ip = 2 * len(paper.kinds)  # public-ip/cpu: u2's and u3's class
    for lie in ([{r: 2 * d for r, d in job1.items()}, job2],
                [job1, {r: d / 2 for r, d in job2.items()}],
                [{**job1, public_ip: F(1)}, job2],
                [job1, {}],
                [gross, gross]):
        assert strategy_proofness(paper, 0, lie).holds
        assert strategy_proofness(paper, 0, lie, utility="jobs").holds


def test_the_checks_work_in_floats() -> None:
    problem = UdrfProblem.from_scenario(parse_scenario(json.loads(EXAMPLE.read_text())))
    assert_fair(problem, allocate(problem, mix="udrf")[1])
    witness = pareto_efficiency(problem, allocate(problem, mix="drf")[1]).witness
    assert witness is not None and (witness["job"], witness["most"]) == ("job1", pytest.approx(28))


def test_drf_on_the_paper_example_is_not_pareto_efficient(paper: UdrfProblem) -> None:
    # DRF stops u1's jobs in lockstep at 8 + 8; job1 needs only the hadoop class, which nobody
    # else wants: it can run 28 times (half of hadoop's 56 cpu, u1's dominant share) with every
    # other job, u1's and the others', running as many times as before.
    _, counts = allocate(paper, mix="drf")
    verdict = pareto_efficiency(paper, counts)
    assert not verdict.holds
    w = verdict.witness
    assert w is not None
    assert (w["user"], w["job"], w["count"], w["dominant_share"]) == ("u1", "job1", 8, 0.5)
    assert w["most"] == pytest.approx(28) and w["gain"] == pytest.approx(20)
    # DRF has the other properties (Leontief users; paper 004 §II-A).
    assert saturated_resource_per_user(paper, counts).holds and envy_freeness(paper, counts).holds
    assert sharing_incentive(paper, counts, groups_of(paper)).holds


def test_udrf_is_not_pareto_efficient_in_the_literal_sense(paper: UdrfProblem) -> None:
    # §II-D's statement without eq. 12's cap: hadoop keeps 28 cpu idle under UDRF (the waste
    # test_paper_example checks), so u1's job1 could run all of hadoop's 56 cpu.
    _, counts = allocate(paper, mix="udrf")
    verdict = pareto_efficiency(paper, counts, share_cap=False)
    assert not verdict.holds and verdict.property == "pareto_efficiency_unconstrained"
    w = verdict.witness
    assert w is not None
    assert (w["user"], w["job"], w["count"]) == ("u1", "job1", 28)
    assert w["most"] == pytest.approx(56)


# ------------------------------------------------------------------ strategy-proofness


def two_classes_one_shared() -> UdrfProblem:
    """Classes a and b of 10 cpu; u1 runs job1 (1 cpu on a) and job2 (2 cpu on b); u2 runs one
    job of 1 cpu on a."""
    return exact({
        "version": 3, "resources": ["cpu"],
        "vm_types": [{"name": "a", "capacity": {"cpu": 10}, "price_per_hour": 0},
                     {"name": "b", "capacity": {"cpu": 10}, "price_per_hour": 0}],
        "frameworks": [
            {"name": "u1", "complex_jobs": [
                {"id": "job1", "tasks": [{"machine_class": "a", "demand": {"cpu": 1}}]},
                {"id": "job2", "tasks": [{"machine_class": "b", "demand": {"cpu": 2}}]}]},
            {"name": "u2", "complex_jobs": [
                {"id": "job", "tasks": [{"machine_class": "a", "demand": {"cpu": 1}}]}]}],
    })


def test_two_classes_in_lockstep_give_drfs_levels_and_the_gross_lie_gains_nothing() -> None:
    # Fig. 3 in lockstep (notes §7). d_j,r = R^j_r / c_r: u1's job1 1/10 of a, job2 2/10 of b,
    # so d_u1^max = 2/10 and dhat = 1/2 (job1 on a), 1 (job2 on b); u2's job dhat = 1 on a.
    # Line 10: b = 1 / max(a: 1/2 + 1, b: 1) = 2/3. Both of u1's jobs grow by one multiplier,
    # b / (r_u d^max) = (2/3) / (1 * 2/10) = 10/3, u2's to (2/3) / (1/10) = 20/3: a is full
    # (10/3 + 20/3 = 10) and u1 holds 2/3 of b, its level. Both users at 2/3, as DRF.
    # (Fixing u1's mix before raising its level, job1 10 and job2 5 per unit of level, gave both
    # users 1/2 with half of b idle, and made the lie below pay: 10/3 instead of 5/2.)
    problem = two_classes_one_shared()
    levels, counts = allocate(problem)
    assert (levels, counts) == ([F(2, 3), F(2, 3)], [F(10, 3), F(10, 3), F(20, 3)])
    assert allocate(problem, mix="drf") == (levels, counts)
    gross = problem.gross_demand(0)
    assert gross == {0: 1, 1: 2}
    # u1's gross demand <1, 2> fits 10/3 times truthfully; reporting both jobs as it, u1's units
    # take a 1/4 and b 1/2 of its level each, b is again 2/3 and u1 receives 10/3 of a and 20/3
    # of b: 10/3 times again. Nor does job1 claiming half a cpu of b gain anything.
    for lie in ([gross, gross], [{0: F(1), 1: F(1, 2)}, {1: F(2)}]):
        for utility in ("gross", "jobs"):
            assert strategy_proofness(problem, 0, lie, utility=utility).holds, (lie, utility)


def three_classes(s_cpu: int, u2_on_s: int) -> UdrfProblem:
    """Classes s (``s_cpu`` cpu), p and o (10 cpu). u1 runs A (1 cpu on s) and B (1 cpu on p,
    which nobody else demands); u2 one job of ``u2_on_s`` cpu on s and 1 on o; u3 one job of 1
    cpu on o."""
    vm = [{"name": c, "capacity": {"cpu": n}, "price_per_hour": 0} for c, n in (("s", s_cpu), ("p", 10),
                                                                              ("o", 10))]

    def task(cls: str, cpu: int = 1) -> dict[str, Any]:
        return {"machine_class": cls, "demand": {"cpu": cpu}}

    return exact({"version": 3, "resources": ["cpu"], "vm_types": vm, "frameworks": [
        {"name": "u1", "complex_jobs": [{"id": "A", "tasks": [task("s")]},
                                        {"id": "B", "tasks": [task("p")]}]},
        {"name": "u2", "complex_jobs": [{"id": "job", "tasks": [task("s", u2_on_s), task("o")]}]},
        {"name": "u3", "complex_jobs": [{"id": "job", "tasks": [task("o")]}]},
    ]})


def test_udrf_is_not_strategy_proof_in_gross_demands() -> None:
    # Theorem 4 with eq. 9's x^u (how many times the true gross demand <s 1, p 1> fits).
    # s has 20 cpu, u2 takes 2 of s. d: u1 A 1/20 of s, B 1/10 of p (d^max 1/10, dhat 1/2 and
    # 1); u2 1/10 of s and of o (dhat 1, 1); u3 dhat 1 on o. Line 10: b = 1 / max(s: 3/2, p: 1,
    # o: 2) = 1/2. Round 1: A = B = 5, u2 = u3 = 5, o is full; u1's share of p is 1/2 = b, so B
    # stops, and A, on s (15 of 20 used), grows on to u1's share 1/2 of s: A = 10, s is full.
    # u1 is saturated (line 25: a resource it demands is full) with B at 5: x^u = 5, p half idle.
    # The lie: both jobs reported as <s 1, p 1>. Each unit takes 1/20 of s and 1/10 of p (u1's
    # d^max 1/5); b is 1/2 again; round 1 ends with 2.5 of each, o full, u1 at 1/2 of p and s
    # 15 of 20, not full: u1 goes on. Round 2 (b = 1): 5 of each, s and p full together; u1
    # holds 10 of s and 10 of p, and its true gross demand fits 10 times. Under DRF u1 gets 10
    # truthfully (A = B = 10): the lie only recovers what UDRF's line 25 took from it.
    problem = three_classes(20, 2)
    assert allocate(problem) == ([F(1, 2)] * 3, [10, 5, 5, 5])
    assert allocate(problem, mix="drf") == ([1, F(1, 2), F(1, 2)], [10, 10, 5, 5])
    gross = problem.gross_demand(0)
    verdict = strategy_proofness(problem, 0, [gross, gross])
    assert not verdict.holds
    assert verdict.witness == {
        "user": "u1", "truthful": 5, "misreport": 10, "gain": 5,
        "misreport_jobs": {"A": 5, "B": 5}, "truthful_jobs": {"A": 10, "B": 5},
    }
    jobs = strategy_proofness(problem, 0, [gross, gross], utility="jobs")
    assert not jobs.holds and jobs.witness is not None
    assert jobs.witness["could_run"] == pytest.approx({"A": 10, "B": 10})
    # DRF, where a user's allocation is proportional to its gross demand, does not reward the lie.
    assert strategy_proofness(problem, 0, [gross, gross], mix="drf").holds


def test_udrf_is_not_strategy_proof_in_job_counts() -> None:
    # Theorem 4 measured by job counts (utility "jobs"). Classes s, p and o of 10 cpu; u2 takes
    # 1 cpu of s. d: every job 1/10 of each class it uses, so dhat 1 everywhere. Line 10: b =
    # 1 / max(s: 2, p: 1, o: 2) = 1/2. Round 1: every job grows to 5, s and o fill together;
    # u1, saturated by s (line 25), stops B at 5 although p is half idle.
    # The lie: A also claims 1 cpu of p. u1's d^max is 2/10 (p), dhat A 1/2 on s and p, B 1/2
    # on p; b = 1 / max(s: 3/2, p: 1, o: 2) = 1/2 again. Round 1: A = B = 2.5, o fills (u2 and
    # u3 saturated), u1's share of p reaches 1/2 = b and both its jobs stop with s (7.5 of 10)
    # and p (5) not full. Round 2 (b = 1): A = B = 5, s and p full. u1 receives 5 cpu of s (as
    # before) and all 10 of p: it can run A 5 times and B 10 times. Nobody loses; the lie
    # recovers what UDRF leaves idle (pareto_efficiency(share_cap=False) names the same job).
    problem = three_classes(10, 1)
    assert allocate(problem) == ([F(1, 2)] * 3, [5, 5, 5, 5])
    s, p = 0, 1
    lie = [{s: F(1), p: F(1)}, {p: F(1)}]
    verdict = strategy_proofness(problem, 0, lie, utility="jobs")
    assert not verdict.holds and verdict.witness is not None
    assert verdict.witness["misreport_jobs"] == verdict.witness["truthful_jobs"] == {"A": 5, "B": 5}
    assert verdict.witness["could_run"] == pytest.approx({"A": 5, "B": 10})
    assert verdict.witness["gain"] == pytest.approx(5)
    # Its gross demand <1, 1> still fits 5 times: the lie gains in job counts only.
    assert strategy_proofness(problem, 0, lie).holds
    unconstrained = pareto_efficiency(problem, allocate(problem)[1], share_cap=False).witness
    assert unconstrained is not None and (unconstrained["user"], unconstrained["job"]) == ("u1", "B")


def test_a_lie_is_measured_by_what_the_user_receives() -> None:
    # The misreport's utility is the true gross demand fitting in the reported jobs' resources.
    problem = two_classes_one_shared()
    lying = [{0: F(1), 1: F(2)}, {1: F(2)}]
    verdict = strategy_proofness(problem, 0, lying)
    assert verdict.holds and verdict.to_dict() == {"property": "strategy_proofness", "holds": True,
                                                   "witness": None, "checked": 1}
    with pytest.raises(ScenarioError):
        strategy_proofness(problem, 0, [lying[0]])


# ------------------------------------------------------------------ the checks find violations


def test_every_check_names_its_counterexample() -> None:
    problem = two_classes_one_shared()
    nothing = [0, 0, 0]
    lemma = saturated_resource_per_user(problem, nothing)
    assert not lemma.holds
    assert lemma.witness == {"user": "u1", "resource": "a/cpu", "left": 10, "capacity": 10}
    pe = pareto_efficiency(problem, nothing)
    # u1 can run more of both its jobs with nobody losing (the share cap alone would let the
    # empty allocation pass: every share is 0).
    assert not pe.holds and pe.witness is not None
    assert (pe.witness["user"], pe.witness["job"], pe.witness["dominant_share"]) == ("u1", None, 0)
    assert pe.witness["gain"] == pytest.approx(5)  # job1 and job2 5 more times each: b's 10 cpu
    si = sharing_incentive(problem, nothing, groups_of(problem))
    assert si.witness == {"user": "u1", "own": 0, "equal_split": F(5, 2), "split_among": 2, "gain": F(5, 2)}
    # u2 holds all of a, u1 half of b: u1's gross demand needs both classes, so it fits in
    # neither allocation, and u2's needs a, which u1 lacks: nobody envies.
    assert envy_freeness(problem, [0, F(5, 2), 10]).holds
    # u2 envies u1 when u1 holds more of a than u2 does.
    lopsided = [6, 0, 4]
    ef = envy_freeness(problem, lopsided)
    assert not ef.holds and ef.witness == {"user": "u2", "envies": "u1", "own": 4, "in_theirs": 6, "gain": 2}
    assert ef.to_dict()["witness"]["in_theirs"] == 6.0
    with pytest.raises(ScenarioError):
        pareto_efficiency(problem, [11, 0, 0])  # over a's capacity


def test_measures() -> None:
    problem = two_classes_one_shared()
    held = holdings(problem, [5, F(5, 2), 5])
    assert held == [{0: 5, 1: 5}, {0: 5}]
    assert gross_job_count(problem, 0, held[0]) == F(5, 2)
    assert gross_job_count(problem, 1, held[0]) == 5  # u2's gross demand in u1's allocation


# ------------------------------------------------------------------ random instances


@st.composite
def instances(draw: st.DrawFn) -> dict[str, Any]:
    """A version-3 scenario: 2-4 classes (one machine each, 6-20 cpu and memory), 2-4 users
    with 1-3 jobs of 1-3 tasks each (0-2 cpu and memory, not both 0), every user weight 1."""
    n_classes = draw(st.integers(2, 4))
    vm_types = [{"name": f"c{c}", "price_per_hour": 0,
                 "capacity": {k: draw(st.integers(6, 20)) for k in KINDS}} for c in range(n_classes)]
    amounts = st.tuples(st.integers(0, 2), st.integers(0, 2)).filter(any)
    frameworks = []
    for u in range(draw(st.integers(2, 4))):
        jobs = []
        for j in range(draw(st.integers(1, 3))):
            tasks = []
            for _ in range(draw(st.integers(1, 3))):
                cpu, mem = draw(amounts)
                tasks.append({"machine_class": f"c{draw(st.integers(0, n_classes - 1))}",
                              "demand": {"cpu": cpu, "mem": mem}})
            jobs.append({"id": f"j{j}", "tasks": tasks})
        frameworks.append({"name": f"u{u}", "complex_jobs": jobs})
    return {"version": 3, "resources": list(KINDS), "vm_types": vm_types, "frameworks": frameworks}


def misreport(draw: st.DrawFn, problem: UdrfProblem, user: int) -> Demands:
    """Every job's demand, each entry kept, scaled or dropped; a class's demand dropped or one
    added; or (sometimes) every job reported as the user's gross demand."""
    if draw(st.integers(0, 5)) == 0:
        gross = problem.gross_demand(user)
        return [dict(gross) for _ in problem.user_jobs[user]]
    k = len(problem.kinds)
    n_classes = len(problem.classes)
    out: Demands = []
    for j in problem.user_jobs[user]:
        demand = {r: d * draw(st.sampled_from([F(1), F(1), F(0), F(1, 2), F(2), F(3)]))
                  for r, d in problem.demands[j].items()}
        action = draw(st.sampled_from(["keep", "keep", "drop", "add"]))
        c = draw(st.integers(0, n_classes - 1))
        if action == "drop":
            demand = {r: d for r, d in demand.items() if r // k != c}
        elif action == "add":
            for kk in range(k):
                demand[c * k + kk] = demand.get(c * k + kk, F(0)) + draw(st.integers(0, 3))
        out.append({r: d for r, d in demand.items() if d > 0})
    return out


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_udrf_is_fair_on_random_instances(doc: dict[str, Any]) -> None:
    problem = exact(doc)
    _, counts = allocate(problem, mix="udrf")
    assert_fair(problem, counts)
    # In floats (the planner's documents) the same, within the tolerances.
    floats = UdrfProblem.from_scenario(parse_scenario(doc))
    _, counts = allocate(floats, mix="udrf")
    assert_fair(floats, counts)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(), st.data())
def test_a_user_with_one_job_gains_nothing_by_lying(doc: dict[str, Any], data: st.DataObject) -> None:
    # With one job a user's allocation is proportional to its (reported) demand, as under DRF,
    # and the other users' mixes do not depend on it: the filling is DRF for it, and eq. 9 holds.
    problem = exact(doc)
    single = [u for u, jobs in enumerate(problem.user_jobs) if len(jobs) == 1]
    assume(single)
    user = data.draw(st.sampled_from(single))
    for _ in range(3):
        lie = misreport(data.draw, problem, user)
        verdict = strategy_proofness(problem, user, lie)
        assert verdict.holds, (lie, verdict.to_dict())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(), st.data())
def test_drf_is_strategy_proof_in_gross_demands(doc: dict[str, Any], data: st.DataObject) -> None:
    # The baseline checks the checker: DRF with Leontief users is strategy-proof (eq. 9 as is).
    problem = exact(doc)
    user = data.draw(st.integers(0, len(problem.users) - 1))
    for _ in range(3):
        lie = misreport(data.draw, problem, user)
        verdict = strategy_proofness(problem, user, lie, mix="drf")
        assert verdict.holds, (lie, verdict.to_dict())


def test_verdicts_are_json_ready(paper: UdrfProblem) -> None:
    _, counts = allocate(paper, mix="drf")
    out = pareto_efficiency(paper, counts).to_dict()
    json.dumps(out)
    assert out["witness"]["count"] == 8.0 and isinstance(out["witness"]["count"], float)
    assert isinstance(Verdict("x", True, None, 0).to_dict(), dict)


def test_the_checks_hold_on_a_tight_allocation_of_a_synthetic_trace() -> None:
    """A 100-user trace fills resources so exactly that HiGHS's presolve called the Pareto
    program infeasible; the checks run without presolve and UDRF passes them, DRF not Pareto."""
    from scheduling.udrf.offline_doc import offline_document
    from scheduling.udrf.synthetic import synthetic_scenario

    doc = offline_document(synthetic_scenario(users=100, jobs=400, classes=100, seed=0))
    holds = {p: {v["property"]: v["holds"] for v in doc["policies"][p]["properties"]["verdicts"]}
             for p in ("udrf", "drf")}
    assert all(holds["udrf"].values())
    assert not holds["drf"]["pareto_efficiency"]


@pytest.mark.parametrize("demand", [1e-9, 1e-300])
def test_demands_beyond_the_solvers_tolerances_leave_the_checks_undone_and_the_document_valid(
    demand: float,
) -> None:
    """A job a billion times smaller than its class: HiGHS drops its coefficients (the program
    looks unbounded or empty); the document says the checks were not done, and stays JSON."""
    from scheduling.scenario import load_scenario_json
    from scheduling.udrf.offline_doc import offline_document

    doc = json.loads(EXAMPLE.read_text())
    doc["frameworks"][0]["complex_jobs"][0]["tasks"][0]["demand"] = {"cpu": demand, "mem": demand}
    out = offline_document(load_scenario_json(json.dumps(doc)))
    json.dumps(out, allow_nan=False)
    for policy in ("udrf", "drf"):
        props = out["policies"][policy]["properties"]
        assert props["checked"] is False and "HiGHS answered" in props["reason"]
    assert out["policies"]["udrf"]["users"][0]["jobs"]["job1"] == pytest.approx(28 / demand)


def test_an_allocation_beyond_a_capacity_is_refused_before_any_program(paper: UdrfProblem) -> None:
    counts = [F(100)] + [F(0)] * (len(paper.jobs) - 1)
    message = "counts: the allocation uses 100 of hadoop/cpu, whose capacity is 56"
    with pytest.raises(ScenarioError, match=f"^{re.escape(message)}"):
        pareto_efficiency(paper, counts)
