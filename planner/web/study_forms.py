"""Forms of the fairness studies' start pages (allocation and sharing).

Like every form of the pages they parse and type-check; the run kind (through
``run_start``) decides what is valid, and its field errors, with the library's paths
(``variants[1]``, ``configurations[0].overrides.scylla.refuse_s``), come back onto the
field that caused them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

from django import forms

from planner.core.errors import field_errors

__all__ = ["StudySourceForm"]


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
