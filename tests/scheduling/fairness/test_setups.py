"""The papers' set-ups run, and the trends the papers report hold in the model (issue 8).

The numbers next to the papers' are in ``docs/reproductions.md``; here only what must hold:
Table I within sampling error, and each experiment's direction."""

from __future__ import annotations

import pytest

from scheduling.fairness.setups import SETUPS, compare_setups, run_setup
from scheduling.scenario import parse_scenario

SEEDS = range(3)


def ours(key: str) -> float:
    value = run_setup(key, seeds=SEEDS).ours
    assert value is not None, key
    return value


@pytest.mark.parametrize("key", sorted(SETUPS))
def test_every_setup_is_a_valid_scenario_and_runs(key: str) -> None:
    setup = SETUPS[key]
    assert parse_scenario(setup.document).version == 2 or setup.study == "allocation"
    result = run_setup(key, seeds=[0])
    assert result.key == key and len(result.per_seed) == 1 and result.documents
    assert result.to_dict()["paper"] == setup.paper_value
    assert setup.figure and setup.section and setup.notes


def test_table_one_within_sampling_error() -> None:
    # 200 trials per seed: the paper's means (22.48, 22.4, 41.08) within a few standard errors.
    assert ours("000-table-1-drf") == pytest.approx(22.48, abs=1.5)
    assert ours("000-table-1-tsf") == pytest.approx(22.4, abs=1.5)
    assert ours("000-table-1-psdsf") == pytest.approx(41.08, abs=0.5)
    assert ours("000-table-1-rpsdsf") == 42.0
    assert ours("000-table-1-bf-drf") >= 41.0


def test_pi_wordcount_server_specific_criteria_finish_sooner() -> None:
    drf = ours("000-v-pi-wordcount-drf")
    assert ours("000-v-pi-wordcount-psdsf") < drf
    assert ours("000-v-pi-wordcount-rpsdsf") < drf
    assert ours("000-v-pi-wordcount-bf-drf") < drf
    assert ours("000-v-pi-wordcount-drf-oblivious") > drf  # workload characterization helps


def test_marathon_greedy_cuts_scylla_first_fit_and_bin_packing_restores_it() -> None:
    first_fit = ours("001-v-b-greedy-first-fit")
    assert first_fit > 20.0  # paper: 38 %
    assert abs(ours("001-v-b-greedy-bin-packing")) < 10.0  # near the fair share (paper: +5 %)
    assert abs(ours("001-v-b-greedy-bin-packing-refuse-5")) < 10.0  # paper: +3 %


@pytest.mark.xfail(strict=True, reason="the model gives Scylla exactly its fair share with bin packing "
                   "(0 %), not the paper's +5 % and +3 %: docs/reproductions.md")
def test_bin_packing_gives_scylla_a_little_more_than_its_fair_share() -> None:
    assert ours("001-v-b-greedy-bin-packing") > 0.0
    assert ours("001-v-b-greedy-bin-packing-refuse-5") > 0.0


@pytest.mark.xfail(strict=True, reason="in the model a 5 s filter makes the later Scylla wait for filters "
                   "to expire (11.6 % against 0.5 % at 0 s); the paper finds 5 s steadier: "
                   "docs/reproductions.md")
def test_refusing_offers_5_s_makes_two_scylla_instances_fairer() -> None:
    assert ours("001-v-a-scylla-pair-refuse-5") < ours("001-v-a-scylla-pair-refuse-0")


def test_figure_2_and_figure_8_are_one_set_up_of_the_model() -> None:
    """The paper reports 67 % (Figure 2) and 89 % (Figure 8) for Aurora against Scylla with their
    defaults: the model has one answer for both."""
    assert SETUPS["001-iii-aurora-scylla"].document == SETUPS["001-v-c-aurora-hold"].document
    assert ours("001-iii-aurora-scylla") == ours("001-v-c-aurora-hold") > 60.0


def test_aurora_holding_starves_it_bigger_tasks_help() -> None:
    hold = ours("001-v-c-aurora-hold")
    bigger = ours("001-v-c-aurora-bigger-tasks")
    assert hold > 80.0  # paper: 89 %
    assert bigger < hold  # paper: 35 %
    assert ours("001-v-c-aurora-scylla-refuse") <= bigger + 1e-9  # paper: 28 %


def test_idle_frameworks_lengthen_the_makespan_refusal_restores_it() -> None:
    five = ours("001-v-d-idle-5")
    assert five > 1.5  # paper: doubles at five
    assert ours("001-v-d-idle-0") == 1.0
    assert ours("001-v-d-idle-5-refuse-10") < min(1.2, five)


@pytest.mark.xfail(strict=True, reason="idle frameworks are a cliff in the model (1.0 up to four, 9.1 at "
                   "five), not the paper's gradual rise to about 2: docs/reproductions.md")
def test_five_idle_frameworks_about_double_the_makespan() -> None:
    assert 1.5 <= ours("001-v-d-idle-5") <= 3.0


def test_long_tasks_arriving_faster_starve_the_short_ones() -> None:
    faster = ours("001-v-e-long-faster")  # paper: 37 %
    assert faster > 20.0
    assert faster > ours("001-v-e-long-short-same-rate")  # paper: 23 %


@pytest.mark.xfail(strict=True, reason="under DRF the short-task framework frees resources sooner and is "
                   "offered them first: 0 % at equal rates and with short tasks faster, against the "
                   "paper's 23 % and 7 %: docs/reproductions.md")
def test_short_tasks_lose_some_share_even_at_equal_rates() -> None:
    same = ours("001-v-e-long-short-same-rate")  # paper: 23 %
    assert same > ours("001-v-e-short-faster") > 0.0  # paper: 7 %


def test_compare_setups_rows() -> None:
    rows = compare_setups(["000-table-1-rpsdsf"], seeds=[0])
    assert rows == [
        {
            "key": "000-table-1-rpsdsf",
            "figure": "Total tasks (mean of 200 trials)",
            "paper": 42.0,
            "ours": 42.0,
            "per_seed": [42.0],
        }
    ]
