"""The fairness studies' presets: the papers' set-ups as runs, each filled in with one click.

A :class:`StudyPreset` is a scenario document and the study's parameters (an allocation
study's ``variants``, ``trials`` and ``seed``; a sharing study's ``configurations``, read by
:mod:`scheduling.fairness.params`). :func:`study_presets` gives a study's presets, in the
registry's order, as :class:`scheduling.params.Preset` (a start page's buttons).

They come from the registry of the papers' set-ups, :mod:`scheduling.fairness.setups`
(:func:`library_presets`): the set-ups of one paper section on one scenario become one preset,
side by side (the configurations of a sharing study, the policies of an allocation study);
where the scenarios differ by more than the offer cycle's settings of the frameworks, each is
a preset of its own. What a paper reported belongs to the registry.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import ScenarioError
from ..params import Preset
from ..scenario import Scenario, parse_scenario
from .allocation import parse_allocation_variant
from .params import LABEL_MAX, RULES

logger = logging.getLogger(__name__)

__all__ = [
    "StudyPreset", "library_presets", "presets_from_setups", "study_presets",
]

STUDIES = ("allocation", "sharing")


@dataclass(frozen=True)
class StudyPreset:
    """One button of a start page."""

    key: str
    study: str  #: "allocation" or "sharing"
    title: str
    description: str
    scenario: dict[str, Any]
    params: dict[str, Any] = field(default_factory=dict)  #: the kind's parameters
    setups: tuple[str, ...] = ()  #: the keys of the registry's set-ups it runs


def _get(item: Any, *names: str) -> Any:
    for name in names:
        value = item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)
        if value is not None:
            return value
    return None


def _setups() -> list[Any]:
    """The registry's set-ups (``SETUPS``: key -> set-up), in its order."""
    from .setups import SETUPS

    return list(SETUPS.values())


@dataclass
class _Group:
    """Set-ups of one paper section whose scenarios differ at most by the frameworks' offer
    answers, refusal and holding periods (what a sharing configuration overrides): one preset."""

    study: str
    head: str  # "001 §V-B"
    document: dict[str, Any]
    scenario: Scenario
    members: list[tuple[Any, dict[str, dict[str, Any]]]] = field(default_factory=list)


_OFFER_FIELDS = ("offer_policy", "refuse_s", "hold_s")
#: Whether one run of the study can hold scenarios that differ by the frameworks' offer
#: settings: a sharing configuration overrides them, an allocation variant cannot.
TAKES_OVERRIDES = {"allocation": False, "sharing": True}


def _overrides(base: Scenario, other: Scenario) -> dict[str, dict[str, Any]] | None:
    """What ``other`` changes of ``base`` as per-framework overrides, or ``None`` when it
    changes more than the offer cycle's settings."""
    if [f.name for f in base.frameworks] != [f.name for f in other.frameworks]:
        return None
    if dataclasses.replace(other, name=base.name, description=base.description,
                           frameworks=base.frameworks) != base:
        return None
    out: dict[str, dict[str, Any]] = {}
    for b, o in zip(base.frameworks, other.frameworks, strict=True):
        if dataclasses.replace(o, **{k: getattr(b, k) for k in _OFFER_FIELDS}) != b:
            return None
        changed = {k: getattr(o, k) for k in _OFFER_FIELDS if getattr(o, k) != getattr(b, k)}
        if changed:
            out[b.name] = changed
    return out


def _common_key(keys: list[str]) -> str:
    """``001-v-b-greedy`` for ``001-v-b-greedy-first-fit`` and ``001-v-b-greedy-bin-packing``."""
    prefix = keys[0]
    for key in keys[1:]:
        while not key.startswith(prefix):
            prefix = prefix[:-1]
    prefix = prefix.rstrip("-")
    return prefix if len(keys) > 1 and len(prefix) >= 5 else keys[0]


def _variant(args: Mapping[str, Any]) -> str | None:
    policy, servers = args.get("policy"), args.get("servers")
    plain = not servers or (policy == "bf-drf" and servers == "best-fit")
    spec = str(policy) if plain else f"{policy}/{servers}"
    try:
        return parse_allocation_variant(spec, path="policy").spec
    except ScenarioError:
        return None


def _configuration(item: Any, overrides: dict[str, dict[str, Any]], label: str) -> dict[str, Any]:
    args = dict(_get(item, "share_args") or {})
    config: dict[str, Any] = {
        "label": label, "mode": args.get("mode", "offers"), "criterion": args.get("criterion", "drf"),
        "servers": args.get("servers"), "seed": args.get("seed", 0), "overrides": overrides,
    }
    for key in ("allocation_interval_s", "horizon_s", *RULES):
        if args.get(key) is not None:
            config[key] = args[key]
    return config


def _where(item: Any) -> str:
    """``Figure 6`` of the section ``§V-B, Figure 6``."""
    return str(_get(item, "section") or "").partition(",")[2].strip()


def _described(items: list[Any]) -> str:
    """What the set-ups report, with the paper's values: ``Figure 1: Scylla's unfairness (%),
    38 in the paper``; set-ups reporting the same figure share one sentence."""
    by_figure: dict[tuple[str, str], list[Any]] = {}
    for item in items:
        by_figure.setdefault((_where(item), str(_get(item, "figure") or "")), []).append(item)
    sentences = []
    for (where, figure), members in by_figure.items():
        text = f"{where}: {figure}" if where else figure
        values = [(str(_get(i, "title") or ""), v) for i in members
                  if isinstance(v := _get(i, "paper_value"), int | float)]
        if len(members) == 1 and values:
            text += f", {values[0][1]:g} in the paper"
        elif values:
            text += " (in the paper: " + "; ".join(f"{t} {v:g}" for t, v in values) + ")"
        sentences.append(text)
    return "; ".join(sentences)


def _group_preset(group: _Group, key: str) -> StudyPreset | None:
    items = [item for item, _ in group.members]
    title = str(_get(items[0], "title") or key) if len(items) == 1 else str(group.document.get("name") or key)
    if not title.startswith("Paper "):
        title = f"Paper {group.head}: {title}"
    notes = list(dict.fromkeys(str(_get(i, "notes") or "") for i in items if _get(i, "notes")))
    description = _described(items) + (". " + " ".join(notes) if notes else "")
    if group.study == "allocation":
        variants = [v for i in items if (v := _variant(_get(i, "share_args") or {})) is not None]
        if not variants:
            return None
        trials = max(int((_get(i, "share_args") or {}).get("trials") or 1) for i in items)
        params: dict[str, Any] = {"variants": list(dict.fromkeys(variants)), "trials": trials, "seed": 0}
    else:
        labels: list[str] = []
        for item in items:
            label = str(_get(item, "label") or _get(item, "title") or _get(item, "key"))
            if label in labels:  # two set-ups of one title: the figure tells them apart
                label = f"{label} ({_where(item) or len(labels) + 1})"
            labels.append(label[-LABEL_MAX:] if len(label) > LABEL_MAX else label)
        params = {"configurations": [
            _configuration(item, overrides, label)
            for (item, overrides), label in zip(group.members, labels, strict=True)
        ]}
    return StudyPreset(key=key, study=group.study, title=title, description=description,
                       scenario=dict(group.document), params=params,
                       setups=tuple(str(_get(i, "key")) for i in items))


def presets_from_setups(items: list[Any]) -> list[StudyPreset]:
    """The registry's set-ups as presets: those of one paper section on the same scenario (up to
    the offer cycle's settings per framework) become one preset, side by side (a sharing
    study's configurations, an allocation study's variants)."""
    groups: list[_Group] = []
    for item in items:
        study = _get(item, "study")
        document = _get(item, "document", "scenario")
        if study not in STUDIES or not isinstance(document, Mapping):
            continue
        if not isinstance(_get(item, "key"), str):
            continue
        try:
            scenario = parse_scenario(dict(document))
        except ScenarioError:
            logger.warning("set-up %s: its scenario is not valid here", _get(item, "key"))
            continue
        head = f"{_get(item, 'paper') or ''} {str(_get(item, 'section') or '').partition(',')[0]}".strip()
        for group in groups:
            if group.study != study or group.head != head:
                continue
            overrides = _overrides(group.scenario, scenario)
            if overrides is not None and (TAKES_OVERRIDES[str(study)] or not overrides):
                group.members.append((item, overrides))
                break
        else:
            groups.append(_Group(str(study), head, dict(document), scenario, [(item, {})]))
    out: list[StudyPreset] = []
    for group in groups:
        key = _common_key([str(_get(item, "key")) for item, _ in group.members])
        while any(p.key == key for p in out):
            key += "-2"
        preset = _group_preset(group, key)
        if preset is not None:
            out.append(preset)
    return out


def library_presets() -> list[StudyPreset]:
    """The presets of :mod:`scheduling.fairness.setups`."""
    return presets_from_setups(_setups())


def study_presets(study: str) -> list[Preset]:
    """The presets of ``study`` (``allocation`` or ``sharing``), in the registry's order."""
    return [Preset(p.key, p.title, p.description, p.scenario, p.params)
            for p in library_presets() if p.study == study]
