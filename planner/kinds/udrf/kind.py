"""The UDRF study (paper 004): users with multi-task jobs on machine classes, UDRF against DRF.

The input is a version-3 scenario (``vm_types[].machine_class``, ``frameworks[].complex_jobs``)
and options. Parts, each one library call:

* ``offline``: :func:`scheduling.udrf.offline_doc.offline_document` (UDRF and, unless
  ``compare_drf`` is off, the DRF baseline, each RDUC filled on its own);
* ``online udrf``, ``online drf`` (with ``online``): the online simulation of one policy,
  :func:`scheduling.udrf.online.online_document`, so the two policies simulate in parallel
  on the workers; :func:`scheduling.udrf.online_tables.combine_online` joins them again.

Summaries, the comparison table (one column per policy) and the detail tables come from
:mod:`scheduling.udrf.tables`, the figures from :mod:`scheduling.udrf.charts`; the report's
content is :func:`.report.udrf_report`, the parameters and presets the library's
(:mod:`scheduling.udrf.params`, :mod:`scheduling.udrf.setups`).
"""

from __future__ import annotations

import functools
import importlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from planner.reports import FORMATS, ReportBody
from planner.runs.kinds import Headline, PartSpec, Progress, RunKind, RunPlan, Variant
from scheduling import Scenario
from scheduling.numbers import finite
from scheduling.params import Preset, value_text
from scheduling.tables import show
from scheduling.udrf.charts import policy_colours, udrf_figures
from scheduling.udrf.doc_reading import policy_label
from scheduling.udrf.offline_doc import offline_document
from scheduling.udrf.params import ONLINE_PARAMS, UDRF_PARAMS, udrf_run
from scheduling.udrf.setups import presets
from scheduling.udrf.tables import policy_headlines, udrf_summary, udrf_table, udrf_tables

from .report import udrf_report

__all__ = ["ONLINE_MODULE", "UdrfKind"]

#: The library module of the online simulation (imported when a part runs).
ONLINE_MODULE = "scheduling.udrf.online"
OFFLINE = "offline"
#: Rows of each detail table on the run page (the reports have them all).
PAGE_ROWS = 50


@functools.cache
def _presets() -> tuple[Preset, ...]:
    """The library's presets, drawn once per process (the synthetic trace takes a third of a
    second); the start page only reads them."""
    return tuple(presets())


class UdrfKind(RunKind):
    """Offline UDRF against DRF on a scenario's users and machine classes; optionally online."""

    key = "udrf"
    label = "UDRF study"
    variant_name = "policy"
    params = UDRF_PARAMS
    results_template = "kinds/udrf/results.html"
    scripts = ("planner/charts.js", "planner/variant_charts.js")
    report_formats = tuple(FORMATS)
    start_url = "web:udrf-start"
    question = "Share machine classes between users' jobs"

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        options = udrf_run(params, scenario=scenario)
        parts = [PartSpec(OFFLINE, {"step": "offline"})]
        if options["online"]:
            parts += [PartSpec(f"online {p}", {"step": "online", "policy": p}) for p in options["policies"]]
        name = f"{scenario.name if scenario else 'scenario'}: UDRF" + (
            " against DRF" if options["compare_drf"] else ""
        )
        return RunPlan(options, parts, name)

    def execute(
        self,
        scenario: Scenario,
        options: Mapping[str, Any],
        context: Mapping[str, Any],
        payload: Mapping[str, Any],
        *,
        progress: Progress,
    ) -> list[Variant]:
        progress(0.0)
        if payload["step"] == OFFLINE:
            return [Variant(OFFLINE, offline_document(scenario, compare_drf=bool(options["compare_drf"])))]
        # Looked up by name when the part runs (the kind's tests put a stand-in there).
        online = importlib.import_module(ONLINE_MODULE)
        policy = str(payload["policy"])
        doc = online.online_document(
            scenario,
            policies=(policy,),
            interval_s=float(options["interval_s"]),
            horizon_s=options.get("horizon_s"),
            queue_capacity=int(options["queue_capacity"]),
            seed=int(options["seed"]),
        )
        return [Variant(f"online {policy}", doc)]

    def summary(self, document: Mapping[str, Any]) -> dict[str, Any]:
        return udrf_summary(document, rows=PAGE_ROWS)

    def baseline(self, variants: Sequence[str], options: Mapping[str, Any], asked: str | None) -> str | None:
        labels = [policy_label(p) for p in options.get("policies") or ["udrf", "drf"]]
        return super().baseline(labels, options, asked)

    def table(
        self,
        summaries: Mapping[str, Mapping[str, Any]],
        *,
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> dict[str, Any]:
        return dict(udrf_table(summaries, baseline=baseline, currency=currency))

    def headline(self, summaries: Mapping[str, Mapping[str, Any]], *, currency: str) -> Headline | None:
        heads = policy_headlines(summaries)
        udrf, drf = heads.get("UDRF") or {}, heads.get("DRF") or {}
        mine, theirs = finite(udrf.get("mean_completion_s")), finite(drf.get("mean_completion_s"))
        if mine is not None and theirs:
            return Headline(
                show((theirs - mine) / theirs * 100.0, "percent", signed=True),
                "shorter mean completion than DRF",
            )
        mine, theirs = finite(udrf.get("offline_jobs")), finite(drf.get("offline_jobs"))
        if mine is not None and theirs:
            return Headline(
                show((mine - theirs) / theirs * 100.0, "percent", signed=True), "more jobs than DRF"
            )
        return Headline(show(mine, "count"), "jobs at once (UDRF)") if mine is not None else None

    def figures(self, results: Mapping[str, Mapping[str, Any]], *, currency: str) -> dict[str, Any] | None:
        figures = udrf_figures(dict(results))
        json.dumps(figures, allow_nan=False)  # the figures must be plain JSON
        return dict(figures) or None

    def report(
        self,
        *,
        results: Mapping[str, Mapping[str, Any]],
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> ReportBody:
        return udrf_report(results, baseline=baseline, currency=currency)

    def settings(self, options: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """The policies, whether online, and the online options when it is (by their declared
        labels and units)."""
        policies = list(options.get("policies") or ["udrf", "drf"])
        rows: list[tuple[str, Any]] = [
            ("Policies", ", ".join(policy_label(p) for p in policies)),
            ("Online", "yes" if options.get("online") else "no"),
        ]
        if options.get("online"):
            for p in ONLINE_PARAMS:
                value = options.get(p.name)
                if p.name == "horizon_s" and not value:
                    rows.append((p.label, "until every job is done"))
                elif value is not None:
                    rows.append((p.label, value_text(p, value)))
        return rows

    def presets(self) -> Sequence[Preset]:
        return _presets()

    def page_context(
        self, run: Any, summaries: Mapping[str, Mapping[str, Any]], *, baseline: str | None, currency: str
    ) -> dict[str, Any]:
        options = run.options or {}
        policies = list(options.get("policies") or ["udrf", "drf"])
        offline = summaries.get(OFFLINE) or {}
        tables = udrf_tables(summaries, currency=currency)
        colours = policy_colours(policies)
        return {
            "colours": {policy_label(p): c for p, c in colours.items()},
            "plotly": True,
            "what": "Each policy's allocation of the same users and machine classes (DRF: every class's "
            "resource a resource of its own).",
            "tables": tables,
            "online": bool(options.get("online")),
            "counts": {k: offline.get(k) for k in ("users", "rducs", "classes", "edges")},
        }

    def api_fields(self, run: Any) -> dict[str, Any]:
        return {"policies": list((run.options or {}).get("policies") or [])}


