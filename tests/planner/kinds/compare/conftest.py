"""Fixtures of the comparison's tests: signed-in clients and comparison runs in each state.

The owner / member / outsider trio, ``team``, ``cluster``, ``workload`` and ``execute_run``
come from ``tests/planner/conftest.py``. Runs are executed by calling the task's code directly
(``execute_run``); nothing is enqueued because a test's transaction never commits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from planner.runs.models import Run
from planner.runs.services import run_start

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
    """``start_run(execute=True, **params)``: a comparison of the cluster and workload, executed
    in-process."""

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
