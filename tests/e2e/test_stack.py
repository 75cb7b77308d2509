"""End to end on the production topology of docker-compose.yml, started as plain processes.

PostgreSQL (a fresh database on 127.0.0.1:5432), Redis (127.0.0.1:6379) as the Celery
broker, gunicorn serving ``planner.wsgi`` with the production settings, and a real Celery
worker process. A run submitted through the REST API completes on the worker, its results
equal what the library computes in-process (the CLI path), and its reports download.

Skipped when PostgreSQL or Redis is not reachable, unless ``PLANNER_REQUIRE_SERVICES=1``
(as in CI), in which case a missing service fails the test (the ``stack`` fixture, conftest.py).
"""

from __future__ import annotations

import json
import time

import pytest

from tests.e2e.planner_stack import ROOT, Stack

pytestmark = pytest.mark.e2e


def test_run_through_the_api_on_the_real_stack(stack: Stack) -> None:
    from scheduling import compare, load_scenario_json

    token = stack.token()

    scenario_text = (ROOT / "examples" / "paper003-light.json").read_text()
    schedulers = ["fifo-spread", "edf-bfd", "edf-ilp"]
    status, _, body = stack.call(
        "POST",
        "/api/runs/",
        {"scenario": json.loads(scenario_text), "schedulers": schedulers, "seed": 3},
        token=token,
    )
    assert status == 201, body
    run_id = json.loads(body)["id"]

    final, seen = stack.wait_for_run(token, run_id)
    assert final["status"] == "succeeded", (final, stack.log("worker"))
    assert seen == sorted(seen) and seen[-1] == 1.0

    # The worker's results are exactly what the library computes in-process (the CLI path).
    expected = compare(load_scenario_json(scenario_text), schedulers=schedulers, seed=3)
    for name in schedulers:
        status, _, body = stack.call("GET", f"/api/runs/{run_id}/results/{name}/", token=token)
        assert status == 200, body
        got = json.loads(body)
        got = got.get("result", got)
        assert got["total_cost"] == pytest.approx(expected[name].total_cost, rel=1e-12)
        assert got["deadline_missed"] == expected[name].deadline_missed

    for fmt, content_type, magic in (
        ("csv", "text/csv", b"\xef\xbb\xbf"),
        ("xlsx", "spreadsheetml", b"PK"),
        ("pdf", "application/pdf", b"%PDF"),
    ):
        status, headers, body = stack.call("GET", f"/api/runs/{run_id}/report/{fmt}/", token=token)
        assert status == 200, body[:500]
        assert content_type in headers["Content-Type"]
        assert "attachment" in headers.get("Content-Disposition", "")
        assert body.startswith(magic)


def test_bad_input_and_outsiders_on_the_real_stack(stack: Stack) -> None:
    token = stack.token()
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["jobs"][3]["executor"]["cpu"] = -1
    status, _, body = stack.call(
        "POST", "/api/runs/", {"scenario": doc, "schedulers": ["edf-bfd"]}, token=token
    )
    assert status == 400
    assert any(e["path"] == "jobs[3].executor.cpu" for e in json.loads(body)["errors"])
    status, _, _ = stack.call("GET", "/api/runs/", token="not-a-token")
    assert status in (401, 403)


def test_cancel_a_running_run(stack: Stack) -> None:
    token = stack.token()
    scenario = json.loads((ROOT / "examples" / "paper003-high.json").read_text())
    # Many schedulers so that the run is still going when the cancel arrives.
    schedulers = [
        f"{o}-{p}" for o in ("fifo", "edf", "morpheus") for p in ("bfd", "consolidate", "spread", "ilp")
    ] * 2
    schedulers = [f"{s}:min_billed_s={k}" for k, s in enumerate(schedulers[:20])]
    status, _, body = stack.call(
        "POST", "/api/runs/", {"scenario": scenario, "schedulers": schedulers}, token=token
    )
    assert status == 201, body
    run_id = json.loads(body)["id"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        _, _, body = stack.call("GET", f"/api/runs/{run_id}/progress/", token=token)
        if json.loads(body)["status"] == "running":
            break
        time.sleep(0.1)
    status, _, body = stack.call("POST", f"/api/runs/{run_id}/cancel/", token=token)
    assert status in (200, 202), body
    final, _ = stack.wait_for_run(token, run_id, timeout=300)
    assert final["status"] == "cancelled", final
