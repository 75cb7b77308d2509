"""The comparison's start form: the scenario, the schedulers (named and written), the run options
the library declares (one RUT weight per resource the team uses), a baseline and a seed."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any, cast

from django import forms

from planner.core.errors import field_errors
from planner.web.forms import DeclaredOptionsForm
from scheduling import DEFAULT_RESOURCES, SCHEDULERS, option_fields


class RunForm(DeclaredOptionsForm):
    """A comparison: a stored cluster and workload (or a scenario document) and schedulers."""

    SOURCES = [("stored", "A cluster and a workload"), ("document", "A scenario JSON document")]
    NAMED = [(name, name) for name in SCHEDULERS]

    source = forms.ChoiceField(choices=SOURCES, initial="stored", widget=forms.RadioSelect)
    cluster = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    workload = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    document = forms.CharField(
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "class": "mono"}),
        label="Scenario JSON",
    )
    document_file = forms.FileField(required=False, label="…or upload a .json file")
    schedulers = forms.MultipleChoiceField(
        choices=NAMED,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        initial=["fifo-consolidate", "edf-bfd"],
    )
    custom = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "spellcheck": "false", "class": "mono",
                                     "placeholder": "edf-bfd:rut.cpu=0.5,rut.mem=0.5"}),
        label="More schedulers",
        help_text="One spec a line: <ordering>-<placement>[:key=value,...], e.g. morpheus-ilp or "
        "edf-ilp:ilp_time_limit_s=0.5",
    )
    baseline = forms.CharField(required=False, help_text="The scheduler savings are measured against.")
    seed = forms.IntegerField(initial=0, min_value=0, max_value=2**63 - 1)
    name = forms.CharField(required=False, max_length=200, help_text="Default: scenario and schedulers.")
    def __init__(self, *args: Any, clusters: list[Any], workloads: list[Any],
                 resources: Sequence[str] = DEFAULT_RESOURCES, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # Every run option the library declares, a RUT weight per resource the team uses.
        self.add_options(option_fields(resources))
        cast(forms.ChoiceField, self.fields["cluster"]).choices = [("", "— choose a cluster —")] + [
            (c.pk, c.name) for c in clusters
        ]
        cast(forms.ChoiceField, self.fields["workload"]).choices = [("", "— choose a workload —")] + [
            (w.pk, f"{w.name} · {w.job_count:,} jobs") for w in workloads
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("source") == "stored":
            if not data.get("cluster"):
                self.add_error("cluster", "Choose a cluster.")
            if not data.get("workload"):
                self.add_error("workload", "Choose a workload.")
        elif (
            data.get("source") == "document"
            and not (data.get("document") or "").strip()
            and not data.get("document_file")
        ):
            self.add_error("document", "Paste a scenario document or choose a file.")
        if not data.get("schedulers") and not self.custom_specs():
            self.add_error("schedulers", "Tick at least one scheduler or write a spec below.")
        return data

    @classmethod
    def initial_from_run(
        cls, run: Any, *, cluster_ids: Collection[int], workload_ids: Collection[int]
    ) -> dict[str, Any]:
        """The form's values that start the same comparison again (a clone, to edit and start).

        The run's stored cluster and workload when both still exist (they may have been
        edited since), else the scenario document the run used.
        """
        options = run.options or {}
        specs = list(options.get("schedulers") or [])
        initial: dict[str, Any] = {
            "schedulers": [s for s in specs if s in SCHEDULERS],
            "custom": "\n".join(s for s in specs if s not in SCHEDULERS),
            "baseline": options.get("baseline") or "",
            "seed": int(options.get("seed") or 0),
            "name": f"Copy of {run.name}"[:200],
        }
        for key, value in (options.get("options") or {}).items():
            if key == "rut" and isinstance(value, Mapping):
                initial.update({f"rut_{resource}": weight for resource, weight in value.items()})
            else:
                initial[key] = value
        if run.cluster_id in cluster_ids and run.workload_id in workload_ids:
            initial.update(source="stored", cluster=run.cluster_id, workload=run.workload_id)
        else:
            initial.update(source="document", document=json.dumps(run.scenario, indent=1))
        return initial

    def custom_specs(self) -> list[str]:
        raw = getattr(self, "cleaned_data", {}).get("custom") or ""
        return [line.strip() for line in raw.splitlines() if line.strip()]

    def scheduler_specs(self) -> list[str]:
        ticked = [name for name in SCHEDULERS if name in (self.cleaned_data.get("schedulers") or [])]
        return ticked + self.custom_specs()

    def options(self) -> dict[str, Any] | None:
        """SimulationOptions overrides, or ``None`` for the scenario's own options."""
        return self.declared_options() or None

    def add_service_errors(self, exc: BaseException) -> None:
        """Attach the errors of ``run_start`` to the fields that caused them.

        ``schedulers[i]`` is a ticked scheduler or a line of the custom specs; paths into
        the scenario document go to the document (or to the workload and cluster that
        made it); ``options.*`` to the option's field.
        """
        ticked = [n for n in SCHEDULERS if n in (self.cleaned_data.get("schedulers") or [])]
        custom = self.custom_specs()
        for e in field_errors(exc):
            path, message = e.path, e.message
            m = re.match(r"^schedulers\[(\d+)\](?:\.(.*))?$", path)
            if m:
                index, below = int(m.group(1)), m.group(2)
                detail = f"{below}: {message}" if below else message
                if index < len(ticked):
                    self.add_error("schedulers", f"{ticked[index]}: {detail}")
                else:
                    k = index - len(ticked)
                    spec = custom[k] if k < len(custom) else "?"
                    self.add_error("custom", f"line {k + 1} ({spec}): {detail}")
                continue
            option_field = self.option_field_for(path)
            if option_field is not None:
                self.add_error(option_field, message)
                continue
            if path in ("schedulers", "baseline", "seed", "name", "cluster", "workload"):
                self.add_error(path, message)
            elif self.cleaned_data.get("source") == "document":
                self.add_error("document", str(e) if path else message)
            elif path.startswith(("jobs", "frameworks")):
                self.add_error("workload", f"does not fit the cluster: {e}")
            elif path:
                self.add_error("cluster", f"{e}")
            else:
                self.add_error(None, message)
