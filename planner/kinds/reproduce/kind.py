"""Reproductions: every claim of the papers' tables and figures, ours beside the paper's, judged.

The same table as ``python -m scheduling reproduce`` (:mod:`scheduling.reproduce`): one part per
paper (its claims, declared in its library package, measured over the run's seeds on a worker);
the run page shows each paper's table, the comparison counts the verdicts per paper, and the
reports lay both out. A reproduction needs no scenario: each claim builds the papers' own
set-ups, so the run records the cluster of paper 003 as its scenario, with no jobs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from planner.reports import FORMATS, ReportBody
from planner.reports.tables import detail_as_table, summary_table
from planner.runs.kinds import Headline, PartSpec, Progress, RunKind, RunPlan, Variant
from scheduling import Scenario
from scheduling.presets import preset_vm_types
from scheduling.reproduce import (
    PAPER_TITLES,
    REPRODUCE_PARAMS,
    REPRODUCTION_METRICS,
    Claim,
    all_claims,
    reproduce,
    reproduction_document,
    reproduction_run,
)
from scheduling.tables import Column, comparison_table, detail_table

__all__ = ["ReproduceKind", "recorded_scenario"]

#: The columns of a paper's table on the run page and in the reports (the document's fields).
CLAIM_COLUMNS = (
    Column("where", "Where"),
    Column("what", "Claim"),
    Column("paper_value", "Paper's value"),
    Column("ours", "Ours (mean, range over seeds)"),
    Column("verdict", "Verdict"),
    Column("reason", "Why it differs"),
)


def recorded_scenario() -> dict[str, Any]:
    """What a reproduction records as its scenario: paper 003's cluster, no jobs (each claim builds
    the papers' own set-ups)."""
    return {"name": "The papers' set-ups", "resources": ["cpu", "mem"],
            "vm_types": preset_vm_types("paper-003"), "jobs": []}


def _variant(paper: str) -> str:
    return f"paper {paper}"


def _claims_table(document: Mapping[str, Any]) -> dict[str, Any]:
    paper = ", ".join(document.get("papers") or [])
    return dict(detail_table(f"claims-{paper}", f"Paper {PAPER_TITLES.get(paper, paper)}", CLAIM_COLUMNS,
                             list(document.get("claims") or [])))


class ReproduceKind(RunKind):
    """Measure the papers' claims and say, claim by claim, whether ours reproduces them."""

    key = "reproduce"
    label = "Reproductions"
    variant_name = "paper"
    params = REPRODUCE_PARAMS
    results_template = "kinds/reproduce/results.html"
    report_formats = tuple(FORMATS)
    start_url = "web:reproduce-start"
    question = "Check the papers' figures"

    def default_scenario(self, params: Mapping[str, Any]) -> Any | None:
        return recorded_scenario()

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        options = reproduction_run(params)
        parts = [PartSpec(_variant(p), {"paper": p}) for p in options["papers"]]
        return RunPlan(options, parts, f"Reproductions of papers {', '.join(options['papers'])}")

    def execute(self, scenario: Scenario, options: Mapping[str, Any], context: Mapping[str, Any],
                payload: Mapping[str, Any], *, progress: Progress) -> list[Variant]:
        paper = str(payload["paper"])
        claims: list[Claim] = all_claims([paper])
        outcomes = reproduce(claims, seeds=int(options["seeds"]), progress=progress)
        return [Variant(_variant(paper), reproduction_document(outcomes, seeds=int(options["seeds"])))]

    def summary(self, document: Mapping[str, Any]) -> dict[str, Any]:
        # The whole document is a few dozen rows: the run page shows every claim from it.
        return dict(document)

    def baseline(self, variants: Any, options: Mapping[str, Any], asked: str | None) -> str | None:
        return None  # papers are not measured against one another

    def table(self, summaries: Mapping[str, Mapping[str, Any]], *, options: Mapping[str, Any],
              baseline: str | None, currency: str) -> dict[str, Any]:
        return dict(comparison_table(summaries, baseline=None, currency=currency,
                                     metrics=REPRODUCTION_METRICS))

    def headline(self, summaries: Mapping[str, Mapping[str, Any]], *, currency: str) -> Headline | None:
        counts = [s.get("counts") or {} for s in summaries.values()]
        total = sum(sum(c.values()) for c in counts)
        if not total:
            return None
        done = sum(c.get("reproduced", 0) for c in counts)
        return Headline(f"{done} of {total}", "claims reproduced")

    def report(self, *, results: Mapping[str, Mapping[str, Any]], options: Mapping[str, Any],
               baseline: str | None, currency: str) -> ReportBody:
        comparison = comparison_table(results, baseline=None, currency=currency, metrics=REPRODUCTION_METRICS,
                                      detail=True)
        tables = [summary_table(comparison, "Paper")]
        tables += [detail_as_table(_claims_table(doc)) for doc in results.values()]  # type: ignore[arg-type]
        return ReportBody(subtitle="reproductions of the papers' tables and figures", comparison=comparison,
                          tables=tables)

    def page_context(self, run: Any, summaries: Mapping[str, Mapping[str, Any]], *, baseline: str | None,
                     currency: str) -> dict[str, Any]:
        return {"papers": [_claims_table(doc) for doc in summaries.values()]}

    def api_fields(self, run: Any) -> dict[str, Any]:
        return {"papers": list((run.options or {}).get("papers") or [])}
