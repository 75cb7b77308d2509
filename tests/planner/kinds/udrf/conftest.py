"""Fixtures of the UDRF study's tests (paper 004): the paper's Fig. 1 (the library's document),
runs started through the API, and the online library spied on or stood in for.

The online part looks its library module up by name when it runs
(``planner.kinds.udrf.kind.ONLINE_MODULE``), so a test can put a stand-in module in its place:
:func:`fixture_library` returns the hand-made fixture ``tests/fixtures/udrf-online.json`` for the
policies asked.
"""

from __future__ import annotations

import importlib.machinery
import json
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from planner.kinds.udrf import kind as udrf_kind
from planner.runs.models import Run, RunPart
from scheduling.udrf.setups import fig1_document

ROOT = Path(__file__).resolve().parents[4]
#: Paper 004's Fig. 1 (examples/paper004-fig1.json is the same document).
EXAMPLE = fig1_document()
ONLINE = json.loads((ROOT / "tests" / "fixtures" / "udrf-online.json").read_text())


def start_udrf(api: Any, owner: Any, **params: Any) -> Any:
    """``POST /api/runs/`` of a UDRF study (``scenario`` and the kind's fields in ``params``)."""
    return api(owner).post("/api/runs/", {"kind": "udrf", **params}, format="json")


@pytest.fixture
def online_library(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The real ``scheduling.udrf.online.online_document``, spied on: the calls it received."""
    from scheduling.udrf import online

    calls: list[dict[str, Any]] = []
    real = online.online_document

    def spy(scenario: Any, **options: Any) -> dict[str, Any]:
        calls.append({"scenario": scenario.name, **options})
        return real(scenario, **options)

    monkeypatch.setattr(online, "online_document", spy)
    return calls


@pytest.fixture
def fixture_library(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in online library that returns the hand-made fixture, cut to the policies asked
    (jobs that run long enough for UDRF to finish sooner, as in the paper's Fig. 10)."""
    module = types.ModuleType(udrf_kind.ONLINE_MODULE)
    module.__spec__ = importlib.machinery.ModuleSpec(udrf_kind.ONLINE_MODULE, None)

    def online_document(scenario: Any, *, policies: Any = ("udrf", "drf"), **options: Any) -> dict[str, Any]:
        doc = {k: v for k, v in ONLINE.items() if k != "comparison"}
        doc["policies"] = {p: ONLINE["policies"][p] for p in policies}
        return doc

    module.online_document = online_document  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, udrf_kind.ONLINE_MODULE, module)


@pytest.fixture
def offline_run(api: Any, owner: Any, team: Any, execute_run: Callable[[int], str]) -> Run:
    """Fig. 1 offline (UDRF and DRF), run through the task path."""
    response = start_udrf(api, owner, scenario=EXAMPLE)
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert list(RunPart.objects.filter(run=run).values_list("label", flat=True)) == ["offline"]
    assert execute_run(run.pk) == "succeeded"
    run.refresh_from_db()
    return run


@pytest.fixture
def online_run(
    api: Any, owner: Any, team: Any, execute_run: Callable[[int], str], online_library: list[dict[str, Any]]
) -> Run:
    """Fig. 1 offline and online (one part per policy, the real library), its options passed through."""
    response = start_udrf(api, owner, scenario=EXAMPLE, online=True, interval_s=2, queue_capacity=50, seed=7)
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    labels = list(RunPart.objects.filter(run=run).order_by("position").values_list("label", flat=True))
    assert labels == ["offline", "online udrf", "online drf"]
    assert execute_run(run.pk) == "succeeded"
    # one policy per part, the run's options passed through
    assert [c["policies"] for c in online_library] == [("udrf",), ("drf",)]
    assert online_library[0]["interval_s"] == 2.0 and online_library[0]["queue_capacity"] == 50
    assert online_library[0]["seed"] == 7 and online_library[0]["horizon_s"] is None
    run.refresh_from_db()
    return run
