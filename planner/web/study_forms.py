"""Forms of the fairness studies' start pages (allocation and sharing).

Like every form of the pages they parse and type-check; the run kind (through
``run_start``) decides what is valid, and its field errors, with the library's paths
(``variants[1]``, ``configurations[0].overrides.scylla.refuse_s``), come back onto the
field that caused them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, cast

from django import forms

from planner.core.errors import field_errors
from scheduling.fairness.allocation import ALLOCATION_VARIANTS, parse_allocation_variant
from scheduling.fairness.filling import POLICIES, SERVER_SELECTIONS

from .forms import NumberInput

__all__ = ["AllocationForm", "ConfigurationForm", "SharingForm", "overrides_text", "parse_overrides"]


def _variant_label(spec: str) -> str:
    return parse_allocation_variant(spec, path="variant").label


class StudySourceForm(forms.Form):
    """The scenario of a study: a stored cluster and workload, or a scenario document."""

    SOURCES = [("document", "A scenario JSON document"), ("stored", "A cluster and a workload")]

    source = forms.ChoiceField(choices=SOURCES, initial="document", widget=forms.RadioSelect)
    cluster = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    workload = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    document = forms.CharField(
        required=False, strip=False, label="Scenario JSON",
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "mono"}),
        help_text="Servers are the VM types x count (named <type>#<k>); every framework needs a task_demand "
                  "(and may have a weight and allowed_vm_types).",
    )
    document_file = forms.FileField(required=False, label="…or upload a .json file")
    name = forms.CharField(required=False, max_length=200,
                           help_text="Default: the scenario and the variants.")

    #: Request fields of the kind that are fields of this form of the same name.
    DIRECT: tuple[str, ...] = ("name", "cluster", "workload")

    def __init__(self, *args: Any, clusters: list[Any], workloads: list[Any], **kwargs: Any):
        super().__init__(*args, **kwargs)
        #: The stored workload an error is about (its frameworks or jobs): the page links its editor.
        self.workload_to_edit: int | None = None
        cast(forms.ChoiceField, self.fields["cluster"]).choices = [("", "— choose a cluster —")] + [
            (c.pk, c.name) for c in clusters
        ]
        cast(forms.ChoiceField, self.fields["workload"]).choices = [("", "— choose a workload —")] + [
            (w.pk, w.name) for w in workloads
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("source") == "stored":
            if not data.get("cluster"):
                self.add_error("cluster", "Choose a cluster.")
            if not data.get("workload"):
                self.add_error("workload", "Choose a workload.")
        elif not (data.get("document") or "").strip() and not data.get("document_file"):
            self.add_error("document", "Paste a scenario document or choose a file.")
        return data

    def fill(self, params: Mapping[str, Any]) -> None:
        """Start from a preset's (or an earlier run's) parameters of the kind. The scenario's
        source has none; each study's form fills its own fields over this."""
        return None

    def entered_scenario(self) -> dict[str, Any] | None:
        """The scenario document entered in the page's own fields, if its source is one (call
        after :meth:`is_valid`); ``None`` for a stored cluster and workload or a document."""
        return None

    def place_error(self, path: str, message: str, text: str) -> bool:
        """Put an error of the kind's own fields on its field; ``False`` if it is not one."""
        return False

    def add_service_errors(self, exc: BaseException) -> None:
        """The errors of ``run_start`` on the fields that caused them (the kind's first, then
        the scenario's: the document, or the workload and cluster that made it)."""
        for e in field_errors(exc):
            if self.place_error(e.path, e.message, str(e)):
                continue
            if e.path in self.DIRECT:
                self.add_error(e.path, e.message)
            elif self.cleaned_data.get("source") == "document":
                self.add_error("document", str(e) if e.path else e.message)
            elif e.path.startswith(("jobs", "frameworks")):
                # (before add_error, which takes the field out of cleaned_data)
                self.workload_to_edit = self.cleaned_data.get("workload", self.workload_to_edit)
                self.add_error("workload", f"does not fit the study: {e}")
            elif e.path:
                self.add_error("cluster", str(e))
            else:
                self.add_error(None, e.message)

    def initial_from_scenario(self, scenario: Mapping[str, Any]) -> None:
        self.initial.update(source="document", document=json.dumps(scenario, indent=1))


class AllocationForm(StudySourceForm):
    """An allocation study: policies (variant specs), trials and a seed."""

    variants = forms.MultipleChoiceField(
        choices=[(spec, _variant_label(spec)) for spec in ALLOCATION_VARIANTS], required=False,
        widget=forms.CheckboxSelectMultiple, label="Policies",
        initial=["drf/rrr", "tsf/rrr", "psdsf/rrr", "rpsdsf/joint", "bf-drf"],
    )
    trials = forms.IntegerField(initial=100, min_value=1, help_text="Repetitions of the randomised policies "
                                                                    "(the exact ones solve once).")
    seed = forms.IntegerField(initial=0, min_value=0, max_value=2**63 - 1)

    DIRECT = ("name", "cluster", "workload", "trials", "seed", "variants")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("variants"):
            self.add_error("variants", "Tick at least one policy.")
        return data

    def chosen(self) -> list[str]:
        """The ticked specs, in the library's display order."""
        ticked = set(self.cleaned_data.get("variants") or [])
        return [spec for spec in ALLOCATION_VARIANTS if spec in ticked]

    def params(self) -> dict[str, Any]:
        return {"variants": self.chosen(), "trials": self.cleaned_data["trials"],
                "seed": self.cleaned_data.get("seed") or 0}

    def place_error(self, path: str, message: str, text: str) -> bool:
        m = re.match(r"^variants\[(\d+)\]", path)
        if m is None:
            return False
        chosen = self.chosen()
        index = int(m.group(1))
        self.add_error("variants", f"{chosen[index]}: {message}" if index < len(chosen) else text)
        return True

    def fill(self, params: Mapping[str, Any]) -> None:
        """Start from a preset's (or an earlier run's) parameters."""
        specs = [v for v in params.get("variants") or [] if v in ALLOCATION_VARIANTS]
        if specs:
            self.initial["variants"] = specs
        for key in ("trials", "seed"):
            if params.get(key) is not None:
                self.initial[key] = params[key]


# --------------------------------------------------------------------------- sharing

_OVERRIDE = re.compile(r"^\s*(?P<fw>[^:;]+?)\s*:\s*(?P<settings>[^;]*)$")


def parse_overrides(text: str) -> dict[str, dict[str, Any]]:
    """``"scylla: refuse_s=5, offer_policy=first-fit; marathon: offer_policy=greedy"`` as the
    kind's ``overrides`` (framework -> settings); numbers as numbers. ``ValueError`` says
    what is wrong with the text.

    >>> parse_overrides("scylla: refuse_s=5, offer_policy=first-fit; m: hold_s=0.5")
    {'scylla': {'refuse_s': 5.0, 'offer_policy': 'first-fit'}, 'm': {'hold_s': 0.5}}
    """
    out: dict[str, dict[str, Any]] = {}
    for chunk in (c for c in text.replace("\n", ";").split(";") if c.strip()):
        m = _OVERRIDE.match(chunk)
        if m is None:
            raise ValueError(f"write <framework>: key=value, ... (not {chunk.strip()!r})")
        settings: dict[str, Any] = {}
        for pair in (p for p in m.group("settings").split(",") if p.strip()):
            key, eq, value = pair.partition("=")
            if not eq or not key.strip() or not value.strip():
                raise ValueError(f"{m.group('fw')}: write key=value (not {pair.strip()!r})")
            value = value.strip()
            try:
                settings[key.strip()] = float(value)
            except ValueError:
                settings[key.strip()] = value
        out[m.group("fw")] = settings
    return out


def overrides_text(overrides: Mapping[str, Mapping[str, Any]] | None) -> str:
    """The inverse of :func:`parse_overrides`."""
    return "; ".join(
        f"{fw}: " + ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in o.items())
        for fw, o in (overrides or {}).items()
    )


class ConfigurationForm(forms.Form):
    """One configuration of a sharing study (one column of its results)."""

    use = forms.BooleanField(required=False, label="Include")
    label = forms.CharField(required=False, max_length=80, help_text="Default: what it changes.")
    mode = forms.ChoiceField(choices=[], initial="offers")
    criterion = forms.ChoiceField(choices=[(p, p) for p in POLICIES], initial="drf")
    servers = forms.ChoiceField(choices=[("", "default"), *((s, s) for s in SERVER_SELECTIONS)],
                                required=False, label="Server selection")
    allocation_interval_s = forms.FloatField(initial=1.0, widget=NumberInput(),
                                             label="Allocation interval (s)")
    seed = forms.IntegerField(initial=0, min_value=0, max_value=2**63 - 1)
    horizon_s = forms.FloatField(required=False, widget=NumberInput(), label="Horizon (s)",
                                 help_text="Stop the simulation here (empty: when every task is done).")
    overrides = forms.CharField(
        required=False, label="Per framework",
        widget=forms.TextInput(attrs={"class": "mono",
                                      "placeholder": "scylla: refuse_s=5, offer_policy=first-fit"}),
        help_text="framework: offer_policy=…, refuse_s=…, hold_s=…; separate frameworks with ';'",
    )

    def __init__(self, *args: Any, modes: tuple[str, ...], **kwargs: Any):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["mode"]).choices = [(m, m) for m in modes]

    def clean_overrides(self) -> dict[str, dict[str, Any]]:
        try:
            return parse_overrides(self.cleaned_data.get("overrides") or "")
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None

    def configuration(self) -> dict[str, Any]:
        d = self.cleaned_data
        out: dict[str, Any] = {
            "mode": d["mode"], "criterion": d["criterion"],
            "allocation_interval_s": d["allocation_interval_s"],
            "seed": d.get("seed") or 0, "overrides": d.get("overrides") or {},
        }
        if d.get("label"):
            out["label"] = d["label"]
        if d.get("servers"):
            out["servers"] = d["servers"]
        if d.get("horizon_s") is not None:
            out["horizon_s"] = d["horizon_s"]
        return out


class SharingForm(StudySourceForm):
    """A sharing study: its scenario, then up to :attr:`ROWS` configurations side by side."""

    ROWS = 6

    def __init__(self, *args: Any, modes: tuple[str, ...], **kwargs: Any):
        super().__init__(*args, **kwargs)
        data = args[0] if args else kwargs.get("data")
        self.rows = [
            ConfigurationForm(data, prefix=f"c{k}", modes=modes, initial={"use": k == 0})
            for k in range(self.ROWS)
        ]

    def is_valid(self) -> bool:
        valid = super().is_valid()
        rows = [row.is_valid() for row in self.rows if self._used(row)]
        if valid and not rows:
            self.add_error(None, "Include at least one configuration.")
            return False
        return valid and all(rows)

    @staticmethod
    def _used(row: ConfigurationForm) -> bool:
        return bool(row.data.get(f"{row.prefix}-use")) if row.is_bound else bool(row.initial.get("use"))

    def used_rows(self) -> list[ConfigurationForm]:
        return [row for row in self.rows if self._used(row)]

    def params(self) -> dict[str, Any]:
        return {"configurations": [row.configuration() for row in self.used_rows()]}

    def place_error(self, path: str, message: str, text: str) -> bool:
        m = re.match(r"^configurations\[(\d+)\](?:\.([a-z_]+))?(?:\.(.*))?$", path)
        if m is None:
            if path != "configurations":
                return False
            self.add_error(None, message)
            return True
        rows = self.used_rows()
        index = int(m.group(1))
        if index >= len(rows):
            self.add_error(None, text)
            return True
        row, field, below = rows[index], m.group(2), m.group(3)
        if field in row.fields:
            row.add_error(field, f"{below}: {message}" if below else message)
        else:
            row.add_error(None, text)
        return True

    def fill(self, params: Mapping[str, Any]) -> None:
        """Start from a preset's (or an earlier run's) configurations."""
        configs = [c for c in params.get("configurations") or [] if isinstance(c, Mapping)][: self.ROWS]
        for k, row in enumerate(self.rows):
            c = configs[k] if k < len(configs) else None
            if c is None:
                row.initial = {"use": False}
                continue
            row.initial = {
                "use": True, "label": c.get("label") or "", "mode": c.get("mode") or "offers",
                "criterion": c.get("criterion") or "drf", "servers": c.get("servers") or "",
                "allocation_interval_s": c.get("allocation_interval_s", 1.0), "seed": c.get("seed", 0),
                "horizon_s": c.get("horizon_s"),
                "overrides": overrides_text(c.get("overrides")),
            }

    @property
    def has_row_errors(self) -> bool:
        return any(row.errors for row in self.rows)
