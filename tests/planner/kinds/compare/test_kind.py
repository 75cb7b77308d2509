"""The comparison's kind: its run page table, settings rows, parameters and defaults."""

from __future__ import annotations

import pytest
from django.urls import reverse

from planner.core.errors import InputError
from planner.runs import services
from planner.runs.kinds import get_kind
from scheduling.cost.params import COMPARISON_PARAMS, DEFAULT_SCHEDULERS

pytestmark = pytest.mark.django_db

SUMMARY_A = {
    "total_cost": 10.0, "lower_bound_cost": 8.0, "gap_to_lower_bound": 0.25, "makespan_s": 3600.0,
    "jobs_total": 10, "deadline_jobs": 4, "deadline_met": 3, "deadline_missed": 1, "deadline_miss_pct": 25.0,
    "deadline_violation_eq12_pct": 33.3, "mean_completion_s": 120.0, "mean_wait_s": 10.0,
    "ilp_decisions": None, "ilp_fallbacks": None,
}
SUMMARY_B = {**SUMMARY_A, "total_cost": 8.5, "gap_to_lower_bound": 0.0625, "deadline_missed": 0,
             "deadline_miss_pct": 0.0, "deadline_violation_eq12_pct": 0.0, "mean_completion_s": 150.0,
             "ilp_decisions": 12, "ilp_fallbacks": 2}


def page_table(summaries, asked):
    """The run page's table of a comparison, as the page asks its kind for it."""
    kind = get_kind("compare")
    baseline = kind.baseline(list(summaries), {}, asked)
    rows = kind.table(summaries, options={}, baseline=baseline, currency="$")["rows"]
    return {row["key"]: row for row in rows}


def test_the_run_page_table_marks_the_best_and_the_baseline():
    rows = page_table({"fifo-spread": SUMMARY_A, "edf-ilp": SUMMARY_B}, "fifo-spread")
    cost = {c["variant"]: c for c in rows["total_cost"]["cells"]}
    assert cost["edf-ilp"]["best"] and not cost["fifo-spread"]["best"]
    saving = {c["variant"]: c["shown"] for c in rows["saving_pct"]["cells"]}
    assert saving == {"fifo-spread": "baseline", "edf-ilp": "+15.0%"}
    completion = {c["variant"]: c["best"] for c in rows["mean_completion_s"]["cells"]}
    assert completion == {"fifo-spread": True, "edf-ilp": False}
    fallbacks = {c["variant"]: c["shown"] for c in rows["ilp_fallbacks"]["cells"]}
    assert fallbacks == {"fifo-spread": "—", "edf-ilp": "2 / 12 decisions"}
    # Equal values: nobody is "best".
    assert not any(c["best"] for c in rows["makespan_s"]["cells"])


def test_the_run_page_table_marks_no_best_where_values_read_the_same():
    a = {**SUMMARY_A, "mean_wait_s": 0.01}
    b = {**SUMMARY_A, "mean_wait_s": 0.02}
    c = {**SUMMARY_A, "mean_wait_s": 0.03, "deadline_missed": 2, "deadline_miss_pct": 50.0}
    rows = page_table({"a": a, "b": b, "c": c}, "a")
    assert not any(cell["best"] for cell in rows["mean_wait_s"]["cells"])  # all show "0.0 s"
    misses = {cell["variant"]: cell["best"] for cell in rows["deadline_miss_pct"]["cells"]}
    assert misses == {"a": True, "b": True, "c": False}


def test_an_unknown_baseline_falls_back_to_the_runs_then_the_first():
    rows = page_table({"a": SUMMARY_A, "b": SUMMARY_B}, "gone")
    assert rows["saving_pct"]["label"] == "Saving vs a"  # the unit is in the values ("+15.0%")


# --------------------------------------------------------------------------- parameters and settings


def test_default_schedulers(team, owner, scenario_doc):
    run = services.run_start(user=owner, team=team, scenario=scenario_doc)
    assert run.options["schedulers"] == list(DEFAULT_SCHEDULERS)
    assert run.options == {"schedulers": list(DEFAULT_SCHEDULERS), "baseline": DEFAULT_SCHEDULERS[0],
                           "seed": 0, "options": None}  # the stored shape old runs have too


def test_the_per_run_cap_is_the_settings(team, owner, scenario_doc, settings):
    settings.PLANNER_MAX_VARIANTS_PER_RUN = 2
    with pytest.raises(InputError) as exc:
        services.run_start(user=owner, team=team, scenario=scenario_doc,
                           schedulers=["fifo-spread", "edf-bfd", "morpheus"])
    assert [(e.path, e.message) for e in exc.value.errors] == [("schedulers", "lists 3; the limit is 2")]


def test_the_kind_declares_the_librarys_parameters():
    kind = get_kind("compare")
    assert kind.params is COMPARISON_PARAMS
    assert [p.name for p in kind.params] == ["schedulers", "options", "baseline", "seed"]


def test_settings_rows_name_the_schedulers_the_overrides_and_the_seed():
    kind = get_kind("compare")
    options = {"schedulers": ["fifo-spread", "edf-bfd:rut.cpu=0.5,rut.mem=0.5"], "baseline": "fifo-spread",
               "seed": 7, "options": {"rut": {"cpu": 0.6, "mem": 0.4}, "edf_backfill": True}}
    assert kind.settings(options) == [
        ("Schedulers", "fifo-spread, edf-bfd:rut.cpu=0.5,rut.mem=0.5"),
        ("Options", "rut.cpu=0.6, rut.mem=0.4, edf_backfill=yes"),
        ("Seed", 7),
    ]
    # An old run's options, every key but the schedulers missing: still shown.
    assert kind.settings({"schedulers": ["edf-bfd"]}) == [
        ("Schedulers", "edf-bfd"), ("Options", "the scenario's own"), ("Seed", 0),
    ]


def test_the_api_keeps_the_comparisons_top_level_fields(api, owner, start_run):
    run = start_run(schedulers=["fifo-spread", "edf-bfd"], seed=3, options={"boot_time_s": 30})
    data = api(owner).get(f"/api/runs/{run.pk}/").json()
    assert (data["schedulers"], data["baseline"], data["seed"], data["options"]) == (
        ["fifo-spread", "edf-bfd"], "fifo-spread", 3, {"boot_time_s": 30})
    assert data["parameters"] == run.options


def test_a_finished_runs_page_offers_compare_with_and_a_clone(owner_client, succeeded_run, queued_run):
    page = owner_client.get(reverse("web:run-detail", args=[succeeded_run.pk])).content.decode()
    assert f"{reverse('web:compare-side-by-side')}?b={succeeded_run.pk}" in page
    assert f"{reverse('web:compare-start')}?clone={succeeded_run.pk}" in page
    page = owner_client.get(reverse("web:run-detail", args=[queued_run.pk])).content.decode()
    assert "Compare with" not in page
