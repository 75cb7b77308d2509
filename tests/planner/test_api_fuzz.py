"""Whatever a client sends, the API answers with a 4xx and a message, never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.scenarios.models import Cluster, Workload

pytestmark = pytest.mark.django_db

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)
json_values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=10), kids, max_size=4), max_leaves=12)
KEYS = ["name", "scenario", "schedulers", "options", "baseline", "seed", "cluster", "workload", "team", "jobs",
        "frameworks", "entries", "resources", "capacity", "price_per_hour", "vm_type", "count", "text", "spec", "doc"]
bodies = st.dictionaries(st.sampled_from(KEYS), json_values, max_size=6)


@pytest.fixture
def endpoints(cluster: Cluster, workload: Workload) -> list[tuple[str, str]]:
    return [
        ("post", "/api/runs/"),
        ("post", "/api/clusters/"),
        ("patch", f"/api/clusters/{cluster.pk}/"),
        ("post", "/api/workloads/"),
        ("patch", f"/api/workloads/{workload.pk}/"),
        ("post", f"/api/workloads/{workload.pk}/generate/"),
        ("post", f"/api/workloads/{workload.pk}/import-csv/"),
        ("post", "/api/vm-types/"),
        ("post", "/api/scenarios/import/"),
        ("post", "/api/teams/"),
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=bodies, raw=st.sampled_from(["json", "garbage", "list"]))
def test_no_input_makes_a_500(api: Any, owner: Any, endpoints: list[tuple[str, str]], body: dict[str, Any], raw: str) -> None:
    client = api(owner)
    for method, url in endpoints:
        if raw == "json":
            data = json.dumps(body)
        elif raw == "list":
            data = json.dumps(list(body.values()))
        else:
            data = '{"name": [1, 2' + json.dumps(body)[:20]
        response = getattr(client, method)(url, data, content_type="application/json")
        assert response.status_code < 500, (method, url, body, response.content[:300])
        if response.status_code >= 400:
            payload = response.json()
            assert payload.get("detail") or payload.get("errors"), payload
