"""MRSU (paper 002): hand-worked composition, units, allocations and metrics; invariants with hypothesis."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scheduling.errors import ScenarioError
from scheduling.mrsu.allocate import (
    mrsu_allocate,
    optimal_allocation,
    vm_static_allocation,
    weighted_fair,
    windows,
)
from scheduling.mrsu.compose import mrsu_gcd, mrsu_min, units_available, units_needed
from scheduling.mrsu.document import mrsu_result
from scheduling.mrsu.metrics import misallocation, misallocation_summary
from scheduling.mrsu.model import parse_mrsu_input


def test_library_does_not_import_django():
    import subprocess

    code = (
        "import scheduling.mrsu.sweep, scheduling.mrsu.advisor, scheduling.mrsu.cli, sys; "
        "print('django' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --- Composition (eqs. 6, 7) and units available (eqs. 8, 9), worked by hand -------------------


def test_gcd_composition_includes_capacity():
    # cpu: gcd(4, 6, 10, 24) = 2; mem: gcd(6, 9, 3, 36) = 3; net: gcd(8, 12, 20, 30) = 2 (30 breaks the 4)
    req = np.array([[4, 6, 8], [6, 9, 12], [10, 3, 20]])
    assert mrsu_gcd(req, np.array([24, 36, 30])).tolist() == [2, 3, 2]


def test_min_composition_ignores_capacity_and_zeros():
    req = np.array([[4, 6, 0], [6, 9, 0], [10, 3, 0]])
    assert mrsu_min(req, np.array([24, 36, 30])).tolist() == [4, 3, 30]


def test_units_available_ft_and_id():
    cap = np.array([24, 36, 30])
    # GCD unit (2, 3, 2): 12, 12, 15 per dimension; a full tuple is limited by the fewest: 12
    assert units_available(np.array([2, 3, 2]), cap, "id").tolist() == [12, 12, 15]
    assert int(units_available(np.array([2, 3, 2]), cap, "ft")) == 12
    # MIN unit (4, 3, 7): 6, 12, 4 (30 // 7, the rest of the capacity is stranded)
    assert units_available(np.array([4, 3, 7]), cap, "id").tolist() == [6, 12, 4]
    assert int(units_available(np.array([4, 3, 7]), cap, "ft")) == 4


def test_units_needed_round_up():
    assert units_needed(np.array([10, 3, 20]), np.array([4, 3, 7]), "id").tolist() == [3, 1, 3]
    assert int(units_needed(np.array([10, 3, 20]), np.array([4, 3, 7]), "ft")) == 3


# --- Weighted-fair allocation (Part II), worked by hand -----------------------------------------


def test_weighted_fair_hand_worked():
    # 10 units, priorities 1:1:2, needs 1, 6, 8 -> round 1: 2, 2, 5, the first gives 1 back;
    # round 2 over (1/3, 2/3) of 2 left: 0, 1; round 3 hands nothing out -> heaviest gets the last.
    assert weighted_fair(np.array([1, 6, 8]), np.array([1.0, 1.0, 2.0]), np.array(10)).tolist() == [1, 2, 7]


def test_weighted_fair_everyone_satisfied_when_units_suffice():
    assert weighted_fair(np.array([3, 4, 0]), np.array([1.0, 5.0, 2.0]), np.array(100)).tolist() == [3, 4, 0]


def test_weighted_fair_equal_priorities_split_evenly():
    assert weighted_fair(np.array([9, 9, 9]), np.array([1.0, 1.0, 1.0]), np.array(9)).tolist() == [3, 3, 3]


def test_weighted_fair_batched_equals_one_at_a_time():
    rng = np.random.default_rng(3)
    need = rng.integers(0, 20, (40, 7))
    w = rng.uniform(0.1, 1, 7)
    x = rng.integers(0, 80, 40)
    batched = weighted_fair(need, w, x)
    for b in range(40):
        assert batched[b].tolist() == weighted_fair(need[b], w, x[b]).tolist()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 50), st.floats(0.01, 10)), min_size=1, max_size=12),
    st.integers(0, 300),
)
def test_weighted_fair_invariants(apps, units):
    need = np.array([a[0] for a in apps])
    w = np.array([a[1] for a in apps])
    got = weighted_fair(need, w, np.array(units))
    assert (got >= 0).all() and (got <= need).all()
    # work-conserving: either everyone is satisfied or every unit is handed out
    assert got.sum() == min(units, need.sum())


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 6),
    st.integers(1, 5),
    st.integers(1, 3),
    st.sampled_from(["gcd", "min"]),
    st.sampled_from(["ft", "id"]),
    st.integers(0, 10_000),
    st.integers(1, 5),
)
def test_mrsu_allocation_never_exceeds_capacity(n, s, d, comp, mode, seed, t):
    rng = np.random.default_rng(seed)
    cap = rng.integers(10, 60, d)
    doc = {
        "capacity": {f"r{k}": int(c) for k, c in enumerate(cap)},
        "applications": [
            {
                "name": f"a{i}",
                "priority": float(rng.uniform(0.1, 1)),
                "requirements": [
                    {f"r{k}": int(v) for k, v in enumerate(rng.integers(0, 30, d))} for _ in range(s)
                ],
            }
            for i in range(n)
        ],
    }
    p = parse_mrsu_input(doc)
    r = mrsu_allocate(p, composition=comp, mode=mode, slots_valid=t)
    assert (r.allocated.sum(axis=0) <= cap).all()
    assert (r.allocated >= 0).all()
    assert (r.unit > 0).all()


# --- A whole allocation worked by hand ------------------------------------------------------------

HAND = {
    "capacity": {"cpu": 12, "mem": 24},
    "applications": [
        {"name": "a", "priority": 2, "requirements": [{"cpu": 6, "mem": 4}, {"cpu": 2, "mem": 4}]},
        {"name": "b", "priority": 1, "requirements": [{"cpu": 4, "mem": 12}, {"cpu": 4, "mem": 8}]},
    ],
}


def test_hand_worked_ft_gcd():
    # GCD: cpu gcd(6, 2, 4, 4, 12) = 2; mem gcd(4, 4, 12, 8, 24) = 4 -> unit (2, 4); X = min(6, 6) = 6.
    # Slot 0: a needs max(3, 1) = 3, b needs max(2, 3) = 3 -> 6 units, exactly X: 3 and 3.
    # Slot 1: a needs max(1, 1) = 1, b needs max(2, 2) = 2.
    r = mrsu_allocate(parse_mrsu_input(HAND), composition="gcd", mode="ft")
    assert r.unit.tolist() == [[2, 4]] and r.available.tolist() == [6]
    assert r.units.tolist() == [[3, 1], [3, 2]]
    assert r.allocated[:, 0].tolist() == [[6, 12], [6, 12]]
    doc = mrsu_result(parse_mrsu_input(HAND), composition="gcd", mode="ft")
    # rho: a0 (0, 8/12), a1 (0, 0), b0 (2/6, 0), b1 (0, 0): every cell (2/3 + 1/3) / 8. Nobody is
    # short, so as the paper counts over-allocation (only while someone suffers) none counts.
    assert doc["misallocation"]["over_every_cell"] == pytest.approx(1 / 8)
    assert doc["misallocation"]["over"] == 0
    assert doc["misallocation"]["under"] == 0 and doc["dissatisfied_pct"] == 0


def test_hand_worked_ft_short_capacity():
    doc = dict(HAND, capacity={"cpu": 10, "mem": 24})
    # GCD unit: cpu gcd(..., 10) = 2, mem 4 -> X = min(5, 6) = 5. Slot 0 needs 3 + 3 = 6 > 5:
    # round 1 gives floor(2/3 * 5) = 3 to a and floor(1/3 * 5) = 1 to b; 1 left goes to b -> 3, 2.
    r = mrsu_allocate(parse_mrsu_input(doc), composition="gcd", mode="ft")
    assert r.available.tolist() == [5]
    assert r.units[:, 0].tolist() == [3, 2]
    res = mrsu_result(parse_mrsu_input(doc), composition="gcd", mode="ft")
    assert res["allocation"] == {"a": [3, 1], "b": [2, 2]}
    assert res["dissatisfied_pct"] == 25.0  # b in slot 0 (8 GB of 12)
    assert res["dissatisfied_apps_pct"] == 50.0  # b, of a and b
    # Slot 0: a holds (6, 12) for (6, 4), b (4, 8) for (4, 12). b is short of mem, nobody of cpu:
    # a's 8 GB surplus (rho 8/12) counts; slot 1 is exact. Over (2/3) / 8; under b's 1/3 over 8 cells.
    m = res["misallocation"]
    assert m["over"] == m["over_every_cell"] == pytest.approx(1 / 12)
    assert m["under"] == pytest.approx(1 / 24)
    assert m["by_dimension"]["mem"]["over"] == pytest.approx(1 / 6) and m["by_dimension"]["cpu"]["over"] == 0
    assert m["over_allocated"] == {"cpu": 0, "mem": 4}  # 8 GB in one of two slots


def test_hand_worked_id():
    # ID: units per dimension: cpu 6 units of 2, mem 6 units of 4. Slot 0 cpu needs 3 + 2, mem 1 + 3.
    r = mrsu_allocate(parse_mrsu_input(HAND), composition="gcd", mode="id")
    assert r.available.tolist() == [[6, 6]]
    assert r.units[:, 0].tolist() == [[3, 1], [2, 3]]
    assert (r.allocated == parse_mrsu_input(HAND).requirements).all()  # exact fit: rho = 0 everywhere


def test_validity_windows_recompute_the_unit():
    doc = {
        "capacity": {"cpu": 12},
        "applications": [
            {"name": "a", "priority": 1, "requirements": [{"cpu": 4}, {"cpu": 8}, {"cpu": 3}, {"cpu": 6}]}
        ],
    }
    r = mrsu_allocate(parse_mrsu_input(doc), composition="gcd", mode="ft", slots_valid=2)
    assert r.windows == ((0, 2), (2, 4))
    assert r.unit.tolist() == [[4], [3]]
    assert windows(5, 2) == [(0, 2), (2, 4), (4, 5)]


# --- Baselines and metrics -----------------------------------------------------------------------


def test_vm_static_peak_in_priority_order():
    req = np.array([[[2, 1], [4, 1]], [[3, 3], [1, 1]], [[1, 1], [1, 1]]])
    got = vm_static_allocation(req, np.array([6, 6]), np.array([3.0, 2.0, 1.0]))
    assert got[:, 0].tolist() == [[4, 1], [0, 0], [1, 1]]
    assert (got[:, 0] == got[:, 1]).all()  # static over the horizon


def test_optimal_scales_in_proportion():
    got = optimal_allocation(np.array([[[6, 1]], [[2, 1]]]), np.array([4, 4]))
    assert got[:, 0].tolist() == [[3.0, 1.0], [1.0, 1.0]]


def test_misallocation_coefficient():
    assert misallocation(np.array([4, 1, 0, 0, 5]), np.array([2, 2, 0, 3, 5])).tolist() == [
        0.5,
        -0.5,
        0,
        -1,
        0,
    ]
    s = misallocation_summary(np.array([[[4, 2]], [[1, 0]]]), np.array([[[2, 2]], [[2, 0]]]))
    assert s == {"over": 0.125, "over_every_cell": 0.125, "under": 0.125, "dissatisfied_pct": 50.0,
                 "dissatisfied_apps_pct": 50.0}


# --- Input errors ---------------------------------------------------------------------------------


def test_input_errors_have_paths():
    with pytest.raises(ScenarioError) as exc:
        parse_mrsu_input(
            {
                "capacity": {"cpu": 4, "mem": 2.5},
                "extra": 1,
                "applications": [
                    {"name": "a", "priority": 0, "requirements": [{"cpu": 1}]},
                    {"name": "a", "requirements": [{"cpu": -1}, {"cpu": 1}]},
                    "x",
                ],
            }
        )
    paths = [e.path for e in exc.value.errors]
    assert paths == [
        "extra",
        "capacity.mem",
        "applications[0].priority",
        "applications[1].name",
        "applications[1].requirements",
        "applications[1].requirements[0].cpu",
        "applications[2]",
    ]
