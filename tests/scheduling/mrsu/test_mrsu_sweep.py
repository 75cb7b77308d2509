"""The sweep and paper 002's orderings (docs/reproductions.md, "Paper 002"), from the default sweep."""

from __future__ import annotations

import itertools

import pytest

from scheduling.errors import ScenarioError
from scheduling.mrsu import sweep as sweep_module
from scheduling.mrsu.sweep import DEFAULT_LOADS, mrsu_sweep
from scheduling.mrsu.workload import synthetic_workload


@pytest.fixture(scope="module")
def sweep():
    # The documented sweep: 12 loads x 100 seeds (0..99), 50 applications, 30 slots; a few seconds.
    return mrsu_sweep()


def _c(sweep, comp, method, metric):
    return sweep["curves"][comp][method][metric]


def test_sweep_document_shape(sweep):
    assert sweep["loads"] == list(DEFAULT_LOADS) and len(sweep["loads"]) == 12
    assert sweep["seeds"] == 100 and sweep["methods"] == [
        "mrsu-ft",
        "mrsu-id",
        "vm-static",
        "optimal",
        "vm-scaled",
    ]
    for comp in ("gcd", "min"):
        for m in sweep["methods"]:
            assert set(sweep["curves"][comp][m]) == {"over", "over_every_cell", "under", "dissatisfied_pct",
                                                     "dissatisfied_apps_pct", "std"}
            assert len(_c(sweep, comp, m, "over")) == 12


@pytest.mark.parametrize("mode", ["mrsu-ft", "mrsu-id"])
@pytest.mark.parametrize("part", ["over", "under"])
def test_gcd_beats_min_on_both_parts(sweep, mode, part):
    gcd, mn = _c(sweep, "gcd", mode, part), _c(sweep, "min", mode, part)
    assert all(g <= m + 1e-12 for g, m in zip(gcd, mn, strict=True))
    assert sum(gcd) < sum(mn)
    # strictly better wherever either has any
    assert all(g < m for g, m in zip(gcd, mn, strict=True) if m > 0)


def test_below_capacity_id_ft_vm_in_dissatisfaction(sweep):
    loads = sweep["loads"]
    ft, idm, vm = (_c(sweep, "gcd", m, "under") for m in ("mrsu-ft", "mrsu-id", "vm-static"))
    for i, load in enumerate(loads):
        if load < 1:
            assert idm[i] <= ft[i] <= vm[i]
            if vm[i] > 0:
                assert idm[i] < ft[i] < vm[i] or idm[i] == ft[i] == 0 < vm[i]
    # where anyone is short below capacity (80 %, 90 %), the order is strict
    assert idm[7] < ft[7] < vm[7] and idm[8] < ft[8] < vm[8]


def test_vm_static_unserved_vs_mrsu(sweep):
    # Application-slots short, beside Fig. 5 (its own measure, applications: the test below).
    # Recorded, not the paper's claim in full: VM-static leaves more application-slots unserved than
    # MRSU-ID up to 110 % and than MRSU-FT up to 80 %; beyond, the weighted-fair MRSU allocation spreads
    # the shortage over more applications (docs/reproductions.md explains).
    vm = _c(sweep, "gcd", "vm-static", "dissatisfied_pct")
    ft = _c(sweep, "gcd", "mrsu-ft", "dissatisfied_pct")
    idm = _c(sweep, "gcd", "mrsu-id", "dissatisfied_pct")
    for i, load in enumerate(sweep["loads"]):
        assert vm[i] >= idm[i] if load <= 1.1 else vm[i] < idm[i]
        if load <= 0.8:
            assert vm[i] >= ft[i]
    assert vm[6] > ft[6] == idm[6] == 0  # 70 %: only VM-static leaves anyone unserved


@pytest.mark.parametrize("method", ["vm-static", "mrsu-ft"])
def test_fig_4b_over_allocation_rises_to_a_peak_then_falls(sweep, method):
    # Counted as the paper counts it (only where some application is short: issue 17), the
    # over-allocated part is 0 while nobody is short, jumps to a peak when the first are, and falls
    # more slowly as there is less to hand out; it has not disappeared at 125 %.
    over = _c(sweep, "gcd", method, "over")
    peak = over.index(max(over))
    assert 0 < peak < len(over) - 1
    assert over[0] == 0 and all(a <= b for a, b in itertools.pairwise(over[: peak + 1]))
    assert all(a > b for a, b in itertools.pairwise(over[peak:]))
    assert over[-1] > 0
    rise = over[peak] - over[peak - 1]  # one step of load (10 points)
    fall = (over[peak] - over[-1]) / (len(over) - 1 - peak)  # per step, on average
    assert rise > fall
    # the figures: VM-static peaks at 70 % (0.31), MRSU-FT at 80 % (0.20)
    assert (sweep["loads_pct"][peak], round(over[peak], 2)) == {"vm-static": (70.0, 0.31),
                                                                "mrsu-ft": (80.0, 0.20)}[method]
    # counted in every cell it falls from the start instead (the figure before issue 17)
    every = _c(sweep, "gcd", method, "over_every_cell")
    assert every[0] == max(every) > every[-1] and every[0] > 0
    assert all(o <= e + 1e-12 for o, e in zip(over, every, strict=True))


def test_mrsu_id_by_gcd_never_over_allocates(sweep):
    # Requirements are whole grains, so the GCD unit is the grain and MRSU-ID is exact.
    assert _c(sweep, "gcd", "mrsu-id", "over") == [0.0] * 12
    assert _c(sweep, "gcd", "mrsu-id", "over_every_cell") == [0.0] * 12


def test_fig_5_dissatisfied_applications(sweep):
    # Fig. 5's measure (issue 17): applications short in some slot. Recorded as it holds here:
    # VM-static (notes §6) starves whole applications, so it counts as many applications as
    # application-slots, while the weighted-fair MRSU allocation leaves many applications short
    # in a few slots each; VM-static leaves more applications dissatisfied than MRSU-FT only at
    # 70 % and than MRSU-ID up to 90 %.
    apps = {m: _c(sweep, "gcd", m, "dissatisfied_apps_pct") for m in sweep["methods"]}
    slots = {m: _c(sweep, "gcd", m, "dissatisfied_pct") for m in sweep["methods"]}
    for m in sweep["methods"]:
        assert all(a >= s - 1e-9 for a, s in zip(apps[m], slots[m], strict=True))  # an app short in a slot
    assert apps["vm-static"] == pytest.approx(slots["vm-static"])
    vm, ft, idm = apps["vm-static"], apps["mrsu-ft"], apps["mrsu-id"]
    assert vm[6] > ft[6] == idm[6] == 0  # 70 %
    assert all(v < f for v, f in zip(vm[7:], ft[7:], strict=True))  # from 80 %
    assert all(v >= i for v, i in zip(vm[:9], idm[:9], strict=True)) and vm[9] < idm[9]  # up to 90 %
    assert all(i <= f for i, f in zip(idm, ft, strict=True))  # MRSU-ID never above MRSU-FT
    # vm-scaled: every application scaled down once the peaks exceed the capacity (70 % on)
    assert apps["vm-scaled"][6:] == [100.0] * 6


def test_optimal_no_dissatisfaction_until_capacity(sweep):
    opt = _c(sweep, "gcd", "optimal", "dissatisfied_pct")
    under = _c(sweep, "gcd", "optimal", "under")
    for i, load in enumerate(sweep["loads"]):
        if load <= 0.8:
            assert opt[i] == 0 and under[i] == 0
    assert 0 < opt[8] < 5  # 90 %: a few slots whose total exceeds capacity
    assert all(o == 0 for o in _c(sweep, "gcd", "optimal", "over"))


def test_progress_is_called_and_may_stop():
    seen = []
    mrsu_sweep(loads=[0.5, 1.0], seeds=2, applications=5, slots=3, progress=seen.append)
    assert seen == [0.5, 1.0]

    class Stop(Exception):
        pass

    def stop(fraction):
        raise Stop

    with pytest.raises(Stop):
        mrsu_sweep(loads=[0.5, 1.0], seeds=2, applications=5, slots=3, progress=stop)


def test_workers_give_the_same_curves():
    kw = dict(loads=[0.6, 1.0], seeds=3, applications=8, slots=4)
    assert mrsu_sweep(**kw, workers=2)["curves"] == mrsu_sweep(**kw)["curves"]


def test_sweep_is_seeded():
    a = mrsu_sweep(loads=[0.9], seeds=3, applications=6, slots=4, seed=7)
    assert a == mrsu_sweep(loads=[0.9], seeds=3, applications=6, slots=4, seed=7)
    assert a["curves"] != mrsu_sweep(loads=[0.9], seeds=3, applications=6, slots=4, seed=8)["curves"]


def test_workload_mean_load():
    p = synthetic_workload(load=0.5, applications=50, slots=30, seed=0)
    mean_total = p.requirements.sum(axis=0).mean(axis=0) / p.capacity
    assert mean_total == pytest.approx([0.5] * 4, abs=0.01)


def test_bad_sweep_options():
    with pytest.raises(ScenarioError) as exc:
        mrsu_sweep(loads=[0.5, -1], seeds=0)
    assert [e.path for e in exc.value.errors] == ["loads[1]", "seeds"]


@pytest.mark.parametrize("comp", ["gcd", "min"])
@pytest.mark.parametrize("mode", ["ft", "id"])
@pytest.mark.parametrize("slots_valid", [None, 2])
def test_batched_sweep_allocation_equals_the_front_door(comp, mode, slots_valid):
    import numpy as np

    from scheduling.mrsu.allocate import mrsu_allocate, vm_static_allocation
    from scheduling.mrsu.sweep import batch_mrsu, vm_static_allocation_batch
    from scheduling.mrsu.workload import batch_workload

    reqs, prios = batch_workload([0.95], [3, 4, 5], applications=7, slots=5)
    cap = np.array([10_000, 40_000, 500_000, 100_000])
    batched = batch_mrsu(reqs[0], prios, cap, comp, mode, slots_valid)
    vm = vm_static_allocation_batch(reqs[0], cap, prios)
    for k, seed in enumerate([3, 4, 5]):
        p = synthetic_workload(load=0.95, applications=7, slots=5, seed=seed)
        assert (
            mrsu_allocate(p, composition=comp, mode=mode, slots_valid=slots_valid).allocated == batched[k]
        ).all()
        assert (vm_static_allocation(p.requirements, p.capacity, p.priorities) == vm[k]).all()


def test_scaled_vm_baseline_leaves_more_unserved_at_every_load(sweep):
    # The paper's Fig. 5 claim holds in full against a VM baseline that spreads its shortage
    # (vm-scaled): more application-slots short than either MRSU variant wherever anyone is short.
    vm = _c(sweep, "gcd", "vm-scaled", "dissatisfied_pct")
    for mode in ("mrsu-ft", "mrsu-id"):
        mine = _c(sweep, "gcd", mode, "dissatisfied_pct")
        assert all(v > m for v, m in zip(vm, mine, strict=True) if v > 0)
        assert all(v >= m for v, m in zip(vm, mine, strict=True))
    # and its under-allocated part crosses MRSU-FT's (Fig. 4a): above it at 80 %, below from 90 %
    ft, vmu = _c(sweep, "gcd", "mrsu-ft", "under"), _c(sweep, "gcd", "vm-scaled", "under")
    assert vmu[7] > ft[7] and all(v < f for v, f in zip(vmu[8:], ft[8:], strict=True))


def test_progress_may_stop_a_sweep_on_workers():
    class Stop(Exception):
        pass

    def stop(fraction):
        raise Stop

    with pytest.raises(Stop):
        mrsu_sweep(loads=[0.5, 0.7, 1.0], seeds=2, applications=5, slots=3, workers=2, progress=stop)


# --- Progress per chunk of seeds ------------------------------------------------------------------


def test_progress_comes_per_chunk_of_seeds_and_the_curves_do_not_depend_on_chunks(monkeypatch):
    kw = dict(loads=[0.5, 1.1], seeds=6, applications=5, slots=4, slots_valid=2)
    whole = mrsu_sweep(**kw)
    # 5 applications x 4 slots x 4 dimensions = 80 cells a seed: chunks of 2 seeds
    monkeypatch.setattr(sweep_module, "CHUNK_CELLS", 160)
    assert [len(c) for c in sweep_module.seed_chunks(range(6), 5, 4, 4)] == [2, 2, 2]
    seen: list[float] = []
    chunked = mrsu_sweep(**kw, progress=seen.append)
    assert chunked == whole  # exactly: every seed is allocated on its own
    assert seen == pytest.approx([1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6, 1.0])
    seen.clear()
    assert mrsu_sweep(**kw, workers=2, progress=seen.append)["curves"] == whole["curves"]
    assert seen == pytest.approx([k / 6 for k in range(1, 7)])


def test_stopping_in_a_load_point_allocates_no_further_chunk(monkeypatch):
    monkeypatch.setattr(sweep_module, "CHUNK_CELLS", 80)  # a seed a chunk
    computed: list[list[int]] = []
    real = sweep_module.sweep_chunk

    def counting(load, seeds, **kw):
        computed.append(list(seeds))
        return real(load, seeds, **kw)

    monkeypatch.setattr(sweep_module, "sweep_chunk", counting)

    class Stop(Exception):
        pass

    def stop_after_three(fraction):
        if len(computed) == 3:
            raise Stop

    with pytest.raises(Stop):
        mrsu_sweep(loads=[0.5, 1.0], seeds=5, applications=5, slots=4, progress=stop_after_three)
    assert computed == [[0], [1], [2]]  # stopped within the first load point


def test_the_paper_set_up_reports_ten_times_a_load_point():
    assert [len(c) for c in sweep_module.seed_chunks(range(100), 50, 30, 4)] == [10] * 10
    assert sweep_module.seed_chunks([5], 2000, 1000, 4) == [[5]]  # at least one seed a chunk


def test_combine_sweeps_joins_load_points_in_order() -> None:
    """A planner run computes one load point per part; the joined document is the whole sweep's."""
    from scheduling.mrsu.sweep import combine_sweeps

    a = mrsu_sweep(loads=[1.0], seeds=1, applications=3, slots=2)
    b = mrsu_sweep(loads=[0.5], seeds=1, applications=3, slots=2)
    both = mrsu_sweep(loads=[0.5, 1.0], seeds=1, applications=3, slots=2)
    joined = combine_sweeps([a, b])
    assert joined is not None and joined["curves"] == both["curves"] and joined["loads_pct"] == [50.0, 100.0]
    assert combine_sweeps([{"study": "mrsu"}]) is None
