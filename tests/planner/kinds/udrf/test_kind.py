"""The UDRF study run kind (paper 004) with the real offline library and the real (spied on) or a
stand-in online one.

What is checked: the kind is registered and its start page linked; the API starts a run on the
paper's Fig. 1 scenario (one offline part; with ``online``, one part per policy) that runs through
the task path (``part_execute_now``), and the run page shows the comparison table per policy, the
library's tables and the chart blocks; bad parameters and scenarios are refused with their paths;
the settings rows (run page and reports) come from the declarations, for new and old runs; the
presets are the library's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from planner.kinds.udrf.kind import UdrfKind
from planner.runs import kinds
from planner.runs.models import Run
from scheduling.udrf.params import UDRF_PARAMS
from scheduling.udrf.setups import presets

from .conftest import EXAMPLE, start_udrf

pytestmark = pytest.mark.django_db


def test_the_kind_is_registered_and_linked(client: Any, owner: Any, team: Any) -> None:
    kind = kinds.get_kind("udrf")
    assert isinstance(kind, UdrfKind) and kind.label == "UDRF study" and kind.start_url == "web:udrf-start"
    assert kind.params is UDRF_PARAMS
    url = reverse("web:udrf-start")
    assert url == "/runs/new/udrf/"  # the URL people bookmarked
    client.force_login(owner)
    for page in ("web:dashboard", "web:runs"):
        assert f'href="{url}"' in client.get(reverse(page)).content.decode()


def test_an_offline_run_shows_the_graph_bars_and_tables(
    offline_run: Run, api: Any, owner: Any, client: Any
) -> None:
    figures = api(owner).get(f"/api/runs/{offline_run.pk}/figures/").json()["figures"]
    assert list(figures) == ["graph", "allocation", "waste"]
    rducs = [t["name"] for t in figures["graph"]["data"][1:]]
    assert rducs == ["RDUC 1 (3 users)", "RDUC 2 (1 user)"]
    drf_jobs = next(t for t in figures["allocation"]["data"] if t["name"] == "DRF" and t.get("yaxis") == "y2")
    assert drf_jobs["y"] == [16.0, 8.0, 10.0, 32.0]
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[offline_run.pk])).content.decode()
    assert 'id="summary-table"' in page and 'data-figure="graph"' in page and 'data-figure="waste"' in page
    assert "Jobs allocated at once (offline)" in page and "+30.3%" in page
    assert 'id="udrf-users-table"' in page and "job1 28, job2 8" in page and "job1 8, job2 8" in page
    assert 'id="udrf-classes-table"' in page and 'id="udrf-rducs-table"' in page
    assert 'data-figure="cdf"' not in page  # offline only
    listing = client.get(reverse("web:runs")).content.decode()
    assert "more jobs than DRF" in listing


def test_an_online_run_joins_its_policies(online_run: Run, api: Any, owner: Any, client: Any) -> None:
    figures = api(owner).get(f"/api/runs/{online_run.pk}/figures/").json()["figures"]
    assert {"graph", "shares", "wasted", "cdf", "reduction:classes", "reduction:runs"} <= set(figures)
    assert [t["name"] for t in figures["cdf"]["data"]] == ["UDRF (5 jobs)", "DRF (5 jobs)"]
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[online_run.pk])).content.decode()
    assert 'id="udrf-online-table"' in page and 'data-figure="cdf"' in page
    assert "Completion time reduced vs DRF" in page
    listing = client.get(reverse("web:runs")).content.decode()
    assert "shorter mean completion than DRF" in listing


def test_an_online_run_shows_each_user_over_time(
    api: Any, owner: Any, team: Any, execute_run: Callable[[int], str], online_library: list[dict[str, Any]],
    client: Any,
) -> None:
    # Fig. 1 with every job run 100 times (60 s a run): both policies end at 780 s. u1 holds 100
    # runs x 60 s of each job under either (1 + 1 cpu, 1 + 2 memory: 15.38 cpu, 23.08 memory on
    # average); DRF leaves hadoop idle that u1's waiting job1 wants, UDRF does not.
    scenario = json.loads(json.dumps(EXAMPLE))
    for user in scenario["frameworks"]:
        for job in user["complex_jobs"]:
            job["runs"] = 100
    response = start_udrf(api, owner, scenario=scenario, online=True)
    run = Run.objects.get(pk=response.json()["id"])
    assert execute_run(run.pk) == "succeeded"
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert 'id="udrf-online-users-table"' in page
    assert "Mean global dominant share (UDRF)" in page and "Mean wasted, its part (DRF)" in page
    table = page[page.index('id="udrf-online-users-table"'):]
    u1 = table[table.index(">u1<"):table.index("</tr>", table.index(">u1<"))]
    # Amounts with their units (issue 22): cores and GB, the scenario's convention.
    for shown in ("54.1%", "48.1%", "12.0%", "cpu 15.38 cores, mem 23.08 GB", "cpu 0 cores, mem 10.46 GB",
                  "cpu 44.31 cores, mem 61.54 GB", "7 min 30 s", "2 / 2"):
        assert shown in u1, shown
    figures = api(owner).get(f"/api/runs/{run.pk}/figures/").json()["figures"]
    assert "shares:global" in figures and 'data-figure="shares:global"' in page
    csv_text = api(owner).get(f"/api/runs/{run.pk}/report/csv/").content.decode("utf-8-sig")
    assert "Mean global dominant share (UDRF)" in csv_text and "cpu 44.31 cores, mem 61.54 GB" in csv_text


def test_the_parts_reduction_is_the_online_modules(
    api: Any, owner: Any, team: Any, execute_run: Callable[[int], str], fixture_library: None, client: Any
) -> None:
    response = start_udrf(api, owner, scenario=EXAMPLE, online=True)
    run = Run.objects.get(pk=response.json()["id"])
    assert execute_run(run.pk) == "succeeded"
    figures = api(owner).get(f"/api/runs/{run.pk}/figures/").json()["figures"]
    assert figures["reduction:runs"]["data"][0]["x"] == ["1", "2-5"]
    assert figures["reduction:classes"]["data"][0]["y"] == pytest.approx([33.333, 33.333], abs=1e-3)
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert "+33.3%" in page  # the mean completion time, UDRF against DRF


def test_bad_parameters_and_scenarios_are_refused_with_their_paths(api: Any, owner: Any, team: Any) -> None:
    response = start_udrf(
        api,
        owner,
        scenario=EXAMPLE,
        online="yes",
        interval_s=0,
        queue_capacity=0,
        horizon_s=-1,
        seed=-3,
        baseline="FIFO",
        colour="red",
    )
    assert response.status_code == 400
    paths = {e["path"] for e in response.json()["errors"]}
    assert paths == {"online", "interval_s", "queue_capacity", "horizon_s", "seed", "baseline", "colour"}
    no_jobs = {**EXAMPLE, "frameworks": [{"name": "u1", "task_demand": {"cpu": 1, "mem": 1}}], "jobs": []}
    response = start_udrf(api, owner, scenario=no_jobs)
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["frameworks"]
    bad_task = json.loads(json.dumps(EXAMPLE))
    bad_task["frameworks"][0]["complex_jobs"][0]["tasks"][0]["machine_class"] = "gpu"
    response = start_udrf(api, owner, scenario=bad_task)
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == [
        "frameworks[0].complex_jobs[0].tasks[0].machine_class"
    ]
    assert not Run.objects.exists()


def test_the_stored_options_keep_their_shape(online_run: Run) -> None:
    assert online_run.options == {
        "online": True, "compare_drf": True, "policies": ["udrf", "drf"], "interval_s": 2.0,
        "horizon_s": None, "queue_capacity": 50, "seed": 7, "baseline": "DRF",
    }


def test_the_settings_rows_come_from_the_declarations(online_run: Run, client: Any, owner: Any) -> None:
    kind = kinds.get_kind("udrf")
    assert kind.settings(online_run.options) == [
        ("Policies", "UDRF, DRF"), ("Online", "yes"), ("Decision interval", "2 s"),
        ("Horizon", "until every job is done"), ("Waiting queue", "50"), ("Seed", "7"),
    ]
    # offline: the online options are not the run's
    assert kind.settings({"online": False, "compare_drf": False, "policies": ["udrf"], "interval_s": 1.0,
                          "queue_capacity": 100, "seed": 0}) == [("Policies", "UDRF"), ("Online", "no")]
    # an old run's options (stored before the declarations) still show
    assert kind.settings({"online": True, "policies": ["udrf", "drf"], "interval_s": 1, "horizon_s": 600,
                          "queue_capacity": 100, "seed": 0})[2:4] == [
        ("Decision interval", "1 s"), ("Horizon", "600 s")]
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[online_run.pk])).content.decode()
    assert "Decision interval" in page and "until every job is done" in page


def test_the_presets_are_the_librarys() -> None:
    kind = kinds.get_kind("udrf")
    found = kind.presets()
    assert found == kind.presets()  # drawn once per process
    assert [(p.key, p.title, p.description, p.scenario, p.params) for p in found] == [
        (p.key, p.title, p.description, p.scenario, p.params) for p in presets()
    ]
    assert found[0].scenario == EXAMPLE


def test_a_run_shows_who_gets_less_than_under_drf(
    api: Any, owner: Any, team: Any, execute_run: Callable[[int], str], client: Any
) -> None:
    # The library's below-DRF set-up: u1 at level 1/2 under UDRF, 1 under DRF (Fig. 3, line 25).
    from planner.runs.reporting import run_report
    from scheduling.udrf.setups import below_drf_document

    response = start_udrf(api, owner, scenario=below_drf_document())
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert execute_run(run.pk) == "succeeded"
    run.refresh_from_db()
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert "Users below their DRF share" in page and "Largest loss against DRF" in page
    assert 'id="udrf-below-drf-table"' in page
    assert "Users who get less than under DRF, and by how much" in page
    table = page[page.index('id="udrf-below-drf-table"'):]
    assert "u1" in table[:table.index("</table>")] and "u2" not in table[:table.index("</table>")]
    report = run_report(run=run, fmt="csv", currency="$").body.decode("utf-8-sig")
    assert "Users who get less than under DRF, and by how much" in report
    assert "Less than under DRF (points)" in report
