"""The pages' forms. They parse and type-check; the services decide what is valid.

A form never writes: the view passes its cleaned data to one service and attaches the
service's field errors back to the form's fields (``planner.web.errors.attach_errors``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from django import forms
from django.core.files.uploadedfile import UploadedFile

from planner.core.errors import InputError
from planner.core.parsers import JSONSyntaxError, loads_strict
from planner.teams.models import Membership
from scheduling import DEFAULT_RESOURCES, LIMITS, OptionField, option_fields
from scheduling.generators import WorkloadSpec
from scheduling.importers import IMPORTERS

from .param_forms import NumberInput, param_field

OPTIONAL_NUMBER = {"required": False, "localize": False}


def read_upload(upload: UploadedFile | None, field: str) -> str | None:
    """An uploaded text file as ``str`` (UTF-8, BOM allowed); ``InputError`` on ``field`` otherwise."""
    if upload is None:
        return None
    if upload.size and upload.size > LIMITS["document_bytes"]:
        raise InputError.single(field, f"is larger than {int(LIMITS['document_bytes']) // 2**20} MB")
    try:
        return bytes(upload.read()).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError.single(field, "must be a UTF-8 text file") from None


def parse_json_document(text: str, field: str) -> Any:
    """JSON text as the API reads it (``planner.core.parsers.loads_strict``), within the library's
    size limit. Errors of values keep their paths into the document (``jobs[3].id``)."""
    if len(text) > LIMITS["document_bytes"]:
        raise InputError.single(field, f"is larger than {int(LIMITS['document_bytes']) // 2**20} MB")
    try:
        return loads_strict(text)
    except JSONSyntaxError as exc:
        raise InputError.single(field, f"is not valid JSON: {exc}") from None


# --------------------------------------------------------------------------- declared options


def option_form_field(option: OptionField, *, label: str | None = None) -> forms.Field:
    """A form field for an option the library declares (its kind, default, bounds and help)."""
    common: dict[str, Any] = {"label": label or option.label, "help_text": option.help, "required": False}
    if option.kind == "boolean":
        return forms.BooleanField(initial=bool(option.default), **common)
    if option.kind == "choice":
        return forms.ChoiceField(choices=[(c, c) for c in option.choices], initial=option.default, **common)
    unit = f" ({option.unit})" if option.unit else ""
    common["label"] = f"{common['label']}{unit}"
    return forms.FloatField(initial=option.default, widget=NumberInput(), localize=False, **common)


def field_name(option: OptionField) -> str:
    """``rut.cpu`` -> ``rut_cpu``: a form field's name for a declared option."""
    return option.name.replace(".", "_")


class DeclaredOptionsForm(forms.Form):
    """A form with one field per option the library declares (``scheduling.option_fields``).

    Every field is optional and starts empty: an empty field keeps the scenario's own value
    (the declared default is shown as a placeholder); a ticked box sets a flag. Subclasses
    call :meth:`add_options`, read the overrides with :meth:`declared_options` and send the
    service's ``options.<name>`` errors back with :meth:`option_field_for`.
    """

    declared: dict[str, OptionField]

    def add_options(self, options: Sequence[OptionField]) -> None:
        self.declared = {}
        for option in options:
            field = option_form_field(option)
            field.initial = None
            if isinstance(field, forms.ChoiceField) and not isinstance(field, forms.TypedChoiceField):
                # The getter returns a list (Django normalises choices); the stubs' type adds callables.
                field.choices = [("", f"default ({option.default})"), *field.choices]  # type: ignore[misc]
            elif option.kind == "number":
                field.widget.attrs["placeholder"] = f"{option.default:g}"
            self.fields[field_name(option)] = field
            self.declared[field_name(option)] = option

    def option_bound_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.declared]

    def option_errors(self) -> bool:
        """Whether any option field has an error (the page opens their section)."""
        return any(name in self.errors for name in self.declared)

    def declared_options(self) -> dict[str, Any]:
        """The overrides given: ``{"rut": {"cpu": 0.7}, "ilp_method": "integer", ...}``."""
        out: dict[str, Any] = {}
        for name, option in self.declared.items():
            value = self.cleaned_data.get(name)
            if value in (None, "") or (option.kind == "boolean" and not value):
                continue  # empty: the scenario's own value; an unticked box keeps it too
            if option.resource is not None:
                out.setdefault(option.name.split(".", 1)[0], {})[option.resource] = value
            else:
                out[option.name] = value
        return out

    def option_field_for(self, path: str) -> str | None:
        """The field of ``options.rut.cpu`` (``rut_cpu``), of ``options.rut`` (its first field), ..."""
        if not path.startswith("options."):
            return None
        name = path[len("options."):]
        for field, option in self.declared.items():
            if option.name == name:
                return field
        group = [f for f, o in self.declared.items() if o.name.split(".", 1)[0] == name.split(".", 1)[0]]
        return group[0] if group else None


# --------------------------------------------------------------------------- teams


class TeamForm(forms.Form):
    name = forms.CharField(max_length=100, label="Team name")


class MemberAddForm(forms.Form):
    username = forms.CharField(
        max_length=150, label="Username", help_text="They join when they accept."
    )
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.MEMBER)


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices)


class TeamSettingsForm(forms.Form):
    name = forms.CharField(max_length=100, label="Team name")
    currency = forms.CharField(
        max_length=8,
        label="Currency symbol",
        help_text="How costs are shown on pages and in reports ($, €, CHF). "
        "Display only: prices stay as entered.",
    )


# --------------------------------------------------------------------------- catalogue


class VMTypeForm(forms.Form):
    """One row of the catalogue: name, a capacity per resource column, price, description.

    ``resources`` are the catalogue's columns; an empty capacity cell leaves the resource
    out of the VM type. Every input names its row's ``<form>`` (``form_id``) so that a
    table row can hold the inputs of one form.
    """

    name = forms.CharField(max_length=200, required=False)
    price_per_hour = forms.FloatField(required=False, widget=NumberInput(), label="Price per hour")
    # Scenario version 4: empty means the VM type has no reserved (or spot) price.
    reserved_price_per_hour = forms.FloatField(required=False, widget=NumberInput(),
                                               label="Reserved per hour")
    spot_price_per_hour = forms.FloatField(required=False, widget=NumberInput(), label="Spot per hour")
    spot_interruptions_per_hour = forms.FloatField(required=False, widget=NumberInput(),
                                                   label="Spot interruptions per hour")
    description = forms.CharField(max_length=10_000, required=False)

    #: The market price fields, in the catalogue's column order.
    MARKET_FIELDS = ("reserved_price_per_hour", "spot_price_per_hour", "spot_interruptions_per_hour")

    def __init__(self, *args: Any, resources: list[str], form_id: str, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.resources = list(resources)
        for r in self.resources:
            self.fields[f"cap_{r}"] = forms.FloatField(required=False, widget=NumberInput(), label=r)
        for name, field in self.fields.items():
            field.widget.attrs.update({"form": form_id, "aria-label": field.label or name})
        self.fields["name"].widget.attrs["class"] = "w-name"

    def capacity_fields(self) -> list[forms.BoundField]:
        return [self[f"cap_{r}"] for r in self.resources]

    def market_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.MARKET_FIELDS]

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        capacity = {r: data[f"cap_{r}"] for r in self.resources if data.get(f"cap_{r}") is not None}
        return {
            "name": data["name"],
            "capacity": capacity,
            "price_per_hour": data["price_per_hour"] if data["price_per_hour"] is not None else "",
            "reserved_price_per_hour": data.get("reserved_price_per_hour"),
            "spot_price_per_hour": data.get("spot_price_per_hour"),
            "spot_interruptions_per_hour": data.get("spot_interruptions_per_hour") or 0.0,
            "description": data["description"],
        }

    def field_for(self, path: str) -> str | tuple[str, bool] | None:
        if path.startswith("capacity."):
            return f"cap_{path.split('.', 1)[1]}", True
        if path == "capacity":
            return f"cap_{self.resources[0]}" if self.resources else None
        return path or None


# --------------------------------------------------------------------------- clusters


#: The scenario options a cluster keeps as its defaults (billing and timing; the rest are per run).
CLUSTER_OPTIONS = ("boot_time_s", "min_billed_s", "billing_granularity_s", "scheduling_interval_s")


class ClusterForm(DeclaredOptionsForm):
    name = forms.CharField(max_length=200, required=False)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)
    resources = forms.CharField(
        required=False, initial=", ".join(DEFAULT_RESOURCES),
        help_text="The resources the scenario models, comma-separated.",
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.add_options([o for o in option_fields(DEFAULT_RESOURCES) if o.name in CLUSTER_OPTIONS])

    def resource_list(self) -> list[str]:
        raw = self.cleaned_data.get("resources") or ""
        return [r.strip() for r in raw.split(",") if r.strip()] or list(DEFAULT_RESOURCES)

    def options(self, existing: dict[str, Any] | None = None) -> dict[str, Any]:
        """The cluster's scenario options: the fields given here over any others it had."""
        out = {k: v for k, v in (existing or {}).items() if k not in CLUSTER_OPTIONS}
        out.update(self.declared_options())
        return out

    def field_for(self, path: str) -> str | None:
        if path.startswith("options."):
            return self.option_field_for(path)
        return path.split("[")[0] if path.split("[")[0] in ("name", "description", "resources") else None


#: The help of a cluster entry's machine class, on the editor.
MACHINE_CLASS_HELP = (
    "paper 004's UDRF: VM types with the same label form one class; empty: the VM type is its own class"
)


#: A cluster entry's counts of reserved and spot VMs (scenario version 4), as the editor posts them.
MARKET_COUNTS = ("reserved_count", "spot_count")


def entry_rows(data: Any) -> list[dict[str, Any]]:
    """The (VM type, count, machine class, reserved and spot counts) rows a cluster form posted, as
    strings; rows without a VM type or a count dropped."""
    vm_types = data.getlist("entry_vm_type")
    counts = data.getlist("entry_count")
    classes = data.getlist("entry_machine_class")
    markets = {key: data.getlist(f"entry_{key}") for key in MARKET_COUNTS}
    rows: list[dict[str, Any]] = []
    for i in range(max(len(vm_types), len(counts))):
        vm_type = vm_types[i].strip() if i < len(vm_types) else ""
        count = counts[i].strip() if i < len(counts) else ""
        machine_class = classes[i].strip() if i < len(classes) else ""
        if vm_type or count:
            row: dict[str, Any] = {"vm_type": vm_type, "count": count, "machine_class": machine_class,
                                   "errors": []}
            row.update({key: values[i].strip() if i < len(values) else "" for key, values in markets.items()})
            rows.append(row)
    return rows


def _number_text(text: str) -> Any:
    """Posted text as an int, else a float, else the text itself (the service says what is wrong)."""
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def entries_for_service(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows as the service's ``entries``: ids and counts as numbers where they parse, and the
    machine class only where one is given (empty: the VM type is its own class)."""
    entries: list[dict[str, Any]] = []
    for row in rows:
        entry: dict[str, Any] = {}
        if row["vm_type"]:
            entry["vm_type"] = int(row["vm_type"]) if row["vm_type"].isdigit() else row["vm_type"]
        if row["count"]:
            try:
                entry["count"] = int(row["count"])
            except ValueError:
                try:
                    entry["count"] = float(row["count"])
                except ValueError:
                    entry["count"] = row["count"]
        if row.get("machine_class"):
            entry["machine_class"] = row["machine_class"]
        for key in MARKET_COUNTS:
            if row.get(key):
                entry[key] = _number_text(row[key])
        entries.append(entry)
    return entries


# --------------------------------------------------------------------------- workloads


class WorkloadForm(forms.Form):
    name = forms.CharField(max_length=200, required=False)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


#: The formats a pasted text or one small file holds. The public traces (read as streams of one
#: file or more, with a window, a sample and rules of their own: docs/traces.md) are imported
#: from their files, by the command line's ``import`` or a trace upload, not pasted here.
PASTE_IMPORTERS = {name: i for name, i in IMPORTERS.items() if i.stream is None}


class JobsCsvForm(forms.Form):
    """Jobs from pasted text or an uploaded file, in a format of the library's importer registry
    that is not a trace (:data:`PASTE_IMPORTERS`).

    Each importer's options get a field ``option_<format>_<name>`` (``scheduling.importers``
    declares them); only the chosen format's options are passed on.
    """

    csv = forms.CharField(
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={
            "rows": 6, "spellcheck": "false", "class": "mono",
            "placeholder": "id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s\n"
                           "j1,analytics,0,4,2,4,300,900\nj2,,60,2,1,2,120,",
        }),
        label="Paste CSV",
        help_text=" ".join(f"{i.label}: {i.help}" for i in PASTE_IMPORTERS.values()),
    )
    file = forms.FileField(required=False, label="…or upload a file")
    format = forms.ChoiceField(choices=[(i.name, i.label) for i in PASTE_IMPORTERS.values()], initial="jobs")
    mode = forms.ChoiceField(
        choices=[("append", "Add to the jobs"), ("replace", "Replace the jobs")],
        initial="append",
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for importer in PASTE_IMPORTERS.values():
            for option in importer.options:
                field = param_field(option)
                field.label = f"{importer.label.split(' (')[0]}: {field.label}"
                self.fields[self._option_field(importer.name, option.name)] = field

    @staticmethod
    def _option_field(fmt: str, name: str) -> str:
        return f"option_{fmt}_{name}".replace("-", "_").replace(".", "_")

    def option_fields(self) -> list[forms.BoundField]:
        return [self[self._option_field(i.name, o.name)] for i in PASTE_IMPORTERS.values() for o in i.options]

    def importer_options(self) -> dict[str, Any]:
        """The chosen format's options, as the importer reads them."""
        importer = PASTE_IMPORTERS[self.cleaned_data["format"]]
        out = {}
        for option in importer.options:
            value = self.cleaned_data.get(self._option_field(importer.name, option.name))
            if value is not None and value != "":
                out[option.name] = value
        return out

    def field_for(self, source: str) -> Callable[[str], str | None]:
        """Where an error of the import goes: its option's field, the format, else the text or the file."""
        fmt = (getattr(self, "cleaned_data", None) or {}).get("format", "")

        def where(path: str) -> str | None:
            if path == "format":
                return "format"
            if path.startswith("options."):
                return self._option_field(fmt, path.split(".", 1)[1])
            return source

        return where

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not (data.get("csv") or "").strip() and not data.get("file"):
            raise forms.ValidationError("Paste CSV text or choose a file.")
        if (data.get("csv") or "").strip() and data.get("file"):
            raise forms.ValidationError("Paste CSV text or choose a file, not both.")
        return data


_SPEC = WorkloadSpec()  # the generator's defaults: the form starts from them


class GeneratorForm(forms.Form):
    """The synthetic generator's settings (``scheduling.generators.WorkloadSpec``).

    One pair of min/max fields per resource of the workload (``res_cpu_min`` ...). The
    library checks the values (``scheduling.generators.parse_generator_spec``); the form
    only reads them. ``cluster``: fit the executors to one of the team's clusters.
    """

    jobs = forms.IntegerField(initial=_SPEC.jobs)
    arrival_rate_per_s = forms.FloatField(
        initial=_SPEC.arrival_rate_per_s, widget=NumberInput(), label="Arrival rate (jobs/s)"
    )
    executors_min = forms.IntegerField(initial=_SPEC.executors[0], label="Executors from")
    executors_max = forms.IntegerField(initial=_SPEC.executors[1], label="to")
    duration_min = forms.FloatField(
        initial=_SPEC.duration_s[0], widget=NumberInput(), label="Duration from (s)"
    )
    duration_max = forms.FloatField(initial=_SPEC.duration_s[1], widget=NumberInput(), label="to")
    deadline_fraction = forms.FloatField(
        initial=_SPEC.deadline_fraction, widget=NumberInput(), label="Share of jobs with a deadline"
    )
    slack_min = forms.FloatField(
        initial=_SPEC.deadline_slack[0], widget=NumberInput(), label="Deadline slack from (× duration)"
    )
    slack_max = forms.FloatField(initial=_SPEC.deadline_slack[1], widget=NumberInput(), label="to")
    # Optional: a form posted without them (an older page, a script) keeps the defaults (none).
    network_fraction = forms.FloatField(
        required=False, initial=_SPEC.network_fraction, widget=NumberInput(),
        label="Share of network-bound jobs",
        help_text="Jobs that run longer when their executors span several VMs (paper 003's PageRank).",
    )
    network_sensitivity = forms.FloatField(
        required=False, initial=_SPEC.network_sensitivity, widget=NumberInput(),
        label="Their network sensitivity σ",
        help_text="A job on k VMs runs 1 + σ (k − 1) / (executors − 1) times its duration.",
    )
    frameworks = forms.CharField(required=False, help_text="Comma-separated; empty for none.")
    integer_sizes = forms.BooleanField(
        required=False, initial=_SPEC.integer_sizes, label="Whole-number executor sizes"
    )
    seed = forms.IntegerField(initial=_SPEC.seed)
    cluster = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        label="Fit to cluster",
        help_text="Propose only executors that fit a VM type of this cluster the job's framework may use.",
    )

    def __init__(
        self, *args: Any, resources: list[str], clusters: Sequence[tuple[int, str]] = (), **kwargs: Any
    ):
        super().__init__(*args, **kwargs)
        self.resources = list(resources) or list(DEFAULT_RESOURCES)
        cast(forms.ChoiceField, self.fields["cluster"]).choices = [("", "— any sizes —"), *clusters]
        for r in self.resources:
            low, high = _SPEC.executor.get(r, (1, 4))
            self.fields[f"res_{r}_min"] = forms.FloatField(
                initial=low, widget=NumberInput(), label=f"{r} per executor from"
            )
            self.fields[f"res_{r}_max"] = forms.FloatField(initial=high, widget=NumberInput(), label="to")

    def resource_fields(self) -> list[tuple[str, forms.BoundField, forms.BoundField]]:
        return [(r, self[f"res_{r}_min"], self[f"res_{r}_max"]) for r in self.resources]

    def spec(self) -> tuple[int, dict[str, Any]]:
        d = self.cleaned_data
        spec: dict[str, Any] = {
            "jobs": d["jobs"],
            "arrival_rate_per_s": d["arrival_rate_per_s"],
            "executors": [d["executors_min"], d["executors_max"]],
            "executor": {r: [d[f"res_{r}_min"], d[f"res_{r}_max"]] for r in self.resources},
            "integer_sizes": bool(d["integer_sizes"]),
            "duration_s": [d["duration_min"], d["duration_max"]],
            "deadline_fraction": d["deadline_fraction"],
            "deadline_slack": [d["slack_min"], d["slack_max"]],
            **{key: d[key] for key in ("network_fraction", "network_sensitivity") if d.get(key) is not None},
            "frameworks": [f.strip() for f in (d.get("frameworks") or "").split(",") if f.strip()],
        }
        return d["seed"], spec

    def field_for(self, path: str) -> str | tuple[str, bool] | None:
        direct = {
            "jobs": "jobs", "arrival_rate_per_s": "arrival_rate_per_s", "executors": "executors_min",
            "duration_s": "duration_min", "deadline_fraction": "deadline_fraction",
            "deadline_slack": "slack_min", "frameworks": "frameworks", "seed": "seed",
            "integer_sizes": "integer_sizes", "cluster": "cluster", "vm_types": "cluster",
            "network_fraction": "network_fraction", "network_sensitivity": "network_sensitivity",
        }
        if path in direct:
            return direct[path]
        if path.startswith("frameworks["):
            return "frameworks"
        if path.startswith("executor."):
            field = f"res_{path.split('.', 1)[1]}_min"
            return (field, True) if field in self.fields else None
        if path == "executor" and self.resources:
            return f"res_{self.resources[0]}_min"
        return None


class ScenarioUploadForm(forms.Form):
    """A scenario document, pasted or uploaded; becomes a new cluster and workload."""

    document = forms.CharField(
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "mono"}),
        label="Paste a scenario JSON",
    )
    file = forms.FileField(required=False, label="…or upload a .json file")
    name = forms.CharField(required=False, max_length=200, help_text="Default: the document's name.")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not (data.get("document") or "").strip() and not data.get("file"):
            raise forms.ValidationError("Paste a scenario document or choose a file.")
        return data
