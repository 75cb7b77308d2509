"""The Pareto front and the bands, against hand-worked examples."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scheduling.sweep.analysis import band, parameter_bands, pareto_front, t_quantile


def test_pareto_front_hand_worked() -> None:
    # cost, misses:  1 (4, 0)  2 (1, 6)  3 (2, 3)  4 (3, 3)  5 (2, 5)  6 (1, 6)  7 (5, 0)
    # 2 and 6 tie at the cheapest; 3 beats 4 (cheaper, same misses) and 5 (fewer misses);
    # 1 has no misses and beats 7 (cheaper).
    rows = [(4, 0), (1, 6), (2, 3), (3, 3), (2, 5), (1, 6), (5, 0)]
    records = [{"point": k + 1, "cost": c, "misses": m} for k, (c, m) in enumerate(rows)]
    assert pareto_front(records, "cost", "misses") == [2, 6, 3, 1]


def test_pareto_front_leaves_out_missing_figures() -> None:
    records = [{"point": 1, "cost": 1.0, "misses": None}, {"point": 2, "cost": 2.0, "misses": 1.0}]
    assert pareto_front(records, "cost", "misses") == [2]
    assert pareto_front([], "cost", "misses") == []


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=25))
def test_the_front_is_exactly_the_undominated_points(rows: list[tuple[int, int]]) -> None:
    records = [{"point": k + 1, "x": x, "y": y} for k, (x, y) in enumerate(rows)]
    front = set(pareto_front(records, "x", "y"))

    def dominated(a: dict, b: dict) -> bool:
        return b["x"] <= a["x"] and b["y"] <= a["y"] and (b["x"], b["y"]) != (a["x"], a["y"])

    assert front == {r["point"] for r in records if not any(dominated(r, o) for o in records)}


def test_t_quantiles_are_the_tables() -> None:
    # Two-sided 95 % critical values of Student's t (any statistics table).
    table = {1: 12.7062, 2: 4.3027, 3: 3.1824, 5: 2.5706, 10: 2.2281, 20: 2.0860, 60: 2.0003}
    for df, t in table.items():
        assert t_quantile(df) == pytest.approx(t, abs=1e-4)


def test_band_hand_worked() -> None:
    # 2, 4, 6, 8: mean 5, s = sqrt(20/3) = 2.582, s/sqrt(4) = 1.291, t(3) = 3.1824: half-width 4.108
    mean, low, high = band([2.0, 4.0, 6.0, 8.0])
    assert mean == 5.0
    assert low == pytest.approx(5 - 3.18245 * math.sqrt(20 / 3) / 2, abs=1e-4)
    assert high == pytest.approx(9.1084, abs=1e-3)
    assert band([3.0, 3.0]) == (3.0, 3.0, 3.0)


def test_parameter_bands_average_the_other_axes_per_seed() -> None:
    # Axis a in {1, 2}, axis b in {0, 10}, seeds 0 and 1; cost = a * 100 + b + seed.
    records = [{"point": 0, "scheduler": "s", "seed": seed, "settings": {"a.x": a, "b.y": b},
                "cost": a * 100 + b + seed}
               for a in (1, 2) for b in (0, 10) for seed in (0, 1)]
    lines = {line["axis"]: line for line in parameter_bands(records, {"a.x": [1, 2], "b.y": [0, 10]}, "cost")}
    a = lines["a.x"]
    # a = 1: per seed the mean over b is 105 (seed 0) and 106 (seed 1): mean 105.5,
    # s = 0.7071, t(1) = 12.706: half-width 12.706 * 0.7071 / sqrt(2) = 6.353
    assert a["mean"] == [105.5, 205.5] and a["seeds"] == [2, 2]
    assert a["low"][0] == pytest.approx(105.5 - 6.3531, abs=1e-3)
    assert lines["b.y"]["mean"] == [150.5, 160.5]


@given(st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=40))
def test_a_band_holds_its_mean(values: list[float]) -> None:
    mean, low, high = band(values)
    assert low is not None and high is not None and mean is not None
    assert low <= mean + 1e-6 * (1 + abs(mean)) and mean <= high + 1e-6 * (1 + abs(mean))
    assert min(values) - 1e-6 <= mean <= max(values) + 1e-6
