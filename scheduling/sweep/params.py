"""The parameters of a sweep, declared once (:mod:`scheduling.params`).

:data:`SWEEP_PARAMS` declares what a sweep takes: the axes it varies (``vary``: axis to values,
the axes of :data:`~scheduling.sweep.axes.AXES`), the schedulers every setting is run with, the
seeds, and a random sample of the grid instead of all of it (``sample`` settings drawn with
``seed``). :func:`sweep_run` reads a request's parameters with them and checks them against
the scenario (its VM types, its resources, the schedulers' specs), returning the sweep's
options; the command line's flags come from the same declarations.

An axis is written ``<axis>=<value>,<value>,...``; several axes are separated by ``;`` or a
new line (a form's text, the ``--vary`` flags joined):

>>> parse_vary("counts.m1.large=4,8,12; load.jobs=1,2", "vary")
{'counts.m1.large': [4, 8, 12], 'load.jobs': [1, 2]}
>>> vary_text({"prices.m1.large": [0.4, 1.0], "options.edf_backfill": [True, False]})
'prices.m1.large=0.4,1; options.edf_backfill=true,false'
>>> sweep_run({"vary": {"load.jobs": [1, 2]}, "schedulers": ["edf-bfd", "morpheus"], "seeds": 3})
{'vary': {'load.jobs': [1.0, 2.0]}, 'schedulers': ['edf-bfd', 'morpheus'], 'seeds': 3, 'sample': None, \
'seed': 0, 'points': 12}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..cost.schedulers import SCHEDULERS, parse_scheduler
from ..errors import FieldError, ScenarioError
from ..params import Param, TextForm, read_params, seed_param
from ..scenario import DEFAULT_RESOURCES, Scenario
from .axes import axes_words, check_axis_values
from .expand import grid_size

__all__ = ["MAX_POINTS", "MAX_VALUES", "SWEEP_PARAMS", "parse_vary", "sweep_run", "vary_text"]

#: The most points (settings x schedulers x seeds) one sweep runs.
MAX_POINTS = 2000
#: The most values of one axis.
MAX_VALUES = 100
#: The most axes of one sweep.
MAX_AXES = 8
#: The most schedulers of one sweep.
MAX_SCHEDULERS = 20


def _value(text: str) -> Any:
    """A value as typed: a number when it reads as one, true/false, else the text."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        number = float(text)
    except ValueError:
        return text.strip()
    return int(number) if re.fullmatch(r"[+-]?\d+", text.strip()) else number


def parse_vary(text: str, path: str) -> dict[str, list[Any]]:
    """Axes written as text, ``<axis>=<v>,<v>,...`` separated by ``;`` or new lines.

    >>> parse_vary("load.jobs", "--vary")
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: --vary: 'load.jobs' is not <axis>=<value>,<value>,... \
(e.g. counts.m1.large=4,8,12)
    """
    out: dict[str, list[Any]] = {}
    errors: list[FieldError] = []
    for chunk in filter(None, (c.strip() for c in re.split(r"[;\n]", text))):
        key, eq, values = chunk.partition("=")
        items = [v for v in (s.strip() for s in values.split(",")) if v]
        if not eq or not key.strip() or not items:
            errors.append(FieldError(path, f"{chunk!r} is not <axis>=<value>,<value>,... "
                                           "(e.g. counts.m1.large=4,8,12)"))
            continue
        if key.strip() in out:
            errors.append(FieldError(f"{path}.{key.strip()}", "is given twice"))
            continue
        out[key.strip()] = [_value(v) for v in items]
    if errors:
        raise ScenarioError(errors)
    return out


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"{value:g}" if isinstance(value, float) else str(value)


def vary_text(axes: Any) -> str:
    """Axes as :func:`parse_vary` reads them (text stays as it is)."""
    if isinstance(axes, str):
        return axes
    return "; ".join(f"{k}={','.join(_value_text(v) for v in values)}" for k, values in (axes or {}).items())


def _check_vary(value: Any, path: str) -> dict[str, list[Any]]:
    if len(value) > MAX_AXES:
        raise ScenarioError([FieldError(path, f"varies {len(value)} axes; the limit is {MAX_AXES}")])
    return check_axis_values(value, path=path)


SWEEP_PARAMS: tuple[Param, ...] = (
    Param("vary", "mapping", "Vary", f"The axes and their values: {axes_words()}; one axis a line or "
          "separated by ';', values by ',' (empty: the scenario as it is).",
          default={}, item=Param("values", "list", item=Param("value", "document"), min_items=1,
                                 max_items=MAX_VALUES),
          text=TextForm(parse_vary, vary_text, "counts.m1.large=4,8,12; load.jobs=1,2"), check=_check_vary),
    Param("schedulers", "list", "Schedulers", "Every setting is run by each of these scheduler specs "
          "<ordering>-<placement>[:key=value,...].", default=["edf-bfd"], choices=tuple(SCHEDULERS),
          item=Param("scheduler", "text"), min_items=1, max_items=MAX_SCHEDULERS, unique=True),
    Param("seeds", "integer", "Seeds", "Every setting is run with the seeds 0 to n - 1 (the load's random "
          "copies differ by seed); the bands are over them.", default=1, minimum=1, maximum=100,
          flag="--seeds"),
    Param("sample", "integer", "Sample", "Run a random sample of this many settings of the grid instead of "
          "every one (empty: the whole grid).", minimum=1, maximum=MAX_POINTS, flag="--sample"),
    seed_param("The seed of the random sample."),
)


def sweep_run(params: Mapping[str, Any], *, scenario: Scenario | None = None) -> dict[str, Any]:
    """A sweep's options, read by :data:`SWEEP_PARAMS` and checked against ``scenario`` (its VM
    types, its resources, each scheduler spec), with the number of points it makes.

    Parameters
    ----------
    params : mapping
        ``vary`` (axis to values), ``schedulers``, ``seeds``, ``sample``, ``seed``.
    scenario : Scenario, optional
        Checked against when given: an axis of a VM type it does not have, a run option of a
        resource it does not have.

    Returns
    -------
    dict
        The stored options: those five and ``points`` (settings x schedulers x seeds).

    Raises
    ------
    ScenarioError
        With every problem at its path (``vary.counts.m9``, ``schedulers[1]``, ``sample``).

    Examples
    --------
    >>> sweep_run({"vary": {"counts.x": [0, -1]}, "schedulers": ["edf-quantum"], "seeds": 0})
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: vary.counts.x[1]: must be a whole number from 0 to 100,000
    seeds: must be a whole number from 1 to 100
    schedulers[0]: unknown placement 'quantum' in 'edf-quantum' (placements: bfd, ilp, consolidate, \
spread; named schedulers: fifo-spread, fifo-consolidate, morpheus, edf-bfd, edf-ilp)
    """
    errors: list[FieldError] = []
    bad: set[str] = set()
    try:
        values = read_params(SWEEP_PARAMS, params, what="a sweep")
    except ScenarioError as exc:  # the others read as their defaults: one answer says everything
        errors.extend(exc.errors)
        bad = {re.split(r"[.\[]", e.path, maxsplit=1)[0] for e in exc.errors}
        names = {p.name for p in SWEEP_PARAMS}
        values = read_params(SWEEP_PARAMS, {k: v for k, v in (params or {}).items() if k in names - bad})
    resources = scenario.resources if scenario is not None else DEFAULT_RESOURCES
    if scenario is not None and "vary" not in bad:
        try:
            values["vary"] = check_axis_values(values["vary"], path="vary", resources=resources,
                                               vm_types=[t.name for t in scenario.vm_types])
        except ScenarioError as exc:
            errors.extend(exc.errors)
            bad.add("vary")
    specs: list[str] = []
    for i, spec in enumerate(values["schedulers"] if "schedulers" not in bad else []):
        try:
            parsed = parse_scheduler(spec, resources=resources, base=scenario.options if scenario else None,
                                     path=f"schedulers[{i}]")
        except ScenarioError as exc:
            errors.extend(exc.errors)
            continue
        if parsed.spec in specs:
            errors.append(FieldError(f"schedulers[{i}]", f"{parsed.spec!r} is listed twice"))
        specs.append(parsed.spec)
    settings = grid_size(values["vary"])
    if values["sample"] is not None:
        settings = min(settings, int(values["sample"]))
    points = settings * max(len(specs), 1) * int(values["seeds"])
    if not errors and points > MAX_POINTS:
        where = "sample" if values["sample"] is not None else "vary"
        errors.append(FieldError(where, f"makes {points:,} points ({settings:,} settings x {len(specs)} "
                                        f"schedulers x {values['seeds']} seeds); the most is {MAX_POINTS:,} "
                                        "(sample fewer settings)"))
    if errors:
        raise ScenarioError(errors)
    return {"vary": values["vary"], "schedulers": specs, "seeds": values["seeds"], "sample": values["sample"],
            "seed": values["seed"], "points": points}
