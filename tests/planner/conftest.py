"""Fixtures of the planner tests: an owner, a member and an outsider, and their objects.

* ``owner`` owns ``team`` (seeded with the presets' VM types); ``member`` is a member of it.
* ``outsider`` owns ``other_team`` and knows nothing of ``team``.
* ``cluster`` and ``workload`` belong to ``team`` and were made by ``owner``.

Tests reach shared data through fixtures (``scenario_doc``), never ``from conftest import``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from planner.runs.models import Run
from planner.runs.services import run_start
from planner.scenarios.models import Cluster, Workload
from planner.scenarios.services import cluster_create, workload_create
from planner.teams.models import Membership, Team
from planner.teams.services import membership_create, team_create
from scheduling.generators import synthetic_jobs


def make_scenario_doc(jobs: int = 30, seed: int = 1) -> dict[str, Any]:
    """A small two-framework scenario every scheduler finishes in a fraction of a second."""
    return {
        "version": 1,
        "name": "tiny",
        "resources": ["cpu", "mem"],
        "vm_types": [
            {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 3},
            {"name": "big", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.48, "count": 2},
        ],
        "frameworks": [{"name": "analytics", "weight": 1}, {"name": "etl", "weight": 2}],
        "jobs": synthetic_jobs(
            jobs=jobs,
            seed=seed,
            arrival_rate_per_s=0.02,
            frameworks=["analytics", "etl"],
            executors=(1, 4),
            executor={"cpu": (1, 4), "mem": (1, 8)},
        ),
    }


@pytest.fixture(autouse=True)
def _no_held_scenario() -> Iterator[None]:
    """Every test starts as a fresh worker process: holding no run's parsed scenario."""
    from planner.runs.execution import held_scenario_drop

    held_scenario_drop()
    yield
    held_scenario_drop()


@pytest.fixture
def scenario_doc() -> dict[str, Any]:
    return make_scenario_doc()


@pytest.fixture
def make_user(db: Any) -> Callable[[str], Any]:
    def make(username: str) -> Any:
        return get_user_model().objects.create_user(username=username, password=f"{username}-password")

    return make


@pytest.fixture
def owner(make_user: Callable[[str], Any]) -> Any:
    return make_user("olivia")


@pytest.fixture
def member(make_user: Callable[[str], Any]) -> Any:
    return make_user("mario")


@pytest.fixture
def outsider(make_user: Callable[[str], Any]) -> Any:
    return make_user("oscar")


@pytest.fixture
def team(owner: Any, member: Any) -> Team:
    team = team_create(owner=owner, name="Platform")
    membership_create(team=team, user=owner, username=member.username, role=Membership.Role.MEMBER)
    return team


@pytest.fixture
def other_team(outsider: Any) -> Team:
    return team_create(owner=outsider, name="Elsewhere")


@pytest.fixture
def cluster(team: Team, owner: Any) -> Cluster:
    return cluster_create(
        team=team,
        user=owner,
        name="Table 3",
        entries=[
            {"vm_type": "m1.large", "count": 6},
            {"vm_type": "m1.xlarge", "count": 5},
            {"vm_type": "m2.xlarge", "count": 3},
        ],
    )


@pytest.fixture
def workload(team: Team, owner: Any, scenario_doc: dict[str, Any]) -> Workload:
    return workload_create(
        team=team, user=owner, name="Tiny", frameworks=scenario_doc["frameworks"], jobs=scenario_doc["jobs"]
    )


@pytest.fixture
def api() -> Callable[[Any], APIClient]:
    """``api(user)``: a client authenticated as ``user`` (``api(None)``: anonymous)."""

    def make(user: Any) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user=user)
        return client

    return make


@pytest.fixture
def trio(owner: Any, member: Any, outsider: Any, team: Team, other_team: Team) -> dict[str, Any]:
    """The three points of view, by name, with both teams in place."""
    return {"owner": owner, "member": member, "outsider": outsider}


@pytest.fixture
def count_queries() -> Callable[[Callable[[], Any]], int]:
    """``count_queries(fn)``: how many SQL queries ``fn()`` makes."""

    def count(fn: Callable[[], Any]) -> int:
        with CaptureQueriesContext(connection) as ctx:
            fn()
        return len(ctx.captured_queries)

    return count


@pytest.fixture
def execute_run() -> Callable[[int], str]:
    """``execute_run(run_id)``: run every queued part of the run in-process, as workers would
    (in position order); returns the run's status afterwards."""
    from planner.runs.execution import part_execute_now
    from planner.runs.models import Run, RunPart

    def execute(run_id: int) -> str:
        for part_id in (
            RunPart.objects.filter(run_id=run_id, status="queued")
            .order_by("position")
            .values_list("id", flat=True)
        ):
            part_execute_now(part_id)
        return str(Run.objects.get(pk=run_id).status)

    return execute


# --------------------------------------------------------------------------- pages and runs
# Signed-in clients and runs in each state (the page tests', the kinds' tests'). Runs are executed
# by calling the task's code directly (``execute_run``); nothing is enqueued because a test's
# transaction never commits.

SCHEDULERS = ["fifo-spread", "morpheus", "edf-bfd"]


@pytest.fixture
def client_for() -> Callable[[Any], Client]:
    """``client_for(user)``: a browser-like client signed in as ``user`` (``None``: anonymous)."""

    def make(user: Any) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return make


@pytest.fixture
def owner_client(client_for: Callable[[Any], Client], owner: Any, team: Any) -> Client:
    return client_for(owner)


@pytest.fixture
def start_run(
    owner: Any, cluster: Any, workload: Any, execute_run: Callable[[int], str]
) -> Callable[..., Run]:
    """``start_run(execute=True, **params)``: a comparison of the cluster and workload (the runs
    the page tests look at), executed in-process."""

    def start(*, execute: bool = True, user: Any = None, **kwargs: Any) -> Run:
        kwargs.setdefault("schedulers", list(SCHEDULERS))
        kwargs.setdefault("baseline", "fifo-spread")
        run = run_start(user=user or owner, cluster=cluster, workload=workload, kind="compare", **kwargs)
        if execute:
            assert execute_run(run.pk) == "succeeded"
            run.refresh_from_db()
        return run

    return start


@pytest.fixture
def succeeded_run(start_run: Callable[..., Run]) -> Run:
    return start_run(name="Nightly <b>what-if</b>")


@pytest.fixture
def queued_run(start_run: Callable[..., Run]) -> Run:
    return start_run(execute=False, name="Waiting")


@pytest.fixture
def failed_run(queued_run: Run) -> Run:
    Run.objects.filter(pk=queued_run.pk).update(
        status=Run.Status.FAILED, error="Infeasible: job j7 fits on no VM <script>", progress=0.3
    )
    queued_run.refresh_from_db()
    return queued_run


# --------------------------------------------------------------------------- runs that keep their jobs apart


@pytest.fixture
def jobs_apart(settings: Any) -> None:
    """Runs on stored workloads keep their jobs apart (``Run.jobs_stored``, as a run of more than
    ``PLANNER_RUN_INLINE_JOBS_MAX`` jobs does), whatever their size."""
    settings.PLANNER_RUN_INLINE_JOBS_MAX = 0


@pytest.fixture
def no_whole_jobs() -> Callable[[], AbstractContextManager[None]]:
    """``with no_whole_jobs(): ...``: reading a run's kept-apart jobs whole fails the test inside
    (``selectors.run_scenario_document`` of such a run, or its chunks decoded one after another:
    what a web request must never do for a million jobs). Run its parts outside."""
    from planner.runs import selectors

    @contextmanager
    def guard() -> Iterator[None]:
        original = selectors.run_scenario_document

        def whole(run: Run) -> dict[str, Any]:
            if run.jobs_stored:
                raise AssertionError(f"run {run.pk}'s jobs were read into one document in a request")
            return original(run)

        def every_chunk(owner: Any) -> Any:
            raise AssertionError(f"every job of {owner!r} was decoded in a request")

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(selectors, "run_scenario_document", whole)
            patch.setattr(selectors, "job_chunks", every_chunk)
            yield

    return guard
