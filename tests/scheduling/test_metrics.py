"""Measures: paper 001's unfairness, the bill per hour, percentiles."""

from __future__ import annotations

import numpy as np
import pytest

from scheduling.metrics import cost_by_hour, fairness_summary, percentile, window_unfairness


def test_unfairness_of_paper_001_by_hand() -> None:
    """Paper 001 (Section II, "Quantifying Unfairness"): over the window [i, j] in which the
    frameworks compete, U_A = area under framework A's share / area under its fair share x 100;
    ALGORITHM-NOTES section 5: the unfairness is max(0, 100 - U_A) and the unfairness area is the
    area between the two curves where the share is below the fair share. The fair share is the
    framework's weight over the weights of the frameworks with pending work.

    Frameworks A (weight 2), B and C (weight 1); step functions over [0, 100] s:

    ======== ============ ============================ =========================
    interval with work    fair share A / B / C          dominant share A / B / C
    ======== ============ ============================ =========================
    0-10 s   A            1 / 0 / 0 (no contention)     0.6 / 0 / 0
    10-30 s  A, B         2/3 / 1/3 / 0                 0.5 / 0.4 / 0
    30-60 s  A, B, C      1/2 / 1/4 / 1/4               0.5 / 0.2 / 0.3
    60-100 s B, C         0 / 1/2 / 1/2                 0.1 / 0.5 / 0.25
    ======== ============ ============================ =========================

    The contention window is 10-100 s (at least two fair shares > 0): 90 s.

    - A: fair area 2/3 x 20 + 1/2 x 30 = 28.333; share area 0.5 x 20 + 0.5 x 30 + 0.1 x 40 = 29;
      U_A = 102.35 %, unfairness 0; area below the fair share (2/3 - 0.5) x 20 = 3.333.
    - B: fair area 1/3 x 20 + 1/4 x 30 + 1/2 x 40 = 34.167; share area 8 + 6 + 20 = 34;
      U_B = 99.51 %, unfairness 0.49 %; area below (0.25 - 0.2) x 30 = 1.5.
    - C: fair area 7.5 + 20 = 27.5; share area 9 + 10 = 19; U_C = 69.09 %, unfairness 30.91 %;
      area below (0.5 - 0.25) x 40 = 10.
    """
    t = np.array([0.0, 10.0, 30.0, 60.0, 100.0])
    share = np.array([[0.6, 0, 0], [0.5, 0.4, 0], [0.5, 0.2, 0.3], [0.1, 0.5, 0.25], [0, 0, 0]])
    fair = np.array([[1, 0, 0], [2 / 3, 1 / 3, 0], [0.5, 0.25, 0.25], [0, 0.5, 0.5], [0, 0, 0]])
    summary = fairness_summary(t, share, fair, ["A", "B", "C"], np.array([2.0, 1.0, 1.0]))
    assert summary["contention_s"] == pytest.approx(90.0)
    a, b, c = (summary["frameworks"][name] for name in "ABC")
    assert a["received_pct"] == pytest.approx(100 * 29 / (2 / 3 * 20 + 15))
    assert (a["unfairness_pct"], a["unfairness_area"]) == (0.0, pytest.approx(20 / 6))
    assert b["received_pct"] == pytest.approx(100 * 34 / (20 / 3 + 7.5 + 20))
    assert b["unfairness_pct"] == pytest.approx(100 - 100 * 34 / (20 / 3 + 27.5))
    assert b["unfairness_area"] == pytest.approx(1.5)
    assert c["received_pct"] == pytest.approx(100 * 19 / 27.5)
    assert c["unfairness_pct"] == pytest.approx(30.909, abs=1e-3)
    assert c["unfairness_area"] == pytest.approx(10.0)
    assert (a["weight"], b["weight"]) == (2.0, 1.0)
    assert summary["share"]["C"] == [0, 0, 0.3, 0.25, 0]
    assert summary["fair_share"]["A"] == pytest.approx([1, 2 / 3, 0.5, 0, 0])


def test_a_framework_without_fair_share_has_no_received_share() -> None:
    t = np.array([0.0, 10.0])
    summary = fairness_summary(
        t, np.zeros((2, 2)), np.array([[1.0, 0.0], [0.0, 0.0]]), ["a", "b"], np.ones(2)
    )
    assert summary["contention_s"] == 0.0
    assert summary["frameworks"]["b"]["received_pct"] is None
    assert summary["frameworks"]["b"]["unfairness_pct"] is None


def test_cost_by_hour_spreads_each_interval_and_charges_surcharges_at_turn_off() -> None:
    # VM 1: on 1,800-5,400 s, billed exactly ($1/h of it -> $0.50 in hour 0, $0.50 in hour 1).
    # VM 2: on 7,000-7,300 s at $3.60/h, billed a 600 s minimum ($0.60): the 300 s it ran cost
    # $0.30 at the billed rate, $0.20 in hour 1 (to 7,200 s) and $0.10 in hour 2; the $0.30
    # surcharge lands in hour 2, when it was turned off.
    hours = cost_by_hour(
        on_s=[1800.0, 7000.0], off_s=[5400.0, 7300.0], billed_s=[3600.0, 600.0], cost=[1.0, 0.6]
    )
    assert hours == pytest.approx([0.5, 0.7, 0.4])
    assert sum(hours) == pytest.approx(1.6)
    assert cost_by_hour([], [], [], []) == []


def test_percentile() -> None:
    assert percentile([4, 1, 3, 2], 50) == 2.5
    assert percentile([1, 2, 3, 4, 5], 95) == pytest.approx(4.8)
    assert percentile([], 99) == 0.0


def test_window_unfairness_of_paper_001_section_ii_by_hand() -> None:
    """Paper 001 §II: U_A over [i, j], from "all frameworks have started launching" (the latest
    first start) to "the first has launched all its tasks" (the earliest last start), against a
    constant fair line phi_A / sum phi over the frameworks that have tasks (notes §5).

    A (weight 2) launches from 0 s to 70 s, B (weight 1) from 20 s to 90 s, C has no tasks (an
    idle framework: it takes no part). Window [20, 70]: 50 s; fair A 2/3, B 1/3.

    ========= ============= =============
    interval  share A       share B
    ========= ============= =============
    0-20 s    0.9           0
    20-40 s   0.8           0.2
    40-70 s   0.6           0.4
    70-100 s  0.3           0.6
    ========= ============= =============

    B: area 0.2 * 20 + 0.4 * 30 = 16 against 1/3 * 50: U_B = 96 %, unfairness 4 %; below the
    line 20 s by 1/3 - 0.2, 30 s above it: area 20 * 2/15 = 8/3. A: 0.8 * 20 + 0.6 * 30 = 34
    against 2/3 * 50: U_A = 102 %, unfairness 0; below the line 30 s by 1/15: area 2.
    """
    t = np.array([0.0, 20.0, 40.0, 70.0, 100.0])
    share = np.array([[0.9, 0.0, 0.0], [0.8, 0.2, 0.0], [0.6, 0.4, 0.0], [0.3, 0.6, 0.0], [0.0, 0.0, 0.0]])
    u = window_unfairness(t, share, [0.0, 20.0, None], [70.0, 90.0, None], [10, 10, 0], ["a", "b", "c"],
                          np.array([2.0, 1.0, 1.0]))
    assert u["window"] == [20.0, 70.0] and u["contention_s"] == 50.0
    a, b, c = (u["frameworks"][k] for k in "abc")
    assert a["fair_share"] == pytest.approx(2 / 3) and b["fair_share"] == pytest.approx(1 / 3)
    assert b["received_pct"] == pytest.approx(96.0) and b["unfairness_pct"] == pytest.approx(4.0)
    assert b["unfairness_area"] == pytest.approx(8 / 3)
    assert a["received_pct"] == pytest.approx(102.0) and a["unfairness_pct"] == 0.0
    assert a["unfairness_area"] == pytest.approx(2.0)
    assert c["fair_share"] == 0.0 and c["unfairness_pct"] is None


def test_no_contention_window_is_none_never_zero() -> None:
    """A framework that launches all its tasks before the other starts: no window, every figure
    None (the document and the tables say "no contention window"); likewise when a framework
    with tasks never started one."""
    t = np.array([0.0, 10.0, 20.0])
    share = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    u = window_unfairness(t, share, [0.0, 10.0], [5.0, 15.0], [3, 3], ["a", "b"], np.ones(2))
    assert u["window"] is None and u["contention_s"] is None
    assert all(f["unfairness_pct"] is None and f["unfairness_area"] is None for f in u["frameworks"].values())
    never = window_unfairness(t, share, [0.0, None], [5.0, None], [3, 3], ["a", "b"], np.ones(2))
    assert never["window"] is None
