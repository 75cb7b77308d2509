"""The cheapest-cluster search's start form: a stored cluster and workload (the default) or a
scenario document, and the search's declared parameters
(:data:`scheduling.cost.cheapest.CHEAPEST_PARAMS`); the ranges of counts are typed as text
(``m1.large=0-20, m1.xlarge=0-20``)."""

from __future__ import annotations

from typing import Any

from django import forms

from planner.web.start import StartForm

__all__ = ["CheapestForm"]


class CheapestForm(StartForm):
    """A search starts, like a comparison, from the team's cluster (its VM types and prices) and
    workload; the counts searched replace the cluster's."""

    SOURCES = [("stored", "A cluster and a workload"), ("document", "A scenario JSON document")]

    source = forms.ChoiceField(choices=SOURCES, initial="stored", widget=forms.RadioSelect)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if not self.is_bound:  # a team with one cluster or one workload: it is the choice
            for name in ("cluster", "workload"):
                choices = [c for c in getattr(self.fields[name], "choices", []) if c[0] != ""]
                if len(choices) == 1:
                    self.initial[name] = choices[0][0]
