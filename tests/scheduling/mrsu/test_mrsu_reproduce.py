"""Paper 002's claims (scheduling/mrsu/reproduce.py): declared once, measured from the sweep and the
Fig. 2 set-up, deterministic, and their verdicts at seeds 0-4 as they stand (issue 17: Fig. 4b
rises then falls; Fig. 5 is in dissatisfied applications)."""

from __future__ import annotations

import numpy as np
import pytest

from scheduling.mrsu import reproduce as mrsu_reproduce
from scheduling.mrsu.reproduce import (
    INTRO,
    SWEEP_SEEDS,
    _peak_share,
    _rise_over_fall,
    claims,
    fig2_result,
    holds_up_to,
    sweep,
)
from scheduling.reproduce import Claim, all_claims, reproduce, reproduction_markdown
from scheduling.tables import UNITS

#: The verdicts at seeds 0-4, as measured (docs/reproductions.md is generated from them).
VERDICTS = {
    "002-fig2-both": "reproduced",
    "002-fig2-over": "reproduced",
    "002-fig2-under": "reproduced",
    "002-fig2-little-under": "reproduced",
    "002-fig2-exact": "reproduced",
    "002-fig3-ft-under": "reproduced",
    "002-fig3-ft-over": "reproduced",
    "002-fig3-id-under": "reproduced",
    "002-fig3-id-over": "reproduced",
    "002-fig3-gap": "differs",
    "002-fig4a-order": "reproduced",
    "002-fig4a-cross": "differs",
    "002-fig4a-cross-vm-scaled": "reproduced",
    "002-fig4a-optimal": "reproduced",
    "002-fig4a-bound": "differs",
    "002-fig4b-shape-vm-static": "reproduced",
    "002-fig4b-shape-mrsu-ft": "reproduced",
    "002-fig4b-shape-mrsu-id": "differs",
    "002-fig4b-rate-vm-static": "reproduced",
    "002-fig4b-rate-mrsu-ft": "reproduced",
    "002-fig4b-persists": "reproduced",
    "002-fig4b-order": "reproduced",
    "002-fig4b-optimal": "reproduced",
    "002-fig5-vm-static-ft": "differs",
    "002-fig5-vm-static-id": "direction only",
    "002-fig5-vm-scaled-ft": "reproduced",
    "002-fig5-vm-scaled-id": "reproduced",
    "002-fig5-id-ft": "reproduced",
    "002-fig5-slots-vm-static-ft": "differs",
    "002-fig5-slots-vm-static-id": "direction only",
    "002-fig5-slots-vm-scaled-ft": "reproduced",
    "002-fig5-slots-vm-scaled-id": "reproduced",
}


@pytest.fixture(scope="module")
def outcomes():
    return {o.claim.key: o for o in reproduce(claims(), seeds=5)}  # a few seconds


def test_every_claim_is_declared_once_and_complete() -> None:
    found = claims()
    assert [c.key for c in found] == list(VERDICTS)
    assert [c.key for c in all_claims(["002"])] == list(VERDICTS)  # what the reproduce command reads
    for c in found:
        assert isinstance(c, Claim) and c.paper == "002" and c.key.startswith("002-")
        assert c.where.startswith("§IV") and c.what and c.paper_value and c.setup and c.seeded
        assert c.unit in UNITS
    assert set(INTRO) == {"002"} and "dissatisfied applications" in INTRO["002"]


def test_the_verdicts_at_seeds_0_to_4(outcomes) -> None:
    assert {k: o.verdict for k, o in outcomes.items()} == VERDICTS
    for o in outcomes.values():
        assert len(o.values) == 5 and all(v is not None for v in o.values)
        if o.verdict != "reproduced":  # every difference says why
            assert len(o.claim.reason) > 40, o.claim.key


def test_the_issues_done_when(outcomes) -> None:
    # Fig. 4b rises then falls (VM-static and MRSU-FT), and falls more slowly than it rises
    for method in ("vm-static", "mrsu-ft"):
        assert outcomes[f"002-fig4b-shape-{method}"].verdict == "reproduced"
        assert outcomes[f"002-fig4b-rate-{method}"].mean > 1
    # Fig. 5 is in dissatisfied applications: its claims read that curve, application-slots beside
    s = 0
    apps = sweep(s)["curves"]["gcd"]
    vm, ft = apps["vm-static"]["dissatisfied_apps_pct"], apps["mrsu-ft"]["dissatisfied_apps_pct"]
    first_fail = next(i for i, (v, f) in enumerate(zip(vm, ft, strict=True)) if not (f < v or f == v == 0))
    assert outcomes["002-fig5-vm-static-ft"].values[s] == sweep(s)["loads_pct"][first_fail - 1]
    claim = {c.key: c for c in claims()}["002-fig5-slots-vm-static-ft"]
    vm, ft = apps["vm-static"]["dissatisfied_pct"], apps["mrsu-ft"]["dissatisfied_pct"]
    first_fail = next(i for i, (v, f) in enumerate(zip(vm, ft, strict=True)) if not (f < v or f == v == 0))
    assert claim.measure(s) == sweep(s)["loads_pct"][first_fail - 1]


def test_each_seed_is_a_sweep_of_its_own_workloads() -> None:
    docs = [sweep(s) for s in range(3)]
    assert [(d["seed"], d["seeds"]) for d in docs] == [(0, SWEEP_SEEDS), (20, SWEEP_SEEDS), (40, SWEEP_SEEDS)]
    assert sweep(1) is docs[1]  # computed once, shared by every claim
    assert docs[0]["curves"] != docs[1]["curves"]
    fig2 = fig2_result(0)
    assert len(fig2["applications"]) == 10 and fig2["slots"] == 30 and fig2["composition"] == "gcd"
    assert fig2_result(1)["misallocation"] != fig2["misallocation"]


def test_deterministic() -> None:
    again = reproduce(claims()[:6], seeds=2)
    mrsu_reproduce.sweep.cache_clear()
    mrsu_reproduce.fig2_result.cache_clear()
    assert [o.values for o in reproduce(claims()[:6], seeds=2)] == [o.values for o in again]


# --- the measures worked by hand --------------------------------------------------------------------


def test_holds_up_to() -> None:
    loads = [10.0, 20.0, 30.0, 40.0]
    assert holds_up_to([True] * 4, loads) == 40.0
    assert holds_up_to([True, True, False, True], loads) == 20.0  # the first failure ends it
    assert holds_up_to([False, True, True, True], loads) == 0.0


def test_the_shape_of_a_curve() -> None:
    assert _peak_share([0, 0, 0.3, 0.2, 0.1]) == pytest.approx(2 / 3)  # (0.3 - max(0, 0.1)) / 0.3
    assert _peak_share([0.3, 0.3, 0.2, 0.1]) == 0  # falls from the start: no peak above its first end
    assert _peak_share([0.0, 0.1, 0.2]) == 0  # only rises
    assert _peak_share([0.0, 0.0]) == 0
    # loads 10..90 and 100, 110, 125: rise from 60 % (the last 0) to 70 %, fall from 70 % to 125 %
    curve = [0, 0, 0, 0, 0, 0, 0.3, 0.25, 0.2, 0.18, 0.15, 0.11]
    assert _rise_over_fall(curve) == pytest.approx((0.3 / 10) / ((0.3 - 0.11) / 55))
    assert _rise_over_fall([0.3, 0.2, 0.1] + [0.0] * 9) is None  # the peak at an end


def test_the_every_cell_figure_would_not_rise_then_fall() -> None:
    # The shape claim tells the definitions apart: the every-cell figure (before issue 17) falls
    # from the start, so the same measure gives it no peak.
    for method in ("vm-static", "mrsu-ft"):
        every = [float(v) for v in sweep(0)["curves"]["gcd"][method]["over_every_cell"]]
        over = [float(v) for v in sweep(0)["curves"]["gcd"][method]["over"]]
        assert _peak_share(every) < 0.1 <= _peak_share(over)
        assert np.argmax(every) < np.argmax(over)


def test_the_reproduction_page_of_paper_002(outcomes) -> None:
    text = reproduction_markdown(list(outcomes.values()), seeds=5, command="python -m scheduling reproduce",
                                 intro=INTRO)
    assert "## Paper 002" in text and INTRO["002"] in text
    assert text.count("| §IV") == len(VERDICTS)
    assert outcomes["002-fig4a-cross"].claim.reason in text
    assert outcomes["002-fig4b-shape-vm-static"].ours_text() in text
