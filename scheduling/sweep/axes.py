"""What a sweep can vary: its axes, declared once in :data:`AXES`.

An axis is written ``<prefix>.<name>`` (``counts.m1.large``, ``prices.m1.large``, ``load.jobs``,
``options.boot_time_s``) with a list of values. Every axis but the run options changes the
scenario through :func:`scheduling.scenario.variations.vary` (the one place a scenario is varied
for a question), so the values of those axes are checked by the same declarations that check a
what-if (:data:`~scheduling.scenario.variations.VARIATION_PARAMS`); the run options are checked
by their own declarations (:func:`scheduling.scenario.option_fields`).

An axis is one :class:`Axis` of :data:`AXES`: a new one (reserved counts, a spot discount, once
``vary`` takes them) is one line here, and the parameters, the command line, the expansion, the
tables and the figures take it from there: the reserved counts and discounts, spot discounts
and interruptions that ``vary`` takes are four such lines.

>>> [a.prefix for a in AXES]
['counts', 'prices', 'reserved', 'reserved_discount', 'spot', 'interruptions', 'load', 'options']
>>> variation({"counts.m1.large": 8, "load.jobs": 2.0, "prices.m1.large": 0.5})
{'counts': {'m1.large': 8}, 'load': 2.0, 'load_mode': 'jobs', 'price_factors': {'m1.large': 0.5}}
>>> axis_of("load.sizes").label, axis_label("prices.m2.xlarge")
('Load factor', 'Price factor m2.xlarge')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import FieldError, ScenarioError
from ..params import Param, param_named, read_value
from ..scenario import DEFAULT_RESOURCES, option_fields
from ..scenario.checks import Problems
from ..scenario.options import OptionField, read_option
from ..scenario.variations import LOAD_MODES, VARIATION_PARAMS

__all__ = [
    "AXES",
    "Axis",
    "axes_words",
    "axis_label",
    "axis_of",
    "check_axis_values",
    "option_overrides",
    "sweepable_options",
    "variation",
]

#: What follows an axis's prefix: a VM type of the scenario, a run option, or one of ``names``.
Names = Literal["vm_type", "option", "fixed"]


def _vary_item(name: str) -> Param:
    """The declaration of one value of ``vary``'s per-VM-type argument ``name``."""
    item = param_named(VARIATION_PARAMS, name).item
    assert item is not None
    return item


@dataclass(frozen=True)
class Axis:
    """One thing a sweep can vary.

    Attributes
    ----------
    prefix : str
        The axis's name before the first dot (``counts``).
    label : str
        What people read (``VM count``); the name after the prefix is added (``VM count m1.large``).
    help : str
        One sentence: what a value means.
    names : {"vm_type", "option", "fixed"}
        What follows the prefix: a VM type of the scenario, a run option, or one of ``fixed``.
    fixed : tuple of str
        The names of a ``fixed`` axis (``jobs``, ``sizes``).
    item : Param, optional
        One value's declaration (its bounds); ``None``: the run option's own declaration.
    apply : callable
        ``apply(name, value)``: the value as keyword arguments of
        :func:`~scheduling.scenario.variations.vary` (or ``{"options": {...}}`` for run options).
    """

    prefix: str
    label: str
    help: str
    names: Names
    apply: Callable[[str, Any], dict[str, Any]]
    item: Param | None = None
    fixed: tuple[str, ...] = ()


#: The axes, in the order tables and figures list them. The one place: a new axis is one line.
AXES: tuple[Axis, ...] = (
    Axis("counts", "VM count", "How many VMs of the type the cluster has (0 takes the type out).",
         "vm_type", lambda name, v: {"counts": {name: v}}, _vary_item("counts")),
    Axis("prices", "Price factor", "The type's hourly price times this factor (0.4: a 60 % spot discount).",
         "vm_type", lambda name, v: {"price_factors": {name: v}}, _vary_item("price_factors")),
    Axis("reserved", "Reserved VMs", "How many of the type's VMs are reserved (billed for the horizon).",
         "vm_type", lambda name, v: {"reserved_counts": {name: v}}, _vary_item("reserved_counts")),
    Axis("reserved_discount", "Reserved discount", "The reserved VMs' price as a fraction off on demand.",
         "vm_type", lambda name, v: {"reserved_discounts": {name: v}}, _vary_item("reserved_discounts")),
    Axis("spot", "Spot discount", "The type's VMs beyond its reserved ones are spot VMs at this fraction off "
         "(0.7: 70 % off; 0: no spot).", "vm_type", lambda name, v: {"spot_discounts": {name: v}},
         _vary_item("spot_discounts")),
    Axis("interruptions", "Spot interruptions per hour", "How often each spot VM of the type is reclaimed "
         "(seeded by the point's seed).", "vm_type", lambda name, v: {"spot_interruptions": {name: v}},
         _vary_item("spot_interruptions")),
    Axis("load", "Load factor", "load.jobs: this many times the jobs (the arrival rate; copies drawn with "
         "the point's seed); load.sizes: every job this many times longer.",
         "fixed", lambda name, v: {"load": v, "load_mode": name}, param_named(VARIATION_PARAMS, "load"),
         fixed=LOAD_MODES),
    Axis("options", "Run option", "A run option of the scenario (boot_time_s, billing_granularity_s, "
         "edf_backfill, ...), the same for every scheduler of the point.",
         "option", lambda name, v: {"options": {name: v}}),
)

_BY_PREFIX = {a.prefix: a for a in AXES}


def axis_of(key: str) -> Axis:
    """The axis of ``key`` (``counts.m1.large``: ``counts``); ``KeyError`` when none."""
    return _BY_PREFIX[key.split(".", 1)[0]]


def axis_label(key: str) -> str:
    """``key`` in words: ``VM count m1.large``, ``Load factor (more jobs)``."""
    axis = axis_of(key)
    name = key.split(".", 1)[1] if "." in key else ""
    if axis.prefix == "load":
        return f"{axis.label} ({'more jobs' if name == 'jobs' else 'longer jobs'})"
    return f"{axis.label} {name}".strip()


def axes_words() -> str:
    """Every axis as it is written, for help texts: ``counts.<VM type> (VM count), ...``."""
    shapes = {"vm_type": "<VM type>", "option": "<run option>"}
    return ", ".join(f"{a.prefix}.{shapes.get(a.names) or '|'.join(a.fixed)} ({a.label})" for a in AXES)


def sweepable_options(resources: Sequence[str] = DEFAULT_RESOURCES) -> dict[str, OptionField]:
    """The run options an ``options.<name>`` axis may vary: every one but the RUT weights (a
    group whose weights must sum to 1: give them in scheduler specs, ``edf-bfd:rut.cpu=0.5,...``)."""
    return {f.name: f for f in option_fields(resources) if f.resource is None}


def _merge(into: dict[str, Any], more: Mapping[str, Any]) -> None:
    for key, value in more.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = dict(value) if isinstance(value, Mapping) else value


def variation(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings of a point (axis key to value) as ``vary``'s keyword arguments, with the run
    options' overrides under ``options`` (:func:`option_overrides` takes them out)."""
    out: dict[str, Any] = {}
    for key, value in settings.items():
        name = key.split(".", 1)[1]
        _merge(out, axis_of(key).apply(name, value))
    return out


def option_overrides(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Take the run options' overrides out of :func:`variation`'s keyword arguments."""
    return dict(kwargs.pop("options", None) or {})


def _key_problem(key: str, vm_types: Sequence[str] | None, resources: Sequence[str]) -> str | None:
    prefix, dot, name = key.partition(".")
    axis = _BY_PREFIX.get(prefix)
    if axis is None or not dot or not name:
        shapes = ", ".join(f"{a.prefix}.<{a.names if a.names != 'fixed' else '|'.join(a.fixed)}>"
                           for a in AXES)
        return f"is not an axis (axes: {shapes})"
    if axis.names == "fixed" and name not in axis.fixed:
        return f"must be one of {', '.join(f'{prefix}.{n}' for n in axis.fixed)}"
    if axis.names == "vm_type" and vm_types is not None and name not in vm_types:
        return f"{name!r} is not a VM type of the scenario ({', '.join(vm_types)})"
    if axis.names == "option":
        options = sweepable_options(resources)
        if name not in options:
            return f"{name!r} is not a run option a sweep varies ({', '.join(options)})"
    return None


def check_axis_values(
    axes: Mapping[str, Sequence[Any]], *, path: str, vm_types: Sequence[str] | None = None,
    resources: Sequence[str] = DEFAULT_RESOURCES,
) -> dict[str, list[Any]]:
    """Every axis's key and values read by its declaration, each problem at its path
    (``vary.counts.m9``, ``vary.load.jobs[1]``); VM types are checked when ``vm_types`` is given.

    >>> check_axis_values({"load.jobs": [1, 2]}, path="vary")
    {'load.jobs': [1.0, 2.0]}
    >>> check_axis_values({"counts.m9": [1], "load.jobs": [0], "load.sizes": [2]}, path="vary",
    ...                   vm_types=["m1.large"])
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: vary.counts.m9: 'm9' is not a VM type of the scenario (m1.large)
    vary.load.jobs[0]: must be a number in (0, 100]
    vary.load.sizes: vary one load axis (load.jobs or load.sizes), not both
    """
    errors: list[FieldError] = []
    out: dict[str, list[Any]] = {}
    for key, values in axes.items():
        where = f"{path}.{key}"
        problem = _key_problem(key, vm_types, resources)
        if problem is not None:
            errors.append(FieldError(where, problem))
            continue
        axis = axis_of(key)
        read: list[Any] = []
        for i, value in enumerate(values):
            try:
                if axis.item is not None:
                    read.append(read_value(axis.item, value, f"{where}[{i}]"))
                else:
                    problems = Problems()
                    spec = sweepable_options(resources)[key.split(".", 1)[1]]
                    got = read_option(spec, value, f"{where}[{i}]", problems)
                    problems.raise_if_any()
                    read.append(got)
            except ScenarioError as exc:
                errors.extend(exc.errors)
        if len(set(map(repr, read))) < len(read):
            errors.append(FieldError(where, "lists a value twice"))
        out[key] = read
    loads = [k for k in out if k.startswith("load.")]
    if len(loads) > 1:
        errors.append(FieldError(f"{path}.{loads[1]}",
                                 "vary one load axis (load.jobs or load.sizes), not both"))
    if errors:
        raise ScenarioError(errors)
    return out
