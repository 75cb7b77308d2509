"""The sharing study (run kind ``sharing``) with the library's ``share`` replaced by the
hand-made documents of ``fairness_documents.py`` (the engine lands on its own branch).

What is checked: the kind passes each configuration to ``share`` as the contract says, one
part per configuration; the run page (share timelines, running tasks, the unfairness
table), the reports, the field paths of bad configurations; the start page; and that
without the engine the kind is not offered.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.urls import reverse

from planner.runs import kinds
from planner.runs.kinds import sharing as sharing_module
from planner.runs.models import Run, RunPart
from tests.scheduling.fairness.fairness_documents import sharing_docs

pytestmark = pytest.mark.django_db

CONFIGURATIONS = [
    {"label": "refuse 5 s", "mode": "offers", "criterion": "drf", "allocation_interval_s": 1.0, "seed": 1,
     "overrides": {"a": {"refuse_s": 5, "offer_policy": "first-fit"}}},
    {"label": "refuse 1 s", "mode": "offers", "overrides": {"a": {"refuse_s": 1}}},
]


def two_frameworks() -> dict[str, Any]:
    return {
        "version": 1, "name": "two tenants", "resources": ["cpu", "mem"],
        "vm_types": [{"name": "node", "capacity": {"cpu": 8, "mem": 16}, "price_per_hour": 0, "count": 1}],
        "frameworks": [{"name": "a", "task_demand": {"cpu": 1, "mem": 1}},
                       {"name": "b", "task_demand": {"cpu": 1, "mem": 1}}],
        "jobs": [],
    }


@pytest.fixture
def share_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """``share`` answering with the hand-made documents; the kind registered for the test."""
    calls: list[dict[str, Any]] = []
    docs = sharing_docs()

    def fake_share(scenario: Any, *, progress: Any = None, **kwargs: Any) -> Any:
        calls.append({"scenario": scenario.name, **kwargs})
        if progress is not None:
            progress(1.0)
        return SimpleNamespace(to_dict=lambda: docs[kwargs["label"]] | {"label": kwargs["label"]})

    monkeypatch.setattr(sharing_module, "share", fake_share)
    was_registered = "sharing" in {k.key for k in kinds.all_kinds()}
    if not was_registered:
        kinds.register(sharing_module.SharingKind())
    yield calls
    if not was_registered:
        kinds.unregister("sharing")


@pytest.fixture
def sharing_run(share_calls: list[dict[str, Any]], api: Callable[[Any], Any], owner: Any, team: Any,
                execute_run: Callable[[int], str]) -> Run:
    response = api(owner).post("/api/runs/", {"kind": "sharing", "scenario": two_frameworks(),
                                              "configurations": CONFIGURATIONS}, format="json")
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert execute_run(run.pk) == "succeeded"
    run.refresh_from_db()
    return run


def test_each_configuration_is_one_call_of_share(sharing_run: Run, share_calls: list[dict[str, Any]]) -> None:
    parts = RunPart.objects.filter(run=sharing_run).order_by("position")
    assert list(parts.values_list("label", flat=True)) == ["refuse 5 s", "refuse 1 s"]
    assert share_calls[0] == {
        "scenario": "two tenants", "mode": "offers", "criterion": "drf", "servers": None,
        "allocation_interval_s": 1.0, "seed": 1,
        "overrides": {"a": {"refuse_s": 5.0, "offer_policy": "first-fit"}},
        "horizon_s": None, "label": "refuse 5 s",
    }
    assert share_calls[1]["overrides"] == {"a": {"refuse_s": 1.0}} and share_calls[1]["seed"] == 0


def test_the_page_shows_the_timelines_and_the_unfairness_table(
    sharing_run: Run, client: Any, owner: Any, api: Callable[[Any], Any]
) -> None:
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[sharing_run.pk])).content.decode()
    assert "Sharing study" in page and 'data-prefix="share:"' in page and 'data-figure="running"' in page
    assert "Worst unfairness" in page and "20.0% (a)" in page  # a got 80 % of its fair share
    figures = api(owner).get(f"/api/runs/{sharing_run.pk}/figures/").json()["figures"]
    assert {"share:refuse 5 s", "share:refuse 1 s", "running", "unfairness"} <= set(figures)
    shaded = [t for t in figures["share:refuse 5 s"]["data"] if t.get("fill") == "tonexty"]
    assert shaded and "3 share·s" in shaded[0]["name"]
    listing = client.get(reverse("web:runs")).content.decode()
    assert "least unfair" in listing


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "pdf"])
def test_reports_download(sharing_run: Run, api: Callable[[Any], Any], owner: Any, fmt: str) -> None:
    response = api(owner).get(f"/api/runs/{sharing_run.pk}/report/{fmt}/")
    assert response.status_code == 200 and len(response.content) > 1000
    if fmt == "csv":
        body = response.content.decode("utf-8-sig")
        assert "Configuration" in body and "Unfairness area" in body and "refuse 1 s" in body


def test_the_report_draws_every_configurations_share(sharing_run: Run) -> None:
    from planner.runs.selectors import run_results

    content = kinds.get_kind("sharing").report(
        meta={"run_name": sharing_run.name}, results=run_results(run=sharing_run),
        options=sharing_run.options, baseline=None, currency="$")
    assert list(content.figures)[:2] == ["share:refuse 5 s", "share:refuse 1 s"]
    assert "running" in content.figures
    json.dumps(content.figures, allow_nan=False)


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


def test_the_start_page_starts_configurations_side_by_side(
    share_calls: list[dict[str, Any]], client: Any, owner: Any, team: Any, execute_run: Callable[[int], str]
) -> None:
    client.force_login(owner)
    assert client.get(reverse("web:sharing-new")).status_code == 200
    data = {
        "source": "document", "document": json.dumps(two_frameworks()),
        "c0-use": "on", "c0-label": "refuse 5 s", "c0-mode": "offers", "c0-criterion": "drf",
        "c0-allocation_interval_s": "1", "c0-seed": "0", "c0-overrides": "a: refuse_s=5",
        "c1-use": "on", "c1-label": "refuse 1 s", "c1-mode": "offers", "c1-criterion": "drf",
        "c1-allocation_interval_s": "1", "c1-seed": "0", "c1-overrides": "a: refuse_s=1",
        "c1-horizon_s": "300",
        "c2-mode": "offers", "c2-criterion": "drf", "c2-allocation_interval_s": "1", "c2-seed": "0",
        "c3-mode": "offers", "c3-criterion": "drf", "c3-allocation_interval_s": "1", "c3-seed": "0",
    }
    bad = client.post(reverse("web:sharing-new"), {**data, "c1-overrides": "zz: refuse_s=1"})
    assert bad.status_code == 400
    row = bad.context["form"].rows[1]
    assert row.errors["overrides"] == ["zz: is not a framework of the scenario (a, b)"]
    response = client.post(reverse("web:sharing-new"), data)
    assert response.status_code == 302
    run = Run.objects.get()
    assert [c["label"] for c in run.options["configurations"]] == ["refuse 5 s", "refuse 1 s"]
    assert [c["horizon_s"] for c in run.options["configurations"]] == [None, 300.0]
    assert execute_run(run.pk) == "succeeded"


def test_without_the_engine_no_sharing_kind_is_offered(
    api: Callable[[Any], Any], owner: Any, team: Any, client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A library without ``scheduling.fairness.sharing``: the module registers no kind, the API
    refuses the kind, the start page is a 404 and no page links to it."""
    import importlib
    import sys

    kinds.unregister("sharing")
    monkeypatch.setitem(sys.modules, "scheduling.fairness.sharing", None)  # import fails
    try:
        importlib.reload(sharing_module)
        assert not sharing_module.available() and "sharing" not in {k.key for k in kinds.all_kinds()}
        response = api(owner).post("/api/runs/", {"kind": "sharing", "scenario": two_frameworks()},
                                   format="json")
        assert response.status_code == 400 and response.json()["errors"][0]["path"] == "kind"
        client.force_login(owner)
        assert client.get(reverse("web:sharing-new")).status_code == 404
        assert reverse("web:sharing-new") not in client.get(reverse("web:runs")).content.decode()
    finally:
        monkeypatch.undo()
        kinds.unregister("sharing")
        importlib.reload(sharing_module)  # as it was: registered when the library has the engine


def test_a_real_sharing_run_with_the_engine(
    api: Callable[[Any], Any], owner: Any, team: Any, execute_run: Callable[[int], str], client: Any
) -> None:
    """The library's own ``share`` (runs once the engine is in the library)."""
    if not sharing_module.available():
        pytest.skip("the library has no sharing engine yet (scheduling.fairness.sharing)")
    fw = {"task_demand": {"cpu": 1, "mem": 1}, "offer_policy": "first-fit", "refuse_s": 0,
          "queues": [{"tasks": 6, "duration_s": 5}]}
    scenario = {
        "version": 2, "name": "two tenants", "resources": ["cpu", "mem"],
        "vm_types": [{"name": "n", "capacity": {"cpu": 4, "mem": 4}, "price_per_hour": 0, "count": 1}],
        "frameworks": [{"name": "a", **fw}, {"name": "b", **fw}],
    }
    response = api(owner).post("/api/runs/", {"kind": "sharing", "scenario": scenario, "configurations": [
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
    fw = {"task_demand": {"cpu": 1, "mem": 1}, "offer_policy": "first-fit", "refuse_s": 0,
          "queues": [{"tasks": 8, "duration_s": 1000}]}
    scenario = {
        "version": 2, "name": "long tasks", "resources": ["cpu", "mem"],
        "vm_types": [{"name": "n", "capacity": {"cpu": 4, "mem": 4}, "price_per_hour": 0, "count": 1}],
        "frameworks": [{"name": "a", **fw}],
    }
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
