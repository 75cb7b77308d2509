"""Fixtures of the allocation study's tests: paper 000's Table I (small: every policy allocates
it in a fraction of a second), a run of it started through the API and executed in-process,
and a signed-in page client."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from planner.runs.models import Run

from .documents import VARIANTS, table_one


@pytest.fixture
def owner_client(owner: Any, team: Any) -> Client:
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def started(api: Callable[[Any], Any], owner: Any, team: Any, execute_run: Callable[[int], str]) -> Run:
    """An allocation study of Table I's five policies, 20 trials, seed 7, executed."""
    response = api(owner).post("/api/runs/", {
        "kind": "allocation", "scenario": table_one(), "variants": VARIANTS, "trials": 20, "seed": 7,
    }, format="json")
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert execute_run(run.pk) == "succeeded"
    run.refresh_from_db()
    return run
