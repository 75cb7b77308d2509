"""Fixtures of the sharing study's tests: the library's ``share`` replaced by the hand-made
documents of ``tests/scheduling/fairness/fairness_documents.py`` (``share_calls`` records each
call), a run of two configurations started through the API and executed in-process, and a
signed-in page client. Tests of the real engine use small scenarios with task queues."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client

from planner.kinds.sharing import kind as sharing_kind
from planner.runs.models import Run
from tests.scheduling.fairness.fairness_documents import sharing_docs

from .documents import CONFIGURATIONS, two_frameworks


@pytest.fixture
def owner_client(owner: Any, team: Any) -> Client:
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def share_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``share`` answering with the hand-made documents (by label); each call's arguments."""
    calls: list[dict[str, Any]] = []
    docs = sharing_docs()

    def fake_share(scenario: Any, *, progress: Any = None, **kwargs: Any) -> Any:
        calls.append({"scenario": scenario.name, **kwargs})
        if progress is not None:
            progress(1.0)
        return SimpleNamespace(to_dict=lambda: docs[kwargs["label"]] | {"label": kwargs["label"]})

    monkeypatch.setattr(sharing_kind, "share", fake_share)
    return calls


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
