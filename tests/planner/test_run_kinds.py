"""The run-kind registry: a kind defined here, in the test suite, goes through start,
execution in parts, the run list, the run page, the API and a report download without any
change to shared code (docs/architecture.md, "Adding a run kind", is this example).

The test kind, "ladder", asks what the scenario's lower bound would be with every VM price
scaled by each of a list of factors: one part per factor, each calling the library
(:func:`scheduling.lower_bound_cost` on a repriced scenario) with progress.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from planner.core.errors import FieldError, InputError
from planner.reports import ReportContent
from planner.reports.tables import summary_table
from planner.runs import kinds
from planner.runs.kinds import Headline, PartSpec, Progress, RunKind, RunPlan, Variant
from planner.runs.models import Run, RunPart
from scheduling import Scenario, lower_bound_cost
from scheduling.numbers import finite
from scheduling.tables import Metric, comparison_table

#: The kind's one row in the presenter's table: its own metric list, the presenter's machinery.
LADDER_METRICS = (
    Metric("lower_bound_cost", "Lower bound", "money", ("lower_bound_cost",),
           lambda h, _base: finite(h.get("lower_bound_cost")), better="lower",
           note="No schedule of the repriced cluster can cost less."),
)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


class LadderKind(RunKind):
    key = "ladder"
    label = "Price ladder"
    variant_name = "factor"
    results_template = "tests/ladder.html"
    report_formats = ("csv", "pdf")

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        factors = params.get("factors")
        if not isinstance(factors, list) or not factors:
            raise InputError.single("factors", "must be a non-empty list of numbers")
        errors = [
            FieldError(f"factors[{i}]", "must be a number > 0")
            for i, f in enumerate(factors)
            if isinstance(f, bool) or not isinstance(f, (int, float)) or f <= 0
        ]
        if errors:
            raise InputError(errors)
        parts = [PartSpec(f"x{f:g}", {"factor": float(f)}) for f in factors]
        return RunPlan({"factors": factors}, parts, f"{scenario.name if scenario else '?'}: price ladder")

    def prepare(self, scenario: Scenario, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"base_bound": lower_bound_cost(scenario)}

    def execute(self, scenario: Scenario, options: Mapping[str, Any], context: Mapping[str, Any],
                payload: Mapping[str, Any], *, progress: Progress) -> list[Variant]:
        factor = float(payload["factor"])
        progress(0.5)
        repriced = replace(scenario, vm_types=tuple(
            replace(t, price_per_hour=t.price_per_hour * factor) for t in scenario.vm_types))
        bound = lower_bound_cost(repriced)
        progress(1.0)
        return [Variant(f"x{factor:g}", {"factor": factor, "lower_bound_cost": bound,
                                         "base_bound": context["base_bound"]})]

    def summary(self, document: Mapping[str, Any]) -> dict[str, Any]:
        return {"lower_bound_cost": document["lower_bound_cost"]}

    def table(self, summaries: Mapping[str, Mapping[str, Any]], *, options: Mapping[str, Any],
              baseline: str | None, currency: str) -> dict[str, Any]:
        return dict(comparison_table(summaries, baseline=baseline, currency=currency, metrics=LADDER_METRICS))

    def headline(self, summaries: Mapping[str, Mapping[str, Any]], *, currency: str) -> Headline | None:
        top = max(s["lower_bound_cost"] for s in summaries.values())
        return Headline(f"{currency}{top:.2f}", "highest bound")

    def figures(self, results: Mapping[str, Mapping[str, Any]], *, currency: str) -> dict[str, Any] | None:
        return {"ladder": {"data": [{"type": "bar", "x": list(results),
                                     "y": [r["lower_bound_cost"] for r in results.values()]}],
                           "layout": {"title": {"text": f"Lower bound ({currency})"}}}}

    def report(self, *, meta: Mapping[str, Any], results: Mapping[str, Mapping[str, Any]],
               options: Mapping[str, Any], baseline: str | None, currency: str) -> ReportContent:
        comparison = comparison_table(results, baseline=baseline, currency=currency, metrics=LADDER_METRICS,
                                      detail=True)
        return ReportContent(
            title=str(meta["run_name"]),
            subtitle="Price ladder",
            details=[("Factors", str(options["factors"]))],
            comparison=comparison,
            tables=[summary_table(comparison, "Factor")],
            figures=self.figures(results, currency=currency) or {},
            currency=currency,
        )

    def page_context(self, run: Any, summaries: Mapping[str, Mapping[str, Any]], *, baseline: str | None,
                     currency: str) -> dict[str, Any]:
        return {"note": f"{len(summaries)} factors", "settings": [("Factors", run.options["factors"])]}


@pytest.fixture
def ladder(settings: Any) -> Iterator[LadderKind]:
    """Register the test kind, and its page's template folder, for one test."""
    templates = [dict(settings.TEMPLATES[0])]
    templates[0]["DIRS"] = [*templates[0]["DIRS"], ROOT / "tests" / "planner" / "kind_templates"]
    settings.TEMPLATES = templates
    kind = kinds.register(LadderKind())
    yield kind
    kinds.unregister(kind.key)


def test_a_new_kind_goes_end_to_end_without_shared_code(
    ladder: LadderKind, api: Callable[[Any], Any], owner: Any, team: Any, scenario_doc: dict[str, Any],
    execute_run: Callable[[int], str], client: Any,
) -> None:
    # Start, through the API: the kind's own parameters pass through to its plan.
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
    assert detail["kind"] == "ladder" and detail["parameters"] == {"factors": [1, 2, 0.5]}
    bounds = {r["variant"]: r["summary"]["lower_bound_cost"] for r in detail["results"]}
    assert bounds == pytest.approx({"x1": base, "x2": 2 * base, "x0.5": base / 2})
    assert (
        api(owner).get(f"/api/runs/{run.pk}/figures/").json()["figures"]["ladder"]["data"][0]["type"] == "bar"
    )

    # The run list and the run page.
    client.force_login(owner)
    listing = client.get(reverse("web:runs")).content.decode()
    assert "Price ladder" in listing and f"${2 * base:.2f}" in listing and "highest bound" in listing
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert 'id="ladder-results"' in page and "3 factors" in page
    assert re.search(r'data-variant="x2"><th>x2</th><td>\$' + re.escape(f"{2 * base:.2f}"), page)
    assert "Price ladder" in page and "[1, 2, 0.5]" in page

    # Reports: the kind supplies the content, the shared formats lay it out; a format the
    # kind does not offer is a 404.
    body = api(owner).get(f"/api/runs/{run.pk}/report/csv/").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    header = next(r for r in rows if r and r[0] == "Factor")
    section = rows[rows.index(header) + 1: rows.index(header) + 4]
    assert [r[0] for r in section] == ["x1", "x2", "x0.5"]
    assert [float(r[1]) for r in section] == pytest.approx([base, 2 * base, base / 2], abs=0.005)
    assert client.get(reverse("web:run-report", args=[run.pk, "csv"])).status_code == 200
    assert api(owner).get(f"/api/runs/{run.pk}/report/pdf/").content.startswith(b"%PDF")
    assert api(owner).get(f"/api/runs/{run.pk}/report/xlsx/").status_code == 404


def test_a_kinds_own_validation_names_its_fields(
    ladder: LadderKind, api: Callable[[Any], Any], owner: Any, team: Any, scenario_doc: dict[str, Any]
) -> None:
    response = api(owner).post(
        "/api/runs/", {"kind": "ladder", "scenario": scenario_doc, "factors": [1, -2, "x"]}, format="json"
    )
    assert response.status_code == 400
    assert {e["path"] for e in response.json()["errors"]} == {"factors[1]", "factors[2]"}
    assert not Run.objects.exists()


def test_an_unknown_kind_is_refused_with_the_known_ones(api: Callable[[Any], Any], owner: Any, team: Any,
                                                        scenario_doc: dict[str, Any]) -> None:
    response = api(owner).post("/api/runs/", {"kind": "sweep", "scenario": scenario_doc}, format="json")
    assert response.status_code == 400
    known = ", ".join(sorted(k.key for k in kinds.all_kinds()))  # with sharing once its engine lands
    assert response.json()["errors"] == [{"path": "kind", "message": f"must be one of {known}"}]
    assert "compare" in known and "allocation" in known


def test_a_comparison_refuses_another_kinds_parameters(api: Callable[[Any], Any], owner: Any, team: Any,
                                                       scenario_doc: dict[str, Any]) -> None:
    response = api(owner).post("/api/runs/", {"scenario": scenario_doc, "factors": [1]}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "factors"


#: A comparison on a run's kind outside the registry (kinds/), e.g. ``if run.kind == "compare"``.
KIND_BRANCH = re.compile(
    r"[a-z_]*run[a-z_]*\.kind *(==|!=| in )|(==|!=|===) *['\"](compare|fairness|sharing|udrf|mrsu|sweep)['\"]"
)


def test_shared_code_never_asks_which_kind_a_run_is() -> None:
    offenders = []
    for folder in ("planner", "templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            if (
                path.suffix not in (".py", ".html", ".js")
                or "migrations" in path.parts
                or "kinds" in path.parts
            ):
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if KIND_BRANCH.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []
