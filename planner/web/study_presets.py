"""Presets of the fairness studies' start pages: a paper's set-up, filled in with one click.

A :class:`StudyPreset` is a scenario document and the study's parameters (an allocation
study's ``variants``, ``trials`` and ``seed``; a sharing study's ``configurations``). The
start pages show one button per preset of their study (:func:`study_presets`); a click
fills the page (``?preset=<key>``) and the operator starts the run.

Where they come from:

* the library's registry of the papers' set-ups, :mod:`scheduling.fairness.setups`, when the
  library has it (:func:`library_presets`: every set-up it lists becomes a button of its
  study, with nothing about it written here);
* paper 000's Table I set-up (:data:`TABLE_ONE`), which the allocation page has offered
  since before the registry: it is skipped when the registry has a set-up of the same key.

The planner keeps no paper figures: what a paper reported belongs to the registry.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

logger = logging.getLogger(__name__)

__all__ = ["TABLE_ONE", "StudyPreset", "library_presets", "preset_get", "study_presets"]

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


TABLE_ONE = StudyPreset(
    key="000-table-1",
    study="allocation",
    title="Paper 000, Table I",
    description="Two servers, c1 = (100 cpu, 30 mem) and c2 = (30, 100); framework f1's tasks need "
                "(5, 1), f2's (1, 5). Five progressive-filling allocators, 200 trials.",
    scenario={
        "version": 1,
        "name": "Paper 000, Table I",
        "resources": ["cpu", "mem"],
        "vm_types": [
            {"name": "c1", "capacity": {"cpu": 100, "mem": 30}, "price_per_hour": 0, "count": 1},
            {"name": "c2", "capacity": {"cpu": 30, "mem": 100}, "price_per_hour": 0, "count": 1},
        ],
        "frameworks": [
            {"name": "f1", "weight": 1, "task_demand": {"cpu": 5, "mem": 1}},
            {"name": "f2", "weight": 1, "task_demand": {"cpu": 1, "mem": 5}},
        ],
        "jobs": [],
    },
    params={
        "variants": ["drf/rrr", "tsf/rrr", "psdsf/rrr", "rpsdsf/joint", "bf-drf"], "trials": 200, "seed": 0,
    },
)


def _get(item: Any, *names: str) -> Any:
    for name in names:
        value = item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)
        if value is not None:
            return value
    return None


def _setups() -> Iterable[Any]:
    """The registry's set-ups, whatever container it keeps them in (a mapping, a list, a function)."""
    try:  # the registry may not be in this version of the library
        setups = importlib.import_module("scheduling.fairness.setups")
    except ImportError:
        return []
    found = next((getattr(setups, n) for n in ("SETUPS", "all_setups", "setups") if hasattr(setups, n)), None)
    if callable(found):
        found = found()
    if isinstance(found, Mapping):
        return [
            {"key": key, **value} if isinstance(value, Mapping) else value for key, value in found.items()
        ]
    return list(found or [])


def _preset(item: Any) -> StudyPreset | None:
    """A registry set-up as a preset, or ``None`` when it lacks a key, a scenario or a study."""
    key = _get(item, "key", "name", "id")
    scenario = _get(item, "scenario", "scenario_doc", "document")
    study = _get(item, "study", "kind")
    if study not in STUDIES:  # a set-up without a study: a sharing one when it has configurations
        study = "sharing" if _get(item, "configurations") is not None else (
            "allocation" if _get(item, "variants") is not None else None)
    if not isinstance(key, str) or not isinstance(scenario, Mapping) or study not in STUDIES:
        return None
    params = dict(_get(item, "params", "parameters") or {})
    for name in (("variants", "trials", "seed") if study == "allocation" else ("configurations",)):
        value = _get(item, name)
        if value is not None:
            params.setdefault(name, value)
    return StudyPreset(
        key=key, study=str(study), title=str(_get(item, "title", "label") or key),
        description=str(_get(item, "description", "what", "compare") or ""),
        scenario=dict(scenario), params=params,
    )


def library_presets() -> list[StudyPreset]:
    """Every set-up of :mod:`scheduling.fairness.setups` as a preset (none without the registry)."""
    out: list[StudyPreset] = []
    try:
        items = list(_setups())
    except Exception:  # a registry of another shape must not take the start pages down
        logger.exception("could not read scheduling.fairness.setups")
        return []
    for item in items:
        preset = _preset(item)
        if preset is not None:
            out.append(preset)
    return out


def study_presets(study: str) -> list[StudyPreset]:
    """The buttons of a start page: the registry's set-ups of ``study``, Table I first."""
    from_library = [p for p in library_presets() if p.study == study]
    own = [p for p in (TABLE_ONE,) if p.study == study and all(q.key != p.key for q in from_library)]
    return own + from_library


def preset_get(study: str, key: str | None) -> StudyPreset | None:
    """The preset ``key`` of ``study``, or ``None``."""
    return next((p for p in study_presets(study) if p.key == key), None) if key else None
