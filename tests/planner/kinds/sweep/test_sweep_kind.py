"""The sweep kind: started from its page or the API, its points batched into parts, executed,
shown (every point, the fronts, the bands), reported, kept when a worker dies or the run is
cancelled, and any point opened as a comparison."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from planner.kinds.sweep import kind as sweep_kind
from planner.runs import execution, services
from planner.runs.models import Run, RunPart, RunResult
from planner.runs.tasks import run_part_execute

pytestmark = pytest.mark.django_db

#: 2 counts x 2 loads x 2 schedulers x 2 seeds.
PARAMS = {"vary": {"counts.small": [1, 3], "load.jobs": [1, 2]}, "schedulers": ["edf-bfd", "fifo-spread"],
          "seeds": 2}


@pytest.fixture(autouse=True)
def small_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    # The tiny scenario's points are estimated at 30 jobs x 2.5e-4 s = 7.5 ms (15 ms at load 2);
    # a 20 ms target makes parts of two or three points, so a run has several.
    monkeypatch.setattr(sweep_kind, "TARGET_PART_S", 0.02)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Part ids whose task message was sent (nothing reaches a broker)."""
    out: list[int] = []
    monkeypatch.setattr(run_part_execute, "apply_async", lambda args, task_id: out.append(args[0]))
    return out


def _start(api: Callable[[Any], Any], user: Any, scenario: dict[str, Any], **params: Any) -> Run:
    response = api(user).post("/api/runs/", {"kind": "sweep", "scenario": scenario, **PARAMS, **params},
                              format="json")
    assert response.status_code == 201, response.json()
    return Run.objects.get(pk=response.json()["id"])


def test_a_sweep_runs_its_points_in_parts_and_shows_and_reports_every_point(
    api: Callable[[Any], Any], owner: Any, team: Any, scenario_doc: dict[str, Any],
    execute_run: Callable[[int], str], client: Any,
) -> None:
    run = _start(api, owner, scenario_doc)
    assert run.options["points"] == 16 and run.name == "tiny: sweep of counts.small=1,3; load.jobs=1,2"
    labels = list(RunPart.objects.filter(run=run).order_by("position").values_list("label", flat=True))
    assert len(labels) > 2 and labels[0].startswith("points 1-") and labels[-1].endswith("of 16")
    payloads = RunPart.objects.filter(run=run).order_by("position").values_list("payload", flat=True)
    assert [p["point"] for payload in payloads for p in payload["points"]] == list(range(1, 17))

    assert execute_run(run.pk) == "succeeded"
    results = {r.variant: r.summary for r in RunResult.objects.filter(run=run)}
    assert len(results) == 16 and results["point 1"]["settings"] == {"counts.small": 1, "load.jobs": 1.0}
    assert results["point 16"]["scheduler"] == "fifo-spread" and results["point 16"]["seed"] == 1
    assert all(r["total_cost"] > 0 and r["unfairness_area"] is not None for r in results.values())

    figures = api(owner).get(f"/api/runs/{run.pk}/figures/").json()["figures"]
    assert {"cost-misses", "cost-unfairness", "band:total_cost:counts.small", "band:total_cost:load.jobs",
            "band:deadline_miss_pct:load.jobs"} <= set(figures)
    assert figures["cost-misses"]["data"][-1]["name"] == "Pareto front"

    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert 'id="sweep-points-table"' in page and page.count('form="point-compare"') == 16
    assert 'id="summary-table"' in page and "Points on the cost-misses front" in page
    assert reverse("web:sweep-point-compare", args=[run.pk, 16]) in page
    assert 'data-figure="cost-misses"' in page
    listing = client.get(reverse("web:runs")).content.decode()
    assert "cheapest of 16 points" in listing

    body = api(owner).get(f"/api/runs/{run.pk}/report/csv/").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    header = next(r for r in rows if r[:2] == ["Point", "Scheduler"])
    points = rows[rows.index(header) + 1: rows.index(header) + 17]
    assert [r[0] for r in points] == [str(n) for n in range(1, 17)]
    assert "Unfairness area (share·s)" in header and "Pareto front" in header
    assert ["Seeds", "2"] in rows and ["Points", "16"] in rows
    xlsx = api(owner).get(f"/api/runs/{run.pk}/report/xlsx/")
    assert xlsx.status_code == 200 and xlsx.content.startswith(b"PK")
    assert api(owner).get(f"/api/runs/{run.pk}/report/pdf/").content.startswith(b"%PDF")


def test_finished_points_stay_when_a_worker_dies_and_when_the_run_is_cancelled(
    api: Callable[[Any], Any], owner: Any, team: Any, scenario_doc: dict[str, Any], sent: list[int],
    client: Any,
) -> None:
    run = _start(api, owner, scenario_doc)
    first, second, *rest = RunPart.objects.filter(run=run).order_by("position")
    assert execution.part_execute_now(first.pk) == "succeeded"
    kept = set(RunResult.objects.filter(run=run).values_list("id", flat=True))
    assert len(kept) == len(first.payload["points"])

    # The second part's worker dies mid-part: its lease lapses and the reaper queues it again.
    assert execution.part_claim(second.pk) is not None
    RunPart.objects.filter(pk=second.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    assert services.runs_reap()["requeued"] == 1
    assert set(RunResult.objects.filter(run=run).values_list("id", flat=True)) == kept
    assert execution.part_execute_now(second.pk) == "succeeded"
    done = len(first.payload["points"]) + len(second.payload["points"])
    assert RunResult.objects.filter(run=run).count() == done

    # Cancelled as a whole: every part not ended is cancelled at once; the points done stay.
    response = api(owner).post(f"/api/runs/{run.pk}/cancel/")
    assert response.status_code in (200, 202), response.content
    run.refresh_from_db()
    assert run.status == "cancelled"
    assert {p.status for p in RunPart.objects.filter(pk__in=[p.pk for p in rest])} == {"cancelled"}
    assert execution.part_execute_now(rest[0].pk) == "skipped"
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert "The parts that had finished are shown below." in page
    assert page.count('form="point-compare"') == RunResult.objects.filter(run=run).count()


def test_a_point_opens_as_a_comparison_on_its_cluster(
    api: Callable[[Any], Any], owner: Any, team: Any, scenario_doc: dict[str, Any],
    execute_run: Callable[[int], str], client_for: Callable[[Any], Any], outsider: Any, other_team: Any,
    member: Any,
) -> None:
    run = _start(api, owner, scenario_doc, vary={"counts.small": [1, 3], "prices.big": [0.5]},
                 schedulers=["edf-bfd", "morpheus"], seeds=1)
    assert execute_run(run.pk) == "succeeded"
    url = reverse("web:sweep-point-compare", args=[run.pk, 2])  # counts.small=1, morpheus
    assert client_for(outsider).post(url).status_code == 404
    assert client_for(owner).get(url).status_code == 405  # a POST starts a run, never a GET
    response = client_for(owner).post(url)
    assert response.status_code == 302
    comparison = Run.objects.get(kind="compare")
    assert response["Location"] == reverse("web:run-detail", args=[comparison.pk])
    types = {t["name"]: t for t in comparison.scenario["vm_types"]}
    assert types["small"]["count"] == 1 and types["big"]["price_per_hour"] == pytest.approx(0.24)
    assert comparison.options["schedulers"] == ["edf-bfd", "morpheus"]
    assert comparison.options["baseline"] == "morpheus" and "point 2" in comparison.name
    assert execute_run(comparison.pk) == "succeeded"
    cost = RunResult.objects.get(run=comparison, variant="morpheus").summary["total_cost"]
    point = RunResult.objects.get(run=run, variant="point 2").summary
    assert cost == pytest.approx(point["total_cost"])  # the same simulation as the point's
    assert client_for(owner).post(reverse("web:sweep-point-compare", args=[run.pk, 99])).status_code == 404
    assert client_for(member).post(url).status_code == 302  # a member of the team may too


def test_bad_parameters_are_named_at_their_paths(
    api: Callable[[Any], Any], owner: Any, team: Any, scenario_doc: dict[str, Any]
) -> None:
    response = api(owner).post("/api/runs/", {
        "kind": "sweep", "scenario": scenario_doc, "vary": {"counts.m9": [1], "load.jobs": [0]},
        "schedulers": ["edf-quantum"], "seeds": 0, "sample": 5000}, format="json")
    assert response.status_code == 400
    paths = {e["path"] for e in response.json()["errors"]}
    assert paths == {"vary.load.jobs[0]", "schedulers[0]", "seeds", "sample"}
    response = api(owner).post("/api/runs/", {"kind": "sweep", "scenario": scenario_doc,
                                              "vary": {"counts.m9": [1]}}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "vary.counts.m9"
    assert not Run.objects.exists()


def test_its_start_page_has_its_fields_presets_and_errors_on_the_field(
    client: Any, owner: Any, team: Any, cluster: Any, workload: Any, execute_run: Callable[[int], str],
) -> None:
    client.force_login(owner)
    url = reverse("web:sweep-start")
    page = client.get(url).content.decode()
    for name in ("vary", "schedulers", "seeds", "sample", "seed", "cluster", "workload"):
        assert f'name="{name}"' in page
    assert "m1.large" in page and 'id="axes-help"' in page
    assert f'href="{url}"' in client.get(reverse("web:dashboard")).content.decode()
    assert "What if… (sweep counts, prices, load)" in client.get(reverse("web:dashboard")).content.decode()
    filled = client.get(url + "?preset=sweep-003-spot-load").content.decode()
    assert "prices.m1.large=0.4,0.7,1; load.jobs=1,1.5,2" in filled

    form = {"source": "stored", "cluster": cluster.pk, "workload": workload.pk, "schedulers": ["edf-bfd"],
            "seeds": "1"}
    bad = client.post(url, {**form, "vary": "counts.m9=1\nload.jobs=1,x"})
    assert bad.status_code == 400 and "vary" in bad.context["form"].errors
    bad = client.post(url, {**form, "vary": "counts.m9=1"})
    assert bad.status_code == 400 and "'m9' is not a VM type" in bad.context["form"].errors["vary"][0]
    assert not Run.objects.exists()
    started = client.post(url, {**form, "vary": "counts.m1.large=1,2\ncounts.m2.xlarge=0,1"})
    assert started.status_code == 302, started.context["form"].errors if started.context else ""
    run = Run.objects.get()
    assert run.kind == "sweep" and run.options["points"] == 4 and run.cluster_id == cluster.pk
    assert execute_run(run.pk) == "succeeded"


def test_a_sweep_is_cloned_with_its_axes(
    api: Callable[[Any], Any], owner: Any, team: Any, scenario_doc: dict[str, Any], client: Any,
    execute_run: Callable[[int], str],
) -> None:
    run = _start(api, owner, scenario_doc, seeds=1)
    assert execute_run(run.pk) == "succeeded"
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    clone = f"{reverse('web:sweep-start')}?clone={run.pk}"
    assert f'href="{clone}"' in page
    filled = client.get(clone).content.decode()
    assert "counts.small=1,3; load.jobs=1,2" in filled
    form = client.get(clone).context["form"]
    assert form.initial["schedulers"] == ["edf-bfd", "fifo-spread"] and form.initial["seeds"] == 1
