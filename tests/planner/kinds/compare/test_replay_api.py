"""GET /api/runs/<id>/replay/<variant>/?t=: the cluster at one instant of a stored result."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from planner.kinds.compare import selectors
from planner.runs import services
from planner.runs.models import Run, RunResult
from planner.teams.models import Team
from scheduling.charts import time_unit, timeline_end
from scheduling.cost.document import to_columnar
from scheduling.cost.replay import replay_snapshot

pytestmark = pytest.mark.django_db

SCHEDULERS = ["fifo-consolidate", "edf-bfd", "edf-bfd:rut.cpu=0.5,rut.mem=0.5"]


@pytest.fixture(autouse=True)
def cold_cache() -> Any:
    selectors.replay_cache_clear()
    yield
    selectors.replay_cache_clear()


@pytest.fixture
def finished_run(team: Team, owner: Any, scenario_doc: dict[str, Any], execute_run: Any) -> Run:
    run = services.run_start(user=owner, team=team, scenario=scenario_doc, schedulers=SCHEDULERS)
    assert execute_run(run.pk) == "succeeded"
    return Run.objects.get(pk=run.pk)


def url(run: Run, variant: str, t: str | None) -> str:
    from urllib.parse import quote

    query = "" if t is None else f"?t={quote(t)}"
    return f"/api/runs/{run.pk}/replay/{quote(variant, safe='')}/{query}"


def document(run: Run, variant: str) -> dict[str, Any]:
    return RunResult.objects.get(run=run, variant=variant).result  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("who", "status"), [("owner", 200), ("member", 200), ("outsider", 404), ("anonymous", 401)]
)
def test_the_replay_is_read_by_the_runs_team_only(
    api: Any, trio: dict[str, Any], finished_run: Run, who: str, status: int
) -> None:
    response = api(trio.get(who)).get(url(finished_run, "edf-bfd", "600"))
    assert response.status_code == status, response.content


def test_the_snapshot_is_the_librarys_with_the_charts_time_axis(
    api: Any, member: Any, finished_run: Run
) -> None:
    docs = {r.variant: r.result for r in RunResult.objects.filter(run=finished_run)}
    for variant in SCHEDULERS:
        half = docs[variant]["timeline"]["t"][-1] / 2
        body = api(member).get(url(finished_run, variant, str(half))).json()
        axis = body.pop("time_axis")
        assert body == replay_snapshot(docs[variant], half)
        assert body["scheduler"] == variant and body["vms"] and not body["clamped"]
        # The same unit as the run's charts, whose axis is titled "Time (<unit>)".
        end = timeline_end(docs.values())
        assert axis == {"end_s": end, "divisor": time_unit(end)[0], "unit": time_unit(end)[1]}
        finished_run.refresh_from_db()
        title = finished_run.figures["cumulative_cost"]["layout"]["xaxis"]["title"]["text"]
        assert title.endswith(f"({axis['unit']})")


def test_an_instant_after_the_end_shows_the_end_and_says_so(api: Any, owner: Any, finished_run: Run) -> None:
    end = document(finished_run, "edf-bfd")["timeline"]["t"][-1]
    body = api(owner).get(url(finished_run, "edf-bfd", "1e9")).json()
    assert (body["t_s"], body["requested_t_s"], body["clamped"]) == (end, 1e9, True)
    assert body["vms"] == [] and body["jobs"]["finished"] == body["jobs"]["total"]
    assert body["cost"]["so_far"] == pytest.approx(document(finished_run, "edf-bfd")["total_cost"])


@pytest.mark.parametrize("t", [None, "", "soon", "nan", "NaN", "inf", "-1", "-0.5", "1e999", "0x10"])
def test_a_bad_instant_is_a_400_naming_t(api: Any, owner: Any, finished_run: Run, t: str | None) -> None:
    response = api(owner).get(url(finished_run, "edf-bfd", t))
    assert response.status_code == 400, response.content
    assert [e["path"] for e in response.json()["errors"]] == ["t"]


def test_an_unknown_variant_or_run_is_a_404(api: Any, owner: Any, finished_run: Run) -> None:
    assert api(owner).get(url(finished_run, "morpheus", "0")).status_code == 404
    assert api(owner).get(f"/api/runs/{finished_run.pk + 1000}/replay/edf-bfd/?t=0").status_code == 404


def test_a_columnar_document_replays_the_same(api: Any, owner: Any, finished_run: Run) -> None:
    before = api(owner).get(url(finished_run, "edf-bfd", "900")).json()
    row = RunResult.objects.get(run=finished_run, variant="edf-bfd")
    row.result = to_columnar(row.result)
    row.save(update_fields=["result"])
    selectors.replay_cache_clear()
    assert api(owner).get(url(finished_run, "edf-bfd", "900")).json() == before


def replay_queries(api: Any, user: Any, run: Run, variant: str, t: str = "300") -> list[str]:
    with CaptureQueriesContext(connection) as ctx:
        assert api(user).get(url(run, variant, t)).status_code == 200
    return [q["sql"] for q in ctx.captured_queries]


def loads_a_document(sql: str) -> bool:
    """Whether a query reads ``RunResult.result``, whole or a part of it."""
    return '"runs_runresult"."result"' in sql


def test_a_replay_reads_one_document_once_then_no_document(api: Any, owner: Any, finished_run: Run) -> None:
    # Cold: the result ids, the keys of one document, the other variants' timeline ends.
    cold = replay_queries(api, owner, finished_run, "edf-bfd")
    assert len(cold) == 3, cold
    assert sum(map(loads_a_document, cold)) == 2
    # Warm (another instant, another request): one query, which reads no document.
    warm = replay_queries(api, owner, finished_run, "edf-bfd", "900")
    assert len(warm) == 1 and not loads_a_document(warm[0]), warm
    # Another variant of the same run: its document only (the ends are known).
    other = replay_queries(api, owner, finished_run, "fifo-consolidate")
    assert len(other) == 2, other


@pytest.mark.parametrize("bound", [{"PLANNER_REPLAY_CACHE_SIZE": 1}, {"PLANNER_REPLAY_CACHE_MB": 0}])
def test_the_cache_is_bounded(
    api: Any, owner: Any, finished_run: Run, settings: Any, bound: dict[str, int]
) -> None:
    for name, value in bound.items():  # in number of indexes, or in bytes (the newest one stays)
        setattr(settings, name, value)
    assert len(replay_queries(api, owner, finished_run, "edf-bfd")) == 3
    assert len(replay_queries(api, owner, finished_run, "fifo-consolidate")) == 2
    assert len(replay_queries(api, owner, finished_run, "edf-bfd")) == 2  # evicted: read again
    assert len(replay_queries(api, owner, finished_run, "edf-bfd")) == 1


def test_the_replay_is_in_the_openapi_schema(api: Any, owner: Any) -> None:
    schema = api(owner).get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/runs/{id}/replay/{variant}/"]["get"]
    params = {p["name"]: p for p in operation["parameters"]}
    assert params["t"]["required"] is True and params["t"]["in"] == "query"
    assert {"200", "400"} <= set(operation["responses"])
