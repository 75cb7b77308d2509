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
from planner.runs.models import Run
from planner.runs.services import run_start
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


#: Asking which kind a run is: its ``kind`` compared or looked up in a collection (``run.kind !=
#: COMPARISON``, ``run["kind"] in (...)``). Not even a kind's own page does it: it asks the
#: selector for a run of its kind (``run_with_scenario(kind=...)``, 404 for any other).
RUN_KIND = r"\w*run\w*(\.kind|\[['\"]kind['\"]\]) *(==|!=| in | not in )"


#: Everything that branches on a kind in shared code: :data:`RUN_KIND`, a kind's key compared
#: (``kind.key == ...``), and any comparison, membership test or ``case`` with a registered key
#: as a literal (``if kind == "compare"``, ``{% if run.kind == 'sweep' %}``, ``"cheapest" !=
#: key``, ``key in ("sweep", "cheapest")``, JavaScript's ``===``).
def _kind_branch() -> re.Pattern[str]:
    names = "|".join(re.escape(k.key) for k in kinds.all_kinds())
    key = f"['\"]({names})['\"]"
    return re.compile(
        RUN_KIND + r"|kind\w*(\(.*?\))?\.key *(==|!=)" + f"|(==|!=) *{key}|{key} *(==|!=)"
        + rf"|\bin *[(\[{{][^)\]}}]*{key}|\bcase +{key}"
    )


@pytest.mark.parametrize(
    "line",
    [
        "if run.kind != COMPARISON:",
        "found = sweep_point_get(run=run, point=point) if run.kind == SweepKind.key else None",
        'if self.run["kind"] in KEYS:',
        'if kind == "compare":',
        "if kind_key != 'sweep':",
        'if "cheapest" == key:',
        'if key in ("sweep", "cheapest"):',
        "{% if run.kind == 'compare' %}",
        '{% if kind.key == "udrf" %}',
        'if (data.kind === "allocation") {',
        'case "mrsu":',
        "elif get_kind(run.kind).key == other.key:",
    ],
)
def test_the_guard_sees_a_branch_on_a_kind(line: str) -> None:
    assert _kind_branch().search(line), line


@pytest.mark.parametrize(
    "line",
    [
        "kind = get_kind(run.kind)",
        "run = run_with_scenario(user=request.user, pk=pk, kind=SweepKind.key)",
        'if p.kind == "integer":',  # a parameter's type, not a run's kind
        'return p.kind in ("integer", "number")',
        "{% if preset.key == p.key %}",
        'runs = run_list(user=user, team=team, kind="compare")',
    ],
)
def test_the_guard_lets_a_kind_be_used_without_asking_which(line: str) -> None:
    assert not _kind_branch().search(line), line


def _lines(folder: Path) -> list[tuple[Path, int, str]]:
    return [
        (path, number, line)
        for path in sorted(folder.rglob("*"))
        if path.suffix in (".py", ".html", ".js") and "migrations" not in path.parts
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
    ]


def test_shared_code_never_asks_which_kind_a_run_is() -> None:
    """Shared code (``planner/`` outside the kinds' packages and the registry, the shared templates
    and scripts) calls the run's kind and never branches on it; a kind's own code never asks
    whether a run is of its kind (its pages get only its runs from the selector). The library is
    left out: it has no run kinds, and its papers' study names ("allocation", "sharing", "mrsu",
    "udrf", "sweep") are its own documents' words."""
    branch, run_kind = _kind_branch(), re.compile(RUN_KIND)
    registry, own = ROOT / "planner" / "runs" / "kinds.py", ROOT / "planner" / "kinds"
    offenders = []
    for folder in ("planner", "templates", "static"):
        for path, number, line in _lines(ROOT / folder):
            rule = run_kind if path.is_relative_to(own) else None if path == registry else branch
            if rule is not None and rule.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


@pytest.mark.parametrize(
    ("route", "extra", "methods"),
    [
        ("web:compare-what-if", [], ("get", "post")),
        ("web:sweep-point-compare", [1], ("post",)),
        ("web:cheapest-candidate-compare", [1], ("post",)),
    ],
)
def test_a_kinds_own_page_of_a_run_is_not_found_for_a_run_of_another_kind(
    client_for: Callable[[Any], Any], owner: Any, cluster: Any, workload: Any, route: str, extra: list[int],
    methods: tuple[str, ...],
) -> None:
    """The comparison's what-if, a sweep's point and a search's candidate are their kind's own
    pages: a run of the team's of any other kind (here the price ladder of the test settings) is
    not found there, whatever is posted, and nothing is started."""
    run = run_start(user=owner, cluster=cluster, workload=workload, kind="ladder", params={"factors": [2]})
    url = reverse(route, args=[run.pk, *extra])
    for method in methods:
        assert getattr(client_for(owner), method)(url, {"load": "2"}).status_code == 404, method
    assert list(Run.objects.values_list("pk", flat=True)) == [run.pk]
