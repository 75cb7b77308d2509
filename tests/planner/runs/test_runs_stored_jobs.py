"""Runs on big stored workloads keep their jobs apart, as their own chunks (issue 19).

The request that starts such a run never builds the scenario document: it copies the
workload's chunks (one statement), checks them with the cluster column by column and stores
the rest of the document. These tests lower the line (``PLANNER_RUN_INLINE_JOBS_MAX``) so that
the tiny workload of the fixtures takes that path, and compare with the same scenario started
as an inline document. Run them on PostgreSQL too (``PLANNER_TEST_DATABASE=postgres``): the
copy is SQL of its own.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from planner.runs import apis as run_apis
from planner.runs import services
from planner.runs.models import Run, RunJobChunk, RunPart, RunResult
from planner.runs.selectors import run_scenario_document
from planner.scenarios.jobstore import jobs_encode
from planner.scenarios.models import Cluster, JobChunk, Workload
from planner.scenarios.services import cluster_create, scenario_document, workload_create, workload_update
from planner.teams.models import Team
from scheduling import ScenarioError

pytestmark = pytest.mark.django_db

SCHEDULERS = ["fifo-spread", "edf-bfd"]


@pytest.fixture(autouse=True)
def jobs_apart(settings: Any) -> None:
    settings.PLANNER_RUN_INLINE_JOBS_MAX = 0


def never_whole(run: Run) -> Any:
    """``run_scenario_document`` in a request: never for a run that keeps its jobs apart."""
    if run.jobs_stored:
        raise AssertionError(f"run {run.pk}'s jobs were read into one document in a request")
    return dict(run.scenario)


def errors_of(response: Any) -> dict[str, str]:
    return {e["path"]: e["message"] for e in response.json()["errors"]}


def results_of(run: Run) -> dict[str, Any]:
    """Each variant's result document, without what is measured on the clock (the scheduler's
    own decision times), which no two executions share."""
    rows = RunResult.objects.filter(run=run).order_by("position").values_list("variant", "result")
    return {variant: {k: v for k, v in result.items() if k != "scheduling_delay"} for variant, result in rows}


def test_a_run_on_a_stored_workload_starts_without_building_its_document(
    owner: Any, cluster: Cluster, workload: Workload, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = scenario_document(cluster, workload)

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the whole scenario document was built in the request")

    monkeypatch.setattr(services, "scenario_document_and_parsed", never)
    monkeypatch.setattr(Workload, "jobs", property(never))  # every job as one list
    run = services.run_start(user=owner, cluster=cluster, workload=workload, schedulers=SCHEDULERS)

    run = Run.objects.get(pk=run.pk)
    assert run.jobs_stored and run.job_count == workload.job_count == 30
    assert run.scenario["jobs"] == [] and "jobs" in run.scenario
    assert run.context == {}  # prepared by the parts, which hold the jobs
    copied = RunJobChunk.objects.filter(run=run)
    assert copied.count() == JobChunk.objects.filter(workload=workload).count() >= 1
    assert run.parts.count() == len(SCHEDULERS)
    monkeypatch.undo()
    assert run_scenario_document(run) == expected  # the same document


def test_the_results_are_those_of_the_same_scenario_given_inline(
    owner: Any, team: Team, cluster: Cluster, workload: Workload, execute_run: Any
) -> None:
    doc = scenario_document(cluster, workload)
    stored = services.run_start(user=owner, cluster=cluster, workload=workload, schedulers=SCHEDULERS, seed=3)
    inline = services.run_start(user=owner, team=team, scenario=doc, schedulers=SCHEDULERS, seed=3)
    assert stored.jobs_stored and not inline.jobs_stored
    assert execute_run(stored.pk) == execute_run(inline.pk) == "succeeded"
    assert results_of(stored) == results_of(inline)
    assert list(results_of(stored)) == SCHEDULERS
    summaries = [
        dict(RunResult.objects.filter(run=r).values_list("variant", "summary")) for r in (stored, inline)
    ]
    assert summaries[0].keys() == summaries[1].keys()
    # The context (the lower bound) the parts computed is the one the inline run stored.
    assert results_of(stored)["edf-bfd"]["lower_bound_cost"] == inline.context["lower_bound_cost"]


def test_a_process_reads_the_chunks_and_prepares_the_run_once_for_its_parts(
    owner: Any, cluster: Cluster, workload: Workload, execute_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from planner.runs import execution
    from planner.runs.kinds import get_kind

    reads: list[int] = []
    prepared: list[int] = []
    read, prepare = execution.run_scenario_document, type(get_kind("compare")).prepare
    monkeypatch.setattr(execution, "run_scenario_document", lambda run: reads.append(run.pk) or read(run))
    monkeypatch.setattr(type(get_kind("compare")), "prepare",
                        lambda self, *a, **k: prepared.append(1) or prepare(self, *a, **k))
    run = services.run_start(user=owner, cluster=cluster, workload=workload, schedulers=SCHEDULERS, seed=3)
    assert execute_run(run.pk) == "succeeded"
    assert reads == [run.pk] and prepared == [1]  # two parts, one process
    bounds = {r["lower_bound_cost"] for r in results_of(run).values()}
    assert len(bounds) == 1 and None not in bounds


def test_an_edit_of_the_workload_after_the_start_does_not_change_the_run(
    owner: Any, team: Team, cluster: Cluster, workload: Workload, execute_run: Any
) -> None:
    doc = scenario_document(cluster, workload)
    run = services.run_start(user=owner, cluster=cluster, workload=workload, schedulers=SCHEDULERS)
    workload_update(workload=workload, user=owner, jobs=workload.jobs[:5])
    workload.refresh_from_db()
    assert workload.job_count == 5

    run = Run.objects.get(pk=run.pk)
    assert run.job_count == 30 and run_scenario_document(run) == doc
    assert execute_run(run.pk) == "succeeded"
    inline = services.run_start(user=owner, team=team, scenario=doc, schedulers=SCHEDULERS)
    execute_run(inline.pk)
    assert results_of(run) == results_of(inline)
    # Deleting the workload keeps the run's copy; deleting the run removes it.
    workload.delete()
    assert run_scenario_document(Run.objects.get(pk=run.pk)) == doc
    Run.objects.get(pk=run.pk).delete()
    assert not RunJobChunk.objects.filter(run_id=run.pk).exists()


@pytest.fixture
def small_cluster(team: Team, owner: Any) -> Cluster:
    """m1.large only (2 cpu): most of the tiny workload's executors (up to 4 cpu) do not fit."""
    return cluster_create(team=team, user=owner, name="Smalls", entries=[{"vm_type": "m1.large", "count": 2}])


def test_jobs_that_do_not_fit_are_a_400_naming_them_as_the_whole_document_would(
    api: Any, owner: Any, small_cluster: Cluster, workload: Workload
) -> None:
    with pytest.raises(ScenarioError) as whole:  # the whole document, parsed as the small runs are
        scenario_document(small_cluster, workload)
    body = {"cluster": small_cluster.pk, "workload": workload.pk, "schedulers": SCHEDULERS}
    response = api(owner).post("/api/runs/", body, format="json")
    assert response.status_code == 400, response.json()
    got = [(e["path"], e["message"]) for e in response.json()["errors"]]
    assert got == [(e.path, e.message) for e in whole.value.errors]  # the library's own rule
    assert got[0][0] == "jobs" and any(p.startswith("jobs[") for p, _ in got[1:])
    assert not Run.objects.exists() and not RunJobChunk.objects.exists()


def test_a_framework_or_resources_the_cluster_lacks_are_400s_naming_the_field(
    api: Any, owner: Any, team: Team, cluster: Cluster, scenario_doc: dict[str, Any]
) -> None:
    allowed = [
        {**scenario_doc["frameworks"][0], "allowed_vm_types": ["m1.large"]},
        scenario_doc["frameworks"][1],
    ]
    workload = workload_create(
        team=team, user=owner, name="Allowed", frameworks=allowed, jobs=scenario_doc["jobs"]
    )
    other = cluster_create(
        team=team, user=owner, name="No large", entries=[{"vm_type": "m2.xlarge", "count": 9}]
    )
    response = api(owner).post(
        "/api/runs/", {"cluster": other.pk, "workload": workload.pk, "schedulers": SCHEDULERS}, format="json"
    )
    assert response.status_code == 400
    assert "unknown VM type 'm1.large'" in errors_of(response)["frameworks[0].allowed_vm_types[0]"]

    gpus = [{**j, "executor": {**j["executor"], "gpu": 1}} for j in scenario_doc["jobs"]]
    workload = workload_create(
        team=team, user=owner, name="GPUs", frameworks=scenario_doc["frameworks"], jobs=gpus
    )
    response = api(owner).post(
        "/api/runs/",
        {"cluster": cluster.pk, "workload": workload.pk, "schedulers": SCHEDULERS},
        format="json",
    )
    assert response.status_code == 400
    assert "unknown resource" in errors_of(response)["jobs[0].executor.gpu"]
    assert not Run.objects.exists()


def test_a_problem_found_only_by_the_part_fails_the_run_naming_the_field(
    owner: Any, cluster: Cluster, workload: Workload, execute_run: Any
) -> None:
    run = services.run_start(user=owner, cluster=cluster, workload=workload, schedulers=SCHEDULERS)
    chunk = RunJobChunk.objects.filter(run=run).order_by("first_job").first()
    assert chunk is not None
    jobs = workload.jobs[: chunk.job_count]
    jobs[3] = {**jobs[3], "duration_s": -1}  # what the request cannot see: it reads a few columns
    RunJobChunk.objects.filter(pk=chunk.pk).update(data=jobs_encode(jobs))
    assert execute_run(run.pk) == "failed"
    run.refresh_from_db()
    assert "jobs[3].duration_s: must be > 0" in run.error
    assert set(RunPart.objects.filter(run=run).values_list("status", flat=True)) == {"failed"}


@pytest.mark.parametrize("streamed", [False, True])
def test_the_export_of_the_runs_scenario_is_the_document(
    api: Any,
    owner: Any,
    member: Any,
    outsider: Any,
    settings: Any,
    cluster: Cluster,
    workload: Workload,
    monkeypatch: pytest.MonkeyPatch,
    streamed: bool,
) -> None:
    """Every run that keeps its jobs apart streams them, whatever its size; the others answer
    their stored document."""
    if not streamed:
        settings.PLANNER_RUN_INLINE_JOBS_MAX = 20_000
    run = services.run_start(user=owner, cluster=cluster, workload=workload, schedulers=SCHEDULERS)
    assert Run.objects.get(pk=run.pk).jobs_stored is streamed
    if streamed:
        monkeypatch.setattr(run_apis.selectors, "run_scenario_document", never_whole)
    response = api(member).get(f"/api/runs/{run.pk}/scenario/")
    assert response.status_code == 200
    assert response.streaming is streamed
    body = b"".join(response.streaming_content) if streamed else response.content
    assert json.loads(body) == scenario_document(cluster, workload)
    assert api(outsider).get(f"/api/runs/{run.pk}/scenario/").status_code == 404


def test_small_stored_workloads_still_store_the_whole_document(
    settings: Any, owner: Any, cluster: Cluster, workload: Workload
) -> None:
    settings.PLANNER_RUN_INLINE_JOBS_MAX = 20_000
    run = Run.objects.get(pk=services.run_start(user=owner, cluster=cluster, workload=workload).pk)
    assert not run.jobs_stored and run.scenario == scenario_document(cluster, workload)
    assert "lower_bound_cost" in run.context
    assert not RunJobChunk.objects.filter(run=run).exists()


def test_the_start_reads_a_few_columns_not_the_jobs(
    owner: Any, cluster: Cluster, workload: Workload, count_queries: Any
) -> None:
    """Queries: a constant few plus one per chunk, whatever the number of jobs per chunk."""
    queries = count_queries(
        lambda: services.run_start(user=owner, cluster=cluster, workload=workload, schedulers=SCHEDULERS)
    )
    assert queries < 40
