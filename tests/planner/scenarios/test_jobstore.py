"""The compact job store: exact round trips, pages, chunks, and the migration of old rows."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.apps import apps
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.scenarios import jobstore, services
from planner.scenarios.jobstore import StoredJobs, jobs_decode, jobs_encode, jobs_page
from planner.scenarios.models import JobChunk, Workload
from planner.teams.models import Team
from scheduling import parse_scenario
from scheduling.generators import generate_jobs, parse_generator_spec

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
keys = st.sampled_from(["id", "framework", "arrival_s", "deadline_s", "x"])
executors = st.dictionaries(st.sampled_from(["cpu", "mem", "gpu"]), scalars, max_size=3)
jobs_strategy = st.lists(
    st.tuples(st.dictionaries(keys, scalars, max_size=4), executors).map(
        lambda t: {**t[0], "executor": t[1]} if t[1] else t[0]
    ),
    max_size=12,
)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(jobs_strategy)
def test_any_jobs_round_trip_exactly(jobs: list[dict[str, Any]]) -> None:
    back = jobs_decode(jobs_encode(jobs))
    assert back == jobs
    # 4 and 4.0, "4" and 4, null and absent stay apart
    assert [json.dumps(j, sort_keys=True) for j in back] == [json.dumps(j, sort_keys=True) for j in jobs]


def test_a_scenario_documents_jobs_round_trip_to_identical_json() -> None:
    """JSON -> columnar -> JSON identical, for jobs as the library writes them."""
    jobs = generate_jobs(
        parse_generator_spec(
            {
                "jobs": 3000,
                "seed": 4,
                "frameworks": ["a", "b"],
                "deadline_fraction": 0.5,
                "network_fraction": 0.2,
                "network_sensitivity": 1.5,
            }
        )
    )
    doc = {
        "vm_types": [{"name": "m", "capacity": {"cpu": 64, "mem": 256}, "price_per_hour": 1, "count": 9}],
        "frameworks": [{"name": "a"}, {"name": "b"}],
        "jobs": jobs,
    }
    canonical = parse_scenario(doc).to_dict()["jobs"]
    for given_jobs in (jobs, canonical):
        text = json.dumps(given_jobs)
        assert json.dumps(jobs_decode(jobs_encode(json.loads(text)))) == text


def test_slices_of_a_chunk() -> None:
    jobs = [{"id": f"j{k}", "arrival_s": k} for k in range(10)]
    data = jobs_encode(jobs)
    assert jobs_decode(data, start=3, stop=6) == jobs[3:6]
    assert jobs_decode(data, start=8, stop=50) == jobs[8:]
    assert jobs_decode(data, start=20) == []


def test_values_that_cannot_be_stored_are_named() -> None:
    with pytest.raises(ValueError, match=r"jobs\[1\]\.arrival_s: a list cannot be stored"):
        jobs_encode([{"arrival_s": 1}, {"arrival_s": [1]}])
    with pytest.raises(ValueError, match=r"jobs\[0\]\.executor\.cpu: the integer 9{20} is too large"):
        jobs_encode([{"executor": {"cpu": int("9" * 20)}}])
    with pytest.raises(ValueError, match=r"jobs\[2\]\.executor\.mem: a set cannot be stored"):
        jobs_encode([{"executor": {"mem": 1}}, {"executor": {"mem": 2.5}}, {"executor": {"mem": {1}}}])


@pytest.mark.django_db
def test_a_workload_over_several_chunks_pages_and_reads_back(
    team: Team, owner: Any, monkeypatch: pytest.MonkeyPatch, django_assert_max_num_queries: Any
) -> None:
    monkeypatch.setattr(jobstore, "JOBS_PER_CHUNK", 7)
    jobs = generate_jobs(parse_generator_spec({"jobs": 30, "seed": 2}))
    workload = services.workload_create(team=team, user=owner, name="paged", jobs=jobs)
    assert JobChunk.objects.filter(workload=workload).count() == 5  # 7+7+7+7+2
    fresh = Workload.objects.get(pk=workload.pk)
    with django_assert_max_num_queries(2):  # a page across two chunks: one query each
        assert jobs_page(fresh, offset=5, limit=4) == jobs[5:9]
    assert jobs_page(fresh, offset=28, limit=10) == jobs[28:]
    assert jobs_page(fresh, offset=30, limit=10) == []
    assert fresh.jobs == jobs
    stored = StoredJobs(fresh)
    assert len(stored) == 30 and stored[29]["id"] == jobs[29]["id"] and stored[-1] == jobs[-1]
    # a change of the jobs replaces every chunk
    services.workload_update(workload=fresh, user=owner, jobs=jobs[:3])
    assert JobChunk.objects.filter(workload=workload).count() == 1
    assert Workload.objects.get(pk=workload.pk).jobs == jobs[:3]


# Every app available: the flush after the test may then cascade (test_runs_migration.py says why).
@pytest.mark.django_db(transaction=True, available_apps=[config.name for config in apps.get_app_configs()])
def test_the_migration_moves_jobs_into_chunks_and_back() -> None:
    from django.core.management import call_command
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    jobs = [{"id": 5, "arrival_s": 0, "executors": 1, "executor": {"cpu": 1.0, "mem": 2}, "duration_s": 3}]
    executor = MigrationExecutor(connection)
    executor.migrate([("scenarios", "0003_market_prices")])
    apps = executor.loader.project_state([("scenarios", "0003_market_prices")]).apps
    OldWorkload = apps.get_model("scenarios", "Workload")
    team = Team.objects.create(name="old")  # the teams app is migrated already
    old = OldWorkload.objects.create(team_id=team.pk, name="w", jobs=jobs, job_count=1)
    executor = MigrationExecutor(connection)
    executor.migrate([("scenarios", "0004_workload_job_chunks")])
    apps = executor.loader.project_state([("scenarios", "0004_workload_job_chunks")]).apps
    chunks = apps.get_model("scenarios", "JobChunk").objects.filter(workload_id=old.pk)
    assert [jobs_decode(bytes(c.data)) for c in chunks] == [jobs]
    executor = MigrationExecutor(connection)
    executor.migrate([("scenarios", "0003_market_prices")])
    apps = executor.loader.project_state([("scenarios", "0003_market_prices")]).apps
    assert apps.get_model("scenarios", "Workload").objects.get(pk=old.pk).jobs == jobs
    call_command("migrate", verbosity=0)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("offset", "count", "new"),
    [(5, 4, 4), (5, 4, 9), (5, 4, 0), (6, 0, 3), (30, 0, 2), (0, 30, 1), (12, 3, 20)],
)
def test_a_page_save_rewrites_only_its_range(
    team: Team, owner: Any, monkeypatch: pytest.MonkeyPatch, offset: int, count: int, new: int
) -> None:
    monkeypatch.setattr(jobstore, "JOBS_PER_CHUNK", 7)
    jobs = generate_jobs(parse_generator_spec({"jobs": 30, "seed": 2}))
    workload = services.workload_create(team=team, user=owner, name="paged", jobs=jobs)
    page = [{**jobs[0], "id": f"new-{k}"} for k in range(new)]
    saved = services.workload_update_page(
        workload=workload, user=owner, offset=offset, count=count, jobs=page
    )
    expected = [*jobs[:offset], *page, *jobs[offset + count :]]
    fresh = Workload.objects.get(pk=workload.pk)
    assert saved.job_count == fresh.job_count == len(expected)
    assert fresh.jobs == expected
    firsts = list(
        JobChunk.objects.filter(workload=workload).order_by("position").values_list("first_job", "job_count")
    )
    assert [f for f, _ in firsts] == [sum(n for _, n in firsts[:k]) for k in range(len(firsts))]
    assert all(0 < n <= 7 for _, n in firsts)


@pytest.mark.django_db
def test_a_page_save_checks_ids_and_frameworks_against_the_other_pages(team: Team, owner: Any) -> None:
    from planner.core.errors import InputError

    jobs = [
        {
            "id": f"j{k}",
            "framework": "a",
            "arrival_s": k,
            "executors": 1,
            "executor": {"cpu": 1, "mem": 1},
            "duration_s": 5,
        }
        for k in range(20)
    ]
    workload = services.workload_create(
        team=team, user=owner, name="p", frameworks=[{"name": "a"}], jobs=jobs
    )
    with pytest.raises(InputError) as exc:
        services.workload_update_page(
            workload=workload,
            user=owner,
            offset=10,
            count=5,
            jobs=[{**jobs[10], "id": "j2"}, {**jobs[11], "duration_s": -1}],
        )
    assert {e.path: e.message for e in exc.value.errors} == {"jobs[11].duration_s": "must be > 0"}
    with pytest.raises(InputError) as exc:
        services.workload_update_page(
            workload=workload, user=owner, offset=10, count=5, jobs=[{**jobs[10], "id": "j2"}]
        )
    assert [(e.path, e.message) for e in exc.value.errors] == [
        ("jobs[10].id", "job 3 of the workload has the id 'j2'")
    ]
    with pytest.raises(InputError) as exc:
        services.workload_update_page(
            workload=workload, user=owner, offset=10, count=5, jobs=jobs[10:15], frameworks=[{"name": "b"}]
        )
    assert exc.value.errors[0].path == "jobs[10].framework"  # the page's own jobs first
    with pytest.raises(InputError) as exc:
        services.workload_update_page(
            workload=workload,
            user=owner,
            offset=0,
            count=5,
            jobs=[{**j, "framework": "b"} for j in jobs[:5]],
            frameworks=[{"name": "b"}],
        )
    assert [(e.path, e.message) for e in exc.value.errors] == [
        ("frameworks", "jobs on other pages belong to 'a', which must stay declared")
    ]
    assert Workload.objects.get(pk=workload.pk).jobs == jobs  # nothing written by a refused save
    saved = services.workload_update_page(
        workload=workload,
        user=owner,
        offset=0,
        count=20,
        jobs=[{**j, "framework": "b"} for j in jobs[:3]],
        frameworks=[{"name": "b"}],
    )
    assert saved.job_count == 3 and saved.frameworks == [{"name": "b"}]


def _mixed_jobs() -> list[dict[str, Any]]:
    """Jobs of every shape the comparison reads: integer and text ids, with and without a
    framework, a deadline and a network sensitivity, whole and fractional numbers."""
    jobs = generate_jobs(parse_generator_spec({"jobs": 30, "seed": 4}))
    for i, job in enumerate(jobs):
        if i % 4 == 0:
            job["id"] = 1000 + i
        if i % 3 == 0:
            job.pop("framework", None)
        if i % 5 == 0:
            job["deadline_s"] = 600
        if i % 6 == 0:
            job["network_sensitivity"] = 0.25
    return jobs


@pytest.mark.django_db
def test_the_comparison_columns_of_stored_jobs_are_those_of_the_parsed_jobs(
    team: Team, owner: Any, monkeypatch: pytest.MonkeyPatch, django_assert_max_num_queries: Any
) -> None:
    import numpy as np

    from scheduling.scenario.differences import JobColumns

    monkeypatch.setattr(jobstore, "JOBS_PER_CHUNK", 7)
    jobs = _mixed_jobs()
    workload = services.workload_create(team=team, user=owner, name="mixed", jobs=jobs)
    scenario = parse_scenario({"vm_types": [{"name": "v", "capacity": {"cpu": 64, "mem": 256},
                                             "price_per_hour": 1}], "jobs": jobs})
    expected = JobColumns.of(scenario)
    with django_assert_max_num_queries(6):  # one per chunk, and their list
        got = jobstore.job_columns(workload, list(scenario.resources))
    assert got.ids.tolist() == expected.ids.tolist() and "1000" in got.ids.tolist()
    assert got.frameworks.tolist() == expected.frameworks.tolist()
    for key, column in expected.numbers.items():
        np.testing.assert_array_equal(got.numbers[key], column)
    for resource, column in expected.executor.items():
        np.testing.assert_array_equal(got.executor[resource], column)
    np.testing.assert_array_equal(got.network_sensitivity, expected.network_sensitivity)


@pytest.mark.django_db
def test_a_copy_with_one_number_mapped_changes_that_number_alone(
    team: Team, owner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobstore, "JOBS_PER_CHUNK", 7)
    jobs = _mixed_jobs()
    source = services.workload_create(team=team, user=owner, name="source", jobs=jobs)
    target = services.workload_create(team=team, user=owner, name="target", jobs=[])
    copied = jobstore.jobs_copy_mapped(source, target, "duration_s", lambda values: [v * 2 for v in values])
    assert copied == 30 and JobChunk.objects.filter(workload=target).count() == 5
    target.job_count = 30
    back = [job for chunk in jobstore.job_chunks(target) for job in chunk]
    assert back == [{**job, "duration_s": float(job["duration_s"]) * 2} for job in jobs]
    assert [list(job) for job in back] == [list(job) for job in jobs]  # the keys in their order
    assert all(isinstance(job["duration_s"], float) for job in back)
