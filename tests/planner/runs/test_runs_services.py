"""run_start validates through the library and enqueues on commit; cancel and delete rules."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404

from planner.core.errors import InputError
from planner.runs import selectors, services
from planner.runs.models import Run
from planner.runs.tasks import run_part_execute
from planner.scenarios.models import Cluster, Workload
from planner.teams.models import Team
from scheduling import ScenarioError

pytestmark = pytest.mark.django_db


def paths(exc: InputError | ScenarioError) -> dict[str, str]:
    return {e.path: e.message for e in exc.errors}


def test_run_start_stores_a_queued_snapshot(cluster: Cluster, workload: Workload, owner: Any) -> None:
    run = services.run_start(
        user=owner, cluster=cluster, workload=workload, schedulers=["edf-bfd", " fifo-spread "]
    )
    assert run.status == Run.Status.QUEUED
    assert run.team_id == cluster.team_id
    assert run.options == {
        "schedulers": ["edf-bfd", "fifo-spread"],
        "baseline": "edf-bfd",
        "seed": 0,
        "options": None,
    }
    assert run.scenario["vm_types"][0] == {
        "name": "m1.large",
        "capacity": {"cpu": 4, "mem": 16},
        "price_per_hour": 0.24,
        "count": 6,
    }
    assert run.job_count == 30
    parts = list(run.parts.order_by("position").values_list("label", "payload", "status"))
    assert parts == [
        ("edf-bfd", {"scheduler": "edf-bfd"}, "queued"),
        ("fifo-spread", {"scheduler": "fifo-spread"}, "queued"),
    ]
    assert run.context["lower_bound_cost"] > 0


def test_the_snapshot_does_not_follow_later_catalogue_edits(
    cluster: Cluster, workload: Workload, owner: Any
) -> None:
    from planner.catalogue.models import VMType
    from planner.catalogue.services import vm_type_update

    run = services.run_start(user=owner, cluster=cluster, workload=workload)
    vm_type_update(
        vm_type=VMType.objects.get(team=cluster.team, name="m1.large"), user=owner, price_per_hour=9.0
    )
    assert Run.objects.get(pk=run.pk).scenario["vm_types"][0]["price_per_hour"] == 0.24


def test_unknown_scheduler_is_reported_by_position(
    team: Team, owner: Any, scenario_doc: dict[str, Any]
) -> None:
    with pytest.raises(InputError) as exc:
        services.run_start(
            user=owner, team=team, scenario=scenario_doc, schedulers=["edf-bfd", "edf-quantum"]
        )
    errors = paths(exc.value)
    assert errors["schedulers[1]"].startswith("unknown placement 'quantum'")
    assert not Run.objects.exists()


@pytest.mark.parametrize(
    "kwargs, path",
    [
        ({"schedulers": []}, "schedulers"),
        ({"schedulers": "edf-bfd"}, "schedulers"),
        ({"schedulers": ["edf-bfd", "edf-bfd"]}, "schedulers[1]"),
        ({"schedulers": ["edf-bfd:rut.cpu=0.7"]}, "schedulers[0].rut"),
        ({"schedulers": ["edf-bfd:colour=red"]}, "schedulers[0].colour"),
        ({"baseline": "morpheus"}, "baseline"),
        ({"seed": -1}, "seed"),
        ({"seed": "7"}, "seed"),
        ({"options": {"ilp_method": "magic"}}, "options.ilp_method"),
        ({"options": {"rut": {"cpu": 0.5, "mem": 0.4}}}, "options.rut"),
        ({"options": [1]}, "options"),
        ({"kind": "teleport"}, "kind"),
        ({"name": "x" * 201}, "name"),
    ],
)
def test_run_request_errors(
    team: Team, owner: Any, scenario_doc: dict[str, Any], kwargs: dict[str, Any], path: str
) -> None:
    with pytest.raises(InputError) as exc:
        services.run_start(user=owner, team=team, scenario=scenario_doc, **kwargs)
    assert path in paths(exc.value), exc.value.errors
    assert not Run.objects.exists()


def test_scenario_and_scheduler_errors_are_reported_together(
    team: Team, owner: Any, scenario_doc: dict[str, Any]
) -> None:
    bad = copy.deepcopy(scenario_doc)
    bad["jobs"][3]["executor"]["cpu"] = -1
    with pytest.raises(InputError) as exc:
        services.run_start(user=owner, team=team, scenario=bad, schedulers=["edf-bfd", "nope-bfd"])
    assert set(paths(exc.value)) == {"jobs[3].executor.cpu", "schedulers[1]"}


def test_an_invalid_scenario_is_reported_with_document_paths(
    team: Team, owner: Any, scenario_doc: dict[str, Any]
) -> None:
    bad = copy.deepcopy(scenario_doc)
    bad["vm_types"][0]["price_per_hour"] = float("inf")
    with pytest.raises(InputError) as exc:
        services.run_start(user=owner, team=team, scenario=bad)
    assert "vm_types[0].price_per_hour" in paths(exc.value)


def test_source_must_be_one_of_scenario_or_cluster_and_workload(
    team: Team, owner: Any, cluster: Cluster, workload: Workload, scenario_doc: dict[str, Any]
) -> None:
    with pytest.raises(InputError):
        services.run_start(user=owner, team=team, scenario=scenario_doc, cluster=cluster, workload=workload)
    with pytest.raises(InputError) as exc:
        services.run_start(user=owner, cluster=cluster)
    assert "workload" in paths(exc.value)
    with pytest.raises(InputError):
        services.run_start(user=owner, team=team)


def test_outsiders_cannot_run_on_a_team(team: Team, outsider: Any, scenario_doc: dict[str, Any]) -> None:
    with pytest.raises(Http404):
        services.run_start(user=outsider, team=team, scenario=scenario_doc)


def test_the_task_is_enqueued_after_commit(
    team: Team, owner: Any, scenario_doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(run_part_execute, "apply_async", lambda **kwargs: sent.append(kwargs))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        run = services.run_start(user=owner, team=team, scenario=scenario_doc)
        assert sent == []  # nothing is sent before the rows are committed
    for callback in callbacks:
        callback()
    parts = list(run.parts.order_by("position"))
    assert len(parts) == 2
    assert sent == [{"args": [p.pk], "task_id": p.task_id, "queue": "planner", "priority": 6} for p in parts]
    assert all(p.sends == 1 and p.sent_at is not None for p in run.parts.all())


@pytest.mark.parametrize(("heavy_from", "queue"), [(1, "planner-heavy"), (10**6, "planner")])
def test_the_parts_of_heavy_runs_go_to_the_heavy_queue_when_one_is_configured(
    team: Team, owner: Any, scenario_doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any, settings: Any, heavy_from: int, queue: str,
) -> None:
    settings.PLANNER_HEAVY_QUEUE = "planner-heavy"
    settings.PLANNER_HEAVY_RUN_JOBS = heavy_from
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(run_part_execute, "apply_async", lambda **kwargs: sent.append(kwargs))
    with django_capture_on_commit_callbacks(execute=True):
        run = services.run_start(user=owner, team=team, scenario=scenario_doc)
    assert run.job_count >= 1 and len(sent) == run.parts.count() > 0
    assert {s["queue"] for s in sent} == {queue}


def test_an_unreachable_broker_keeps_the_run_queued_until_the_reaper_can_send_it(
    team: Team, owner: Any, scenario_doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    def down(**kwargs: Any) -> None:
        raise ConnectionRefusedError("[Errno 111] Connection refused")

    monkeypatch.setattr(run_part_execute, "apply_async", down)
    with django_capture_on_commit_callbacks(execute=True):
        run = services.run_start(user=owner, team=team, scenario=scenario_doc)
    run.refresh_from_db()
    assert run.status == Run.Status.QUEUED and run.error == ""
    parts = list(run.parts.all())
    assert parts and all(p.status == "queued" and p.sent_at is None for p in parts)
    assert all(p.error.startswith(services.BROKER_DOWN) and "Connection refused" in p.error for p in parts)

    # The broker answers again: the reaper's next round sends every part, and the note goes.
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(run_part_execute, "apply_async", lambda **kwargs: sent.append(kwargs))
    assert services.runs_reap()["sent"] == len(parts)
    assert sorted(m["task_id"] for m in sent) == sorted(p.task_id for p in parts)
    assert all(p.sends == 1 and p.sent_at is not None and p.error == "" for p in run.parts.all())


def test_cancel_and_delete_rules(team: Team, owner: Any, member: Any, scenario_doc: dict[str, Any]) -> None:
    owners_run = services.run_start(user=owner, team=team, scenario=scenario_doc)
    with pytest.raises(PermissionDenied):
        services.run_cancel(run=owners_run, user=member)
    with pytest.raises(PermissionDenied):
        services.run_delete(run=owners_run, user=member)
    members_run = services.run_start(user=member, team=team, scenario=scenario_doc)
    assert services.run_cancel(run=members_run, user=member).status == Run.Status.CANCELLED
    services.run_delete(run=members_run, user=owner)
    assert list(Run.objects.values_list("pk", flat=True)) == [owners_run.pk]


def test_cancelling_a_running_run_ends_it_at_once(
    team: Team, owner: Any, scenario_doc: dict[str, Any]
) -> None:
    run = services.run_start(user=owner, team=team, scenario=scenario_doc)
    Run.objects.filter(pk=run.pk).update(status=Run.Status.RUNNING)
    run.parts.filter(position=0).update(status="running")
    run = services.run_cancel(run=Run.objects.get(pk=run.pk), user=owner)
    assert (run.status, run.cancel_requested) == (Run.Status.CANCELLED, True)
    assert set(run.parts.values_list("status", flat=True)) == {"cancelled"}


def test_cancelling_a_finished_run_changes_nothing(
    team: Team, owner: Any, scenario_doc: dict[str, Any], execute_run: Any
) -> None:
    run = services.run_start(user=owner, team=team, scenario=scenario_doc)
    execute_run(run.pk)
    run = services.run_cancel(run=Run.objects.get(pk=run.pk), user=owner)
    assert (run.status, run.cancel_requested) == (Run.Status.SUCCEEDED, False)


def test_run_list_defers_the_large_fields(
    team: Team, owner: Any, scenario_doc: dict[str, Any], execute_run: Any
) -> None:
    execute_run(services.run_start(user=owner, team=team, scenario=scenario_doc).pk)
    run = selectors.run_list(user=owner).get()
    assert {"scenario", "figures"} <= run.get_deferred_fields()
    assert "result" in run.results.all()[0].get_deferred_fields()


def test_missing_figures_are_built_by_a_worker_never_in_the_request(
    team: Team, owner: Any, scenario_doc: dict[str, Any], execute_run: Any, monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A finished run without figures (its team's currency changed) asks a worker for them once
    a minute and says "preparing"; the worker's task stores them."""
    pytest.importorskip("scheduling.charts")
    from planner.runs import tasks

    run = services.run_start(user=owner, team=team, scenario=scenario_doc)
    execute_run(run.pk)
    stored = Run.objects.get(pk=run.pk).figures
    Run.objects.filter(pk=run.pk).update(figures=None)
    sent: list[int] = []
    monkeypatch.setattr(tasks.run_figures_build, "delay", sent.append)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.run_figures(run=Run.objects.get(pk=run.pk)) == (None, True)
        assert services.run_figures(run=Run.objects.get(pk=run.pk)) == (None, True)
    assert sent == [run.pk]  # the second request within a minute sent nothing
    assert Run.objects.get(pk=run.pk).figures is None  # nothing was built in the request
    assert tasks.run_figures_build(run.pk) is True
    figures, preparing = services.run_figures(run=Run.objects.get(pk=run.pk))
    assert not preparing and figures == stored and "cumulative_cost" in figures
    assert tasks.run_figures_build(run.pk) is False  # a second delivery does nothing


def test_a_run_is_marked_ended_only_with_its_figures_stored(
    team: Team, owner: Any, scenario_doc: dict[str, Any], execute_run: Any, monkeypatch: Any
) -> None:
    seen: list[str] = []
    build = services._figures_build

    def spy(run_id: int) -> Any:
        seen.append(Run.objects.get(pk=run_id).status)
        return build(run_id)

    monkeypatch.setattr(services, "_figures_build", spy)
    run = services.run_start(
        user=owner, team=team, scenario=scenario_doc, schedulers=["edf-bfd", "fifo-spread"]
    )
    execute_run(run.pk)
    run = Run.objects.get(pk=run.pk)
    assert seen == [Run.Status.RUNNING]  # built once, by the last part, before the run ended
    assert run.status == Run.Status.SUCCEEDED and run.figures and "gantt:fifo-spread" in run.figures


def test_comparison_figures_are_joined_from_pieces_built_in_the_parts(
    team: Team, owner: Any, scenario_doc: dict[str, Any], execute_run: Any, monkeypatch: Any
) -> None:
    """Each part stores its scheduler's share of the figures; the join never loads a full
    document and gives the figures the kind builds from the full documents."""
    from planner.runs.kinds import get_kind
    from planner.runs.models import RunResult

    def no_documents(**_: Any) -> Any:
        raise AssertionError("the full documents were loaded to build the figures")

    run = services.run_start(
        user=owner, team=team, scenario=scenario_doc, schedulers=["edf-bfd", "fifo-spread", "morpheus"]
    )
    with monkeypatch.context() as patched:
        patched.setattr(selectors, "run_results", no_documents)
        execute_run(run.pk)
    run = Run.objects.get(pk=run.pk)
    pieces = list(RunResult.objects.filter(run=run).order_by("position").values_list("figures", flat=True))
    assert all(piece and set(piece) == {"figures", "digest"} for piece in pieces)
    full = get_kind("compare").figures(selectors.run_results(run=run), currency=team.currency)
    assert run.figures == full
    if connection.vendor == "sqlite":  # jsonb keeps no key order: pages order by the run's variants
        assert list(run.figures) == list(full)


def test_the_cost_simulation_and_a_fairness_study_ignore_machine_class_labels(
    cluster: Cluster, workload: Workload, owner: Any, execute_run: Any
) -> None:
    """Labels are paper 004's (UDRF); the other kinds read VM types and give the same results."""
    from planner.scenarios.services import cluster_update, workload_update

    plain = services.run_start(user=owner, cluster=cluster, workload=workload, schedulers=["edf-bfd"])
    labels = ["small", "big", "big"]
    cluster_update(cluster=cluster, user=owner, entries=[
        {"vm_type": e.vm_type_id, "count": e.count, "machine_class": label}
        for e, label in zip(cluster.entries.order_by("position"), labels, strict=True)
    ])
    labelled = services.run_start(user=owner, cluster=cluster, workload=workload, schedulers=["edf-bfd"])
    assert labelled.scenario["version"] == 3
    assert [v["machine_class"] for v in labelled.scenario["vm_types"]] == labels
    assert execute_run(plain.pk) == execute_run(labelled.pk) == "succeeded"
    assert labelled.results.get().summary == plain.results.get().summary
    assert plain.results.get().summary["total_cost"] > 0

    frameworks = [{"name": "analytics", "task_demand": {"cpu": 1, "mem": 2}},
                  {"name": "etl", "weight": 2, "task_demand": {"cpu": 2, "mem": 1}}]
    workload_update(workload=workload, user=owner, frameworks=frameworks, jobs=[])
    study = services.run_start(user=owner, cluster=cluster, workload=workload, kind="allocation",
                               params={"variants": ["drf/joint"], "trials": 1, "seed": 0})
    assert execute_run(study.pk) == "succeeded"
    mean = study.results.get().result["mean"]
    assert sum(mean["analytics"].values()) > 0 and sum(mean["etl"].values()) > 0
