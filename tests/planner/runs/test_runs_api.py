"""Runs over the API: start (inline scenario or stored objects), list, read, cancel, results."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from planner.runs import services
from planner.runs.models import Run, RunResult
from planner.scenarios.models import Cluster, Workload
from planner.teams.models import Team
from scheduling import cli, compare, load_scenario_json

pytestmark = pytest.mark.django_db

READ = [("owner", 200), ("member", 200), ("outsider", 404)]


def errors_of(response: Any) -> dict[str, str]:
    body = response.json()
    assert set(body) >= {"detail", "errors"}, body
    return {e["path"]: e["message"] for e in body["errors"]}


@pytest.fixture
def finished_run(team: Team, owner: Any, scenario_doc: dict[str, Any], execute_run: Any) -> Run:
    run = services.run_start(
        user=owner, team=team, scenario=scenario_doc, schedulers=["fifo-consolidate", "edf-bfd"]
    )
    execute_run(run.pk)
    return Run.objects.get(pk=run.pk)


def test_an_inline_scenario_runs_exactly_as_the_cli_would(
    api: Any, member: Any, team: Team, scenario_doc: dict[str, Any], tmp_path: Path, execute_run: Any
) -> None:
    schedulers = ["fifo-consolidate", "edf-bfd:rut.cpu=0.5,rut.mem=0.5", "morpheus"]
    text = json.dumps({"scenario": scenario_doc, "schedulers": schedulers, "seed": 11})
    response = api(member).post("/api/runs/", text, content_type="application/json")
    assert response.status_code == 201, response.json()
    run_id = response.json()["id"]
    assert response.json()["status"] == "queued"
    execute_run(run_id)

    # The same document through the command line: python -m scheduling simulate ...
    (tmp_path / "scenario.json").write_text(json.dumps(scenario_doc))
    argv = ["simulate", str(tmp_path / "scenario.json"), "--seed", "11", "-q"]
    argv += ["-o", str(tmp_path / "out.json")]
    for spec in schedulers:
        argv += ["--scheduler", spec]
    assert cli.main(argv) == 0
    cli_results = json.loads((tmp_path / "out.json").read_text())["results"]

    results = api(member).get(f"/api/runs/{run_id}/").json()["results"]
    assert [r["variant"] for r in results] == schedulers
    for r in results:
        assert r["summary"]["total_cost"] == cli_results[r["variant"]]["total_cost"]
        full = json.loads(api(member).get(r["url"]).getvalue())  # streamed
        assert full["total_cost"] == cli_results[r["variant"]]["total_cost"]
        assert full["jobs"] == cli_results[r["variant"]]["jobs"]
    direct = compare(load_scenario_json(json.dumps(scenario_doc)), schedulers=schedulers, seed=11)
    assert results[1]["summary"]["total_cost"] == direct[schedulers[1]].total_cost


def test_a_run_from_cluster_and_workload(api: Any, owner: Any, cluster: Cluster, workload: Workload) -> None:
    response = api(owner).post("/api/runs/", {"cluster": cluster.pk, "workload": workload.pk}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["cluster"], body["workload"], body["team"]) == (cluster.pk, workload.pk, cluster.team_id)
    assert body["schedulers"] == ["fifo-consolidate", "edf-bfd"] and body["baseline"] == "fifo-consolidate"


def test_an_outsiders_cluster_is_unknown(
    api: Any, outsider: Any, cluster: Cluster, workload: Workload
) -> None:
    response = api(outsider).post(
        "/api/runs/", {"cluster": cluster.pk, "workload": workload.pk}, format="json"
    )
    assert response.status_code == 400
    assert set(errors_of(response)) == {"cluster", "workload"}
    assert not Run.objects.exists()


def test_bad_run_requests_are_400s_with_paths_and_store_nothing(
    api: Any, owner: Any, team: Team, scenario_doc: dict[str, Any]
) -> None:
    bad = copy.deepcopy(scenario_doc)
    bad["jobs"][3]["executor"]["cpu"] = -1
    response = api(owner).post(
        "/api/runs/", {"scenario": bad, "schedulers": ["edf-bfd", "edf-nope"], "seed": -2}, format="json"
    )
    assert response.status_code == 400
    errors = errors_of(response)
    assert errors["jobs[3].executor.cpu"] == "must be >= 0"
    assert errors["schedulers[1]"].startswith("unknown placement 'nope'")
    assert "seed" in errors
    response = api(owner).post("/api/runs/", {"schedulers": ["edf-bfd"]}, format="json")
    assert "scenario" in errors_of(response)
    response = api(owner).post("/api/runs/", {"scenario": "not a document"}, format="json")
    assert errors_of(response) == {"": "the scenario must be a JSON object"}
    assert not Run.objects.exists()


def test_a_bad_name_is_refused_with_the_requests_other_problems_before_any_preparation(
    api: Any, owner: Any, team: Team, scenario_doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from planner.runs.kinds import get_kind

    prepared: list[Any] = []
    monkeypatch.setattr(type(get_kind("compare")), "prepare", lambda self, *args: prepared.append(args) or {})
    client = api(owner)
    with CaptureQueriesContext(connection) as ctx:
        response = client.post("/api/runs/", {"scenario": scenario_doc, "name": "a\u0000b"}, format="json")
    assert response.status_code == 400 and set(errors_of(response)) == {"name"}
    assert prepared == []  # a comparison solves its lower bound's LP there
    assert not any('"runs_runpart"' in q["sql"] for q in ctx.captured_queries)  # nor the team's queue
    bad = copy.deepcopy(scenario_doc)
    bad["jobs"][3]["executor"]["cpu"] = -1
    response = client.post("/api/runs/", {"scenario": bad, "name": "a\u0000b", "seed": -2}, format="json")
    assert set(errors_of(response)) == {"name", "jobs[3].executor.cpu", "seed"}
    assert client.post("/api/runs/", {"scenario": scenario_doc, "name": " Nightly "}, format="json").json()[
        "name"
    ] == "Nightly"
    assert prepared and not Run.objects.exclude(name="Nightly").exists()


def test_runs_without_a_team_need_one(api: Any, make_user: Any, scenario_doc: dict[str, Any]) -> None:
    loner = make_user("lonely")
    response = api(loner).post("/api/runs/", {"scenario": scenario_doc}, format="json")
    assert response.status_code == 400 and "team" in errors_of(response)


@pytest.mark.parametrize("who, status", READ)
def test_run_endpoints_for_the_trio(
    api: Any, trio: dict[str, Any], finished_run: Run, who: str, status: int
) -> None:
    client = api(trio[who])
    pk = finished_run.pk
    for url in (
        f"/api/runs/{pk}/",
        f"/api/runs/{pk}/progress/",
        f"/api/runs/{pk}/figures/",
        f"/api/runs/{pk}/scenario/",
        f"/api/runs/{pk}/results/edf-bfd/",
    ):
        assert client.get(url).status_code == status, url


def test_progress_is_small(api: Any, owner: Any, finished_run: Run) -> None:
    body = api(owner).get(f"/api/runs/{finished_run.pk}/progress/").json()
    assert body == {
        "id": finished_run.pk, "status": "succeeded", "progress": 1.0, "error": "", "cancel_requested": False,
        "finished": True, "started_at": body["started_at"], "finished_at": body["finished_at"],
        "parts": body["parts"],
    }


def test_result_of_an_unknown_scheduler_is_404(api: Any, owner: Any, finished_run: Run) -> None:
    assert api(owner).get(f"/api/runs/{finished_run.pk}/results/morpheus/").status_code == 404


def test_result_url_with_options_in_the_spec(
    api: Any, owner: Any, team: Team, scenario_doc: dict[str, Any], execute_run: Any
) -> None:
    spec = "edf-bfd:rut.cpu=0.5,rut.mem=0.5"
    run = services.run_start(user=owner, team=team, scenario=scenario_doc, schedulers=[spec])
    execute_run(run.pk)
    url = api(owner).get(f"/api/runs/{run.pk}/").json()["results"][0]["url"]
    response = api(owner).get(url)
    assert response.status_code == 200 and json.loads(response.getvalue())["scheduler"] == spec


def test_figures(api: Any, owner: Any, finished_run: Run) -> None:
    pytest.importorskip("scheduling.charts")
    body = api(owner).get(f"/api/runs/{finished_run.pk}/figures/").json()
    assert body["status"] == "succeeded"
    assert "utilisation" in body["figures"]


def test_scenario_export_of_a_run(
    api: Any, owner: Any, finished_run: Run, scenario_doc: dict[str, Any]
) -> None:
    assert api(owner).get(f"/api/runs/{finished_run.pk}/scenario/").json() == scenario_doc


@pytest.mark.parametrize("who, status", [("owner", 200), ("member", 403), ("outsider", 404)])
def test_cancel_the_owners_run(
    api: Any, trio: dict[str, Any], team: Team, scenario_doc: dict[str, Any], who: str, status: int
) -> None:
    run = services.run_start(user=trio["owner"], team=team, scenario=scenario_doc)
    response = api(trio[who]).post(f"/api/runs/{run.pk}/cancel/")
    assert response.status_code == status
    expected = Run.Status.CANCELLED if status == 200 else Run.Status.QUEUED
    assert Run.objects.get(pk=run.pk).status == expected
    if status == 200:
        assert response.json()["status"] == "cancelled"


def test_members_cancel_and_delete_their_own_runs(
    api: Any, member: Any, team: Team, scenario_doc: dict[str, Any]
) -> None:
    client = api(member)
    pk = client.post("/api/runs/", {"scenario": scenario_doc}, format="json").json()["id"]
    assert client.post(f"/api/runs/{pk}/cancel/").json()["status"] == "cancelled"
    assert client.delete(f"/api/runs/{pk}/").status_code == 204
    assert not Run.objects.filter(pk=pk).exists()


@pytest.mark.parametrize("who, status", [("owner", 204), ("member", 403), ("outsider", 404)])
def test_delete_the_owners_run(
    api: Any, trio: dict[str, Any], finished_run: Run, who: str, status: int
) -> None:
    assert api(trio[who]).delete(f"/api/runs/{finished_run.pk}/").status_code == status
    assert Run.objects.filter(pk=finished_run.pk).exists() == (status != 204)
    assert RunResult.objects.filter(run_id=finished_run.pk).exists() == (status != 204)


def test_run_list_is_paginated_scoped_and_filtered(
    api: Any, owner: Any, outsider: Any, team: Team, scenario_doc: dict[str, Any], execute_run: Any
) -> None:
    for _ in range(3):
        services.run_start(user=owner, team=team, scenario=scenario_doc)
    execute_run(Run.objects.order_by("pk").first().pk)  # type: ignore[union-attr]
    client = api(owner)
    page = client.get("/api/runs/?page_size=2").json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
    assert client.get("/api/runs/?status=succeeded").json()["count"] == 1
    assert client.get(f"/api/runs/?team={team.pk}").json()["count"] == 3
    assert api(outsider).get("/api/runs/").json()["count"] == 0


def test_run_list_query_count_does_not_grow_with_runs(
    api: Any, owner: Any, team: Team, scenario_doc: dict[str, Any], count_queries: Any, execute_run: Any
) -> None:
    def add_finished_run() -> None:
        run = services.run_start(
            user=owner, team=team, scenario=scenario_doc, schedulers=["fifo-spread", "edf-bfd"]
        )
        execute_run(run.pk)

    add_finished_run()
    client = api(owner)
    few = count_queries(lambda: client.get("/api/runs/"))
    for _ in range(4):
        add_finished_run()
    many = count_queries(lambda: client.get("/api/runs/"))
    assert few == many


def test_run_list_stays_within_a_fixed_number_of_queries(
    api: Any, owner: Any, team: Team, scenario_doc: dict[str, Any], finished_run: Run,
    django_assert_num_queries: Any,
) -> None:
    client = api(owner)
    with django_assert_num_queries(1):  # a page that is not full is its own count
        assert client.get("/api/runs/").json()["count"] == 1
    for _ in range(2):
        services.run_start(user=owner, team=team, scenario=scenario_doc)
    with django_assert_num_queries(2):  # a full page, and the count
        assert client.get("/api/runs/?page_size=3").json()["count"] == 3


def test_run_list_does_not_load_scenarios_or_results(api: Any, owner: Any, finished_run: Run) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        api(owner).get("/api/runs/")
    sql = " ".join(q["sql"] for q in ctx.captured_queries)
    assert '"runs_run"."scenario"' not in sql and '"runs_run"."figures"' not in sql
    assert '"runs_runresult"' not in sql and '"runs_runpart"' not in sql


def test_a_list_entry_stays_the_same_size_however_many_results_the_run_has(
    api: Any, owner: Any, finished_run: Run, count_queries: Any
) -> None:
    """A 100-point sweep is as small in the list as a comparison: the list links to the detail,
    which has every result's summary."""
    client = api(owner)

    def entry() -> dict[str, Any]:
        (only,) = client.get("/api/runs/").json()["results"]
        return dict(only)

    before, queries = entry(), count_queries(lambda: client.get("/api/runs/"))
    assert "results" not in before and before["schedulers"] == ["fifo-consolidate", "edf-bfd"]
    RunResult.objects.bulk_create(
        RunResult(run=finished_run, variant=f"point {i}", position=2 + i, result={},
                  summary={"point": i, "total_cost": 1.5 * i, "note": "x" * 300})
        for i in range(100)
    )
    assert entry() == before
    assert count_queries(lambda: client.get("/api/runs/")) == queries
    detail = client.get(before["links"]["detail"]).json()
    assert len(detail["results"]) == 102 and detail["results"][-1]["summary"]["point"] == 99
    assert {k: v for k, v in detail.items() if k != "results"} == before


def test_the_schema_gives_the_list_its_entries_and_the_detail_its_results(api: Any, owner: Any) -> None:
    schema = api(owner).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]

    def shape(path: str) -> dict[str, Any]:
        body = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        if "$ref" in body:
            body = components[body["$ref"].rsplit("/", 1)[1]]
        return dict(body)

    items = shape("/api/runs/")["properties"]["results"]["items"]
    entry = components[items["$ref"].rsplit("/", 1)[1]]["properties"]
    detail = shape("/api/runs/{id}/")["properties"]
    assert "results" not in entry and "links" in entry
    assert set(detail) == set(entry) | {"results"}
