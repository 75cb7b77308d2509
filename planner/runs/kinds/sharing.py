"""The online sharing study (paper 000 Section V, paper 001): configurations side by side.

A configuration is one call of :func:`scheduling.fairness.sharing.share`: the allocation
mode (the Mesos offer cycle or workload-characterized), the criterion, the server
selection, the allocation interval, a seed and per-framework overrides of the offer cycle
(``offer_policy``, ``refuse_s``, ``hold_s``), for example "refuse 0 s" against "refuse 5 s".
One part per configuration.

The kind is registered only when the library has the sharing engine: without it the
planner offers no sharing study at all (no API kind, no start page, no links).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.urls import reverse

from planner.core.errors import FieldError, InputError
from planner.reports import FORMATS, ReportContent
from planner.reports.fairness import fairness_report
from scheduling import Scenario, ScenarioError
from scheduling.charts import variant_colours
from scheduling.fairness.charts import sharing_figures
from scheduling.fairness.filling import POLICIES, SERVER_SELECTIONS, server_selection
from scheduling.fairness.tables import fairness_table, sharing_summary
from scheduling.numbers import finite
from scheduling.tables import show

from . import Headline, PartSpec, Progress, RunKind, RunPlan, Variant, register
from .allocation import check_seed

share: Callable[..., Any] | None
try:  # the engine lands on its own branch; until then the planner offers no sharing study
    from scheduling.fairness.sharing import OFFER_POLICIES, SHARING_MODES
    from scheduling.fairness.sharing import share as _share

    share = _share
except ImportError:  # pragma: no cover - depends on the library's version
    share = None
    SHARING_MODES = ("offers", "characterized")
    OFFER_POLICIES = ("first-fit", "bin-packing", "greedy", "hold")

__all__ = ["PARAMS", "SharingKind", "available", "sharing_options"]

PARAMS = ("configurations", "baseline")
CONFIGURATION_KEYS = (
    "label", "mode", "criterion", "servers", "allocation_interval_s", "seed", "overrides", "horizon_s",
)
OVERRIDE_KEYS = ("offer_policy", "refuse_s", "hold_s")
LABEL_MAX = 80


def available() -> bool:
    """Whether the library has the sharing engine (the kind is registered only then)."""
    return share is not None


def _number(value: Any, path: str, errors: list[FieldError], *, positive: bool = False,
            optional: bool = True) -> float | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or (
        value <= 0 if positive else value < 0
    ):
        errors.append(FieldError(path, "must be a number " + ("> 0" if positive else ">= 0") + " (seconds)"))
        return None
    return float(value)


def _choice(value: Any, choices: Sequence[str], path: str, errors: list[FieldError]) -> str | None:
    if value not in choices:
        errors.append(FieldError(path, f"must be one of {', '.join(choices)}"))
        return None
    return str(value)


def default_label(config: Mapping[str, Any]) -> str:
    """``offers drf; scylla refuse 5 s``: what a configuration changes, for a column heading."""
    words = [str(config.get("mode") or "offers"), str(config.get("criterion") or "drf")]
    if config.get("servers"):
        words.append(str(config["servers"]))
    text = " ".join(words)
    changes = []
    for fw, o in (config.get("overrides") or {}).items():
        bits = [f"{o['offer_policy']}" if o.get("offer_policy") else "",
                f"refuse {o['refuse_s']:g} s" if o.get("refuse_s") is not None else "",
                f"hold {o['hold_s']:g} s" if o.get("hold_s") is not None else ""]
        changes.append(f"{fw} " + ", ".join(b for b in bits if b))
    return f"{text}; {'; '.join(changes)}" if changes else text


def _configuration(raw: Any, path: str, frameworks: Sequence[str] | None, errors: list[FieldError]
                   ) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        errors.append(FieldError(path, "must be an object with mode, criterion, servers, "
                                       "allocation_interval_s, seed and overrides"))
        return {}
    errors.extend(
        FieldError(f"{path}.{k}", f"unknown field (a configuration takes {', '.join(CONFIGURATION_KEYS)})")
        for k in raw if k not in CONFIGURATION_KEYS
    )
    config: dict[str, Any] = {
        "mode": _choice(raw.get("mode", "offers"), SHARING_MODES, f"{path}.mode", errors),
        "criterion": _choice(raw.get("criterion", "drf"), POLICIES, f"{path}.criterion", errors),
        "servers": None,
        "allocation_interval_s": _number(
            raw.get("allocation_interval_s", 1.0), f"{path}.allocation_interval_s", errors, positive=True,
            optional=False,
        ),
        "seed": check_seed(raw.get("seed", 0), errors, f"{path}.seed"),
        "horizon_s": _number(raw.get("horizon_s"), f"{path}.horizon_s", errors, positive=True),
        "overrides": {},
    }
    if raw.get("servers") not in (None, ""):
        config["servers"] = _choice(raw.get("servers"), SERVER_SELECTIONS, f"{path}.servers", errors)
    if config["mode"] == "offers":
        # The offer cycle (notes §4) sorts frameworks by DRF and visits agents in random order:
        # share() refuses anything else, so say it before the run is queued.
        if config["criterion"] not in (None, "drf"):
            errors.append(FieldError(f"{path}.criterion",
                                     "the offer cycle sorts frameworks by DRF (criterion drf)"))
        if config["servers"] not in (None, "rrr"):
            errors.append(FieldError(f"{path}.servers",
                                     "the offer cycle visits the agents in random order (rrr)"))
    elif config["mode"] == "characterized" and config["criterion"] is not None:
        try:
            server_selection(config["criterion"], config["servers"])
        except ScenarioError as exc:
            errors.extend(FieldError(f"{path}.{e.path}" if e.path else path, e.message) for e in exc.errors)
    overrides = raw.get("overrides") or {}
    if not isinstance(overrides, Mapping):
        errors.append(FieldError(f"{path}.overrides", "must be an object: framework name -> "
                                                      "{offer_policy, refuse_s, hold_s}"))
        overrides = {}
    for fw, o in overrides.items():
        where = f"{path}.overrides.{fw}"
        if frameworks is not None and fw not in frameworks:
            errors.append(FieldError(where, f"is not a framework of the scenario ({', '.join(frameworks)})"))
            continue
        if not isinstance(o, Mapping):
            errors.append(FieldError(where, "must be an object with offer_policy, refuse_s or hold_s"))
            continue
        errors.extend(
            FieldError(f"{where}.{k}", f"unknown field (an override takes {', '.join(OVERRIDE_KEYS)})")
            for k in o if k not in OVERRIDE_KEYS
        )
        out: dict[str, Any] = {}
        if o.get("offer_policy") is not None:
            out["offer_policy"] = _choice(o["offer_policy"], OFFER_POLICIES, f"{where}.offer_policy", errors)
        for key in ("refuse_s", "hold_s"):
            if o.get(key) is not None:
                out[key] = _number(o[key], f"{where}.{key}", errors)
        if out:
            config["overrides"][str(fw)] = out
    label = raw.get("label")
    if label in (None, ""):
        label = default_label(config)
    elif not isinstance(label, str) or len(label.strip()) > LABEL_MAX or not label.strip():
        errors.append(FieldError(f"{path}.label", f"must be a text of at most {LABEL_MAX} characters"))
    config["label"] = str(label).strip()[:200]
    return config


def sharing_options(scenario: Scenario | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """The run's ``options`` JSON: its configurations, checked (paths such as
    ``configurations[1].overrides.scylla.refuse_s``)."""
    errors: list[FieldError] = [
        FieldError(key, f"unknown field (a sharing study takes {', '.join(PARAMS)})")
        for key in params if key not in PARAMS
    ]
    raw = params.get("configurations")
    limit = int(getattr(settings, "PLANNER_MAX_SCHEDULERS_PER_RUN", 12))
    frameworks = [f.name for f in scenario.frameworks] if scenario is not None else None
    configs: list[dict[str, Any]] = []
    if raw is None:
        raw = [{}]
    if not isinstance(raw, list) or not raw:
        errors.append(FieldError("configurations", "must be a non-empty list of configurations"))
    elif len(raw) > limit:
        errors.append(FieldError("configurations", f"lists {len(raw)} configurations; the limit is {limit}"))
    else:
        for i, item in enumerate(raw):
            config = _configuration(item, f"configurations[{i}]", frameworks, errors)
            if config and any(c["label"] == config["label"] for c in configs):
                errors.append(FieldError(f"configurations[{i}].label",
                                         f"{config['label']!r} names two configurations: "
                                         "give each its own label"))
            configs.append(config)
    labels = [c.get("label") for c in configs]
    baseline = params.get("baseline")
    if baseline in (None, ""):
        baseline = labels[0] if labels else None
    elif baseline not in labels:
        errors.append(FieldError("baseline", "must be the label of one of the run's configurations"))
    if errors:
        raise InputError(errors)
    return {"configurations": configs, "baseline": baseline}


class SharingKind(RunKind):
    """Simulate frameworks sharing a cluster under several configurations; compare their unfairness."""

    key = "sharing"
    label = "Sharing study"
    variant_name = "configuration"
    results_template = "web/kinds/sharing.html"
    scripts = ("planner/charts.js", "planner/kinds/fairness.js")
    report_formats = tuple(FORMATS)
    new_run_url = "web:sharing-new"

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        options = sharing_options(scenario, params)
        labels = [c["label"] for c in options["configurations"]]
        parts = [PartSpec(c["label"], {"configuration": k}) for k, c in enumerate(options["configurations"])]
        name = f"{scenario.name if scenario else 'scenario'}: sharing, {' vs '.join(labels)}"
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
        if share is None:
            raise RuntimeError("this worker's library has no sharing engine (scheduling.fairness.sharing)")
        c = options["configurations"][int(payload["configuration"])]
        result = share(
            scenario, mode=c["mode"], criterion=c["criterion"], servers=c["servers"],
            allocation_interval_s=c["allocation_interval_s"], seed=c["seed"],
            overrides=c["overrides"] or None, horizon_s=c["horizon_s"], label=c["label"], progress=progress,
        )
        return [Variant(c["label"], result.to_dict())]

    def summary(self, document: Mapping[str, Any]) -> dict[str, Any]:
        return sharing_summary(document)

    def table(
        self, summaries: Mapping[str, Mapping[str, Any]], *, options: Mapping[str, Any], baseline: str | None,
        currency: str,
    ) -> dict[str, Any]:
        return dict(fairness_table(summaries, baseline=baseline, currency=currency))

    def headline(self, summaries: Mapping[str, Mapping[str, Any]], *, currency: str) -> Headline | None:
        worst = [(finite(s.get("worst_unfairness_pct")), label) for label, s in summaries.items()]
        known = [(v, label) for v, label in worst if v is not None]
        if not known:
            return None
        value, label = min(known, key=lambda item: item[0])
        return Headline(show(value, "percent"), f"least unfair: {label}")

    def figures(self, results: Mapping[str, Mapping[str, Any]], *, currency: str) -> dict[str, Any] | None:
        figures = sharing_figures(dict(results))
        json.dumps(figures, allow_nan=False)
        return dict(figures)

    def report(
        self,
        *,
        meta: Mapping[str, Any],
        results: Mapping[str, Mapping[str, Any]],
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> ReportContent:
        return fairness_report(meta, results, baseline=baseline, currency=currency, details=[
            (c["label"], configuration_text(c)) for c in options.get("configurations") or []
        ])

    def page_context(self, run: Any, summaries: Mapping[str, Mapping[str, Any]], *, baseline: str | None,
                     currency: str) -> dict[str, Any]:
        return {
            "colours": variant_colours(list(summaries)),
            "plotly": True,
            "actions": (
                [{"label": "Clone…", "url": f"{reverse('web:sharing-new')}?clone={run.pk}"}]
                if run.is_finished else []
            ),
            "settings": [
                (c["label"], configuration_text(c)) for c in run.options.get("configurations") or []
            ],
            # configurations the simulation stopped before every task finished (not at a horizon)
            "stopped": [
                (label, (s.get("stopped") or {}).get("reason"))
                for label, s in summaries.items()
                if s.get("stopped")
            ],
        }

    def api_fields(self, run: Any) -> dict[str, Any]:
        return {"configurations": list(run.options.get("configurations") or [])}


def configuration_text(c: Mapping[str, Any]) -> str:
    """``mode=offers, criterion=drf, interval 1 s, seed 0; scylla: refuse_s=5``."""
    text = (f"mode={c.get('mode')}, criterion={c.get('criterion')}"
            f"{', servers=' + str(c['servers']) if c.get('servers') else ''}, "
            f"interval {c.get('allocation_interval_s')} s, seed {c.get('seed')}")
    if c.get("horizon_s"):
        text += f", horizon {c['horizon_s']} s"
    for fw, o in (c.get("overrides") or {}).items():
        text += f"; {fw}: " + ", ".join(f"{k}={v}" for k, v in o.items())
    return text


if available():
    register(SharingKind())
