"""The covering knapsack behind the exact placement (scheduling.cost.placement.knapsack).

Every path that solves it (a memoised search, a DP over executors covered, a MIP in HiGHS) is
checked against an exhaustive search over every count vector on random small instances.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scheduling.cost.placement import knapsack
from scheduling.cost.placement.knapsack import Cover, min_new_vm_cost
from scheduling.errors import SolverTimeout

TOL = 1e-9


def brute_force_cover(need: int, fits: list[int], prices: list[float], counts: list[int]) -> Cover | None:
    """Every count vector: the cheapest cover, then fewest VMs, then most VMs of type 0, 1, ..."""
    best: tuple[Any, ...] | None = None
    for c in itertools.product(*(range(n + 1) for n in counts)):
        if sum(ci * k for ci, k in zip(c, fits, strict=True)) < need:
            continue
        cost = sum(ci * p for ci, p in zip(c, prices, strict=True))
        key = (cost, sum(c), tuple(-ci for ci in c))
        if best is None or cost < best[0] - TOL or (cost <= best[0] + TOL and key[1:] < best[1:]):
            best = key
    if best is None:
        return None
    return Cover(best[0], best[1], tuple(-ci for ci in best[2]))


# The three ways the knapsack is solved, forced by lowering the size thresholds.
KNAPSACK_PATHS = {
    "search": {},  # plain-Python memoised search (small instances)
    "dp": {"SEARCH_CELL_LIMIT": 0},  # numpy DP over executors covered
    "highs": {"DP_CELL_LIMIT": 0},  # a MIP over VM types (very large instances)
}


@st.composite
def knapsack_cases(draw: st.DrawFn) -> tuple[int, list[tuple[int, float, int]], list[int]]:
    types = draw(
        st.lists(
            st.tuples(
                st.integers(0, 6), st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 0.7]), st.integers(0, 4)
            ),
            min_size=1,
            max_size=5,
        )
    )
    return draw(st.integers(-1, 25)), types, draw(st.permutations(range(len(types))))


@pytest.mark.parametrize("path", KNAPSACK_PATHS)
@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(case=knapsack_cases())
# Equal prices, where only the machine count separates the covers, deep in the DP.
@example(case=(14, [(2, 1.5, 1), (5, 3.0, 4), (2, 1.5, 2), (3, 2.0, 3)], [0, 1, 2, 3]))
def test_min_new_vm_cost_matches_brute_force(
    path: str, case: tuple[int, list[tuple[int, float, int]], list[int]]
) -> None:
    need, types, order = case
    fits, prices, counts = (list(x) for x in zip(*types, strict=True))
    with pytest.MonkeyPatch.context() as m:
        for name, value in KNAPSACK_PATHS[path].items():
            m.setattr(knapsack, name, value)
        got = min_new_vm_cost(need, fits, prices, counts, order=order)
    # brute force with the types listed in ``order``: the last tie-break prefers them in turn
    want = brute_force_cover(
        max(need, 0), [fits[t] for t in order], [prices[t] for t in order], [counts[t] for t in order]
    )
    if want is None:
        assert got is None
        return
    assert got is not None
    assert got.cost == pytest.approx(want.cost, abs=1e-9)
    assert got.machines == want.machines
    assert sum(c * k for c, k in zip(got.counts, fits, strict=True)) >= need
    assert all(0 <= c <= n for c, n in zip(got.counts, counts, strict=True))
    assert got.cost == pytest.approx(sum(c * p for c, p in zip(got.counts, prices, strict=True)), abs=1e-9)
    if path != "highs":  # HiGHS picks any of the cheapest-then-fewest covers
        assert tuple(got.counts[t] for t in order) == want.counts


def test_hand_worked_cover_of_table3_types() -> None:
    # Table 3 of paper 003: m1.large holds 1 executor of (4 cores, 6 GB), m1.xlarge 2, m2.xlarge 3,
    # at $0.24, $0.48, $0.72 an hour. Five executors: every cover of 5 costs at least 5 x $0.24
    # (the price per executor is $0.24 for every type), so the ties are broken by the fewest VMs:
    # one m2.xlarge (3) + one m1.xlarge (2) = 2 VMs for $1.20; nothing covers 5 with one VM.
    cover = min_new_vm_cost(5, [1, 2, 3], [0.24, 0.48, 0.72], [6, 5, 3])
    assert cover == Cover(pytest.approx(1.20), 2, (0, 1, 1))
    # With one m2.xlarge left idle, 7 executors need 1 x 3 + 2 x 2: three VMs, $1.68.
    cover = min_new_vm_cost(7, [1, 2, 3], [0.24, 0.48, 0.72], [6, 5, 1])
    assert cover == Cover(pytest.approx(1.68), 3, (0, 2, 1))


@pytest.mark.parametrize("path", KNAPSACK_PATHS)
def test_a_deadline_in_the_past_is_a_solver_timeout(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in KNAPSACK_PATHS[path].items():
        monkeypatch.setattr(knapsack, name, value)
    with pytest.raises(SolverTimeout):
        min_new_vm_cost(40, [1, 2, 3], [0.24, 0.48, 0.72], [60, 50, 30], deadline=0.0)
