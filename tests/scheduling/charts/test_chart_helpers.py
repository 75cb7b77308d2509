"""The shared chart helpers every paper's figures are made of: downsampling, windowed means, palettes."""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scheduling.charts import downsample_linear, downsample_step, window_mean_step
from scheduling.charts.palettes import GREY, LOWER_BOUND, PALETTES, UNUSED, colours

T = [0.0, 100.0, 200.0, 400.0, 600.0, 700.0]


def _nums(values: list[float | None]) -> list[float]:
    """The values, none of them a gap."""
    assert None not in values
    return [v for v in values if v is not None]


# --------------------------------------------------------------------------- downsampling


def test_downsample_short_input_is_returned_whole() -> None:
    t, ys = downsample_step([0, 1, 2], {"a": [1, 2, 3], "b": [0, None, 1]}, max_points=10)
    assert t == [0.0, 1.0, 2.0]
    assert ys == {"a": [1.0, 2.0, 3.0], "b": [0.0, None, 1.0]}


def test_downsample_step_keeps_ends_and_extremes_and_reduces_size() -> None:
    rng = np.random.default_rng(1)
    n = 50_000
    t = np.cumsum(rng.exponential(1.0, n))
    a = rng.integers(0, 100, n).astype(float)
    a[12_345], a[40_000] = 1000.0, -50.0  # one spike and one dip
    b = np.sin(np.arange(n) / 500.0)
    kt, ys = downsample_step(t.tolist(), {"a": a.tolist(), "b": b.tolist()}, max_points=2000)
    assert 100 < len(kt) <= 2000
    assert kt[0] == t[0] and kt[-1] == t[-1]
    assert ys["a"][0] == a[0] and ys["a"][-1] == a[-1]
    assert max(_nums(ys["a"])) == 1000.0 and min(_nums(ys["a"])) == -50.0
    assert max(_nums(ys["b"])) == b.max() and min(_nums(ys["b"])) == b.min()
    # Step semantics: the spike is drawn from its start to exactly where it ends.
    i = kt.index(t[12_345])
    assert ys["a"][i] == 1000.0 and kt[i + 1] == t[12_346]
    # Kept points are original points.
    index = {x: k for k, x in enumerate(t.tolist())}
    assert all(ys["a"][j] == a[index[x]] for j, x in enumerate(kt))
    assert kt == sorted(kt)


def test_downsample_linear_keeps_ends_and_extremes() -> None:
    t = list(range(10_000))
    y = [math.sin(x / 300.0) + (5.0 if x == 7777 else 0.0) for x in t]
    kt, ys = downsample_linear(t, {"y": y}, max_points=500)
    assert len(kt) <= 500 and kt[0] == 0 and kt[-1] == 9999
    assert max(_nums(ys["y"])) == max(y) and min(_nums(ys["y"])) == min(y)
    assert 7777.0 in kt


def test_downsample_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="points"):
        downsample_step([0, 1, 2], {"a": [1, 2]})
    with pytest.raises(ValueError, match="max_points"):
        downsample_step([0, 1, 2], {"a": [1, 2, 3]}, max_points=1)


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.integers(-1000, 1000), min_size=1, max_size=400),
    max_points=st.integers(10, 60),
)
def test_downsample_step_properties(values: list[int], max_points: int) -> None:
    t = list(range(len(values)))
    kt, ys = downsample_step(t, {"v": values}, max_points=max_points)
    assert len(kt) <= max(max_points, 6)
    assert kt[0] == 0 and kt[-1] == len(values) - 1
    assert min(_nums(ys["v"])) == min(values) and max(_nums(ys["v"])) == max(values)
    assert all(ys["v"][j] == values[int(x)] for j, x in enumerate(kt))


# --------------------------------------------------------------------------- windowed means


def test_window_mean_keeps_the_area() -> None:
    # cpu of the tiny result: 0.25, 0.75, 0.75, 0.5, 0.25 over 100, 100, 200, 200, 100 s: area 375 share·s.
    t, ys = window_mean_step(T, {"u": [0.25, 0.75, 0.75, 0.5, 0.25, 0.0]}, window_s=350.0)
    assert t == [0.0, 350.0, 700.0]
    # 0-350 s: 25 + 75 + 150 * 0.75 = 212.5 -> 0.6071; 350-700 s: 37.5 + 100 + 25 = 162.5 -> 0.4643.
    assert ys["u"] == pytest.approx([212.5 / 350, 162.5 / 350, 162.5 / 350])
    rng = np.random.default_rng(4)
    tt = np.sort(rng.uniform(0, 50_000, 20_000))
    y = rng.uniform(0, 1, tt.size)
    kt, ky = window_mean_step(tt, {"y": y}, 600.0)
    area = float(np.sum(y[:-1] * np.diff(tt)))
    assert float(np.sum(np.asarray(ky["y"][:-1]) * np.diff(kt))) == pytest.approx(area)
    assert len(kt) == int(np.ceil((tt[-1] - tt[0]) / 600)) + 1


# --------------------------------------------------------------------------- palettes


def test_palettes_are_colour_blind_safe_sets_that_never_share_a_colour() -> None:
    seen: dict[str, str] = {}
    for kind, palette in PALETTES.items():
        assert len(set(palette.colours)) == len(palette.colours) >= 3
        assert set(palette.fixed.values()) <= set(palette.colours)
        for c in palette.colours:
            assert c not in seen, (c, kind, seen.get(c))
            seen[c] = kind
    assert not {LOWER_BOUND, UNUSED, GREY} & set(seen)


def test_the_orange_clash_of_issue_7_is_gone() -> None:
    # edf-bfd, the framework etl, m1.xlarge and "Missed" were all orange.
    drawn = [colours("scheduler", ["edf-bfd"])["edf-bfd"], colours("framework", ["etl"])["etl"],
             colours("vm_type", ["m1.xlarge"])["m1.xlarge"], colours("outcome", ["Missed"])["Missed"]]
    assert len(set(drawn)) == 4


def test_names_keep_their_colour_across_runs() -> None:
    alone = {name: colours("framework", [name])[name] for name in ("etl", "analytics", "batch", "ml")}
    assert len(set(alone.values())) == 4  # the usual tenants do not collide
    # Met with other names, each keeps its own colour, whatever the order.
    for names in (["etl", "analytics"], ["ml", "etl", "batch"], ["analytics", "batch", "ml", "etl"]):
        assert colours("framework", names) == {n: alone[n] for n in names}
        assert colours("framework", names) == colours("framework", list(reversed(names)))
    # A name that hashes onto a colour already drawn moves, the one sorting first keeps it.
    rival = next(f"tenant-{k}" for k in range(100) if colours("framework", [f"tenant-{k}"])[f"tenant-{k}"]
                 == alone["etl"])
    both = colours("framework", ["etl", rival])
    assert both["etl"] == alone["etl"] and both[rival] != alone["etl"]
    assert colours("scheduler", ["edf-bfd", "x"])["edf-bfd"] == "#D55E00"  # fixed colours stay
    spec = "edf-bfd:rut.cpu=0.5"
    assert colours("scheduler", [spec])[spec] not in PALETTES["scheduler"].fixed.values()


def test_no_two_names_of_a_chart_share_a_colour() -> None:
    names = [f"framework-{k}" for k in range(len(PALETTES["framework"].colours))]
    assert len(set(colours("framework", names).values())) == len(names)
    specs = ["fifo-spread", "edf-bfd", *(f"edf-bfd:rut.cpu=0.{k}" for k in range(1, 4))]
    assert len(set(colours("scheduler", specs).values())) == 5


def _envelope_by_bucket(series: list[np.ndarray], bounds: list[int], *, step: bool) -> list[int]:
    """The envelope's rule bucket by bucket, as written down: first and last row, each series'
    first minimum and first maximum (NaN never is one), and for steps the row after each."""
    n = len(series[0]) if series else bounds[-1]
    keep: set[int] = set()
    for a, b in pairwise(bounds):
        if b <= a:
            continue
        keep |= {a, b - 1}
        for s in series:
            rows = range(a, b)
            low = min(rows, key=lambda i: (math.inf if math.isnan(s[i]) else s[i], i))
            high = min(rows, key=lambda i: (-(-math.inf if math.isnan(s[i]) else s[i]), i))
            for i in (low, high):
                keep.add(i)
                if step and i + 1 < n:
                    keep.add(i + 1)
    return sorted(keep)


@given(
    st.lists(st.lists(st.one_of(st.integers(0, 3).map(float), st.just(math.nan)), min_size=1, max_size=40),
             min_size=0, max_size=3),
    st.lists(st.integers(0, 40), max_size=6),
    st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_the_envelope_keeps_each_buckets_ends_and_first_extremes(
    columns: list[list[float]], cuts: list[int], step: bool
) -> None:
    from scheduling.charts.downsample import envelope_rows

    n = min((len(c) for c in columns), default=40)
    series = [np.array(c[:n]) for c in columns]  # ties and gaps (NaN) on purpose
    bounds = sorted({0, n, *(min(c, n) for c in cuts)})
    kept = envelope_rows(series, np.array(bounds), step=step).tolist()
    assert kept == _envelope_by_bucket(series, bounds, step=step)
    with pytest.raises(ValueError, match="must not decrease"):
        envelope_rows(series, np.array([n, 0]), step=step)
