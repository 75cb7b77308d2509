"""The comparison's start form: the scenario, the schedulers (named and written), the run options
the library declares (one RUT weight per resource the team uses), a baseline and a seed.

Its fields come from the comparison's declared parameters
(:data:`scheduling.cost.params.COMPARISON_PARAMS`) through the shared start form
(:class:`planner.web.start.StartForm`): the ``schedulers`` list is shown as tick boxes of the
named schedulers, with free lines for specs of one's own ("More schedulers"); ``options`` is
shown as the library's run options (:func:`scheduling.option_fields`, one field each, a RUT
weight per resource), each empty field keeping the scenario's own value; ``baseline`` and
``seed`` are derived as they are declared.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, cast

from django import forms

from planner.web.forms import DeclaredOptionsForm
from planner.web.param_forms import ParamsForm
from planner.web.start import StartForm
from scheduling import DEFAULT_RESOURCES, SCHEDULERS, option_fields
from scheduling.scenario.variations import VARIATION_PARAMS

__all__ = ["CompareForm"]

_SCHEDULER_PATH = re.compile(r"^schedulers\[(\d+)\](?:\.(.*))?$")


class CompareForm(StartForm, DeclaredOptionsForm):
    """A comparison: a stored cluster and workload (the default) or a scenario document, and the
    schedulers to compare on it.

    ``resources``: the resources of the team's VM types (one RUT weight field each).
    """

    SOURCES = [("stored", "A cluster and a workload"), ("document", "A scenario JSON document")]
    OWN_PARAMS = ("options",)

    source = forms.ChoiceField(choices=SOURCES, initial="stored", widget=forms.RadioSelect)
    custom = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "spellcheck": "false", "class": "mono",
                                     "placeholder": "edf-bfd:rut.cpu=0.5,rut.mem=0.5"}),
        label="More schedulers",
        help_text="One spec a line: <ordering>-<placement>[:key=value,...], e.g. morpheus-ilp or "
        "edf-ilp:ilp_time_limit_s=0.5",
    )

    def __init__(self, *args: Any, clusters: Sequence[Any], workloads: Sequence[Any],
                 resources: Sequence[str] = DEFAULT_RESOURCES, **kwargs: Any):
        super().__init__(*args, clusters=clusters, workloads=workloads, **kwargs)
        # Every run option the library declares, a RUT weight per resource the team uses.
        self.add_options(option_fields(resources))
        cast(forms.ChoiceField, self.fields["workload"]).choices = [("", "— choose a workload —")] + [
            (w.pk, f"{w.name} · {w.job_count:,} jobs") for w in workloads
        ]
        self.sent: tuple[list[str], list[str]] = ([], [])
        if not self.is_bound:  # a team with one cluster or one workload: it is the choice
            if len(clusters) == 1:
                self.initial["cluster"] = clusters[0].pk
            if len(workloads) == 1:
                self.initial["workload"] = workloads[0].pk

    # ------------------------------------------------------------------ reading

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("schedulers") and not self.custom_specs():
            self.add_error("schedulers", "Tick at least one scheduler or write a spec below.")
        return data

    def custom_specs(self) -> list[str]:
        """The "More schedulers" lines, one spec each."""
        raw = getattr(self, "cleaned_data", {}).get("custom") or ""
        return [line.strip() for line in raw.splitlines() if line.strip()]

    def ticked(self) -> list[str]:
        """The named schedulers ticked, in the library's order."""
        chosen = self.cleaned_data.get("schedulers") or []
        return [name for name in SCHEDULERS if name in chosen]

    def scheduler_specs(self) -> list[str]:
        """The request's ``schedulers``: the ticked ones, then the written ones."""
        return self.ticked() + self.custom_specs()

    def params(self) -> dict[str, Any]:
        values = super().params()
        values["schedulers"] = self.scheduler_specs()
        options = self.declared_options()  # empty fields keep the scenario's own values
        if options:
            values["options"] = options
        return values

    # ------------------------------------------------------------------ filling

    def fill(self, params: Mapping[str, Any]) -> None:
        super().fill(params)
        specs = params.get("schedulers")
        if isinstance(specs, list | tuple):
            self.initial["schedulers"] = [s for s in specs if s in SCHEDULERS]
            self.initial["custom"] = "\n".join(str(s) for s in specs if s not in SCHEDULERS)
        options = params.get("options")
        if not isinstance(options, Mapping):
            return
        for name, option in self.declared.items():
            if option.resource is not None:
                group = options.get(option.name.split(".", 1)[0])
                value = group.get(option.resource) if isinstance(group, Mapping) else None
            else:
                value = options.get(option.name)
            if value is not None:
                self.initial[name] = value

    def initial_from_run(self, run: Any) -> None:
        """The run's stored cluster and workload when both still exist (they may have been
        edited since), else the scenario document the run used."""
        clusters, workloads = self.stored_ids
        if run.cluster_id in clusters and run.workload_id in workloads:
            self.initial.update(source="stored", cluster=run.cluster_id, workload=run.workload_id)
        else:
            super().initial_from_run(run)

    # ------------------------------------------------------------------ errors

    def add_service_errors(self, exc: BaseException) -> None:
        # The schedulers as sent, before an error takes their fields out of cleaned_data.
        self.sent = (self.ticked(), self.custom_specs())
        super().add_service_errors(exc)

    def place_error(self, path: str, message: str, text: str) -> bool:
        """``schedulers[i]`` on the ticked scheduler or the line of the written spec it is,
        ``options.<name>`` on the option's field; the other parameters by their declaration."""
        m = _SCHEDULER_PATH.match(path)
        if m:
            index, below = int(m.group(1)), m.group(2)
            detail = f"{below}: {message}" if below else message
            ticked, custom = self.sent
            if index < len(ticked):
                self.add_error("schedulers", f"{ticked[index]}: {detail}")
            else:
                k = index - len(ticked)
                spec = custom[k] if k < len(custom) else "?"
                self.add_error("custom", f"line {k + 1} ({spec}): {detail}")
            return True
        if path == "options" or path.startswith("options."):
            field = self.option_field_for(path)
            self.add_error(field, message if field else text)
            return True
        return super().place_error(path, message, text)


class WhatIfForm(ParamsForm):
    """What if, from a finished comparison: its scenario varied (load; per VM type a price factor, a
    count, a spot discount and interruption rate, a reserved count and discount; a seed:
    :data:`scheduling.scenario.variations.VARIATION_PARAMS`), the same schedulers."""

    #: The per-VM-type variations of reserved and spot prices (scenario version 4), in column order.
    MARKET_KEYS = ("spot_discounts", "spot_interruptions", "reserved_counts", "reserved_discounts")

    def __init__(self, *args: Any, vm_types: Sequence[str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        keyed = ("price_factors", "counts", *self.MARKET_KEYS)
        self.add_params(VARIATION_PARAMS, keys=dict.fromkeys(keyed, vm_types))
