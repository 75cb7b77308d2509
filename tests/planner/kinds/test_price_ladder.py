"""A run kind added as one package and one line of configuration goes end to end.

The price ladder (``tests/planner/kinds/price_ladder/``, the worked example of
docs/architecture.md) is installed by ``planner/settings/test.py`` alone. Through shared code
only, it is started from its own start page (fields built from its declared parameters, a
preset, errors on the field) and from the API (its parameters documented in the schema),
executed in parts, listed, shown on the run page with its settings, and reported.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from planner.runs import kinds
from planner.runs.models import Run, RunPart

pytestmark = pytest.mark.django_db


def test_a_kind_package_goes_end_to_end_through_shared_code(
    api: Callable[[Any], Any], owner: Any, team: Any, scenario_doc: dict[str, Any],
    execute_run: Callable[[int], str], client: Any,
) -> None:
    assert kinds.get_kind("ladder").label == "Price ladder"  # registered by its app's configuration

    # Start, through the API: the kind's own parameters, read by its declarations.
    response = api(owner).post(
        "/api/runs/", {"kind": "ladder", "scenario": scenario_doc, "factors": [1, 2, 0.5]}, format="json"
    )
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert run.kind == "ladder" and run.name == "tiny: price ladder"
    assert list(RunPart.objects.filter(run=run).values_list("label", flat=True)) == ["x1", "x2", "x0.5"]

    # Execution: one part per factor; the last closes the run.
    assert execute_run(run.pk) == "succeeded"
    base = run.context["base_bound"]
    detail = api(owner).get(f"/api/runs/{run.pk}/").json()
    assert detail["kind"] == "ladder" and detail["parameters"] == {"factors": [1.0, 2.0, 0.5]}
    bounds = {r["variant"]: r["summary"]["lower_bound_cost"] for r in detail["results"]}
    assert bounds == pytest.approx({"x1": base, "x2": 2 * base, "x0.5": base / 2})
    figures = api(owner).get(f"/api/runs/{run.pk}/figures/").json()["figures"]
    assert figures["ladder"]["data"][0]["type"] == "bar"

    # The run list and the run page (the shell shows its settings, from its declarations).
    client.force_login(owner)
    listing = client.get(reverse("web:runs")).content.decode()
    assert "Price ladder" in listing and f"${2 * base:.2f}" in listing and "highest bound" in listing
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert 'id="ladder-results"' in page and "3 factors" in page
    assert re.search(r'data-variant="x2"><th>x2</th><td>\$' + re.escape(f"{2 * base:.2f}"), page)
    assert "<dt>Price factors</dt><dd class=\"mono\">1 2 0.5</dd>" in page
    assert f'href="{reverse("web:ladder-start")}?clone={run.pk}"' in page

    # Reports: the kind supplies the body, the shell its header, the formats lay it out.
    body = api(owner).get(f"/api/runs/{run.pk}/report/csv/").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert ["Run id", str(run.pk)] in rows and ["Price factors", "1 2 0.5"] in rows
    header = next(r for r in rows if r and r[0] == "Factor")
    section = rows[rows.index(header) + 1: rows.index(header) + 4]
    assert [r[0] for r in section] == ["x1", "x2", "x0.5"]
    assert [float(r[1]) for r in section] == pytest.approx([base, 2 * base, base / 2], abs=0.005)
    assert client.get(reverse("web:run-report", args=[run.pk, "csv"])).status_code == 200
    assert api(owner).get(f"/api/runs/{run.pk}/report/pdf/").content.startswith(b"%PDF")
    assert api(owner).get(f"/api/runs/{run.pk}/report/xlsx/").status_code == 404


def test_its_start_page_is_built_from_its_declarations(
    client: Any, owner: Any, team: Any, scenario_doc: dict[str, Any], execute_run: Callable[[int], str],
) -> None:
    client.force_login(owner)
    url = reverse("web:ladder-start")
    page = client.get(url).content.decode()
    # The field, its label, its help with the range and default, its text form's example.
    assert 'name="factors"' in page and "Price factors" in page
    assert "Each VM price is multiplied by each factor in turn. (1 to 10 items; default 0.5 1 2)" in page
    assert 'placeholder="0.5 1 2"' in page
    # The nav links every kind's start page, this one too.
    assert f'href="{url}"' in client.get(reverse("web:dashboard")).content.decode()
    # A preset fills the page.
    filled = client.get(url + "?preset=halves-and-doubles").content.decode()
    assert 'value="0.5 1 2"' in filled and "Halve and double every price" in filled

    import json

    form = {"source": "document", "document": json.dumps(scenario_doc), "factors": "1 -2 x"}
    bad = client.post(url, form)
    assert bad.status_code == 400
    errors = bad.context["form"].errors
    assert "factors" in errors and "'x' is not a number" in errors["factors"][0]
    bad = client.post(url, {**form, "factors": "1 -2"})
    assert bad.status_code == 400 and "[1]: must be a number > 0" in bad.context["form"].errors["factors"][0]
    assert not Run.objects.exists()

    started = client.post(url, {**form, "factors": "3, 4"})
    assert started.status_code == 302
    run = Run.objects.get()
    assert run.kind == "ladder" and run.options == {"factors": [3.0, 4.0]}
    assert execute_run(run.pk) == "succeeded"


def test_its_parameters_are_documented_in_the_api_schema(api: Callable[[Any], Any], owner: Any) -> None:
    schema = api(owner).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    factors = schema["components"]["schemas"]["LadderRunParametersRequest"]["properties"]["factors"]
    assert factors["type"] == "array" and factors["maxItems"] == 10 and factors["default"] == [0.5, 1.0, 2.0]
    assert factors["items"]["minimum"] == 0


def test_its_own_validation_names_its_fields(
    api: Callable[[Any], Any], owner: Any, team: Any, scenario_doc: dict[str, Any]
) -> None:
    response = api(owner).post(
        "/api/runs/", {"kind": "ladder", "scenario": scenario_doc, "factors": [1, -2, "x"], "colour": 1},
        format="json",
    )
    assert response.status_code == 400
    assert {e["path"] for e in response.json()["errors"]} == {"factors[1]", "factors[2]", "colour"}
    assert not Run.objects.exists()
