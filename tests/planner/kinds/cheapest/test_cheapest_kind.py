"""The cheapest-cluster kind: started from its page or the API, searched in parts on the workers,
the library's answer on the run page (certificate, candidates, pruning, charts), in the run list
and the reports, and a candidate opened as an ordinary comparison."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from planner.runs.models import Run, RunPart
from scheduling import parse_scenario
from scheduling.cost.cheapest import Target, cheapest

pytestmark = pytest.mark.django_db

COUNTS = {"small": [0, 4], "big": [0, 3]}


def _start(api: Callable[[Any], Any], user: Any, scenario_doc: dict[str, Any], **params: Any) -> Any:
    return api(user).post(
        "/api/runs/",
        {
            "kind": "cheapest",
            "scenario": scenario_doc,
            "counts": COUNTS,
            "max_miss_pct": 10,
            "workers": 2,
            **params,
        },
        format="json",
    )


def test_a_search_runs_in_parts_and_gives_the_librarys_answer(
    api: Callable[[Any], Any],
    owner: Any,
    member: Any,
    outsider: Any,
    team: Any,
    other_team: Any,
    scenario_doc: dict[str, Any],
    execute_run: Callable[[int], str],
    client_for: Callable[[Any], Any],
) -> None:
    response = _start(api, owner, scenario_doc)
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert list(RunPart.objects.filter(run=run).values_list("label", flat=True)) == [
        "part 1 of 2",
        "part 2 of 2",
    ]
    assert execute_run(run.pk) == "succeeded"

    # The planner adds no logic: its answer is the library's on the same scenario.
    expected = cheapest(
        parse_scenario(scenario_doc), scheduler="edf-bfd", counts=COUNTS, target=Target(max_miss_pct=10)
    ).to_dict()
    assert expected["answer"] is not None and expected["certified"]
    page = client_for(owner).get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert "cheapest within the space: " in page and 'id="cheapest-frontier-table"' in page
    assert f"of {expected['candidates']} candidates simulated" in page  # N of M
    assert 'data-figure="frontier"' in page and 'id="summary-table"' in page
    answer = expected["answer"]
    assert f'data-candidate="{answer["index"]}" class="best"' in page
    listing = client_for(owner).get(reverse("web:runs")).content.decode()
    assert "cheapest cluster" in listing

    body = api(owner).get(f"/api/runs/{run.pk}/report/csv/").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert any(r and r[0] == "Certificate" and r[1].startswith("cheapest within the space") for r in rows)
    assert any(r and r[0] == "Lower bound over every cluster shape" for r in rows)
    assert api(owner).get(f"/api/runs/{run.pk}/report/pdf/").content.startswith(b"%PDF")
    xlsx = api(owner).get(f"/api/runs/{run.pk}/report/xlsx/")
    assert xlsx.status_code == 200 and xlsx.content.startswith(b"PK")
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(xlsx.content))
    every = book[book.sheetnames[-1]]  # the records: every candidate simulated, one row each
    listed = [r for r in every.iter_rows(values_only=True) if r and isinstance(r[0], str) and "×" in r[0]]
    assert len(listed) == next(int(r[1]) for r in rows if r and r[0] == "Simulated")

    # The answer opens as an ordinary comparison of that cluster (owner and member; an outsider
    # does not see the search).
    url = reverse("web:cheapest-candidate-compare", args=[run.pk, answer["index"]])
    assert client_for(outsider).post(url).status_code == 404
    started = client_for(member).post(url)
    assert started.status_code == 302
    comparison = Run.objects.exclude(pk=run.pk).get()
    assert comparison.kind == "compare" and comparison.options["schedulers"] == ["edf-bfd"]
    got = {t["name"]: t["count"] for t in comparison.scenario["vm_types"]}
    assert got == {name: n for name, n in answer["counts"].items() if n > 0}
    assert (
        client_for(owner).post(reverse("web:cheapest-candidate-compare", args=[run.pk, 999])).status_code
        == 404
    )


def test_bad_input_names_its_field(
    api: Callable[[Any], Any], owner: Any, team: Any, scenario_doc: dict[str, Any]
) -> None:
    response = _start(
        api,
        owner,
        scenario_doc,
        counts={"huge": [0, 2], "small": [3, 1]},
        max_miss_pct=101,
        scheduler="edf-nope",
    )
    assert response.status_code == 400
    paths = {e["path"] for e in response.json()["errors"]}
    assert "max_miss_pct" in paths
    response = _start(
        api,
        owner,
        scenario_doc,
        counts={"huge": [0, 2], "small": [3, 1]},
        scheduler="edf-nope",
        reserved={"small": 1},
    )
    assert response.status_code == 400
    assert {e["path"] for e in response.json()["errors"]} == {
        "counts.huge",
        "counts.small",
        "scheduler",
        "reserved.small",  # the scenario gives small no reserved price
    }


def test_its_start_page_has_presets_and_puts_errors_on_fields(
    owner: Any,
    team: Any,
    cluster: Any,
    workload: Any,
    client_for: Callable[[Any], Any],
) -> None:
    client = client_for(owner)
    url = reverse("web:cheapest-start")
    page = client.get(url).content.decode()
    for name in ("counts", "scheduler", "max_miss_pct", "seed", "workers"):
        assert f'name="{name}"' in page
    assert "cheapest-003-none-missed" in page and "m1.large" in page
    preset = client.get(url, {"preset": "cheapest-003-none-missed"}).content.decode()
    assert "m1.large=0-6, m1.xlarge=0-6, m2.xlarge=0-6" in preset
    bad = client.post(
        url,
        {
            "source": "stored",
            "cluster": cluster.pk,
            "workload": workload.pk,
            "counts": "m9=0-2",
            "scheduler": "edf-bfd",
            "max_miss_pct": "0",
        },
    )
    assert bad.status_code == 400 and "counts" in bad.context["form"].errors
    ok = client.post(
        url,
        {
            "source": "stored",
            "cluster": cluster.pk,
            "workload": workload.pk,
            "counts": "m1.large=0-2, m2.xlarge=1-2",
            "scheduler": "edf-bfd",
            "max_miss_pct": "5",
        },
    )
    assert ok.status_code == 302, ok.context["form"].errors if ok.context else ok
    run = Run.objects.get()
    assert run.kind == "cheapest" and run.options["counts"] == {"m1.large": [0, 2], "m2.xlarge": [1, 2]}


def test_the_dashboard_asks_the_question(owner: Any, team: Any, client_for: Callable[[Any], Any]) -> None:
    page = client_for(owner).get(reverse("web:dashboard")).content.decode()
    assert "Find the cheapest cluster" in page
