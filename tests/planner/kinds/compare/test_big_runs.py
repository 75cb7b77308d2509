"""The comparison's pages of runs that keep their jobs apart (``Run.jobs_stored``: a run on a
stored workload of more than ``PLANNER_RUN_INLINE_JOBS_MAX`` jobs, up to a million; the line is
lowered here so that the tiny workload takes that path).

No request reads such a run's jobs into one document (``no_whole_jobs``): two runs' differences
compare their jobs by columns, and a what-if run reuses the run's chunks (longer jobs scaled
column by column). Each answer is the one the same runs give with their jobs inline.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.urls import reverse

from planner.kinds.compare.views import run_differences
from planner.runs.models import Run, RunJobChunk, RunResult
from planner.runs.selectors import run_scenario_document
from planner.runs.services import run_start
from planner.scenarios.models import Cluster, Workload
from planner.scenarios.services import cluster_create, scenario_document, workload_create
from planner.teams.models import Team
from scheduling import parse_scenario
from scheduling.scenario.variations import vary

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("jobs_apart")]

SCHEDULERS = ["fifo-spread", "edf-bfd"]
Guard = Callable[[], AbstractContextManager[None]]


def results_of(run: Run) -> dict[str, Any]:
    """Each variant's result document, without the scheduler's own decision times (the clock's)."""
    rows = RunResult.objects.filter(run=run).order_by("position").values_list("variant", "result")
    return {variant: {k: v for k, v in result.items() if k != "scheduling_delay"} for variant, result in rows}


@pytest.fixture
def other(team: Team, owner: Any, workload: Workload) -> tuple[Cluster, Workload]:
    """A bigger cluster, and a workload of the first 25 jobs (every third one twice as long, the
    first one network-bound) and one job of its own."""
    bigger = cluster_create(team=team, user=owner, name="Bigger", entries=[
        {"vm_type": "m1.large", "count": 9}, {"vm_type": "m1.xlarge", "count": 5},
        {"vm_type": "m2.xlarge", "count": 3},
    ])
    jobs = [{**j, "duration_s": j["duration_s"] * 2} if i % 3 == 0 else dict(j)
            for i, j in enumerate(workload.jobs[:25])]
    jobs[0]["network_sensitivity"] = 0.5
    jobs.append({**jobs[1], "id": "late-1", "arrival_s": 5000})
    fewer = workload_create(team=team, user=owner, name="Fewer", frameworks=workload.frameworks, jobs=jobs)
    return bigger, fewer


def test_two_big_runs_differ_as_the_same_runs_inline(
    owner: Any, team: Team, cluster: Cluster, workload: Workload, other: tuple[Cluster, Workload],
    no_whole_jobs: Guard,
) -> None:
    bigger, fewer = other
    a = run_start(user=owner, cluster=cluster, workload=workload, schedulers=SCHEDULERS)
    b = run_start(user=owner, cluster=bigger, workload=fewer, schedulers=SCHEDULERS)
    a_inline = run_start(user=owner, team=team, scenario=scenario_document(cluster, workload),
                         schedulers=SCHEDULERS)
    b_inline = run_start(user=owner, team=team, scenario=scenario_document(bigger, fewer),
                         schedulers=SCHEDULERS)
    assert a.jobs_stored and b.jobs_stored and not a_inline.jobs_stored and not b_inline.jobs_stored
    expected = run_differences(user=owner, a=a_inline, b=b_inline)
    lines = [line for d in expected for line in d.lines]
    assert "30 → 26 jobs" in lines and any(line.startswith("5 jobs only in A") for line in lines)
    assert any(line.startswith("1 job only in B: late-1") for line in lines)
    assert any(line.startswith("9 jobs changed") for line in lines)
    assert any(line.startswith("network sensitivity (notes §8) changed for 1 job") for line in lines)
    assert any(d.title == "Cluster" for d in expected)
    with no_whole_jobs():
        assert run_differences(user=owner, a=a, b=b) == expected
        assert run_differences(user=owner, a=a, b=b_inline) == expected  # one big, one not
        assert run_differences(user=owner, a=a, b=a) == []


def test_the_side_by_side_page_of_two_big_runs_names_what_changed(
    owner_client: Any, owner: Any, cluster: Cluster, workload: Workload, other: tuple[Cluster, Workload],
    execute_run: Callable[[int], str], no_whole_jobs: Guard,
) -> None:
    bigger, fewer = other
    a = run_start(user=owner, cluster=cluster, workload=workload, schedulers=SCHEDULERS)
    b = run_start(user=owner, cluster=bigger, workload=fewer, schedulers=SCHEDULERS)
    assert execute_run(a.pk) == execute_run(b.pk) == "succeeded"
    with no_whole_jobs():
        page = owner_client.get(reverse("web:compare-side-by-side") + f"?a={a.pk}&b={b.pk}")
    assert page.status_code == 200
    text = page.content.decode()
    assert "30 → 26 jobs" in text and "late-1" in text and "m1.large: 6 → 9 VMs" in text


def test_what_if_of_a_big_run_reuses_its_jobs_and_runs_as_the_same_variation_inline(
    owner_client: Any, owner: Any, team: Team, cluster: Cluster, workload: Workload,
    execute_run: Callable[[int], str], no_whole_jobs: Guard,
) -> None:
    original = run_start(user=owner, cluster=cluster, workload=workload, schedulers=SCHEDULERS, name="Big")
    assert execute_run(original.pk) == "succeeded"
    url = reverse("web:compare-what-if", args=[original.pk])
    values = {"load": 1.5, "load_mode": "sizes", "seed": 0, "price_factors": {"m1.large": 0.5},
              "counts": {"m2.xlarge": 1}}
    with no_whole_jobs():
        assert owner_client.get(url).status_code == 200
        response = owner_client.post(url, {"load": "1.5", "load_mode": "sizes", "seed": "0",
                                           "price_factors.m1.large": "0.5", "counts.m2.xlarge": "1"})
    assert response.status_code == 302, response.context["form"].errors
    varied = Run.objects.exclude(pk=original.pk).get()
    assert varied.jobs_stored and varied.job_count == 30 and varied.scenario["jobs"] == []
    assert RunJobChunk.objects.filter(run=varied).count() == RunJobChunk.objects.filter(run=original).count()
    assert "what if load x1.5 (longer jobs)" in varied.name

    # The same variation of the whole document, as a run with its jobs inline.
    doc = vary(run_scenario_document(Run.objects.get(pk=original.pk)), **values)
    assert parse_scenario(run_scenario_document(varied)) == parse_scenario(doc)
    inline = run_start(user=owner, team=team, scenario=doc, schedulers=SCHEDULERS)
    assert execute_run(varied.pk) == execute_run(inline.pk) == "succeeded"
    assert results_of(varied) == results_of(inline)
    # ... and the side-by-side page names what changed, by columns.
    with no_whole_jobs():
        side = owner_client.get(reverse("web:compare-side-by-side") + f"?a={original.pk}&b={varied.pk}")
    text = side.content.decode()
    assert "30 jobs changed" in text and "m2.xlarge: 3 → 1 VMs" in text


def test_what_if_more_jobs_of_a_big_run_is_refused_on_the_load_field(
    owner_client: Any, owner: Any, cluster: Cluster, workload: Workload, no_whole_jobs: Guard,
) -> None:
    original = run_start(user=owner, cluster=cluster, workload=workload, schedulers=SCHEDULERS)
    url = reverse("web:compare-what-if", args=[original.pk])
    with no_whole_jobs():
        response = owner_client.post(url, {"load": "2", "load_mode": "jobs", "seed": "0"})
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert "more jobs cannot be drawn from a run of 30 jobs kept apart" in " ".join(errors["load"])
    assert Run.objects.count() == 1


def test_what_if_of_a_big_run_refuses_what_the_same_run_inline_refuses(
    owner_client: Any, owner: Any, team: Team, cluster: Cluster, workload: Workload, no_whole_jobs: Guard,
) -> None:
    original = run_start(user=owner, cluster=cluster, workload=workload, schedulers=SCHEDULERS)
    inline = run_start(user=owner, team=team, scenario=scenario_document(cluster, workload),
                       schedulers=SCHEDULERS)
    bad = {"load": "1", "seed": "0", "counts.m1.xlarge": "0", "counts.m2.xlarge": "0"}
    expected = owner_client.post(reverse("web:compare-what-if", args=[inline.pk]), bad)
    with no_whole_jobs():
        response = owner_client.post(reverse("web:compare-what-if", args=[original.pk]), bad)
    assert response.status_code == expected.status_code == 400
    errors = response.context["form"].non_field_errors()
    assert errors == expected.context["form"].non_field_errors()
    assert "vm_types[1].count: must be >= 1" in errors
    assert Run.objects.count() == 2 and RunJobChunk.objects.exclude(run=original).count() == 0


def test_a_big_run_clones_into_the_start_page_by_its_cluster_and_workload(
    owner_client: Any, owner: Any, cluster: Cluster, workload: Workload, no_whole_jobs: Guard,
) -> None:
    run = run_start(user=owner, cluster=cluster, workload=workload, schedulers=SCHEDULERS)
    url = reverse("web:compare-start") + f"?clone={run.pk}"
    with no_whole_jobs():
        page = owner_client.get(url)
    assert page.status_code == 200
    form = page.context["form"]
    assert form.initial["source"] == "stored"
    assert (form.initial["cluster"], form.initial["workload"]) == (cluster.pk, workload.pk)
    assert "on its cluster and workload as they are now" in page.content.decode()
    assert not form.initial.get("document")

    workload.delete()  # the run keeps its own copy; the form cannot hold it
    with no_whole_jobs():
        page = owner_client.get(url)
    text = page.content.decode()
    assert page.status_code == 200 and "it did not run on a cluster and a workload that still exist" in text
    assert reverse("api:run-scenario", args=[run.pk]) in text
    assert not page.context["form"].initial.get("document")


def test_two_big_runs_of_one_workload_read_its_jobs_once_for_their_differences(
    owner: Any, cluster: Cluster, workload: Workload, other: tuple[Cluster, Workload],
    no_whole_jobs: Guard, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from planner.runs import selectors
    from planner.scenarios.jobstore import same_stored_jobs

    bigger, fewer = other
    a = run_start(user=owner, cluster=cluster, workload=workload, schedulers=SCHEDULERS)
    b = run_start(user=owner, cluster=bigger, workload=workload, schedulers=SCHEDULERS)
    c = run_start(user=owner, cluster=cluster, workload=fewer, schedulers=SCHEDULERS)
    assert same_stored_jobs(a, b) and same_stored_jobs(b, a) and same_stored_jobs(a, a)
    assert not same_stored_jobs(a, c) and not same_stored_jobs(c, a)
    reads: list[int] = []
    column = selectors.job_columns

    def counted(owner_: Any, resources: Any) -> Any:
        reads.append(owner_.pk)
        return column(owner_, resources)

    monkeypatch.setattr(selectors, "job_columns", counted)
    with no_whole_jobs():
        same = run_differences(user=owner, a=a, b=b)
        assert reads == [a.pk]
        assert [d.title for d in same] == ["Cluster"]  # the same jobs: no line on them
        reads.clear()
        differ = run_differences(user=owner, a=a, b=c)
        assert reads == [a.pk, c.pk]
    assert any(d.title == "Workload" for d in differ)
