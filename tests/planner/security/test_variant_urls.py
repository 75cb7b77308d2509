"""Issue 21: a variant's label may hold any character a name may (``/``, ``?``, ``#``, ``%``,
spaces); the run list, the run's detail and the links they give answer all the same."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlsplit

import pytest

from planner.runs.models import Run, RunResult

LABELS = ["a/b", "refuse/5 s", "x?y#z", "50% off", "trailing/", "é – ü", "a//b"]


@pytest.fixture
def awkward_run(succeeded_run: Run) -> Run:
    results = list(RunResult.objects.filter(run=succeeded_run).order_by("position"))
    for result, label in zip(results, LABELS, strict=False):
        RunResult.objects.filter(pk=result.pk).update(variant=label)
    return succeeded_run


def path_of(url: str) -> str:
    return urlsplit(url).path


def test_runs_whose_labels_hold_slashes_are_listed_and_their_results_are_reachable(
    awkward_run: Run, api: Callable[[Any], Any], owner: Any
) -> None:
    client = api(owner)
    listing = client.get("/api/runs/")
    assert listing.status_code == 200
    detail = client.get(f"/api/runs/{awkward_run.pk}/")
    assert detail.status_code == 200
    results = detail.json()["results"]
    assert {r["variant"] for r in results} >= set(LABELS[:3])
    for entry in results:
        response = client.get(path_of(entry["url"]))
        assert response.status_code == 200, entry
        stored = RunResult.objects.get(run=awkward_run, variant=entry["variant"]).result
        assert json.loads(response.getvalue()) == stored  # streamed


@pytest.mark.parametrize("label", LABELS[:3])
def test_a_label_encoded_whole_reaches_the_same_result(
    awkward_run: Run, api: Callable[[Any], Any], owner: Any, label: str
) -> None:
    """What the replay page's script sends (``encodeURIComponent``): ``a%2Fb``."""
    client = api(owner)
    response = client.get(f"/api/runs/{awkward_run.pk}/results/{quote(label, safe='')}/")
    assert response.status_code == 200
    replay = client.get(f"/api/runs/{awkward_run.pk}/replay/{quote(label, safe='')}/?t=0")
    assert replay.status_code == 200, replay.content[:300]


def test_a_sharing_configuration_labelled_with_a_slash_runs_and_is_listed(
    api: Callable[[Any], Any],
    owner: Any,
    team: Any,
    execute_run: Callable[[int], str],
    fake_share: None,
) -> None:
    from tests.planner.kinds.sharing.documents import CONFIGURATIONS, two_frameworks

    configurations = [
        dict(CONFIGURATIONS[0], label="refuse 5 s"),
        dict(CONFIGURATIONS[1], label="refuse/1 s"),
    ]
    client = api(owner)
    response = client.post(
        "/api/runs/",
        {"kind": "sharing", "scenario": two_frameworks(), "configurations": configurations},
        format="json",
    )
    assert response.status_code == 201, response.json()
    run_id = response.json()["id"]
    assert execute_run(run_id) == "succeeded"
    assert client.get("/api/runs/").status_code == 200
    detail = client.get(f"/api/runs/{run_id}/")
    assert detail.status_code == 200
    (slashed,) = [r for r in detail.json()["results"] if r["variant"] == "refuse/1 s"]
    assert client.get(path_of(slashed["url"])).status_code == 200
