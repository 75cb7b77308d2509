"""The UDRF study (paper 004): users with multi-task jobs on machine classes, UDRF against DRF.

The input is a version-3 scenario (``vm_types[].machine_class``, ``frameworks[].complex_jobs``)
and options. Parts, each one library call:

* ``offline``: :func:`scheduling.udrf.offline_doc.offline_document` (UDRF and, unless
  ``compare_drf`` is off, the DRF baseline, each RDUC filled on its own);
* ``online udrf``, ``online drf`` (with ``online``): the online simulation of one policy,
  :func:`scheduling.udrf.online.online_document`, so the two policies simulate in parallel
  on the workers; :func:`scheduling.udrf.online_tables.combine_online` joins them again.

Summaries, the comparison table (one column per policy) and the detail tables come from
:mod:`scheduling.udrf.tables`, the figures from :mod:`scheduling.udrf.charts`.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.urls import reverse

from planner.core.errors import FieldError, InputError
from planner.reports import FORMATS, ReportContent
from planner.reports.tables import detail_as_table, summary_table
from scheduling import Scenario, ScenarioError
from scheduling.numbers import finite
from scheduling.tables import show
from scheduling.udrf.charts import policy_colours, udrf_figures
from scheduling.udrf.doc_reading import policy_label
from scheduling.udrf.model import UdrfProblem
from scheduling.udrf.offline_doc import offline_document
from scheduling.udrf.online import check_online_options
from scheduling.udrf.tables import (
    policy_headlines,
    udrf_summary,
    udrf_table,
    udrf_tables,
)

from . import Headline, PartSpec, Progress, RunKind, RunPlan, Variant, register

__all__ = ["ONLINE_MODULE", "PARAMS", "UdrfKind", "udrf_options"]

PARAMS = ("online", "compare_drf", "interval_s", "horizon_s", "queue_capacity", "seed", "baseline")
#: The library module of the online simulation (imported when a part runs).
ONLINE_MODULE = "scheduling.udrf.online"
OFFLINE = "offline"
#: Rows of each detail table on the run page (the reports have them all).
PAGE_ROWS = 50


def _flag(value: Any, path: str, default: bool, errors: list[FieldError]) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        errors.append(FieldError(path, "must be true or false"))
        return default
    return value


def udrf_options(scenario: Scenario | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """The run's ``options``, checked; errors name the request's fields (``interval_s``) or the
    scenario's (``frameworks``: no user lists complex jobs)."""
    errors: list[FieldError] = [
        FieldError(key, f"unknown field (a UDRF study takes {', '.join(PARAMS)})")
        for key in params
        if key not in PARAMS
    ]
    online = _flag(params.get("online"), "online", False, errors)
    compare = _flag(params.get("compare_drf"), "compare_drf", True, errors)
    def given(key: str, default: Any) -> Any:
        value = params.get(key)
        return default if value is None or value == "" else value

    interval, horizon = given("interval_s", 1.0), given("horizon_s", None)
    queue, seed = given("queue_capacity", 100), given("seed", 0)
    errors += check_online_options(interval_s=interval, horizon_s=horizon, queue_capacity=queue, seed=seed)
    policies = ["udrf", "drf"] if compare else ["udrf"]
    labels = [policy_label(p) for p in policies]
    baseline = params.get("baseline")
    if baseline in (None, ""):
        baseline = labels[-1]
    elif baseline not in labels:
        errors.append(FieldError("baseline", f"must be one of {', '.join(labels)}"))
    if scenario is not None:
        try:
            UdrfProblem.from_scenario(scenario)  # say now when no user has complex jobs
        except ScenarioError as exc:
            errors.extend(exc.errors)
    if errors:
        raise InputError(errors)
    return {
        "online": online,
        "compare_drf": compare,
        "policies": policies,
        "interval_s": float(interval),
        "horizon_s": None if horizon is None else float(horizon),
        "queue_capacity": queue,
        "seed": seed,
        "baseline": baseline,
    }


class UdrfKind(RunKind):
    """Offline UDRF against DRF on a scenario's users and machine classes; optionally online."""

    key = "udrf"
    label = "UDRF study"
    variant_name = "policy"
    results_template = "web/kinds/udrf.html"
    scripts = ("planner/charts.js", "planner/kinds/fairness.js")
    report_formats = tuple(FORMATS)
    new_run_url = "web:udrf-new"

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        options = udrf_options(scenario, params)
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
        meta: Mapping[str, Any],
        results: Mapping[str, Mapping[str, Any]],
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> ReportContent:
        comparison = udrf_table(results, baseline=baseline, currency=currency, detail=True)
        tables = [summary_table(comparison, "Policy")]
        tables += [detail_as_table(t) for t in udrf_tables(results, currency=currency, detail=True)]
        policies = list(options.get("policies") or ["udrf", "drf"])
        figures = self.figures(results, currency=currency) or {}
        run_id = meta.get("run_id")
        return ReportContent(
            title=str(meta.get("run_name") or ""),
            subtitle="Cluster What-If Planner - UDRF study (paper 004)",
            details=[
                ("Run", str(meta.get("run_name") or "")),
                (
                    "Run id",
                    run_id if isinstance(run_id, int) and not isinstance(run_id, bool) else str(run_id or ""),
                ),
                ("Scenario", str(meta.get("scenario_name") or "")),
                ("Created at", str(meta.get("created_at") or "")),
                ("Policies", ", ".join(policy_label(p) for p in policies)),
                ("Online", "yes" if options.get("online") else "no"),
                *(
                    [
                        ("Decision interval (s)", finite(options.get("interval_s"))),
                        ("Horizon (s)", finite(options.get("horizon_s")) or "until every job is done"),
                        ("Waiting queue", int(options.get("queue_capacity") or 0)),
                        ("Seed", int(options.get("seed") or 0)),
                    ]
                    if options.get("online")
                    else []
                ),
            ],
            comparison=comparison,
            tables=tables,
            figures=figures,
            currency=currency,
            keywords=", ".join(policy_label(p) for p in policies),
        )

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
            "actions": (
                [{"label": "Clone…", "url": f"{reverse('web:udrf-new')}?clone={run.pk}"}]
                if run.is_finished
                else []
            ),
            "settings": [
                ("Policies", ", ".join(policy_label(p) for p in policies)),
                ("Online", "yes" if options.get("online") else "no"),
                *(
                    [
                        ("Decision interval", f"{options.get('interval_s'):g} s"),
                        (
                            "Horizon",
                            f"{options['horizon_s']:g} s" if options.get("horizon_s") else "until done",
                        ),
                        ("Waiting queue", options.get("queue_capacity")),
                        ("Seed", options.get("seed")),
                    ]
                    if options.get("online")
                    else []
                ),
            ],
        }

    def api_fields(self, run: Any) -> dict[str, Any]:
        return {"policies": list((run.options or {}).get("policies") or [])}


register(UdrfKind())
