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

import math
import re
from collections.abc import Mapping, Sequence
from contextlib import suppress
from typing import Any

from ..errors import FieldError, ScenarioError
from ..params import Param, TextForm, read_params, read_value, seed_param
from ..scenario import OFFER_POLICIES, Scenario
from .allocation import ALLOCATION_VARIANTS, parse_allocation_variant
from .filling import MAX_TRIALS, POLICIES, SERVER_SELECTIONS, server_selection
from .model import fairness_problem
from .sharing_inputs import (
    DRF_TIES,
    MINIMUM_OFFERS,
    OFFERS_COUNT,
    REGISTRATIONS,
    SHARING_MODES,
    OfferRules,
    workload_problems,
)

__all__ = [
    "ALLOCATION_PARAMS",
    "CONFIGURATION_PARAMS",
    "DEFAULT_VARIANTS",
    "LABEL_MAX",
    "OVERRIDE_PARAMS",
    "RULE_PARAMS",
    "SHARING_PARAMS",
    "allocation_run",
    "configuration_label",
    "configuration_text",
    "overrides_text",
    "parse_overrides",
    "rules_text",
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
    ``seed``, ``baseline``), and with ``scenario`` its frameworks (``frameworks[1].task_demand``).
    The options are what a run stores: the variants' specs and labels, trials, seed, the
    baseline's label and the PF reference of eq. (9) of paper 000.

    >>> allocation_run({"variants": ["drf", "bf-drf"], "baseline": "bf-drf"})["baseline"]
    'BF-DRF'
    >>> allocation_run({"variants": ["drf", "drf/rrr"], "baseline": "tsf/rrr", "trials": 0})
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: variants[1]: 'drf/rrr' is listed twice
    trials: must be a whole number from 1 to 100,000
    >>> allocation_run({"variants": ["drf"], "baseline": "tsf/rrr"})
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: baseline: must be one of the run's variants
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
    if values is None:
        raise ScenarioError(errors)
    parsed = [parse_allocation_variant(spec, path="variants") for spec in values["variants"]]
    labels = [v.label for v in parsed]
    baseline = values["baseline"]
    if baseline is None:
        baseline = labels[0]
    else:
        match = next((v.label for v in parsed if baseline in (v.spec, v.label)), None)
        if match is None:
            errors.append(FieldError("baseline", "must be one of the run's variants"))
        baseline = match
    if errors:
        raise ScenarioError(errors)
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

_MESOS = OfferRules()
#: The offer cycle's rules as Mesos 1.3 and Marathon 1.4 run them (notes §4), each one an option
#: so that a configuration can turn it off to show what it changes; the defaults are Mesos'.
RULE_PARAMS: tuple[Param, ...] = (
    Param("max_tasks_per_offer", "integer", "Greedy: tasks per offer",
          "The most tasks a greedy framework launches on one offer, the rest returned with no filter while "
          "tasks wait (Marathon 1.4's max_tasks_per_offer: 5; 0: as many as fit).",
          default=_MESOS.max_tasks_per_offer, minimum=0, maximum=1_000_000, flag="--max-tasks-per-offer"),
    Param("registration", "choice", "Registration",
          "When the master first knows a framework: when its first task queue starts (or first job "
          "arrives; 0 without either), as Mesos; or every framework from the start.",
          default=_MESOS.registration, choices=REGISTRATIONS,
          choice_labels=("when its first queue starts (Mesos)", "every framework from the start"),
          flag="--registration"),
    Param("offers_count", "choice", "Offers count",
          "What counts in a framework's share while the allocator decides: every offer, in whole, until "
          "the decision ends (Mesos; what is not used returns at the next decision), or only the tasks "
          "launched (and offers held).", default=_MESOS.offers_count, choices=OFFERS_COUNT,
          choice_labels=("until the decision ends (Mesos)", "only what is launched"), flag="--offers-count"),
    Param("minimum_offer", "choice", "Minimum offer",
          "Which agents are offered: those with at least 0.01 cpu or 32 MB of memory unallocated (Mesos' "
          "allocatable(): no disk-only offers), or any with anything unallocated.",
          default=_MESOS.minimum_offer, choices=MINIMUM_OFFERS,
          choice_labels=("0.01 cpu or 32 MB (Mesos)", "any resource"), flag="--minimum-offer"),
    Param("drf_ties", "choice", "DRF ties",
          "How frameworks of equal dominant share are ordered: fewest allocations so far, then name "
          "(Mesos' sorter), or at random.", default=_MESOS.drf_ties, choices=DRF_TIES,
          choice_labels=("fewest allocations, then name (Mesos)", "at random"), flag="--drf-ties"),
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
    Param("horizon_s", "number", "Horizon", "Stop the simulation here (default: when every task is done).",
          unit="s", minimum=0, exclusive_minimum=True, flag="--horizon"),
    Param("overrides", "mapping", "Per framework", "The offer cycle's settings of some frameworks: "
          "framework: offer_policy=…, refuse_s=…, hold_s=…; frameworks separated by ';'.", default={},
          item=Param("override", "object", default={}, fields=OVERRIDE_PARAMS),  # null: no override
          text=TextForm(parse_overrides, overrides_text, "scylla: refuse_s=5, offer_policy=first-fit")),
    *RULE_PARAMS,
)
#: The rules' names, as a configuration stores them and :func:`~scheduling.fairness.sharing.share` takes them.
RULES = tuple(p.name for p in RULE_PARAMS)

SHARING_PARAMS: tuple[Param, ...] = (
    Param("configurations", "list", "Configurations", "Configurations of the offer cycle or of characterized "
          "allocation, side by side: one column of the results each (default: one, every field at its "
          "default).", default=[{}],
          # a null configuration is every default
          item=Param("configuration", "object", default={}, fields=CONFIGURATION_PARAMS),
          min_items=1, variants=True),
    Param("baseline", "text", "Baseline", "The label of the configuration the others are compared with "
          "(default: the first)."),
)


def configuration_label(config: Mapping[str, Any]) -> str:
    """``offers drf; scylla refuse 5 s``: what a configuration changes, for a column heading.

    >>> configuration_label({"max_tasks_per_offer": 0, "offers_count": "launched"})
    'offers drf (greedy unlimited, only launches count)'
    """
    words = [str(config.get("mode") or "offers"), str(config.get("criterion") or "drf")]
    if config.get("servers"):
        words.append(str(config["servers"]))
    text = " ".join(words)
    departures = _rules_words(config)
    if departures:
        text += f" ({departures})"
    changes = []
    for fw, o in (config.get("overrides") or {}).items():
        bits = [f"{o['offer_policy']}" if o.get("offer_policy") else "",
                f"refuse {o['refuse_s']:g} s" if o.get("refuse_s") is not None else "",
                f"hold {o['hold_s']:g} s" if o.get("hold_s") is not None else ""]
        changes.append(f"{fw} " + ", ".join(b for b in bits if b))
    return f"{text}; {'; '.join(changes)}" if changes else text


def rules_text(config: Mapping[str, Any]) -> str:
    """The offer-cycle rules a configuration sets away from Mesos' (``""`` when none).

    >>> rules_text({"max_tasks_per_offer": 0, "drf_ties": "random", "registration": "queues"})
    'max_tasks_per_offer=0, drf_ties=random'
    """
    return ", ".join(f"{p.name}={config[p.name]}" for p in RULE_PARAMS
                     if config.get(p.name) is not None and config[p.name] != p.default)


def _rules_words(config: Mapping[str, Any]) -> str:
    """The rules set away from Mesos', in a few words for a column heading."""
    words = {
        "registration": "registered at 0", "offers_count": "only launches count",
        "minimum_offer": "any offer", "drf_ties": "random ties",
    }
    out = []
    for p in RULE_PARAMS:
        value = config.get(p.name)
        if value is None or value == p.default:
            continue
        if p.name == "max_tasks_per_offer":
            out.append(f"greedy {value}/offer" if value else "greedy unlimited")
        else:
            out.append(words[p.name])
    return ", ".join(out)


def configuration_text(c: Mapping[str, Any]) -> str:
    """``mode=offers, criterion=drf, interval 1 s, seed 0; scylla: refuse_s=5``, and the offer
    cycle's rules where they are not Mesos'."""
    text = (f"mode={c.get('mode')}, criterion={c.get('criterion')}"
            f"{', servers=' + str(c['servers']) if c.get('servers') else ''}, "
            f"interval {c.get('allocation_interval_s')} s, seed {c.get('seed')}")
    if c.get("horizon_s"):
        text += f", horizon {c['horizon_s']} s"
    if rules_text(c):
        text += f", {rules_text(c)}"
    for fw, o in (c.get("overrides") or {}).items():
        text += f"; {fw}: " + ", ".join(f"{k}={v}" for k, v in o.items())
    return text


def _rules(c: Mapping[str, Any], named: Sequence[str], path: str, frameworks: Sequence[str] | None,
           errors: list[FieldError]) -> None:
    """The rules between a configuration's fields, on those of ``c`` that read well (``named``:
    the frameworks its overrides name); each problem is appended to ``errors`` under ``path``."""
    if all(k in c for k in ("mode", "criterion", "servers")):
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
                errors.extend(FieldError(f"{path}.{e.path}" if e.path else path, e.message)
                              for e in exc.errors)
    if frameworks is not None:
        known = ", ".join(frameworks)
        errors.extend(FieldError(f"{path}.overrides.{fw}", f"is not a framework of the scenario ({known})")
                      for fw in named if fw not in frameworks)


def _stored(c: Mapping[str, Any]) -> dict[str, Any]:
    """A configuration read by :data:`CONFIGURATION_PARAMS` as a run stores it: the overrides
    that set something, and a label (what it changes when it has none)."""
    overrides: dict[str, dict[str, Any]] = {}
    for fw, o in c["overrides"].items():
        given = {k: v for k, v in o.items() if v is not None}
        if given:
            overrides[fw] = given
    config = {
        "mode": c["mode"], "criterion": c["criterion"], "servers": c["servers"],
        "allocation_interval_s": c["allocation_interval_s"], "seed": c["seed"], "horizon_s": c["horizon_s"],
        "overrides": overrides, **{name: c[name] for name in RULES},
    }
    label = (c["label"] or "").strip()
    config["label"] = label or configuration_label(config)
    return config


def _label(c: Mapping[str, Any]) -> str | None:
    """The label of a configuration some of whose fields did not read (``None``: not known)."""
    if "label" not in c:
        return None
    label = (c["label"] or "").strip()
    if label or any(f.name not in c for f in CONFIGURATION_PARAMS):
        return label or None
    return str(_stored(c)["label"])


def _partly_read(raw: Any, path: str) -> tuple[dict[str, Any], list[str]]:
    """The fields of a configuration that did not read as a whole, each that reads by itself,
    and the frameworks its overrides name (their problems are reported already)."""
    raw = {} if raw is None else raw
    if not isinstance(raw, Mapping):
        return {}, []
    out: dict[str, Any] = {}
    for f in CONFIGURATION_PARAMS:
        with suppress(ScenarioError):
            out[f.name] = read_value(f, raw.get(f.name), f"{path}.{f.name}")
    overrides = raw.get("overrides")
    return out, [str(k) for k in overrides] if isinstance(overrides, Mapping) else []


_CONFIGURATION_PATH = re.compile(r"^configurations\[(\d+)\]")


def _in_request_order(error: FieldError) -> float:
    """Errors of configuration ``i`` in ``i``'s order (stable: its own fields' first), after
    the request's other fields and before the baseline."""
    m = _CONFIGURATION_PATH.match(error.path)
    if m is not None:
        return int(m.group(1))
    return math.inf if error.path == "baseline" else -1


def sharing_run(
    params: Mapping[str, Any], *, scenario: Scenario | None = None, max_variants: int | None = None
) -> dict[str, Any]:
    """A sharing study's options, read by :data:`SHARING_PARAMS`, or every problem (paths such as
    ``configurations[1].overrides.scylla.refuse_s``).

    Beyond each field's declaration, the rules between them: the offer cycle sorts by DRF and
    visits agents in random order (``criterion``, ``servers``), characterized allocation's
    server selection must suit its criterion, an override names a framework of ``scenario``,
    no two configurations share a label, and the baseline is one of the labels. They are
    checked on every field that reads well, so that one answer says every problem.

    >>> sharing_run({"configurations": [{"label": "a"}, {"label": "a", "criterion": "tsf", "seed": -1}]})
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: configurations[1].seed: must be a whole number from 0 to \
9,223,372,036,854,775,807
    configurations[1].criterion: the offer cycle sorts frameworks by DRF (criterion drf)
    configurations[1].label: 'a' names two configurations: give each its own label
    """
    errors: list[FieldError] = []
    try:
        values = read_params(SHARING_PARAMS, params, what="a sharing study", max_variants=max_variants)
        items = [(c, list(c["overrides"])) for c in values["configurations"]]
    except ScenarioError as exc:
        errors.extend(exc.errors)
        values = None
        raw = params.get("configurations") if isinstance(params, Mapping) else None
        if not isinstance(raw, list) or any(e.path == "configurations" for e in exc.errors):
            raw = []  # the list itself is wrong: its items are not read
        items = [_partly_read(c, f"configurations[{i}]") for i, c in enumerate(raw)]
    frameworks = [f.name for f in scenario.frameworks] if scenario is not None else None
    if scenario is not None:
        errors.extend(workload_problems(scenario))  # found at submission, not when a part runs
    labels: list[str] = []
    for i, (c, named) in enumerate(items):
        _rules(c, named, f"configurations[{i}]", frameworks, errors)
        label = _label(c)
        if label is not None and label in labels:
            errors.append(FieldError(f"configurations[{i}].label", f"{label!r} names two "
                                     "configurations: give each its own label"))
        labels.append(label or "")
    baseline = None
    if values is not None:
        baseline = values["baseline"] if values["baseline"] is not None else labels[0]
        if baseline not in labels:
            errors.append(FieldError("baseline", "must be the label of one of the run's configurations"))
    if errors or values is None:
        raise ScenarioError(sorted(errors, key=_in_request_order))
    return {"configurations": [_stored(c) for c, _ in items], "baseline": baseline}
