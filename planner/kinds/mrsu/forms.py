"""The start page form of an MRSU sizing run (paper 002).

Its parameter fields are the kind's declarations (:data:`scheduling.mrsu.params.MRSU_PARAMS`,
through :class:`~planner.web.start.StartForm`): labels, help, bounds, defaults and the checks
(``run_start``, whose errors, with the library's paths such as ``input.applications[1].priority``
or ``sweep.loads[2]``, come back onto the field that caused them). What this form adds is what
a declaration cannot say: where the requirements come from. An MRSU input (pasted or uploaded)
carries its own machine, so the scenario is optional with it: without one, the run records
:func:`~scheduling.mrsu.params.recorded_scenario`; the scenario's frameworks (and the advisor's
unit) are read only when the requirements are the scenario's.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms

from planner.core.errors import InputError
from planner.runs.models import Run
from planner.web.forms import parse_json_document, read_upload
from planner.web.start import StartForm
from scheduling.mrsu.params import input_scenario, recorded_scenario

__all__ = ["MrsuForm"]


def _from_input(data: dict[str, Any]) -> bool:
    return data.get("requirements") == "input"


class MrsuForm(StartForm):
    """Requirements (an MRSU input or the scenario's), units, T, the advisor's unit, a sweep."""

    input_file = forms.FileField(required=False, label="…or upload a .json file")

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # The page asks where the requirements come from (the API's default: the input when
        # one is given); an input needs no scenario.
        requirements = cast(forms.ChoiceField, self.fields["requirements"])
        requirements.widget = forms.RadioSelect(choices=cast(Any, requirements.choices))
        requirements.initial, requirements.required = "input", True
        self.fields["source"].required = False
        self._input: Any = None

    # ------------------------------------------------------------------ reading

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data
        if _from_input(data):
            self._input = self._read_input()
            if data.get("source") == "stored" and not (data.get("cluster") and data.get("workload")):
                data["source"] = "document"  # no stored scenario: the input's machine
        data["source"] = data.get("source") or "document"
        return super().clean()

    def _read_input(self) -> Any:
        """The MRSU input document, uploaded or pasted (parsed by its field), or ``None`` with an
        error on the field."""
        data = self.cleaned_data
        upload = data.get("input_file")
        if upload:
            try:
                return parse_json_document(read_upload(upload, "input_file") or "", "input_file")
            except InputError as exc:
                self.add_error("input_file", "; ".join(e.message for e in exc.errors))
                return None
        if data.get("input") is None and "input" not in self.errors:
            self.add_error("input", "Paste an MRSU input document or choose a file.")
        return data.get("input")

    def needs_document(self) -> bool:
        return not _from_input(self.cleaned_data)

    def params(self) -> dict[str, Any]:
        params = super().params()
        if _from_input(self.cleaned_data):
            params["input"] = self._input
            params.pop("unit", None)  # the advisor reads the scenario's frameworks only
        else:
            params.pop("input", None)  # left in its box when the scenario was chosen
        return params

    def entered_scenario(self) -> dict[str, Any] | None:
        """The input's machine when the requirements are an input and no scenario is given
        (raises ``ScenarioError`` at the input's fields when the run cannot record it)."""
        data = self.cleaned_data
        given = (data.get("document") or "").strip() or data.get("document_file")
        if not _from_input(data) or data.get("source") == "stored" or given:
            return None
        return recorded_scenario(self.params())

    # ------------------------------------------------------------------ filling

    def initial_from_run(self, run: Run) -> None:
        """A clone of a run on an MRSU input fills the input (:meth:`fill`), not the machine the
        run recorded for it; a scenario given beside the input is filled as it is (a run that
        keeps its jobs apart never recorded the input's machine: it has jobs)."""
        options = run.options or {}
        if options.get("requirements") == "input" and not run.jobs_stored and (
            run.scenario == input_scenario(options.get("input"))
        ):
            return
        super().initial_from_run(run)

    # ------------------------------------------------------------------ errors

    def place_error(self, path: str, message: str, text: str) -> bool:
        if path == "input" or path.startswith(("input.", "input[")):
            self.add_error("input", text)  # with its whole path: the input is one document
            return True
        if path == "baseline":  # not on the page: it is one of the units ticked
            self.add_error("compositions", text)
            return True
        return super().place_error(path, message, text)
