"""The sweep's start form: a stored cluster and workload (the default) or a scenario document, and
the sweep's declared parameters (:data:`scheduling.sweep.params.SWEEP_PARAMS`); the axes are
written one a line in a text area."""

from __future__ import annotations

from typing import Any

from django import forms

from planner.web.start import StartForm

__all__ = ["SweepForm"]


class SweepForm(StartForm):
    """A sweep starts, like a comparison, from the team's cluster and workload."""

    SOURCES = [("stored", "A cluster and a workload"), ("document", "A scenario JSON document")]

    source = forms.ChoiceField(choices=SOURCES, initial="stored", widget=forms.RadioSelect)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        vary = self.fields["vary"]
        vary.widget = forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "class": "mono",
                                            "placeholder": "counts.m1.large=4,8,12\nload.jobs=1,2"})
        if not self.is_bound:  # a team with one cluster or one workload: it is the choice
            for name in ("cluster", "workload"):
                choices = [c for c in getattr(self.fields[name], "choices", []) if c[0] != ""]
                if len(choices) == 1:
                    self.initial[name] = choices[0][0]
