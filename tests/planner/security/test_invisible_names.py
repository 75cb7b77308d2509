"""Issue 21: bidirectional, invisible and control characters (Unicode categories Cc, Cf, Zl,
Zp) are refused in every name, by the library's rule and by every endpoint that stores one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from planner.teams.models import Team
from scheduling import name_problem

INVISIBLE = [
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200b",
    "\u2028",
    "\u2029",
    "\u0085",
    "\x7f",
    "\ufeff",
    "\u200d",
    "\x00",
]


@pytest.mark.parametrize("char", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_the_name_rule_refuses_the_character(char: str) -> None:
    message = name_problem(f"report{char}fdp.exe")
    assert message == f"must not contain control or format characters (U+{ord(char):04X} at character 7)"


@pytest.mark.parametrize("name", ["Zürich – €", "東京", "Łódź ß", "ما", "a b", "emoji 🚀"])
def test_ordinary_names_in_any_script_pass(name: str) -> None:
    assert name_problem(name) is None


@pytest.mark.parametrize("char", ["\u202e", "\u200b", "\u2028", "\x7f"], ids=["RLO", "ZWSP", "LSEP", "DEL"])
def test_every_endpoint_that_stores_a_name_refuses_it(
    api: Callable[[Any], Any], owner: Any, team: Team, char: str, scenario_doc: dict[str, Any]
) -> None:
    bad = f"a{char}b"
    client = api(owner)
    jobs = scenario_doc["jobs"][:2]
    requests: list[tuple[str, str, dict[str, Any], str]] = [
        ("post", "/api/teams/", {"name": bad}, "name"),
        ("patch", f"/api/teams/{team.pk}/", {"name": bad}, "name"),
        (
            "post",
            "/api/vm-types/",
            {"name": bad, "capacity": {"cpu": 1, "mem": 1}, "price_per_hour": 1},
            "name",
        ),
        ("post", "/api/clusters/", {"name": bad, "entries": [{"vm_type": "m1.large", "count": 1}]}, "name"),
        ("post", "/api/workloads/", {"name": bad}, "name"),
        ("post", "/api/workloads/", {"name": "w", "frameworks": [{"name": bad}]}, "frameworks[0].name"),
        ("post", "/api/workloads/", {"name": "w", "jobs": [{**jobs[0], "id": bad}]}, "jobs[0].id"),
        ("post", "/api/scenarios/import/", {**scenario_doc, "name": bad}, "name"),
    ]
    for method, path, body, field in requests:
        response = getattr(client, method)(path, body, format="json")
        assert response.status_code == 400, (path, response.content[:300])
        errors = {e["path"]: e["message"] for e in response.json()["errors"]}
        assert field in errors and "control or format characters" in errors[field], (path, errors)
    assert Team.objects.get(pk=team.pk).name == "Platform"
