"""The VM type catalogue: a table edited in place, one small form per row."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from planner.catalogue.models import VMType
from planner.catalogue.selectors import vm_type_get, vm_type_list
from planner.catalogue.services import vm_type_create, vm_type_delete, vm_type_update
from planner.core.errors import InputError
from scheduling import ScenarioError

from ..context import TeamRequest, follow_team, may_change, team_page
from ..errors import attach_errors
from ..forms import VMTypeForm
from ..presets import PRESET_CHOICES, vm_types_add_preset

DEFAULT_RESOURCES = ["cpu", "mem"]


def catalogue_resources(vm_types: list[VMType], extra: str = "") -> list[str]:
    """The catalogue's capacity columns: cpu and mem, then every other resource in use."""
    names = dict.fromkeys(DEFAULT_RESOURCES)
    for t in vm_types:
        names.update(dict.fromkeys(t.capacity))
    for r in extra.split(","):
        if r.strip() and len(r.strip()) <= 100:
            names[r.strip()] = None
    return list(names)


def _plain(x: float) -> int | float:
    """``0`` rather than ``0.0`` in an input."""
    return int(x) if float(x).is_integer() else x


def _row_form(vm_type: VMType, resources: list[str], data: Any = None) -> VMTypeForm:
    initial: dict[str, Any] = {
        "name": vm_type.name,
        "price_per_hour": _plain(vm_type.price_per_hour),
        "description": vm_type.description,
    }
    for name in VMTypeForm.MARKET_FIELDS:
        value = getattr(vm_type, name)
        empty = value is None or (name == "spot_interruptions_per_hour" and not value)  # 0: the default
        initial[name] = None if empty else _plain(value)
    initial.update({f"cap_{r}": v for r, v in vm_type.capacity.items()})
    return VMTypeForm(data, prefix=f"vm{vm_type.pk}", form_id=f"vm-form-{vm_type.pk}", resources=resources,
                      initial=initial)


def _render(
    request: TeamRequest,
    *,
    bound: VMTypeForm | None = None,
    bound_pk: int | None = None,
    status: int = 200,
    resources: list[str] | None = None,
) -> HttpResponse:
    vm_types = list(vm_type_list(user=request.user, team=request.team))
    resources = resources or catalogue_resources(vm_types, request.GET.get("add_resource", ""))
    rows = []
    for t in vm_types:
        form = bound if bound is not None and bound_pk == t.pk else _row_form(t, resources)
        rows.append({"vm_type": t, "form": form, "can_change": may_change(request, t)})
    new_form = bound if bound is not None and bound_pk is None else VMTypeForm(
        prefix="new", form_id="vm-form-new", resources=resources
    )
    new_form.fields["name"].widget.attrs["placeholder"] = "New VM type"
    new_form.fields["price_per_hour"].widget.attrs["placeholder"] = f"{request.team.currency or '$'}/h"
    return render(request, "web/catalogue.html", {
        "rows": rows,
        "resources": resources,
        "new_form": new_form,
        "presets": PRESET_CHOICES,
        "resource_query": ",".join(r for r in resources if r not in DEFAULT_RESOURCES),
    }, status=status)


@team_page
@require_GET
def catalogue(request: TeamRequest) -> HttpResponse:
    return _render(request)


def _posted_resources(request: HttpRequest) -> list[str]:
    return [r for r in request.POST.get("resources", "").split(",") if r.strip()] or list(DEFAULT_RESOURCES)


@team_page
@require_POST
def vm_type_add(request: TeamRequest) -> HttpResponse:
    resources = _posted_resources(request)
    form = VMTypeForm(request.POST, prefix="new", form_id="vm-form-new", resources=resources)
    if form.is_valid():
        try:
            vm_type = vm_type_create(team=request.team, user=request.user, **form.service_kwargs())
        except (InputError, ScenarioError) as exc:
            attach_errors(form, exc, form.field_for)
        else:
            messages.success(request, f"Added VM type “{vm_type.name}”.")
            return redirect("web:catalogue")
    return _render(request, bound=form, status=400, resources=resources)


@team_page
@require_POST
def vm_type_edit(request: TeamRequest, pk: int) -> HttpResponse:
    vm_type = vm_type_get(user=request.user, pk=pk)
    follow_team(request, vm_type.team_id)
    resources = _posted_resources(request)
    form = _row_form(vm_type, resources, request.POST)
    if form.is_valid():
        try:
            vm_type = vm_type_update(vm_type=vm_type, user=request.user, **form.service_kwargs())
        except (InputError, ScenarioError) as exc:
            attach_errors(form, exc, form.field_for)
        else:
            messages.success(request, f"Saved VM type “{vm_type.name}”.")
            return redirect("web:catalogue")
    return _render(request, bound=form, bound_pk=vm_type.pk, status=400, resources=resources)


@team_page
@require_POST
def vm_type_remove(request: TeamRequest, pk: int) -> HttpResponse:
    vm_type = vm_type_get(user=request.user, pk=pk)
    follow_team(request, vm_type.team_id)
    try:
        vm_type_delete(vm_type=vm_type, user=request.user)
    except InputError as exc:
        messages.error(request, "; ".join(e.message for e in exc.errors))
    else:
        messages.success(request, f"Deleted VM type “{vm_type.name}”.")
    return redirect("web:catalogue")


@team_page
@require_POST
def vm_type_presets(request: TeamRequest) -> HttpResponse:
    preset = request.POST.get("preset", "")
    try:
        added, skipped = vm_types_add_preset(team=request.team, user=request.user, preset=preset)
    except KeyError:
        messages.error(request, f"There is no preset named “{preset}”.")
    except (InputError, ScenarioError) as exc:
        messages.error(request, f"Could not add the preset: {exc}")
    else:
        if added:
            messages.success(request, f"Added {', '.join(added)} from {preset}.")
        if skipped:
            messages.info(request, f"Already in the catalogue, left unchanged: {', '.join(skipped)}.")
    return redirect("web:catalogue")
