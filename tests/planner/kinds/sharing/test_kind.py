"""The sharing study (run kind ``sharing``, papers 000 §V and 001): each configuration is one
call of the library's ``share`` (replaced here by hand-made documents, and the real engine in
two tests), the run page (share timelines, running tasks, the unfairness table, the settings),
and bad configurations refused with their paths."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from planner.runs.kinds import get_kind
from planner.runs.models import Run, RunPart
from scheduling import parse_scenario
from scheduling.fairness.params import SHARING_PARAMS

from .documents import CONFIGURATIONS, queued, two_frameworks

pytestmark = pytest.mark.django_db

#: The offer cycle's rules as Mesos 1.3 and Marathon 1.4 run them: every configuration's defaults.
MESOS = {"max_tasks_per_offer": 5, "registration": "queues", "offers_count": "decision",
         "minimum_offer": "mesos", "drf_ties": "allocations"}


def test_the_kind_is_registered_by_its_app() -> None:
    kind = get_kind("sharing")
    assert kind.params == SHARING_PARAMS and kind.start_link() == "/runs/new/sharing/"
    assert kind.results_template == "kinds/sharing/results.html"
    assert kind.report_formats == ("csv", "xlsx", "pdf")
    assert "001-v-b-greedy" in [p.key for p in kind.presets()]


def test_each_configuration_is_one_call_of_share(sharing_run: Run, share_calls: list[dict[str, Any]]) -> None:
    parts = RunPart.objects.filter(run=sharing_run).order_by("position")
    assert list(parts.values_list("label", flat=True)) == ["refuse 5 s", "refuse 1 s"]
    assert share_calls[0] == {
        "scenario": "two tenants", "mode": "offers", "criterion": "drf", "servers": None,
        "allocation_interval_s": 1.0, "seed": 1,
        "overrides": {"a": {"refuse_s": 5.0, "offer_policy": "first-fit"}},
        "horizon_s": None, "label": "refuse 5 s", **MESOS,
    }
    assert share_calls[1]["overrides"] == {"a": {"refuse_s": 1.0}} and share_calls[1]["seed"] == 0
    # the stored options keep their shape (old runs display and clone), the rules added
    assert sharing_run.options == {"configurations": [
        {"mode": "offers", "criterion": "drf", "servers": None, "allocation_interval_s": 1.0, "seed": 1,
         "horizon_s": None, "overrides": {"a": {"offer_policy": "first-fit", "refuse_s": 5.0}},
         **MESOS, "label": "refuse 5 s"},
        {"mode": "offers", "criterion": "drf", "servers": None, "allocation_interval_s": 1.0, "seed": 0,
         "horizon_s": None, "overrides": {"a": {"refuse_s": 1.0}}, **MESOS, "label": "refuse 1 s"},
    ], "baseline": "refuse 5 s"}
    assert sharing_run.name == "two tenants: sharing, refuse 5 s vs refuse 1 s"


def test_a_configuration_stored_before_the_rules_runs_with_mesos_defaults(
    sharing_run: Run, share_calls: list[dict[str, Any]]
) -> None:
    """A run stored before the offer cycle's rules were options has none: executed again, share()
    gets no rule (its defaults are Mesos'); one that sets a rule passes it on."""
    kind = get_kind("sharing")
    old = {"mode": "offers", "criterion": "drf", "servers": None, "allocation_interval_s": 1.0, "seed": 0,
           "horizon_s": None, "overrides": {}, "label": "refuse 5 s"}
    share_calls.clear()
    options = {"configurations": [old, {**old, "max_tasks_per_offer": 0}]}
    scenario = parse_scenario(sharing_run.scenario)
    kind.execute(scenario, options, {}, {"configuration": 0}, progress=lambda _f: None)
    assert not set(MESOS) & set(share_calls[0])
    kind.execute(scenario, options, {}, {"configuration": 1}, progress=lambda _f: None)
    assert share_calls[1]["max_tasks_per_offer"] == 0


def test_the_page_shows_the_timelines_the_table_and_the_settings(
    sharing_run: Run, client: Any, owner: Any, api: Callable[[Any], Any]
) -> None:
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[sharing_run.pk])).content.decode()
    assert "Sharing study" in page and 'data-prefix="share:"' in page and 'data-figure="running"' in page
    assert "Worst unfairness" in page and "20.0% (a)" in page  # a got 80 % of its fair share
    assert "planner/variant_charts.js" in page
    for label, text in (
        ("refuse 5 s",
         "mode=offers, criterion=drf, interval 1.0 s, seed 1; a: offer_policy=first-fit, refuse_s=5.0"),
        ("refuse 1 s", "mode=offers, criterion=drf, interval 1.0 s, seed 0; a: refuse_s=1.0"),
    ):
        assert re.search(rf">{re.escape(label)}</\w+>\s*<\w+[^>]*>{re.escape(text)}<", page), label
    assert f"{reverse('web:sharing-start')}?clone={sharing_run.pk}" in page
    figures = api(owner).get(f"/api/runs/{sharing_run.pk}/figures/").json()["figures"]
    assert {"share:refuse 5 s", "share:refuse 1 s", "running", "unfairness"} <= set(figures)
    shaded = [t for t in figures["share:refuse 5 s"]["data"] if t.get("fill") == "tonexty"]
    assert shaded and "3 share·s" in shaded[0]["name"]
    listing = client.get(reverse("web:runs")).content.decode()
    assert "least unfair" in listing
    assert api(owner).get(f"/api/runs/{sharing_run.pk}/").json()["configurations"] == (
        sharing_run.options["configurations"])


def test_bad_configurations_are_refused_with_their_paths(
    share_calls: list[dict[str, Any]], api: Callable[[Any], Any], owner: Any, team: Any
) -> None:
    response = api(owner).post("/api/runs/", {"kind": "sharing", "scenario": two_frameworks(),
                                              "configurations": [
        {"label": "x", "mode": "lottery", "overrides": {"a": {"refuse_s": -1, "offer_policy": "grab"},
                                                        "zz": {"refuse_s": 1}}},
        {"label": "x", "allocation_interval_s": 0, "colour": "red"},
        {"label": "y", "mode": "offers", "criterion": "tsf", "servers": "joint"},
        {"label": "z", "mode": "characterized", "criterion": "bf-drf", "servers": "rrr"},
    ]}, format="json")
    assert response.status_code == 400
    paths = {e["path"] for e in response.json()["errors"]}
    assert paths == {
        "configurations[0].mode", "configurations[0].overrides.a.refuse_s",
        "configurations[0].overrides.a.offer_policy", "configurations[0].overrides.zz",
        "configurations[1].allocation_interval_s", "configurations[1].colour", "configurations[1].label",
        "configurations[2].criterion", "configurations[2].servers", "configurations[3].servers",
    }
    assert not share_calls and not Run.objects.exists()


@pytest.mark.parametrize(("params", "errors"), [
    ({"configurations": []}, [("configurations", "must not be empty")]),
    ({"configurations": [{"label": "a"}], "baseline": "b"},
     [("baseline", "must be the label of one of the run's configurations")]),
    ({"configurations": [{}, {}]},
     [("configurations[1].label", "'offers drf' names two configurations: give each its own label")]),
    ({"configurations": [{"overrides": {"zz": {}}}], "variants": ["drf"]},
     [("variants", "unknown field (a sharing study takes configurations, baseline)"),
      ("configurations[0].overrides.zz", "is not a framework of the scenario (a, b)")]),
])
def test_each_bad_parameter_is_named(
    api: Callable[[Any], Any], owner: Any, team: Any, params: dict[str, Any], errors: list[tuple[str, str]]
) -> None:
    response = api(owner).post("/api/runs/", {"kind": "sharing", "scenario": two_frameworks(), **params},
                               format="json")
    assert response.status_code == 400
    assert [(e["path"], e["message"]) for e in response.json()["errors"]] == errors


def test_the_configurations_are_capped_by_the_planners_setting(
    api: Callable[[Any], Any], owner: Any, team: Any, settings: Any
) -> None:
    settings.PLANNER_MAX_VARIANTS_PER_RUN = 1
    response = api(owner).post("/api/runs/", {"kind": "sharing", "scenario": two_frameworks(),
                                              "configurations": CONFIGURATIONS}, format="json")
    assert response.json()["errors"] == [{"path": "configurations", "message": "lists 2; the limit is 1"}]


def test_no_configuration_is_one_of_the_defaults(
    share_calls: list[dict[str, Any]], api: Callable[[Any], Any], owner: Any, team: Any
) -> None:
    response = api(owner).post("/api/runs/", {"kind": "sharing", "scenario": two_frameworks()}, format="json")
    assert response.status_code == 201, response.json()
    options = Run.objects.get().options
    assert [c["label"] for c in options["configurations"]] == ["offers drf"]
    assert options["baseline"] == "offers drf"


def test_a_real_sharing_run_with_the_engine(
    api: Callable[[Any], Any], owner: Any, team: Any, execute_run: Callable[[int], str], client: Any
) -> None:
    """The library's own ``share``."""
    response = api(owner).post("/api/runs/", {"kind": "sharing", "scenario": queued(), "configurations": [
        {"label": "refuse 0 s"}, {"label": "a refuses 5 s", "overrides": {"a": {"refuse_s": 5}}},
    ]}, format="json")
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    errors = RunPart.objects.filter(run=run).values_list("error", flat=True)
    assert execute_run(run.pk) == "succeeded", list(errors)
    figures = api(owner).get(f"/api/runs/{run.pk}/figures/").json()["figures"]
    assert {"share:refuse 0 s", "share:a refuses 5 s", "running", "unfairness"} <= set(figures)
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert "Worst unfairness" in page
    for fmt in ("csv", "xlsx", "pdf"):
        assert len(api(owner).get(f"/api/runs/{run.pk}/report/{fmt}/").content) > 1000


def test_a_configuration_stopped_at_the_step_limit_is_said_on_the_page(
    api: Callable[[Any], Any], owner: Any, team: Any, execute_run: Callable[[int], str], client: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scheduling.fairness import sharing_run as library

    monkeypatch.setattr(library, "MAX_STEPS", 20)
    scenario = queued(tasks=8, duration_s=1000, name="long tasks")
    scenario["frameworks"] = scenario["frameworks"][:1]
    response = api(owner).post("/api/runs/", {"kind": "sharing", "scenario": scenario, "configurations": [
        {"label": "every second"}, {"label": "with a horizon", "horizon_s": 10},
    ]}, format="json")
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert execute_run(run.pk) == "succeeded"
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert 'id="sharing-stopped"' in page
    assert "<strong>every second</strong>: stopped after 20 steps" in page
    assert "with a horizon</strong>" not in page


def test_a_scenario_with_nothing_to_share_is_refused_at_submission(
    api: Callable[[Any], Any], owner: Any, team: Any
) -> None:
    """Found by the fault tests: the run used to be accepted and fail in its parts."""
    nothing = {**two_frameworks(), "jobs": []}
    response = api(owner).post("/api/runs/", {"kind": "sharing", "scenario": nothing}, format="json")
    assert response.status_code == 400, response.json()
    assert {e["path"] for e in response.json()["errors"]} == {"frameworks"}
    assert not Run.objects.exists()
