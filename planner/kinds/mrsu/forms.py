"""The start page form of an MRSU sizing run (paper 002).

The requirements come from the scenario (its frameworks; the advisor runs too) or from an
MRSU input document (pasted or uploaded). The kind checks everything (``run_start``); its
field errors, with the library's paths (``input.applications[1].priority``,
``sweep.loads[2]``), come back onto the field that caused them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django import forms

from planner.core.errors import InputError
from planner.web.forms import NumberInput, parse_json_document, read_upload
from planner.web.study_forms import StudySourceForm
from scheduling import ScenarioError
from scheduling.mrsu.compose import COMPOSITIONS, MODES
from scheduling.mrsu.params import recorded_scenario
from scheduling.mrsu.setups import PAPER_SWEEP
from scheduling.mrsu.sweep import parse_loads

__all__ = ["MrsuForm"]

_SWEEP_FIELDS = {
    "seeds": "sweep_seeds",
    "applications": "sweep_applications",
    "slots": "sweep_slots",
    "seed": "sweep_seed",
    "loads": "sweep_loads",
    "spread": "sweep_spread",
    "slots_valid": "sweep_slots_valid",
}


def _loads_text(loads: Any) -> str:
    return " ".join(f"{100 * float(x):g}" for x in loads or [])


class MrsuForm(StudySourceForm):
    """Requirements (scenario or MRSU input), compositions, modes, T, the advisor's unit, a sweep."""

    REQUIREMENTS = [
        ("input", "An MRSU input document (capacity + applications)"),
        ("scenario", "The scenario's frameworks (and the advisor)"),
    ]

    requirements = forms.ChoiceField(choices=REQUIREMENTS, initial="input", widget=forms.RadioSelect)
    input = forms.CharField(
        required=False,
        strip=False,
        label="MRSU input JSON",
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "mono"}),
        help_text='{"capacity": {"cpu": 24, ...}, "applications": [{"name", "priority", "requirements": '
        "[one object per slot]}]} (docs/mrsu.md)",
    )
    input_file = forms.FileField(required=False, label="…or upload a .json file")
    slots = forms.IntegerField(
        initial=30, min_value=1, widget=NumberInput, help_text="Slots the scenario's horizon is cut into."
    )
    compositions = forms.MultipleChoiceField(
        choices=[(c, c.upper()) for c in COMPOSITIONS],
        initial=list(COMPOSITIONS),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    modes = forms.MultipleChoiceField(
        choices=[("ft", "FT (full tuples)"), ("id", "ID (independent dimensions)")],
        initial=list(MODES),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    slots_valid = forms.IntegerField(
        required=False,
        min_value=1,
        label="Validity interval T (slots)",
        help_text="The unit is recomputed every T slots. Empty: the whole horizon.",
    )
    unit = forms.CharField(
        required=False,
        label="Your unit (advisor)",
        help_text="e.g. cpu=1,mem=4 — compared with GCD and MIN (scenario requirements only).",
    )
    sweep = forms.BooleanField(required=False, label="Run the paper's sweep too (Figs. 3-5)")
    sweep_loads = forms.CharField(
        required=False, label="Loads (% of capacity)", initial=_loads_text(PAPER_SWEEP["loads"]),
        help_text="Percentages, e.g. 50 80 110; empty: the paper's.",
    )
    sweep_seeds = forms.IntegerField(required=False, min_value=1, initial=PAPER_SWEEP["seeds"], label="Seeds")
    sweep_applications = forms.IntegerField(
        required=False, min_value=1, initial=PAPER_SWEEP["applications"], label="Applications"
    )
    sweep_slots = forms.IntegerField(required=False, min_value=1, initial=PAPER_SWEEP["slots"], label="Slots")
    sweep_seed = forms.IntegerField(required=False, min_value=0, initial=0, label="First seed")
    sweep_spread = forms.FloatField(required=False, min_value=0, max_value=1, initial=0.5, label="Spread")
    sweep_slots_valid = forms.IntegerField(
        required=False, min_value=1, label="T of the sweep (slots)",
        help_text="Empty: one MRSU for the whole horizon, as in the paper.",
    )

    DIRECT = (
        "name",
        "cluster",
        "workload",
        "requirements",
        "slots",
        "compositions",
        "modes",
        "slots_valid",
        "unit",
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["source"].required = False
        self._input: Any = None
        self.loads: list[float] | None = None  # the sweep's, checked in clean()

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data
        if data.get("sweep"):
            self.loads = self._sweep_loads()
        if data.get("requirements") == "input":
            upload = data.get("input_file")
            field = "input_file" if upload else "input"
            try:
                text = read_upload(upload, field) if upload else (data.get("input") or "")
                if not (text or "").strip():
                    self.add_error("input", "Paste an MRSU input document or choose a file.")
                else:
                    self._input = parse_json_document(text or "", field)
            except InputError as exc:
                self.add_error(field, "; ".join(e.message for e in exc.errors))
            if data.get("source") == "stored":
                has_scenario = bool(data.get("cluster") and data.get("workload"))
            else:
                has_scenario = bool((data.get("document") or "").strip() or data.get("document_file"))
            if not has_scenario and self._input is not None:
                # The run records a scenario: the machine the input describes.
                data["source"] = "document"
                data["document_file"] = None
                try:
                    data["document"] = json.dumps(recorded_scenario({"input": self._input}))
                except InputError as exc:
                    for e in exc.errors:
                        self.add_error("input", str(e))
            elif not has_scenario:
                data["source"] = "document"
            return data
        if not data.get("source"):
            data["source"] = "document"
        return super().clean()

    def _sweep_loads(self) -> list[float] | None:
        """The typed loads as fractions (the library's rule), ``None`` when left empty (the
        paper's), or an error on the field."""
        text = self.cleaned_data.get("sweep_loads") or ""
        if not text.strip():
            return None
        try:
            return parse_loads(text, path="loads")
        except ScenarioError as exc:
            self.add_error("sweep_loads", "; ".join(str(e) for e in exc.errors))
            return None

    def params(self) -> dict[str, Any]:
        d = self.cleaned_data
        out: dict[str, Any] = {
            "requirements": d["requirements"],
            "slots": d.get("slots") or 30,
            "compositions": d.get("compositions") or [],
            "modes": d.get("modes") or [],
            "slots_valid": d.get("slots_valid"),
        }
        if d["requirements"] == "input":
            out["input"] = self._input
        elif d.get("unit"):
            out["unit"] = d["unit"]
        if d.get("sweep"):
            sweep: dict[str, Any] = {}
            if self.loads is not None:
                sweep["loads"] = self.loads
            for key in ("seeds", "applications", "slots", "seed", "spread", "slots_valid"):
                if d.get(f"sweep_{key}") is not None:
                    sweep[key] = d[f"sweep_{key}"]
            out["sweep"] = sweep
        return out

    def place_error(self, path: str, message: str, text: str) -> bool:
        if path == "input" or path.startswith(("input.", "input[")):
            self.add_error("input", text)
            return True
        m = re.match(r"^sweep\.(\w+)", path)
        if m:
            self.add_error(_SWEEP_FIELDS.get(m.group(1), "sweep_loads"), text)
            return True
        if path.startswith(("compositions", "modes", "unit")):
            self.add_error(path.split("[")[0].split(".")[0], text)
            return True
        if path == "baseline":
            self.add_error("compositions", text)
            return True
        return False

    def fill(self, params: Mapping[str, Any]) -> None:
        """Start from a preset's (or an earlier run's) parameters."""
        for key in ("requirements", "slots", "compositions", "modes", "slots_valid"):
            if params.get(key) is not None:
                self.initial[key] = params[key]
        if params.get("input") is not None:
            self.initial["input"] = json.dumps(params["input"], indent=1)
        unit = params.get("unit")
        if unit:
            self.initial["unit"] = (
                unit if isinstance(unit, str) else ",".join(f"{k}={v:g}" for k, v in unit.items())
            )
        sweep = params.get("sweep")
        if sweep:
            self.initial["sweep"] = True
            if sweep.get("loads"):
                self.initial["sweep_loads"] = _loads_text(sweep["loads"])
            for key in ("seeds", "applications", "slots", "seed", "spread", "slots_valid"):
                if sweep.get(key) is not None:
                    self.initial[f"sweep_{key}"] = sweep[key]
