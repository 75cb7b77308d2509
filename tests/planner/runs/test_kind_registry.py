"""The run-kind registry: kinds are found by configuration, documented by their declarations, and
shared code never branches on which kind a run is (imports are the import contracts' job:
tests/test_import_contracts.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse

from planner.runs import kinds
from scheduling.params import Param

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


def test_every_installed_kind_app_registers_its_kind_in_installed_apps_order() -> None:
    installed = [c.name for c in kinds.kind_configs()]
    assert installed == [app for app in settings.INSTALLED_APPS if app in installed]
    assert [k.key for k in kinds.all_kinds()][:5] == ["compare", "allocation", "sharing", "mrsu", "udrf"]
    for kind in kinds.all_kinds():
        assert kind.start_url is not None and reverse(kind.start_url)  # its start page is routed


def test_an_unknown_kind_is_refused_with_the_known_ones(api: Callable[[Any], Any], owner: Any, team: Any,
                                                        scenario_doc: dict[str, Any]) -> None:
    response = api(owner).post("/api/runs/", {"kind": "teleport", "scenario": scenario_doc}, format="json")
    assert response.status_code == 400
    known = ", ".join(sorted(k.key for k in kinds.all_kinds()))
    assert response.json()["errors"] == [{"path": "kind", "message": f"must be one of {known}"}]


def test_a_comparison_refuses_another_kinds_parameters(api: Callable[[Any], Any], owner: Any, team: Any,
                                                       scenario_doc: dict[str, Any]) -> None:
    response = api(owner).post("/api/runs/", {"scenario": scenario_doc, "factors": [1]}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "factors"


def _names(params: tuple[Param, ...]) -> set[str]:
    return {p.name for p in params}


def test_the_api_schema_documents_every_kinds_parameters(api: Callable[[Any], Any], owner: Any) -> None:
    schema = api(owner).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    request = schema["paths"]["/api/runs/"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    start = schema["components"]["schemas"][request["$ref"].rsplit("/", 1)[1]]
    mapping = start["discriminator"]["mapping"]
    assert set(mapping) == {k.key for k in kinds.all_kinds()}
    for kind in kinds.all_kinds():
        component = schema["components"]["schemas"][mapping[kind.key].rsplit("/", 1)[1]]
        properties = component["properties"]
        assert _names(kind.params) <= set(properties), kind.key
        assert {"scenario", "cluster", "workload", "name", "kind"} <= set(properties)
        assert properties["kind"]["allOf"] or properties["kind"]
        for p in kind.params:  # each one with its help, range and default where it has them
            field = properties[p.name]
            if p.help:
                assert p.help in field.get("description", ""), (kind.key, p.name)
            if p.kind in ("integer", "number") and p.minimum is not None:
                assert field["minimum"] == p.minimum, (kind.key, p.name)
            if p.default is not None and p.kind in ("integer", "number", "boolean", "choice"):
                assert field["default"] == p.default, (kind.key, p.name)


#: A comparison on a run's kind outside the kinds' packages, e.g. ``if run.kind == "compare"``.
def _kind_branch() -> re.Pattern[str]:
    names = "|".join(re.escape(k.key) for k in kinds.all_kinds())
    return re.compile(
        r"[a-z_]*run[a-z_]*\.kind *(==|!=| in )|kind(_key)? *(==|!=|===) *['\"]"
        + f"({names})['\"]" + r"|(==|!=|===) *['\"]" + f"({names})['\"]"
    )


def test_shared_code_never_asks_which_kind_a_run_is() -> None:
    branch = _kind_branch()
    offenders = []
    for folder in ("planner", "templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            if (
                path.suffix not in (".py", ".html", ".js")
                or "migrations" in path.parts
                or path.is_relative_to(ROOT / "planner" / "kinds")
            ):
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if branch.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []
