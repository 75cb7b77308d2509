"""The reproductions' start form: only the declared parameters (papers, seeds); no scenario."""

from __future__ import annotations

from typing import Any

from planner.web.start import StartForm

from .kind import recorded_scenario


class ReproduceForm(StartForm):
    """The papers and the seeds; the run records paper 003's cluster (each claim builds its own set-up)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["source"].required = False

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data
        data["source"] = "document"
        return data

    def needs_document(self) -> bool:
        return False

    def entered_scenario(self) -> dict[str, Any] | None:
        return recorded_scenario()
