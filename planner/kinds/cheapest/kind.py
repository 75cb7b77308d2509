"""The cheapest cluster (issue 18): the cheapest VM counts, in ranges, that meet a deadline target.

Everything is the library's (:mod:`scheduling.cost.cheapest`): the parameters and their checks
(:data:`~scheduling.cost.cheapest.CHEAPEST_PARAMS`, :func:`~scheduling.cost.cheapest.cheapest_run`),
the search (:func:`~scheduling.cost.cheapest.search_part`), the answer joined from the parts
(:func:`~scheduling.cost.cheapest.join_parts`), its tables, figures and presets.

**Parts, planned up front.** The run-parts machinery plans every part when the run starts, so
the search is not planned in waves: the run has ``workers`` parts, and part ``i`` walks every
``workers``-th candidate of the one order of increasing lower bounds (positions ``i``,
``i + workers``, ...), simulating them one after another and stopping on its own when its next
bound reaches the cheapest cost it has met. The parts never wait for each other, and the answer
stays sound: a part's cheapest cost met is at least the cheapest of all parts, so whatever a
part left has a bound at least the answer's cost. The price is some extra simulations (a part
does not know the others' cheaper answers); the join (at the page, the figures and the reports,
from the parts' documents) certifies. Each part computes the prune rules and the bounds itself
(a few seconds for 9,261 candidates), so nothing runs in the request.

A part's summary is its document with only the candidates an answer can show (its frontier, its
cheapest and its closest: :func:`~scheduling.cost.cheapest.answer.compact_part`), so the run
page and the run list read summaries of a few kilobytes; the figures and reports read the full
documents (every candidate simulated).

A part stops proposing candidates when the worker's soft time limit nears
(:func:`part_time_budget_s`): its answer is then marked not certified, with the least the
candidates it left could cost, rather than the part being killed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from django.conf import settings

from planner.reports import FORMATS, ReportBody
from planner.reports.tables import detail_as_table, summary_table
from planner.runs.kinds import Headline, PartSpec, Progress, RunKind, RunPlan, Variant
from scheduling import Scenario, ScenarioError
from scheduling.charts import variant_colours
from scheduling.cost.cheapest import (
    CHEAPEST_PARAMS,
    Target,
    cheapest_run,
    join_parts,
    search_part,
    search_space,
)
from scheduling.cost.cheapest.answer import compact_part
from scheduling.cost.cheapest.charts import all_figures
from scheduling.cost.cheapest.setups import presets
from scheduling.cost.cheapest.space import with_reserved
from scheduling.cost.cheapest.tables import (
    PART_METRICS,
    answer_table,
    candidate_rows,
    candidates_table,
    closest_table,
    frontier_table,
    pruned_table,
    tried_table,
)
from scheduling.params import Preset
from scheduling.tables import DetailTable, comparison_table, format_money

__all__ = ["CheapestKind", "joined", "part_label"]


#: The candidates simulated that every report lists (the XLSX lists all of them).
REPORT_TRIED_ROWS = 200


def part_label(part: int, parts: int) -> str:
    """The variant of one part: ``part 1 of 2``."""
    return f"part {part + 1} of {parts}"


def part_time_budget_s() -> float:
    """How long a part searches before it stops with what it found (not certified): the task's
    soft time limit less a margin for the candidates being simulated and the results' write, so
    that a large search ends with an answer instead of being killed."""
    soft = float(settings.CELERY_TASK_SOFT_TIME_LIMIT)
    return max(0.5 * soft, soft - 120.0)


def joined(documents: Mapping[str, Mapping[str, Any]]) -> dict[str, Any] | None:
    """The answer document of a run's parts (``None`` while a part is missing: a run that failed
    or was cancelled before every part ended has no certified answer)."""
    try:
        return join_parts(list(documents.values())) if documents else None
    except ScenarioError:
        return None


def _with_rows(
    table: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], doc: Mapping[str, Any], html_id: str
) -> dict[str, Any]:
    """A table of candidates as the template lays it out: each row's candidate (for its Compare
    button), whether it is marked, and its cells."""
    numeric = [c["unit"] != "text" for c in table["columns"]]
    cells = [
        {
            "index": int(r["index"]),
            "marked": marked,
            "cells": [{"text": t, "numeric": n} for t, n in zip(texts, numeric, strict=True)],
        }
        for r, texts, marked in zip(candidate_rows(doc, rows), table["shown"], table["marked"], strict=True)
    ]
    return {"id": html_id, "table": table, "rows": cells}


class CheapestKind(RunKind):
    """The cheapest cluster in a space of VM counts that meets a target, with its certificate."""

    key = "cheapest"
    label = "Cheapest cluster"
    variant_name = "part"
    params = CHEAPEST_PARAMS
    results_template = "kinds/cheapest/results.html"
    scripts = ("planner/charts.js", "planner/variant_charts.js")
    report_formats = tuple(FORMATS)
    start_url = "web:cheapest-start"
    question = "Find the cheapest cluster"

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        options = cheapest_run(params, scenario=scenario)
        parts = int(options["workers"])
        plan = [PartSpec(part_label(i, parts), {"part": i}) for i in range(parts)]
        target = f"at most {options['max_miss_pct']:g} % missed"
        name = (
            f"{scenario.name if scenario else 'scenario'}: cheapest cluster, {options['scheduler']}, {target}"
        )
        return RunPlan(options, plan, name[:200])

    def execute(
        self,
        scenario: Scenario,
        options: Mapping[str, Any],
        context: Mapping[str, Any],
        payload: Mapping[str, Any],
        *,
        progress: Progress,
    ) -> list[Variant]:
        parts = int(options["workers"])
        part = int(payload["part"])
        scenario = with_reserved(scenario, options.get("reserved") or {})
        doc = search_part(
            scenario,
            space=search_space(scenario, options["counts"]),
            scheduler=options["scheduler"],
            target=Target.from_dict(options),
            seed=int(options["seed"]),
            part=part,
            parts=parts,
            max_simulations=options.get("max_simulations"),
            time_budget_s=part_time_budget_s(),
            progress=progress,
        )
        return [Variant(part_label(part, parts), doc)]

    def summary(self, document: Mapping[str, Any]) -> dict[str, Any]:
        return compact_part(document)

    def baseline(self, variants: Sequence[str], options: Mapping[str, Any], asked: str | None) -> str | None:
        return None  # parts share the work; none is measured against another

    def table(
        self,
        summaries: Mapping[str, Mapping[str, Any]],
        *,
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> dict[str, Any]:
        return dict(comparison_table(summaries, baseline=None, currency=currency, metrics=PART_METRICS))

    def headline(self, summaries: Mapping[str, Mapping[str, Any]], *, currency: str) -> Headline | None:
        doc = joined(summaries)
        if doc is None:
            return None
        if doc["answer"] is None:
            return Headline(
                "none", "cluster meets the target" if doc["certified"] else "found (not certified)"
            )
        caption = "cheapest cluster" + ("" if doc["certified"] else " found (not certified)")
        return Headline(format_money(doc["answer"]["cost"], currency), caption)

    def figures(self, results: Mapping[str, Mapping[str, Any]], *, currency: str) -> dict[str, Any] | None:
        doc = joined(results)
        return all_figures(doc, currency=currency) if doc is not None else None

    def report(
        self,
        *,
        results: Mapping[str, Mapping[str, Any]],
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> ReportBody:
        comparison = comparison_table(
            results, baseline=None, currency=currency, metrics=PART_METRICS, detail=True
        )
        tables = [summary_table(comparison, "Part")]
        doc = joined(results)
        figures: dict[str, Any] = {}
        if doc is not None:
            details = [
                answer_table(doc, currency=currency),
                candidates_table(doc),
                frontier_table(doc, currency=currency)
                if doc["answer"]
                else closest_table(doc, currency=currency),
                pruned_table(doc),
                {**tried_table(doc, currency=currency, limit=REPORT_TRIED_ROWS), "key": "tried-first"},
            ]
            tables += [detail_as_table(cast(DetailTable, t)) for t in details]
            figures = all_figures(doc, currency=currency)
        subtitle = "the cheapest cluster: " + (
            doc["certificate"] if doc is not None else "a part did not finish"
        )
        records = None
        if doc is not None:
            answer_doc = doc

            def records(max_rows: int) -> Any:  # every candidate simulated (the XLSX; the CSV on request)
                return detail_as_table(tried_table(answer_doc, currency=currency, limit=max_rows))

        return ReportBody(
            subtitle=subtitle, comparison=comparison, tables=tables, figures=figures, records=records
        )

    def presets(self) -> Sequence[Preset]:
        return presets()

    def page_context(
        self, run: Any, summaries: Mapping[str, Mapping[str, Any]], *, baseline: str | None, currency: str
    ) -> dict[str, Any]:
        doc = joined(summaries)
        context: dict[str, Any] = {
            "colours": variant_colours(list(summaries)),
            "plotly": True,
            "what": "Each part walks its share of the candidates in the order of their bounds.",
        }
        if doc is None:
            return context
        if doc["answer"]:
            first, first_rows = frontier_table(doc, currency=currency), doc["frontier"]
        else:
            first, first_rows = closest_table(doc, currency=currency), doc["closest"]
        tried = tried_table(doc, currency=currency)
        tried["title"] = "Candidates simulated: the frontier, the cheapest and the closest of each part"
        tried["notes"] = [f"The reports list all {doc['simulated']:,} candidates simulated."]
        return {
            **context,
            "doc": doc,
            "answer_table": answer_table(doc, currency=currency, certificate=False),  # shown above it
            "candidates_table": candidates_table(doc),
            "pruned_table": pruned_table(doc),
            "candidate_tables": [
                _with_rows(first, first_rows, doc, "cheapest-frontier"),
                _with_rows(tried, doc["tried"], doc, "cheapest-tried"),
            ],
        }

    def api_fields(self, run: Any) -> dict[str, Any]:
        return {"counts": (run.options or {}).get("counts") or {}}
