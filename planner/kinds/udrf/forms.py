"""The start page form of a UDRF study (paper 004): the shared start page's form
(:class:`~planner.web.start.StartForm`) with a third source of the scenario.

The run's parameters (online, compare with DRF, the online options) are fields built from the
library's declarations (:data:`scheduling.udrf.params.UDRF_PARAMS`). The scenario is entered
through the page (machine classes with a count and a capacity per resource; users' jobs, each
with its tasks one per line, runs, duration and arrival: :meth:`UdrfForm.entered_scenario`
builds the version-3 document), pasted or uploaded as a version-3 scenario JSON document, or
made of a stored cluster (classes from its entries' machine-class labels; an unlabelled VM type
is a class of its own) and workload (its frameworks' complex jobs). The form only parses and
type-checks; the library (through ``run_start``) decides what is valid, and its field errors,
with the library's paths (``vm_types[1].capacity.cpu``,
``frameworks[0].complex_jobs[2].tasks[0].demand``, ``interval_s``), come back onto the row and
field that caused them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django import forms

from planner.core.errors import field_errors
from planner.web.param_forms import NumberInput
from planner.web.start import StartForm

__all__ = ["ClassRowForm", "JobRowForm", "UdrfForm", "parse_amounts", "parse_tasks", "tasks_text"]

_PAIR = re.compile(r"^\s*([^=\s]+)\s*=\s*(\S+)\s*$")
_TASK = re.compile(r"^\s*(?P<cls>[^:]+?)\s*:\s*(?P<demand>.*?)(?:\s+[x×]\s*(?P<count>\d+))?\s*$")


def _number(text: str) -> float | int:
    value = float(text)
    return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value


def parse_amounts(text: str) -> dict[str, float | int]:
    """``"cpu=7, mem=8"`` as ``{"cpu": 7, "mem": 8}``; ``ValueError`` says what is wrong.

    >>> parse_amounts("cpu=7, mem=0.5")
    {'cpu': 7, 'mem': 0.5}
    """
    out: dict[str, float | int] = {}
    for chunk in (c for c in text.replace(";", ",").split(",") if c.strip()):
        m = _PAIR.match(chunk)
        if m is None:
            raise ValueError(f"write resource=amount, separated by commas (not {chunk.strip()!r})")
        try:
            out[m.group(1)] = _number(m.group(2))
        except ValueError:
            raise ValueError(f"{m.group(1)}: {m.group(2)!r} is not a number") from None
    return out


def parse_tasks(text: str) -> list[dict[str, Any]]:
    """One task per line, ``<machine class>: cpu=1, mem=2 x 3`` (``x 3``: three copies, optional).

    >>> parse_tasks("standard: cpu=1, mem=1\\npublic-ip: cpu=1, mem=1 x2")
    [{'machine_class': 'standard', 'demand': {'cpu': 1, 'mem': 1}}, \
{'machine_class': 'public-ip', 'demand': {'cpu': 1, 'mem': 1}, 'count': 2}]
    """
    out = []
    for k, line in enumerate(line for line in text.splitlines() if line.strip()):
        m = _TASK.match(line)
        if m is None:
            raise ValueError(f"task {k + 1}: write <machine class>: cpu=1, mem=2 [x count]")
        try:
            task: dict[str, Any] = {
                "machine_class": m.group("cls"),
                "demand": parse_amounts(m.group("demand")),
            }
        except ValueError as exc:
            raise ValueError(f"task {k + 1}: {exc}") from None
        if m.group("count"):
            task["count"] = int(m.group("count"))
        out.append(task)
    return out


def tasks_text(tasks: Any) -> str:
    """The inverse of :func:`parse_tasks`."""
    lines = []
    for t in tasks if isinstance(tasks, list) else []:
        if not isinstance(t, Mapping):
            continue
        demand = ", ".join(
            f"{k}={v:g}" if isinstance(v, int | float) else f"{k}={v}"
            for k, v in (t.get("demand") or {}).items()
        )
        count = t.get("count")
        lines.append(f"{t.get('machine_class')}: {demand}" + (f" x{count}" if count not in (None, 1) else ""))
    return "\n".join(lines)


def _amounts_text(amounts: Any) -> str:
    if not isinstance(amounts, Mapping):
        return ""
    return ", ".join(f"{k}={v:g}" if isinstance(v, int | float) else f"{k}={v}" for k, v in amounts.items())


class ClassRowForm(forms.Form):
    """One machine class: its name, how many machines, and one machine's capacity."""

    name = forms.CharField(required=False, max_length=100, label="Machine class")
    count = forms.IntegerField(required=False, min_value=1, label="Machines", widget=NumberInput)
    capacity = forms.CharField(
        required=False,
        label="Capacity per machine",
        widget=forms.TextInput(attrs={"class": "mono", "placeholder": "cpu=8, mem=16"}),
    )

    def used(self) -> bool:
        return (
            any((self.data.get(f"{self.prefix}-{f}") or "").strip() for f in self.fields)
            if self.is_bound
            else False
        )

    def clean_capacity(self) -> dict[str, Any]:
        try:
            return parse_amounts(self.cleaned_data.get("capacity") or "")
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None


class JobRowForm(forms.Form):
    """One job of a user: its tasks (one per line), runs, duration and arrival."""

    user = forms.CharField(required=False, max_length=100)
    id = forms.CharField(required=False, max_length=100, label="Job")
    tasks = forms.CharField(
        required=False,
        label="Tasks (one per line)",
        widget=forms.Textarea(
            attrs={
                "rows": 2,
                "class": "mono",
                "spellcheck": "false",
                "placeholder": "hadoop: cpu=1, mem=1 x2",
            }
        ),
    )
    runs = forms.IntegerField(required=False, min_value=1, widget=NumberInput, help_text="default 1")
    duration_s = forms.FloatField(
        required=False, widget=NumberInput, label="Duration (s)", help_text="default 60"
    )
    arrival_s = forms.FloatField(
        required=False, widget=NumberInput, label="Arrival (s)", help_text="default 0"
    )

    def used(self) -> bool:
        return (
            any((self.data.get(f"{self.prefix}-{f}") or "").strip() for f in self.fields)
            if self.is_bound
            else False
        )

    def clean_tasks(self) -> list[dict[str, Any]]:
        try:
            return parse_tasks(self.cleaned_data.get("tasks") or "")
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None


_JOB = re.compile(r"^frameworks\[(\d+)\]\.complex_jobs\[(\d+)\](?:\.([a-z_]+))?(.*)$")
_CLASS = re.compile(r"^vm_types\[(\d+)\](?:\.([a-z_]+))?(.*)$")
_JOB_FIELDS = {
    "id": "id",
    "tasks": "tasks",
    "runs": "runs",
    "duration_s": "duration_s",
    "arrival_s": "arrival_s",
}
_CLASS_FIELDS = {"name": "name", "machine_class": "name", "count": "count", "capacity": "capacity"}


class UdrfForm(StartForm):
    """A UDRF study: the scenario (entered as rows, a document, or stored objects) and the run's
    declared parameters."""

    SOURCES = [
        ("forms", "Machine classes and jobs, entered here"),
        ("document", "A scenario JSON document (version 3)"),
        ("stored", "A cluster and a workload (classes from the cluster's labels, else each VM type)"),
    ]
    #: Empty rows shown below the filled ones.
    SPARE_CLASSES = 3
    SPARE_JOBS = 4
    #: The most rows of each table a request may send.
    MAX_ROWS = 500

    source = forms.ChoiceField(choices=SOURCES, initial="forms", widget=forms.RadioSelect)
    scenario_name = forms.CharField(
        required=False, max_length=100, initial="UDRF study", label="Scenario name"
    )
    resources = forms.CharField(initial="cpu, mem", help_text="The resource kinds, separated by commas.")

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["document"].help_text = (
            "Version 3: vm_types with a machine_class, frameworks (users) with complex_jobs "
            "(docs/scenario.md)."
        )
        data = args[0] if args else kwargs.get("data")
        self.class_rows: list[ClassRowForm] = self._rows(ClassRowForm, "m", data, self.SPARE_CLASSES + 3)
        self.job_rows: list[JobRowForm] = self._rows(JobRowForm, "j", data, self.SPARE_JOBS + 6)
        self._class_of: list[ClassRowForm] = []  # vm_types[i] -> its row
        self._job_of: dict[tuple[int, int], JobRowForm] = {}  # (framework, job) -> its row
        self._user_of: list[JobRowForm] = []  # frameworks[f] -> its first row

    @classmethod
    def _rows(cls, row: type[Any], prefix: str, data: Any, default: int) -> list[Any]:
        """The rows a request sent (every ``<prefix><k>-`` it has, up to :attr:`MAX_ROWS`), or
        ``default`` empty ones."""
        count = default
        if data is not None:
            used = [int(m.group(1)) for key in data for m in [re.match(rf"^{prefix}(\d+)-", key)] if m]
            count = max(count, max(used, default=-1) + 1)
        return [row(data, prefix=f"{prefix}{k}") for k in range(min(count, cls.MAX_ROWS))]

    @staticmethod
    def _grow(rows: list[Any], row: type[Any], prefix: str, n: int) -> list[Any]:
        return rows + [row(prefix=f"{prefix}{k}") for k in range(len(rows), n)]

    def _all_rows(self) -> list[ClassRowForm | JobRowForm]:
        return [*self.class_rows, *self.job_rows]

    def _entered(self) -> bool:
        return self.cleaned_data.get("source") == "forms"

    # ------------------------------------------------------------------ reading

    def is_valid(self) -> bool:
        valid = super().is_valid()
        if not self._entered():
            return valid
        rows = [r.is_valid() for r in self._all_rows() if r.used()]
        return valid and all(rows)

    def needs_document(self) -> bool:
        return not self._entered()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self._entered():
            if not any(r.used() for r in self.class_rows):
                self.add_error(None, "Enter at least one machine class.")
            if not any(r.used() for r in self.job_rows):
                self.add_error(None, "Enter at least one job.")
        return data

    def resource_list(self) -> list[str]:
        return [r.strip() for r in (self.cleaned_data.get("resources") or "").split(",") if r.strip()]

    def entered_scenario(self) -> dict[str, Any] | None:
        """The version-3 scenario the rows describe, when the rows are the source (call after
        :meth:`is_valid`); it remembers which row made which VM type and job, for the errors."""
        if not self._entered():
            return None
        vm_types = []
        self._class_of = []
        for class_row in self.class_rows:
            if not class_row.used():
                continue
            d = class_row.cleaned_data
            name = d.get("name") or ""
            vm_types.append(
                {
                    "name": name,
                    "machine_class": name,
                    "capacity": d.get("capacity") or {},
                    "price_per_hour": 0,
                    "count": d.get("count") or 1,
                }
            )
            self._class_of.append(class_row)
        frameworks: list[dict[str, Any]] = []
        index: dict[str, int] = {}
        self._job_of, self._user_of = {}, []
        for row in self.job_rows:
            if not row.used():
                continue
            d = row.cleaned_data
            user = d.get("user") or ""
            if user not in index:
                index[user] = len(frameworks)
                frameworks.append({"name": user, "complex_jobs": []})
                self._user_of.append(row)
            job: dict[str, Any] = {"id": d.get("id") or "", "tasks": d.get("tasks") or []}
            for key in ("runs", "duration_s", "arrival_s"):
                if d.get(key) is not None:
                    job[key] = d[key]
            f = index[user]
            self._job_of[(f, len(frameworks[f]["complex_jobs"]))] = row
            frameworks[f]["complex_jobs"].append(job)
        return {
            "version": 3,
            "name": self.cleaned_data.get("scenario_name") or "UDRF study",
            "resources": self.resource_list(),
            "vm_types": vm_types,
            "frameworks": frameworks,
        }

    # ------------------------------------------------------------------ errors

    def place_error(self, path: str, message: str, text: str) -> bool:
        """The declared parameters' errors on their fields; with the rows as the source, the
        scenario's on the row (and cell) that made the VM type or job of ``path``."""
        if super().place_error(path, message, text):
            return True
        if not self._entered():
            return False
        return self._place_row_error(path, message, text)

    def _place_row_error(self, path: str, message: str, text: str) -> bool:
        m = _JOB.match(path)
        if m and (int(m.group(1)), int(m.group(2))) in self._job_of:
            row = self._job_of[(int(m.group(1)), int(m.group(2)))]
            field, rest = _JOB_FIELDS.get(m.group(3) or ""), m.group(4)
            if field == "tasks" and rest.startswith("["):
                t = re.match(r"^\[(\d+)\]\.?(.*)$", rest)
                where = (
                    f"task {int(t.group(1)) + 1}" + (f" {t.group(2)}" if t and t.group(2) else "")
                    if t
                    else rest
                )
                row.add_error("tasks", f"{where}: {message}")
            elif field is not None:
                row.add_error(field, f"{rest.lstrip('.')}: {message}" if rest else message)
            else:
                row.add_error(None, text)
            return True
        m = re.match(r"^frameworks\[(\d+)\]\.(name|complex_jobs)$", path) or re.match(
            r"^frameworks\[(\d+)\]$", path
        )
        if m and int(m.group(1)) < len(self._user_of):
            self._user_of[int(m.group(1))].add_error("user", message)
            return True
        m = _CLASS.match(path)
        if m and int(m.group(1)) < len(self._class_of):
            class_row = self._class_of[int(m.group(1))]
            field, rest = _CLASS_FIELDS.get(m.group(2) or ""), m.group(3)
            if field is not None:
                class_row.add_error(field, f"{rest.lstrip('.')}: {message}" if rest else message)
            else:
                class_row.add_error(None, text)
            return True
        if path == "resources" or path.startswith("resources["):
            self.add_error("resources", text)
            return True
        if path == "name":
            self.add_error("scenario_name", message)
            return True
        if path in ("vm_types", "frameworks"):
            self.add_error(None, message)
            return True
        return False

    def add_service_errors(self, exc: BaseException) -> None:
        if not self._entered():
            super().add_service_errors(exc)  # the document, or the stored workload and cluster
            return
        # The rows first: ``name`` is then the scenario's (the run's name cannot be wrong).
        for e in field_errors(exc):
            if self.place_error(e.path, e.message, str(e)):
                continue
            if e.path in self.DIRECT:
                self.add_error(e.path, e.message)
            else:
                self.add_error(None, str(e) if e.path else e.message)

    @property
    def has_row_errors(self) -> bool:
        return super().has_row_errors or any(r.errors for r in self._all_rows())

    # ------------------------------------------------------------------ filling

    def initial_from_scenario(self, scenario: Mapping[str, Any]) -> None:
        """Fill the document and, when each machine class is one VM type, the rows."""
        super().initial_from_scenario(scenario)
        vm_types = [v for v in scenario.get("vm_types") or [] if isinstance(v, Mapping)]
        classes: dict[str, list[Mapping[str, Any]]] = {}
        for v in vm_types:
            classes.setdefault(str(v.get("machine_class") or v.get("name")), []).append(v)
        if any(len(vs) > 1 for vs in classes.values()):
            return  # a class of several VM types: only the document says it
        users = [
            f for f in scenario.get("frameworks") or [] if isinstance(f, Mapping) and f.get("complex_jobs")
        ]
        jobs = [(f, j) for f in users for j in f.get("complex_jobs") or [] if isinstance(j, Mapping)]
        self.class_rows = self._grow([], ClassRowForm, "m", len(classes) + self.SPARE_CLASSES)
        for class_row, (name, (v,)) in zip(self.class_rows, classes.items(), strict=False):
            class_row.initial = {
                "name": name,
                "count": v.get("count", 1),
                "capacity": _amounts_text(v.get("capacity")),
            }
        self.job_rows = self._grow([], JobRowForm, "j", len(jobs) + self.SPARE_JOBS)
        for row, (f, j) in zip(self.job_rows, jobs, strict=False):
            row.initial = {
                "user": f.get("name"),
                "id": j.get("id"),
                "tasks": tasks_text(j.get("tasks")),
                **{k: j.get(k) for k in ("runs", "duration_s", "arrival_s") if j.get(k) is not None},
            }
        self.initial.update(
            source="forms",
            scenario_name=scenario.get("name") or "",
            resources=", ".join(str(r) for r in scenario.get("resources") or ["cpu", "mem"]),
        )
