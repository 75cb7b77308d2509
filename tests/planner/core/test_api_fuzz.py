"""Whatever a client sends, the API answers with a 4xx and a message, never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from planner.catalogue.models import VMType
from planner.scenarios.models import Cluster, Workload
from planner.teams.models import Team

pytestmark = pytest.mark.django_db

lone_surrogates = st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=3)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.integers(2**63, 10**30),
    st.integers(-(10**30), -(2**63) - 1),
    st.builds(lambda a, b: a + b, st.text(max_size=5), lone_surrogates),
)
json_values = st.recursive(
    scalars,
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=10) | lone_surrogates, kids, max_size=4)
    ),
    max_leaves=12,
)
KEYS = [
    "name",
    "scenario",
    "schedulers",
    "options",
    "baseline",
    "seed",
    "cluster",
    "workload",
    "team",
    "jobs",
    "frameworks",
    "entries",
    "resources",
    "capacity",
    "price_per_hour",
    "vm_type",
    "count",
    "text",
    "spec",
    "doc",
    "username",
    "password",
    "role",
    "csv",
]
bodies = st.dictionaries(st.sampled_from(KEYS), json_values, max_size=6)


@pytest.fixture
def endpoints(cluster: Cluster, workload: Workload, team: Team, member: Any) -> list[tuple[str, str]]:
    """Every endpoint that reads a body, by family: auth, teams, catalogue, clusters, workloads, runs."""
    vm_type = VMType.objects.filter(team=team).first()
    assert vm_type is not None
    return [
        ("post", "/api/auth/token/"),
        ("post", "/api/teams/"),
        ("patch", f"/api/teams/{team.pk}/"),
        ("post", f"/api/teams/{team.pk}/members/"),
        ("patch", f"/api/teams/{team.pk}/members/{member.pk}/"),
        ("post", "/api/vm-types/"),
        ("patch", f"/api/vm-types/{vm_type.pk}/"),
        ("post", "/api/clusters/"),
        ("patch", f"/api/clusters/{cluster.pk}/"),
        ("post", "/api/workloads/"),
        ("patch", f"/api/workloads/{workload.pk}/"),
        ("post", f"/api/workloads/{workload.pk}/generate/"),
        ("post", f"/api/workloads/{workload.pk}/import-csv/"),
        ("post", "/api/scenarios/import/"),
        ("post", "/api/runs/"),
    ]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=bodies, raw=st.sampled_from(["json", "garbage", "list"]))
def test_no_input_makes_a_500(
    api: Any, owner: Any, endpoints: list[tuple[str, str]], body: dict[str, Any], raw: str
) -> None:
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


# Bodies every endpoint must refuse with a 400 whose message names the problem (and, for a
# value, its path) before any view sees them: (body, path of the first error or None for a
# syntax error, words of the message).
SURROGATE = "contains a lone surrogate"
HOSTILE = {
    "1,000 nested brackets": ("[" * 1000 + "]" * 1000, None, "nested too deeply (at most 64 levels)"),
    "100 nested brackets in a field": (
        '{"name": ' + "[" * 100 + "]" * 100 + "}",
        "name" + "[0]" * 63,
        "is nested more than 64 levels deep",
    ),
    "a lone high surrogate": ('{"name": "x\\ud800"}', "name", SURROGATE),
    "a lone low surrogate": ('{"username": "\\udfff", "password": "p"}', "username", SURROGATE),
    "a lone surrogate in a key": (
        '{"capacity": {"c\\ud800": 1}}',
        "capacity",
        'the key "c\\ud800" ' + SURROGATE,
    ),
    "a lone surrogate deep inside": ('{"jobs": [{"id": "ok"}, {"id": "j\\ud800"}]}', "jobs[1].id", SURROGATE),
    "a float too large": (
        '{"price_per_hour": 1e400}',
        "price_per_hour",
        "is too large: numbers must be finite",
    ),
    "an integer too large": (
        '{"count": 18446744073709551616}',
        "count",
        "is out of range: integers must be between",
    ),
    "an integer of 5,000 digits": ('{"seed": ' + "9" * 5000 + "}", None, "a number is too large"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_every_endpoint_refuses_hostile_json_with_a_400_naming_the_problem(
    owner: Any, endpoints: list[tuple[str, str]], case: str
) -> None:
    body, path, words = HOSTILE[case]
    client = APIClient(raise_request_exception=False)  # a 500 is a status here, not an exception
    client.force_authenticate(owner)
    before = {model.__name__: model.objects.count() for model in (Team, VMType, Cluster, Workload)}
    for method, url in endpoints:
        response = getattr(client, method)(url, body, content_type="application/json")
        assert response.status_code == 400, (method, url, response.status_code, response.content[:300])
        payload = response.json()
        first = payload["errors"][0]
        if path is None:
            assert payload["detail"].startswith("JSON parse error - ") and words in payload["detail"], url
        else:
            assert first["path"] == path, (url, first)
        assert words in first["message"], (url, first)
    assert {model.__name__: model.objects.count() for model in (Team, VMType, Cluster, Workload)} == before


def test_a_valid_surrogate_pair_is_a_character_like_any_other(api: Any, owner: Any) -> None:
    response = api(owner).post(
        "/api/teams/", '{"name": "Ops \\ud83d\\ude80"}', content_type="application/json"
    )
    assert response.status_code == 201
    assert Team.objects.get(pk=response.json()["id"]).name == "Ops 🚀"
