"""The grid, the seeded sample and the points: every one reproducible from the options."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scheduling.sweep.document import plan_points
from scheduling.sweep.expand import grid_size, point_batches, settings_grid, settings_sample, sweep_points

AXES = {"counts.a": [1, 2, 3], "prices.a": [0.5, 1.0], "load.jobs": [1.0, 2.0]}


def test_the_grid_is_every_setting_first_axis_slowest() -> None:
    grid = settings_grid(AXES)
    assert len(grid) == grid_size(AXES) == 12
    assert grid[0] == {"counts.a": 1, "prices.a": 0.5, "load.jobs": 1.0}
    assert grid[1] == {"counts.a": 1, "prices.a": 0.5, "load.jobs": 2.0}
    assert grid[-1] == {"counts.a": 3, "prices.a": 1.0, "load.jobs": 2.0}
    assert len({tuple(s.values()) for s in grid}) == 12
    assert settings_grid({}) == [{}]  # no axis: the scenario as it is


def test_a_sample_is_reproducible_with_its_seed_and_distinct() -> None:
    a = settings_sample(AXES, size=5, seed=7)
    assert a == settings_sample(AXES, size=5, seed=7)
    assert len({tuple(s.values()) for s in a}) == 5
    grid = settings_grid(AXES)
    assert [grid.index(s) for s in a] == sorted(grid.index(s) for s in a)  # in grid order
    others = [settings_sample(AXES, size=5, seed=s) for s in range(8, 14)]
    assert any(o != a for o in others)
    assert settings_sample(AXES, size=50, seed=0) == grid  # larger than the grid: all of it


def test_a_sample_of_a_huge_grid_never_builds_it() -> None:
    huge = {f"counts.t{k}": list(range(100)) for k in range(8)}  # 10^16 settings
    drawn = settings_sample(huge, size=3, seed=1)
    assert len(drawn) == 3 and drawn == settings_sample(huge, size=3, seed=1)


def test_points_cross_settings_schedulers_and_seeds() -> None:
    options = {"vary": {"counts.a": [1, 2]}, "schedulers": ["edf-bfd", "morpheus"], "seeds": 2,
               "sample": None, "seed": 0}
    points = plan_points(options)
    assert [(p.point, p.settings["counts.a"], p.scheduler, p.seed) for p in points] == [
        (1, 1, "edf-bfd", 0), (2, 1, "edf-bfd", 1), (3, 1, "morpheus", 0), (4, 1, "morpheus", 1),
        (5, 2, "edf-bfd", 0), (6, 2, "edf-bfd", 1), (7, 2, "morpheus", 0), (8, 2, "morpheus", 1),
    ]
    sampled = {**options, "vary": AXES, "sample": 3, "seed": 4}
    assert plan_points(sampled) == plan_points(dict(sampled))
    assert len(plan_points(sampled)) == 3 * 2 * 2


def test_batches_last_at_least_the_target_by_the_jobs_estimate() -> None:
    points = sweep_points([{"load.jobs": 1.0}, {"load.jobs": 4.0}], ["s"], seeds=4)
    # 100 jobs x 2.5e-4 s = 0.025 s a point at load 1, 0.1 s at load 4; target 0.2 s: the four
    # at load 1 (0.1 s) and one at load 4 reach it, then two at load 4, then the last one alone.
    batches = point_batches(points, jobs=100, target_s=0.2)
    assert [len(b) for b in batches] == [5, 2, 1]
    assert [p.point for b in batches for p in b] == list(range(1, 9))


@given(st.lists(st.floats(0.1, 10), min_size=1, max_size=30), st.integers(1, 5000))
def test_batches_keep_every_point_once_in_order(loads: list[float], jobs: int) -> None:
    points = sweep_points([{"load.jobs": f} for f in loads], ["s"], seeds=1)
    batches = point_batches(points, jobs=jobs)
    assert [p.point for b in batches for p in b] == [p.point for p in points]
    assert all(batches)
