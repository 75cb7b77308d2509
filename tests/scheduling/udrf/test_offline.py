"""Offline UDRF (paper 004 Fig. 3) in lockstep, as §III-B runs it (notes §7), and the DRF baseline.

Hand-worked instances, in fractions: the two-class case of issue 17 (both users at DRF's 2/3), a
weighted one, DRF's own example, and the case where a user ends below DRF; then invariants on
random small instances (hypothesis): capacities hold, every round saturates a user on a full
resource, nobody ends below the first round's level (DRF's lowest), one-job users get DRF's
allocation, and floats agree with fractions. The §III-B example itself is test_paper_example.py.
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from scheduling.scenario import parse_scenario
from scheduling.udrf.graph import rducs
from scheduling.udrf.model import UdrfProblem
from scheduling.udrf.offline import fill

from .test_properties import instances


def test_two_classes_both_users_reach_two_thirds_as_under_drf() -> None:
    # Classes a and b of 10 cpu (resources 0 and 1); u1 runs job1 (1 cpu on a) and job2 (2 cpu
    # on b), u2 one job of 1 cpu on a. d: job1 1/10 of a, job2 2/10 of b, u2's 1/10 of a;
    # d^max: u1 2/10, u2 1/10; dhat: job1 1/2, job2 1, u2 1. Line 10: b = 1 / max(a: 3/2, b: 1)
    # = 2/3. Line 15: u1's jobs (2/3) / (1 * 2/10) = 10/3 each, u2 (2/3) / (1/10) = 20/3. a is
    # full (10/3 + 20/3); u1 holds 2/3 of b, its level: job2 stops there, job1 on the full a.
    result = fill([F(10), F(10)], [F(1), F(1)], [(0, 1), (2,)], [{0: F(1)}, {1: F(2)}, {0: F(1)}])
    assert result.levels == [F(2, 3), F(2, 3)]
    assert result.counts == [F(10, 3), F(10, 3), F(20, 3)]
    (only,) = result.rounds
    assert (only.b, only.level) == (F(2, 3), F(2, 3))
    assert (only.saturated_resources, only.saturated_users) == ([0], [0, 1])
    assert only.iterations == {0: [[F(10, 3), F(10, 3)]], 1: [[F(20, 3)]]}


def test_a_job_whose_resources_are_free_grows_on_after_its_sibling_stops() -> None:
    # The §III-B pattern on its own: class h of 56 cpu only u1's job1 needs, class s of 16 cpu
    # shared by u1's job2 and u2. b = 1 / max(h: 2/7, s: 2) = 1/2: 8 of each, s full; u1's
    # job1 goes on alone (line 14's r_u over its unsaturated job: 2/7) to (1/2) / (2/7 * 1/16)
    # = 28, u1's share of h reaching its level 1/2.
    result = fill([F(56), F(16)], [F(1), F(1)], [(0, 1), (2,)], [{0: F(1)}, {1: F(1)}, {1: F(1)}])
    assert result.counts == [28, 8, 8]
    assert result.rounds[0].iterations[0] == [[8, 8], [28, 8]]
    # DRF stops u1's jobs together: 8 and 8.
    assert fill([F(56), F(16)], [F(1), F(1)], [(0, 1), (2,)], [{0: F(1)}, {1: F(1)}, {1: F(1)}],
                mix="drf").counts == [8, 8, 8]


def test_weights_scale_the_levels() -> None:
    # One class of 12 cpu; u1 of weight 2 and u2 of weight 1, one job of 1 cpu each. Line 10
    # with weights: b = 1 / (2 + 1) = 1/3; u1 holds 2/3 of the class (8 jobs), u2 1/3 (4), both
    # at level (share over weight) 1/3.
    result = fill([F(12)], [F(2), F(1)], [(0,), (1,)], [{0: F(1)}, {0: F(1)}])
    assert (result.levels, result.counts) == ([F(1, 3), F(1, 3)], [8, 4])


def test_drfs_own_example() -> None:
    # Ghodsi et al.'s example: 9 cpu and 18 GB, A's tasks <1 cpu, 4 GB>, B's <3 cpu, 1 GB>:
    # A runs 3 tasks and B 2, both at dominant share 2/3. With one job a user, UDRF is DRF.
    args: tuple[Any, ...] = ([F(9), F(18)], [F(1), F(1)], [(0,), (1,)],
                             [{0: F(1), 1: F(4)}, {0: F(3), 1: F(1)}])
    for mix in ("udrf", "drf"):
        result = fill(*args, mix=mix)
        assert (result.levels, result.counts) == ([F(2, 3), F(2, 3)], [3, 2])


def test_a_user_can_end_below_drf() -> None:
    # Classes s (20 cpu), p and o (10 cpu); u1 runs A (1 cpu on s) and B (1 cpu on p), u2 one
    # job of 2 cpu on s and 1 on o, u3 one job of 1 cpu on o. b = 1 / max(s: 3/2, p: 1, o: 2)
    # = 1/2: every job at 5, o full (u2, u3 saturated); u1's B stops at its level on p, A grows
    # on to u1's share 1/2 of s: 10, which fills s. Line 25 saturates u1 (s is full) with B at
    # 5 and p half idle: level 1/2. DRF keeps A and B together: at level 1/2 u1 holds 5 of s and
    # 5 of p, s is at 15 of 20 and u1 goes on alone to level 1 (A = B = 10; s and p full).
    args: tuple[Any, ...] = ([F(20), F(10), F(10)], [F(1)] * 3, [(0, 1), (2,), (3,)],
                             [{0: F(1)}, {1: F(1)}, {0: F(2), 2: F(1)}, {2: F(1)}])
    udrf, drf = fill(*args), fill(*args, mix="drf")
    assert (udrf.levels, udrf.counts) == ([F(1, 2)] * 3, [10, 5, 5, 5])
    assert (drf.levels, drf.counts) == ([1, F(1, 2), F(1, 2)], [10, 10, 5, 5])
    assert [r.saturated_users for r in udrf.rounds] == [[0, 1, 2]]
    assert [r.saturated_users for r in drf.rounds] == [[1, 2], [0]]


def test_nothing_to_fill() -> None:
    result = fill([F(10)], [F(1)], [(0,)], [{}])
    assert (result.levels, result.counts, result.rounds) == ([0], [0], [])
    with pytest.raises(ValueError, match="mix must be one of udrf, drf"):
        fill([F(10)], [F(1)], [(0,)], [{0: F(1)}], mix="tsf")


# ------------------------------------------------------------------ random instances


def exact(doc: dict[str, Any]) -> UdrfProblem:
    return UdrfProblem.from_scenario(parse_scenario(doc), exact=True)


def run(problem: UdrfProblem, mix: str) -> list[tuple[list[int], Any]]:
    return [(members, fill(problem.capacity, problem.weights, problem.user_jobs, problem.demands,
                           mix=mix, users=members))
            for members in rducs([problem.positive_demand(u) for u in range(len(problem.users))])]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_invariants_on_random_instances(doc: dict[str, Any]) -> None:
    problem = exact(doc)
    for mix in ("udrf", "drf"):
        used = [F(0)] * problem.resource_count
        for members, result in run(problem, mix):
            assert result.rounds
            for j in (j for u in members for j in problem.user_jobs[u]):
                assert result.counts[j] >= 0
                for r, d in problem.demands[j].items():
                    used[r] += d * result.counts[j]
            full = {r for r in range(problem.resource_count) if used[r] == problem.capacity[r]}
            for k, step in enumerate(result.rounds):
                # Every round saturates a user, each on a full resource it demands (line 25).
                assert step.saturated_users
                assert all(full & problem.positive_demand(u) for u in step.saturated_users)
                if k:  # b and the level only rise
                    assert step.b >= result.rounds[k - 1].b and step.level >= result.rounds[k - 1].level
            # Nobody ends below the first round's b: the lowest level DRF gives in this RDUC.
            assert min(result.levels[u] for u in members) == result.rounds[0].b
        assert all(used[r] <= problem.capacity[r] for r in range(problem.resource_count))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_one_job_a_user_is_drf(doc: dict[str, Any]) -> None:
    for user in doc["frameworks"]:
        del user["complex_jobs"][1:]
    problem = exact(doc)
    for (_, udrf), (_, drf) in zip(run(problem, "udrf"), run(problem, "drf"), strict=True):
        assert (udrf.levels, udrf.counts) == (drf.levels, drf.counts)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_floats_agree_with_fractions(doc: dict[str, Any]) -> None:
    fractions, floats = exact(doc), UdrfProblem.from_scenario(parse_scenario(doc))
    for mix in ("udrf", "drf"):
        for (_, a), (_, b) in zip(run(fractions, mix), run(floats, mix), strict=True):
            assert [float(c) for c in a.counts] == pytest.approx(b.counts, rel=1e-9, abs=1e-9)
            assert [float(v) for v in a.levels] == pytest.approx(b.levels, rel=1e-9, abs=1e-9)
            assert len(a.rounds) == len(b.rounds)
