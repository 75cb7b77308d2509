"""The parameters of a fairness study, declared once: an allocation study and a sharing study.

:data:`ALLOCATION_PARAMS` and :data:`SHARING_PARAMS` declare what each study takes (labels,
help, bounds, choices, defaults: :mod:`scheduling.params`); :func:`allocation_run` and
:func:`sharing_run` read a request's parameters with them and with the rules between them (a
variant listed twice, a baseline that is not one of the variants, an override of a framework
the scenario does not have), and return the run's options. The planner's forms and API schema
and the command line's flags are built from the same declarations.

>>> allocation_run({"variants": ["drf/rrr", "pf/fractional"], "trials": 5})["pf_reference"]
'pf/fractional'
>>> sharing_run({"configurations": [{"overrides": {"a": {"refuse_s": 5}}}]})["configurations"][0]["label"]
'offers drf; a refuse 5 s'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import FieldError, ScenarioError
from ..params import Param, TextForm, read_params, seed_param
from ..scenario import OFFER_POLICIES, Scenario
from .allocation import ALLOCATION_VARIANTS, parse_allocation_variant
from .filling import MAX_TRIALS, POLICIES, SERVER_SELECTIONS, server_selection
from .model import fairness_problem
from .sharing_inputs import SHARING_MODES

__all__ = [
    "ALLOCATION_PARAMS",
    "CONFIGURATION_PARAMS",
    "DEFAULT_VARIANTS",
    "LABEL_MAX",
    "OVERRIDE_PARAMS",
    "SHARING_PARAMS",
    "allocation_run",
    "configuration_label",
    "configuration_text",
    "overrides_text",
    "parse_overrides",
    "sharing_run",
]

#: The allocation study's policies when a request names none.
DEFAULT_VARIANTS = ("drf/rrr", "tsf/rrr", "psdsf/rrr", "rpsdsf/joint", "bf-drf")
#: The longest configuration label.
LABEL_MAX = 80


def _variant_spec(spec: Any, path: str) -> str:
    return parse_allocation_variant(spec, path=path).spec


ALLOCATION_PARAMS: tuple[Param, ...] = (
    Param(
        "variants", "list", "Policies",
        "Allocation variants: progressive filling <policy>/<servers> (drf, tsf, psdsf, rpsdsf with rrr, "
        "joint or best-fit), bf-drf, or an exact optimisation <mmf|mmf-drf|mmf-tsf|pf>/<fractional|integer>; "
        "a PF variant is every variant's reference of the PF inequality (eq. 9 of paper 000).",
        default=list(DEFAULT_VARIANTS), choices=ALLOCATION_VARIANTS,
        choice_labels=tuple(parse_allocation_variant(s, path="variants").label for s in ALLOCATION_VARIANTS),
        item=Param("variant", "text", check=_variant_spec), min_items=1, unique=True, variants=True,
    ),
    Param("trials", "integer", "Trials",
          "Repetitions of the randomised policies (the exact ones solve once).",
          default=1, minimum=1, maximum=MAX_TRIALS, flag="--trials"),
    seed_param("The seed of the randomised policies' choices."),
    Param("baseline", "text", "Baseline", "The variant the others are compared with (default: the first)."),
)


def allocation_run(
    params: Mapping[str, Any], *, scenario: Scenario | None = None, max_variants: int | None = None
) -> dict[str, Any]:
    """An allocation study's options, read by :data:`ALLOCATION_PARAMS`, or every problem.

    Errors name the request's fields (``variants[2]: unknown policy 'drx' ...``, ``trials``,
    ``seed``), and with ``scenario`` its frameworks (``frameworks[1].task_demand``).
    """
    errors: list[FieldError] = []
    try:
        values = read_params(ALLOCATION_PARAMS, params, what="an allocation study", max_variants=max_variants)
    except ScenarioError as exc:
        errors.extend(exc.errors)
        values = None
    if scenario is not None:
        try:
            fairness_problem(scenario)  # every framework needs a task demand: say so now
        except ScenarioError as exc:
            errors.extend(exc.errors)
    if values is None or errors:
        raise ScenarioError(errors)
    parsed = [parse_allocation_variant(spec, path="variants") for spec in values["variants"]]
    labels = [v.label for v in parsed]
    baseline = values["baseline"]
    if baseline is None:
        baseline = labels[0]
    else:
        match = next((v.label for v in parsed if baseline in (v.spec, v.label)), None)
        if match is None:
            raise ScenarioError([FieldError("baseline", "must be one of the run's variants")])
        baseline = match
    # The reference of eq. (9): the fractional PF optimum when the run has it, else the integer one.
    pf = [v.spec for v in parsed if v.policy == "pf"]
    return {
        "variants": [v.spec for v in parsed],
        "labels": labels,
        "trials": values["trials"],
        "seed": values["seed"],
        "baseline": baseline,
        "pf_reference": "pf/fractional" if "pf/fractional" in pf else (pf[0] if pf else None),
    }


# --------------------------------------------------------------------------- sharing

_OVERRIDE = re.compile(r"^\s*(?P<fw>[^:;]+?)\s*:\s*(?P<settings>[^;]*)$")


def parse_overrides(text: str, path: str = "overrides") -> dict[str, dict[str, Any]]:
    """``"scylla: refuse_s=5, offer_policy=first-fit; marathon: offer_policy=greedy"`` as a
    configuration's ``overrides`` (framework -> settings), numbers as numbers.

    >>> parse_overrides("scylla: refuse_s=5, offer_policy=first-fit; m: hold_s=0.5")
    {'scylla': {'refuse_s': 5.0, 'offer_policy': 'first-fit'}, 'm': {'hold_s': 0.5}}
    >>> parse_overrides("scylla refuse")
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: overrides: write <framework>: key=value, ... (not 'scylla refuse')
    """
    out: dict[str, dict[str, Any]] = {}
    for chunk in (c for c in text.replace("\n", ";").split(";") if c.strip()):
        m = _OVERRIDE.match(chunk)
        if m is None:
            problem = f"write <framework>: key=value, ... (not {chunk.strip()!r})"
            raise ScenarioError([FieldError(path, problem)])
        settings: dict[str, Any] = {}
        for pair in (p for p in m.group("settings").split(",") if p.strip()):
            key, eq, value = pair.partition("=")
            if not eq or not key.strip() or not value.strip():
                problem = f"{m.group('fw')}: write key=value (not {pair.strip()!r})"
                raise ScenarioError([FieldError(path, problem)])
            value = value.strip()
            try:
                settings[key.strip()] = float(value)
            except ValueError:
                settings[key.strip()] = value
        out[m.group("fw")] = settings
    return out


def overrides_text(overrides: Mapping[str, Mapping[str, Any]] | None) -> str:
    """The inverse of :func:`parse_overrides`.

    >>> overrides_text({"scylla": {"refuse_s": 5.0, "offer_policy": "first-fit"}})
    'scylla: refuse_s=5, offer_policy=first-fit'
    """
    return "; ".join(
        f"{fw}: " + ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in o.items())
        for fw, o in (overrides or {}).items()
    )


OVERRIDE_PARAMS: tuple[Param, ...] = (
    Param("offer_policy", "choice", "Offer policy", "How the framework answers an offer.",
          choices=OFFER_POLICIES),
    Param("refuse_s", "number", "Refusal", "Seconds a declined agent is filtered for the framework.",
          unit="s", minimum=0),
    Param("hold_s", "number", "Holding", "Seconds the framework holds an offer before it answers.",
          unit="s", minimum=0),
)

CONFIGURATION_PARAMS: tuple[Param, ...] = (
    Param("label", "text", "Label", "The configuration's column heading (default: what it changes).",
          max_chars=LABEL_MAX),
    Param("mode", "choice", "Mode", "The Mesos offer cycle, or workload-characterized progressive filling.",
          default="offers", choices=SHARING_MODES, flag="--mode"),
    Param("criterion", "choice", "Criterion", "The fairness criterion frameworks are sorted by "
          "(the offer cycle: drf).", default="drf", choices=POLICIES, flag="--criterion"),
    Param("servers", "choice", "Server selection", "How a task's server is chosen (characterized; the offer "
          "cycle visits agents in random order).", choices=SERVER_SELECTIONS, flag="--servers"),
    Param("allocation_interval_s", "number", "Allocation interval", "Seconds between allocation decisions "
          "(Mesos: 1).", unit="s", default=1.0, minimum=0, exclusive_minimum=True, flag="--interval"),
    seed_param("The seed of the agents' random order and the queues' draws."),
    Param("horizon_s", "number", "Horizon", "Stop the simulation here (empty: when every task is done).",
          unit="s", minimum=0, exclusive_minimum=True, flag="--horizon"),
    Param("overrides", "mapping", "Per framework", "The offer cycle's settings of some frameworks: "
          "framework: offer_policy=…, refuse_s=…, hold_s=…; frameworks separated by ';'.", default={},
          item=Param("override", "object", fields=OVERRIDE_PARAMS),
          text=TextForm(parse_overrides, overrides_text, "scylla: refuse_s=5, offer_policy=first-fit")),
)

SHARING_PARAMS: tuple[Param, ...] = (
    Param("configurations", "list", "Configurations", "Configurations of the offer cycle or of characterized "
          "allocation, side by side: one column of the results each.", default=[{}],
          item=Param("configuration", "object", fields=CONFIGURATION_PARAMS), min_items=1, variants=True),
    Param("baseline", "text", "Baseline", "The label of the configuration the others are compared with "
          "(default: the first)."),
)


def configuration_label(config: Mapping[str, Any]) -> str:
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


def _configuration(c: dict[str, Any], path: str, frameworks: Sequence[str] | None,
                   errors: list[FieldError]) -> dict[str, Any]:
    if c["mode"] == "offers":
        # The offer cycle (notes §4) sorts frameworks by DRF and visits agents in random order:
        # share() refuses anything else, so say it before the run is queued.
        if c["criterion"] != "drf":
            errors.append(FieldError(f"{path}.criterion",
                                     "the offer cycle sorts frameworks by DRF (criterion drf)"))
        if c["servers"] not in (None, "rrr"):
            errors.append(FieldError(f"{path}.servers",
                                     "the offer cycle visits the agents in random order (rrr)"))
    else:
        try:
            server_selection(c["criterion"], c["servers"])
        except ScenarioError as exc:
            errors.extend(FieldError(f"{path}.{e.path}" if e.path else path, e.message) for e in exc.errors)
    overrides: dict[str, dict[str, Any]] = {}
    for fw, o in c["overrides"].items():
        if frameworks is not None and fw not in frameworks:
            errors.append(FieldError(f"{path}.overrides.{fw}",
                                     f"is not a framework of the scenario ({', '.join(frameworks)})"))
            continue
        given = {k: v for k, v in o.items() if v is not None}
        if given:
            overrides[fw] = given
    config = {
        "mode": c["mode"], "criterion": c["criterion"], "servers": c["servers"],
        "allocation_interval_s": c["allocation_interval_s"], "seed": c["seed"], "horizon_s": c["horizon_s"],
        "overrides": overrides,
    }
    label = (c["label"] or "").strip()
    config["label"] = label or configuration_label(config)
    return config


def sharing_run(
    params: Mapping[str, Any], *, scenario: Scenario | None = None, max_variants: int | None = None
) -> dict[str, Any]:
    """A sharing study's options, read by :data:`SHARING_PARAMS`, or every problem (paths such as
    ``configurations[1].overrides.scylla.refuse_s``)."""
    values = read_params(SHARING_PARAMS, params, what="a sharing study", max_variants=max_variants)
    frameworks = [f.name for f in scenario.frameworks] if scenario is not None else None
    errors: list[FieldError] = []
    configs: list[dict[str, Any]] = []
    for i, raw in enumerate(values["configurations"]):
        config = _configuration(raw, f"configurations[{i}]", frameworks, errors)
        if any(c["label"] == config["label"] for c in configs):
            errors.append(FieldError(f"configurations[{i}].label", f"{config['label']!r} names two "
                                     "configurations: give each its own label"))
        configs.append(config)
    labels = [c["label"] for c in configs]
    baseline = values["baseline"]
    if baseline is None:
        baseline = labels[0]
    elif baseline not in labels:
        errors.append(FieldError("baseline", "must be the label of one of the run's configurations"))
    if errors:
        raise ScenarioError(errors)
    return {"configurations": configs, "baseline": baseline}
