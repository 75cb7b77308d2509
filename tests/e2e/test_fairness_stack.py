"""The allocation study end to end on the production topology (PostgreSQL, Redis, gunicorn,
a real Celery worker): submitted through the REST API, its parts run on the worker, its
documents equal what the library computes in-process, its reports download.

Skipped without PostgreSQL or Redis unless ``PLANNER_REQUIRE_SERVICES=1`` (conftest.py).
"""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from tests.e2e.planner_stack import Stack

pytestmark = pytest.mark.e2e

TABLE_ONE = {
    "version": 1, "name": "Table I", "resources": ["cpu", "mem"],
    "vm_types": [
        {"name": "c1", "capacity": {"cpu": 100, "mem": 30}, "price_per_hour": 0, "count": 1},
        {"name": "c2", "capacity": {"cpu": 30, "mem": 100}, "price_per_hour": 0, "count": 1},
    ],
    "frameworks": [{"name": "f1", "task_demand": {"cpu": 5, "mem": 1}},
                   {"name": "f2", "task_demand": {"cpu": 1, "mem": 5}}],
    "jobs": [],
}


def test_an_allocation_study_on_the_real_stack(stack: Stack) -> None:
    from scheduling import parse_scenario
    from scheduling.fairness.allocation import allocate

    token = stack.token()
    variants = ["drf/rrr", "rpsdsf/joint", "bf-drf"]
    status, _, body = stack.call("POST", "/api/runs/", {
        "kind": "allocation", "scenario": TABLE_ONE, "variants": variants, "trials": 50, "seed": 4,
    }, token=token)
    assert status == 201, body
    run_id = json.loads(body)["id"]
    final, _ = stack.wait_for_run(token, run_id)
    assert final["status"] == "succeeded", (final, stack.log("worker"))

    expected = allocate(parse_scenario(TABLE_ONE), policy="drf", servers="rrr", trials=50, seed=4).to_dict()
    status, _, body = stack.call("GET", f"/api/runs/{run_id}/results/{quote('DRF (rrr)')}/", token=token)
    assert status == 200, body
    got = json.loads(body)
    got = got.get("result", got)
    assert got["mean"] == expected["mean"] and got["total_std"] == pytest.approx(expected["total_std"])

    status, _, body = stack.call("GET", f"/api/runs/{run_id}/figures/", token=token)
    assert status == 200 and "heatmap:rPS-DSF (joint)" in json.loads(body)["figures"]
    for fmt, magic in (("csv", b"\xef\xbb\xbf"), ("xlsx", b"PK"), ("pdf", b"%PDF")):
        status, _, body = stack.call("GET", f"/api/runs/{run_id}/report/{fmt}/", token=token)
        assert status == 200 and body.startswith(magic), body[:300]
