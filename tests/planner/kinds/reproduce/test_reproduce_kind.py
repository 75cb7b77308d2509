"""The reproductions kind: started from its page or the API with no scenario, one part per paper,
the verdicts per paper and every claim on the run page and in the reports.

The papers' own claims are measured by the library's tests; here the kind's plumbing runs on
claims declared in the test (the kind's ``all_claims`` is replaced), so it stays fast.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from django.urls import reverse

from planner.kinds.reproduce import kind as reproduce_kind
from planner.runs.models import Run, RunPart
from scheduling.reproduce import Claim, between

pytestmark = pytest.mark.django_db


def _claims(papers: Iterable[str]) -> list[Claim]:
    made = [
        Claim("000", "k-table", "Table I", "tasks in all under rPS-DSF", "42", "tasks",
              measure=lambda seed: 42.0, reproduced=between(41.5, 42.5), seeded=False),
        Claim("001", "k-fig1", "Figure 1", "Scylla's unfairness", "38 %", "percent",
              measure=lambda seed: 36.0 + seed, reproduced=between(30, 45)),
        Claim("001", "k-va", "§V-A", "unfairness with a 5 s refusal minus with none", "< 0", "percent",
              measure=lambda seed: 3.0, reproduced=between(-100, 0), reason="Refusals stay too long."),
    ]
    return [c for c in made if c.paper in list(papers)]


@pytest.fixture(autouse=True)
def claims(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reproduce_kind, "all_claims", _claims)


def test_a_reproduction_runs_one_part_per_paper_with_no_scenario(
    api: Callable[[Any], Any], owner: Any, team: Any, execute_run: Callable[[int], str], client: Any,
) -> None:
    response = api(owner).post("/api/runs/", {"kind": "reproduce", "papers": ["000", "001"], "seeds": 3},
                               format="json")
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert run.options == {"papers": ["000", "001"], "seeds": 3}
    assert list(RunPart.objects.filter(run=run).values_list("label", flat=True)) == ["paper 000", "paper 001"]
    assert run.scenario["name"] == "The papers' set-ups" and run.scenario["jobs"] == []
    assert execute_run(run.pk) == "succeeded"

    detail = json.loads(api(owner).get(f"/api/runs/{run.pk}/results/paper 001/").getvalue())
    fig1 = detail["claims"][0]
    assert fig1["values"] == [36.0, 37.0, 38.0] and fig1["verdict"] == "reproduced"
    assert detail["counts"]["differs"] == 1 and detail["claims"][1]["reason"] == "Refusals stay too long."

    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert 'id="summary-table"' in page and "Scylla&#x27;s unfairness" in page
    assert "Refusals stay too long." in page
    assert "<dt>Seeds</dt><dd class=\"mono\">3</dd>" in page
    listing = client.get(reverse("web:runs")).content.decode()
    assert "2 of 3" in listing and "claims reproduced" in listing

    body = api(owner).get(f"/api/runs/{run.pk}/report/csv/").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert ["Seeds", "3"] in rows
    assert any(r[:2] == ["§V-A", "unfairness with a 5 s refusal minus with none"] for r in rows)
    assert api(owner).get(f"/api/runs/{run.pk}/report/pdf/").content.startswith(b"%PDF")


def test_its_start_page_takes_papers_and_seeds_only(client: Any, owner: Any, team: Any) -> None:
    client.force_login(owner)
    url = reverse("web:reproduce-start")
    page = client.get(url).content.decode()
    assert 'name="papers"' in page and 'name="seeds"' in page and 'name="document"' not in page
    bad = client.post(url, {"seeds": "0"})
    assert bad.status_code == 400 and "seeds" in bad.context["form"].errors
    assert not Run.objects.exists()
    started = client.post(url, {"papers": ["001"], "seeds": "2"})
    assert started.status_code == 302
    run = Run.objects.get()
    assert run.kind == "reproduce" and run.options == {"papers": ["001"], "seeds": 2}


def test_bad_parameters_name_their_fields(api: Callable[[Any], Any], owner: Any, team: Any) -> None:
    response = api(owner).post("/api/runs/", {"kind": "reproduce", "papers": ["009"], "seeds": "x"},
                               format="json")
    assert response.status_code == 400
    assert {e["path"] for e in response.json()["errors"]} == {"papers[0]", "seeds"}
