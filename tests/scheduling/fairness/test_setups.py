"""The papers' set-ups run, and the trends the papers report hold in the model (issues 8 and 17).

The numbers next to the papers' are the claims' (``scheduling.fairness.reproduce``, measured by
``tests/scheduling/fairness/test_reproduce.py`` and shown in ``docs/reproductions.md``); here only
what must hold of the set-ups: Table I within sampling error, and each experiment's direction. A
direction that does not hold in the model is a strict ``xfail``, so a change that makes it hold
is noticed."""

from __future__ import annotations

import pytest

from scheduling.fairness.setups import AGENT_MEM, SETUPS, compare_setups, run_setup
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
    assert ours("000-table-1-drf") == pytest.approx(22.48, abs=1.0)
    assert ours("000-table-1-tsf") == pytest.approx(22.4, abs=1.0)
    assert ours("000-table-1-psdsf") == pytest.approx(41.08, abs=0.5)
    assert ours("000-table-1-rpsdsf") == 42.0
    assert ours("000-table-1-rpsdsf-rrr") == pytest.approx(42.0, abs=0.1)
    assert ours("000-table-1-bf-drf") == 41.0  # best fit over every server: 41 in every trial
    assert SETUPS["000-table-1-drf"].share_args["servers"] == "rrr-task"
    assert SETUPS["000-table-1-drf-rounds"].share_args["servers"] == "rrr"


def test_pi_wordcount_server_specific_criteria_finish_sooner() -> None:
    drf = ours("000-v-pi-wordcount-drf")
    assert ours("000-v-pi-wordcount-psdsf") < drf
    assert ours("000-v-pi-wordcount-rpsdsf") < drf
    assert ours("000-v-pi-wordcount-bf-drf") < drf
    assert ours("000-v-pi-wordcount-drf-oblivious") > drf  # workload characterization helps


def test_marathon_greedy_cuts_scylla_first_fit_and_bin_packing_restores_it() -> None:
    """Figure 1 (38 %), Figures 6-7: Scylla ends a little above its fair share with bin packing."""
    assert 30.0 <= ours("001-v-b-greedy-first-fit") <= 46.0
    six, seven = ours("001-v-b-greedy-bin-packing"), ours("001-v-b-greedy-bin-packing-refuse-5")
    assert 0.0 < seven <= six < 10.0


def test_refusing_offers_5_s_makes_two_scylla_instances_fairer() -> None:
    assert ours("001-v-a-scylla-pair-refuse-5") <= ours("001-v-a-scylla-pair-refuse-0")


def test_figure_2_is_its_own_set_up_with_section_ii_tasks() -> None:
    """§II gives Figures 1 and 2 tasks of 1 cpu and 1 GB; §V-C's Figure 8 has 2 GB and 100 MB of disk:
    not one configuration, though the paper reports the pair twice (67 % and 89 %)."""
    fig2 = SETUPS["001-ii-aurora-scylla"].document["frameworks"][1]["task_demand"]
    fig8 = SETUPS["001-v-c-aurora-hold"].document["frameworks"][1]["task_demand"]
    assert fig2 == {"cpu": 1, "mem": 1, "disk": 0} and fig8 == {"cpu": 1, "mem": 2, "disk": 100}
    assert ours("001-ii-aurora-scylla") > 50.0


def test_section_v_c_on_both_agent_sizes() -> None:
    """Each §V-C set-up on the paper's 16 GB agents and on the 15 GB Mesos advertises."""
    for key in ("001-v-c-aurora-hold", "001-v-c-aurora-bigger-tasks", "001-v-c-aurora-scylla-refuse"):
        mems = [SETUPS[key + ("" if mem == 16 else f"-{mem}gb")].document["vm_types"][0]["capacity"]["mem"]
                for mem in AGENT_MEM]
        assert mems == [16, 15]
    # On 15 GB agents Aurora holds what Scylla's 7 tasks leave and starves: Scylla launches all its
    # tasks first, so §II's window is empty (no figure, never 0).
    starved = run_setup("001-v-c-aurora-hold-15gb", seeds=[0])
    assert starved.ours is None
    doc = starved.documents[0]
    assert doc["completion"]["aurora"]["first_start_s"] > doc["completion"]["scylla"]["last_start_s"]
    # Bigger tasks leave nothing to hold: Aurora shares, and is far less short of its share.
    assert 0.0 < ours("001-v-c-aurora-bigger-tasks-15gb") < 35.0


@pytest.mark.xfail(strict=True, reason="on the paper's 16 GB agents Scylla's tasks leave only disk, which "
                   "Mesos does not offer: Aurora holds nothing and is not starved (docs/reproductions.md)")
def test_aurora_holding_starves_it_on_16_gb_agents() -> None:
    assert ours("001-v-c-aurora-hold") > 50.0


@pytest.mark.xfail(strict=True, reason="packing Scylla never declines an offer it can use, so raising its "
                   "refusal to 10 s changes nothing in the model (docs/reproductions.md)")
def test_scylla_refusing_10_s_helps_aurora() -> None:
    assert ours("001-v-c-aurora-scylla-refuse-15gb") < ours("001-v-c-aurora-bigger-tasks-15gb")


def test_idle_frameworks_lengthen_the_makespan_refusal_restores_it() -> None:
    five = ours("001-v-d-idle-5")
    assert 1.25 < five < 3.0  # paper: doubles at five
    assert ours("001-v-d-idle-0") == 1.0
    assert ours("001-v-d-idle-5-refuse-10") < min(1.1, five)


@pytest.mark.xfail(strict=True, reason="idle frameworks are a threshold in the model (unchanged up to four, "
                   "then a jump at five), not the paper's rise with each one (docs/reproductions.md)")
def test_each_idle_framework_lengthens_the_makespan() -> None:
    assert ours("001-v-d-idle-4") > 1.1


def test_long_and_short_tasks_in_the_papers_order() -> None:
    """§V-E: 37 % (long tasks faster) > 23 % (same rate) > 7 % (short tasks faster) > 0."""
    faster, same, short = (ours(f"001-v-e-{k}") for k in ("long-faster", "long-short-same-rate",
                                                          "short-faster"))
    assert faster > same > short > 0.0


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
