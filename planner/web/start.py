"""A kind's start page: the one shape every kind's page has, and its form.

A start page takes the run's scenario (a stored cluster and workload, or a scenario document)
and the kind's parameters, whose fields are built from the kind's declarations
(:class:`~planner.web.param_forms.ParamsForm`), and starts the run through ``run_start``: the
kind, through the library, decides what is valid, and each error comes back onto the field
that caused it (the kind's fields first, then the scenario's: the document, or the workload
and cluster that made it). ``?preset=<key>`` fills the page with one of the kind's presets
(a paper's set-up from the library), ``?clone=<run id>`` with an earlier run's settings, and
``?cluster=&workload=`` with the stored objects of a run ("Start a new run").

A kind's package holds its page: a view that calls :func:`start_page` with its form class
(:class:`StartForm`, or a subclass that shows more, such as the comparison's scheduler
lines), its presets and its template.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from planner.core.errors import InputError, field_errors
from planner.core.queries import query_id_or_none
from planner.runs.kinds import RunKind
from planner.runs.models import Run
from planner.runs.selectors import run_with_scenario
from planner.runs.services import run_start
from planner.scenarios.selectors import cluster_list, workload_get, workload_list
from scheduling import ScenarioError
from scheduling.params import Preset

from .context import TeamRequest
from .forms import parse_json_document, read_upload
from .param_forms import ParamsForm

__all__ = ["StartForm", "start_choices", "start_page"]


class StartForm(ParamsForm):
    """The scenario of a run (a stored cluster and workload, or a document) and the kind's parameters."""

    SOURCES = [("document", "A scenario JSON document"), ("stored", "A cluster and a workload")]

    source = forms.ChoiceField(choices=SOURCES, initial="document", widget=forms.RadioSelect)
    cluster = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    workload = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    document = forms.CharField(
        required=False, strip=False, label="Scenario JSON",
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "mono"}),
    )
    document_file = forms.FileField(required=False, label="…or upload a .json file")
    name = forms.CharField(required=False, max_length=200,
                           help_text="Default: the scenario and the variants.")

    #: Request fields of the run that are fields of this form of the same name.
    DIRECT: tuple[str, ...] = ("name", "cluster", "workload")

    def __init__(self, *args: Any, kind: RunKind, clusters: Sequence[Any], workloads: Sequence[Any],
                 **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.kind = kind
        #: The stored workload an error is about (its frameworks or jobs): the page links its editor.
        self.workload_to_edit: int | None = None
        #: The team's clusters' and workloads' ids (a clone of a run on them starts from them).
        self.stored_ids = ({c.pk for c in clusters}, {w.pk for w in workloads})
        #: Why a cloned run's scenario is not in the form as it ran (a run too big for it).
        self.clone_note = ""
        #: Where the cloned run's own scenario is downloaded, when the form cannot hold it.
        self.clone_scenario_url = ""
        data = args[0] if args else kwargs.get("data")
        self.add_params(kind.params, rows_data=data)
        cast(forms.ChoiceField, self.fields["cluster"]).choices = [("", "— choose a cluster —")] + [
            (c.pk, c.name) for c in clusters
        ]
        cast(forms.ChoiceField, self.fields["workload"]).choices = [("", "— choose a workload —")] + [
            (w.pk, w.name) for w in workloads
        ]

    # ------------------------------------------------------------------ reading

    def is_valid(self) -> bool:
        valid = super().is_valid()
        return self.rows_valid() and valid

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("source") == "stored":
            if not data.get("cluster"):
                self.add_error("cluster", "Choose a cluster.")
            if not data.get("workload"):
                self.add_error("workload", "Choose a workload.")
        elif (self.needs_document() and not (data.get("document") or "").strip()
              and not data.get("document_file")):
            self.add_error("document", "Paste a scenario document or choose a file.")
        return data

    def needs_document(self) -> bool:
        """Whether the document source needs a pasted or uploaded document (a kind whose
        parameters carry their own input may record a scenario of its own)."""
        return True

    def params(self) -> dict[str, Any]:
        """The kind's parameters of the request (call after :meth:`is_valid`)."""
        return self.param_values()

    def entered_scenario(self) -> dict[str, Any] | None:
        """The scenario document entered in the page's own fields, if its source is one (call
        after :meth:`is_valid`); ``None`` for a stored cluster and workload or a document."""
        return None

    # ------------------------------------------------------------------ filling

    def fill(self, params: Mapping[str, Any]) -> None:
        """Start from a preset's (or an earlier run's) parameters."""
        self.fill_params(params)

    def initial_from_scenario(self, scenario: Mapping[str, Any]) -> None:
        self.initial.update(source="document", document=json.dumps(scenario, indent=1))

    def initial_from_run(self, run: Run) -> None:
        """Start from the scenario an earlier run used (a clone).

        A run that keeps its jobs apart (``Run.jobs_stored``: more than
        ``PLANNER_RUN_INLINE_JOBS_MAX`` jobs) has too many for a form's text box: it starts from
        its stored cluster and workload when both still exist, else from no scenario; either
        way :attr:`clone_note` says so, and how to get the run's own scenario."""
        if not run.jobs_stored:
            self.initial_from_scenario(run.scenario)
            return
        clusters, workloads = self.stored_ids
        too_many = f"Run #{run.pk} has {run.job_count:,} jobs, too many to copy into this form"
        if run.cluster_id in clusters and run.workload_id in workloads:
            self.initial.update(source="stored", cluster=run.cluster_id, workload=run.workload_id)
            self.clone_note = (f"{too_many}: it starts from the run's cluster and workload as they are "
                               "now (they may have been edited since the run).")
        else:
            self.initial["source"] = "document"
            self.clone_scenario_url = reverse("api:run-scenario", args=[run.pk])
            self.clone_note = (f"{too_many}, and it did not run on a cluster and a workload that still "
                               "exist (they were deleted, or the run varied another run): download its "
                               "scenario, import it as a cluster and a workload (Workloads → Import), "
                               "and start from those.")

    # ------------------------------------------------------------------ errors

    def place_error(self, path: str, message: str, text: str) -> bool:
        """Put an error of the kind's own fields on its field; ``False`` if it is not one."""
        return self.place_param_error(path, message, text)

    def add_service_errors(self, exc: BaseException) -> None:
        """The errors of ``run_start`` on the fields that caused them (the kind's first, then
        the scenario's: the document, or the workload and cluster that made it)."""
        for e in field_errors(exc):
            if e.path in self.DIRECT:
                self.add_error(e.path, e.message)
            elif self.place_error(e.path, e.message, str(e)):
                continue
            elif self.cleaned_data.get("source") == "document":
                self.add_error("document", str(e) if e.path else e.message)
            elif e.path.startswith(("jobs", "frameworks")):
                # (before add_error, which takes the field out of cleaned_data)
                self.workload_to_edit = self.cleaned_data.get("workload", self.workload_to_edit)
                self.add_error("workload", f"does not fit the run: {e}")
            elif e.path:
                self.add_error("cluster", str(e))
            else:
                self.add_error(None, e.message)


def start_choices(request: TeamRequest) -> tuple[list[Any], list[Any]]:
    """The team's clusters and workloads, for the scenario's choices."""
    clusters = list(cluster_list(user=request.user, team=request.team).prefetch_related(None))
    workloads = list(workload_list(user=request.user, team=request.team))
    return clusters, workloads


def _start(request: TeamRequest, form: StartForm, clusters: list[Any]) -> Run | None:
    """``run_start`` with the form's scenario and the kind's parameters; errors go on the form."""
    data = form.cleaned_data
    kwargs: dict[str, Any] = {"kind": form.kind.key, "params": form.params(),
                              "name": data.get("name") or None}
    try:
        if data["source"] == "stored":
            kwargs["cluster"] = next(c for c in clusters if c.pk == data["cluster"])
            kwargs["workload"] = workload_get(user=request.user, pk=data["workload"])
        else:
            scenario = form.entered_scenario()
            if scenario is None:
                upload = data.get("document_file")
                field = "document_file" if upload else "document"
                text = read_upload(upload, field) if upload else data["document"]
                scenario = parse_json_document(text or "", field)
            kwargs["scenario"] = scenario
            kwargs["team"] = request.team
        return run_start(user=request.user, **kwargs)
    except (InputError, ScenarioError) as exc:
        form.add_service_errors(exc)
        return None


def _initial(request: TeamRequest, form: StartForm, presets: Sequence[Preset]) -> tuple[Any, Any]:
    """Fill an unbound form from ``?preset=``, ``?cluster=&workload=`` or ``?clone=``; returns
    (preset, cloned run)."""
    key = request.GET.get("preset")
    preset = next((p for p in presets if p.key == key), None) if key else None
    cloned = None
    if preset is not None:
        if preset.scenario is not None:
            form.initial_from_scenario(preset.scenario)
        form.initial["name"] = preset.title
        form.fill(preset.params)
    for key in ("cluster", "workload"):  # "Start a new run" of a run on stored objects
        stored_id = query_id_or_none(request.GET, key)
        if stored_id is not None:
            form.initial.update({"source": "stored", key: stored_id})
    clone = query_id_or_none(request.GET, "clone")
    if preset is None and clone is not None:
        cloned = run_with_scenario(user=request.user, pk=clone)  # 404 beyond the user's teams
        form.initial_from_run(cloned)
        form.initial["name"] = f"Copy of {cloned.name}"[:200]
        form.fill(cloned.options)
    return preset, cloned


def start_page(
    request: TeamRequest, *, kind: RunKind, template: str, form_class: type[StartForm] = StartForm,
    presets: Sequence[Preset] = (), form_kwargs: Mapping[str, Any] | None = None,
    context: Callable[[StartForm], Mapping[str, Any]] | None = None,
) -> HttpResponse:
    """A kind's start page: start the run of a valid POST (and go to it), else show the form,
    filled from a preset, the stored objects of a run, or a cloned run."""
    clusters, workloads = start_choices(request)
    extra = dict(form_kwargs or {})
    if request.method == "POST":
        form = form_class(request.POST, request.FILES, kind=kind, clusters=clusters, workloads=workloads,
                          **extra)
        if form.is_valid():
            run = _start(request, form, clusters)
            if run is not None:
                messages.success(request, f"Queued “{run.name}”.")
                return redirect("web:run-detail", pk=run.pk)
    else:
        form = form_class(kind=kind, clusters=clusters, workloads=workloads, **extra)
    preset = cloned = None
    if request.method != "POST":
        preset, cloned = _initial(request, form, presets)
    errors = bool(form.errors) or form.has_row_errors
    return render(request, template, {
        "form": form,
        "kind": kind,
        "presets": presets,
        "preset": preset,
        "cloned_from": cloned,
        "has_sources": bool(clusters and workloads),
        **(context(form) if context else {}),
    }, status=400 if request.method == "POST" and errors else 200)
