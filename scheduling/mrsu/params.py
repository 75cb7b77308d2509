"""The parameters of an MRSU sizing run (paper 002), declared once (:mod:`scheduling.params`).

:data:`MRSU_PARAMS` declares what a run takes: where the requirements come from (the scenario's
frameworks, or an MRSU input document), the slots, compositions, modes and validity interval,
the unit to price, and the paper's sweep (:data:`SWEEP_PARAMS`, whose fields are also
``mrsu-sweep``'s flags). :func:`mrsu_run` reads a request's parameters with them and with the
rules between them, and returns the run's options; :func:`input_scenario` is the scenario a run
on an MRSU input records (one machine of the input's capacity).

>>> options = mrsu_run({"sweep": {"loads": [0.5], "seeds": 3}})
>>> options["requirements"], options["compositions"], options["sweep"]["loads"], options["sweep"]["slots"]
('scenario', ['gcd', 'min'], [0.5], 30)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import FieldError, ScenarioError
from ..params import Param, TextForm, read_params
from ..scenario import Scenario, parse_scenario
from .advisor import parse_unit
from .compose import COMPOSITIONS, MODES
from .model import parse_mrsu_input, scenario_problem
from .setups import PAPER_SWEEP
from .sweep import parse_loads

__all__ = [
    "MAX_SWEEP_CELLS",
    "MRSU_PARAMS",
    "SWEEP_PARAMS",
    "input_scenario",
    "loads_text",
    "mrsu_run",
    "recorded_scenario",
    "unit_text",
]

#: Limits of a planner run (the library's own are far larger).
MAX_SLOTS = 1000
MAX_LOADS = 40
#: Workload cells (seeds x applications x slots) of one load point, one part's memory: the
#: paper's set-up is 150,000.
MAX_SWEEP_CELLS = 3_000_000


def loads_text(loads: Any) -> str:
    """Loads (fractions) as the percentages :func:`~scheduling.mrsu.sweep.parse_loads` reads.

    >>> loads_text([0.1, 0.5, 1.25])
    '10 50 125'
    """
    return " ".join(f"{100 * float(x):g}" for x in loads or [])


def _loads(text: str, path: str) -> list[float]:
    return parse_loads(text, path=path)


def _unit_as_typed(text: str, path: str) -> str:
    """A unit stays text until the scenario's resources are known (:func:`parse_unit` reads it)."""
    return text.strip()


def unit_text(unit: Any) -> str:
    """A unit as ``cpu=1,mem=4`` (text stays as it is).

    >>> unit_text({"cpu": 1.0, "mem": 4.0}), unit_text("cpu=2")
    ('cpu=1,mem=4', 'cpu=2')
    """
    if isinstance(unit, str):
        return unit
    return ",".join(f"{k}={v:g}" for k, v in (unit or {}).items())


SWEEP_PARAMS: tuple[Param, ...] = (
    Param("loads", "list", "Loads", "Total requirement as a share of capacity, one point each "
          "(typed as percentages: 50 80 110).", default=list(PAPER_SWEEP["loads"]),
          item=Param("load", "number", minimum=0, exclusive_minimum=True, maximum=10), min_items=1,
          max_items=MAX_LOADS, unique=True, text=TextForm(_loads, loads_text, "50 80 110"), flag="--loads"),
    Param("seeds", "integer", "Seeds", "Workloads drawn per load.", default=PAPER_SWEEP["seeds"], minimum=1,
          maximum=1000, flag="--seeds"),
    Param("applications", "integer", "Applications", "Applications of each workload.",
          default=PAPER_SWEEP["applications"], minimum=1, maximum=2000, flag="--applications"),
    Param("slots", "integer", "Slots", "Time slots of each workload.", default=PAPER_SWEEP["slots"],
          minimum=1, maximum=MAX_SLOTS, flag="--slots"),
    Param("seed", "integer", "First seed", "The seed of the first workload (then +1 each).",
          default=PAPER_SWEEP["seed"], minimum=0, maximum=2**31 - 1, flag="--seed"),
    Param("spread", "number", "Spread", "Requirements are uniform in mean x (1 ± spread).", default=0.5,
          minimum=0, maximum=1, flag="--spread"),
    Param("slots_valid", "integer", "T of the sweep", "The MRSU is recomputed every T slots (empty: once "
          "for the whole horizon, as in the paper).", unit="slots", minimum=1, maximum=MAX_SLOTS,
          flag="--slots-valid"),
)


def _input(doc: Any, path: str) -> Any:
    try:
        parse_mrsu_input(doc)
    except ScenarioError as exc:
        raise ScenarioError([FieldError(f"{path}.{e.path}" if e.path else path, e.message)
                             for e in exc.errors]) from None
    return doc


MRSU_PARAMS: tuple[Param, ...] = (
    Param("requirements", "choice", "Requirements", "Where the applications' requirements come from: the "
          "scenario's frameworks (and the advisor runs too), or an MRSU input document (default: the input "
          "when one is given).", choices=("input", "scenario"),
          choice_labels=("An MRSU input document (capacity + applications)",
                         "The scenario's frameworks (and the advisor)")),
    Param("input", "document", "MRSU input", 'An MRSU input document: {"capacity": {"cpu": 24, ...}, '
          '"applications": [{"name", "priority", "requirements": [one object per slot]}]} (docs/mrsu.md).',
          check=_input),
    Param("slots", "integer", "Slots", "Slots the scenario's horizon is cut into.", default=30, minimum=1,
          maximum=MAX_SLOTS),
    Param("compositions", "choices", "Compositions", "How the unit is composed from the requirements.",
          default=list(COMPOSITIONS), choices=COMPOSITIONS, choice_labels=("GCD", "MIN"), min_items=1),
    Param("modes", "choices", "Modes", "Full tuples of the unit, or each dimension on its own.",
          default=list(MODES), choices=MODES, min_items=1,
          choice_labels=("FT (full tuples)", "ID (independent dimensions)")),
    Param("slots_valid", "integer", "Validity interval T", "The unit is recomputed every T slots (empty: "
          "the whole horizon).", unit="slots", minimum=1, maximum=MAX_SLOTS, flag="--slots-valid"),
    Param("unit", "document", "Your unit (advisor)", "A unit to price beside GCD and MIN: resource -> "
          "amount, or text such as cpu=1,mem=4 (requirements from the scenario only).",
          text=TextForm(_unit_as_typed, unit_text, "cpu=1,mem=4"), flag="--unit"),
    Param("sweep", "object", "Run the paper's sweep too (Figs. 3-5)", "The paper's synthetic workloads over "
          "the loads (true: the paper's set-up), one part per load.", fields=SWEEP_PARAMS,
          true_is_defaults=True),
    Param("baseline", "text", "Baseline", "The unit the others are compared with (default: the first)."),
)


def mrsu_run(params: Mapping[str, Any], *, scenario: Scenario | None = None) -> dict[str, Any]:
    """An MRSU run's options, read by :data:`MRSU_PARAMS`, or every problem with its path into the
    request (``input.applications[1].priority``, ``sweep.loads[2]``, ``compositions[0]``)."""
    given = dict(params)
    if given.get("sweep") is False:
        given["sweep"] = None
    errors: list[FieldError] = []
    try:
        values = read_params(MRSU_PARAMS, given, what="an MRSU run")
    except ScenarioError as exc:
        errors.extend(exc.errors)
        values = {}
    source = values.get("requirements") or ("input" if given.get("input") is not None else "scenario")
    options: dict[str, Any] = {"requirements": source, "input": None, "unit": None}
    if source == "input":
        if "input" in values:
            if values["input"] is None:
                errors.append(FieldError("input", "is required with requirements: input"))
            options["input"] = values["input"]
    else:
        if given.get("input") is not None:
            errors.append(FieldError("input", "is only read with requirements: input"))
        if values.get("unit") and scenario is not None:
            try:
                options["unit"] = parse_unit(values["unit"], scenario.resources, path="unit")
            except ScenarioError as exc:
                errors.extend(exc.errors)
    sweep = values.get("sweep")
    if sweep is not None:
        cells = sweep["seeds"] * sweep["applications"] * sweep["slots"]
        if cells > MAX_SWEEP_CELLS:
            errors.append(FieldError("sweep.seeds", f"seeds x applications x slots is {cells:,}; the "
                                     f"limit of one load point is {MAX_SWEEP_CELLS:,}"))
    for key in ("slots", "compositions", "modes", "slots_valid"):
        options[key] = values.get(key)
    options["sweep"] = sweep
    labels = [f"{c}-{m}" for c in values.get("compositions") or [] for m in values.get("modes") or []]
    baseline = values.get("baseline")
    if baseline is None:
        baseline = labels[0] if labels else None
    elif labels and baseline not in labels:
        errors.append(FieldError("baseline", f"must be one of {', '.join(labels)}"))
    options["baseline"] = baseline
    if scenario is not None and source == "scenario" and not errors:
        try:  # the requirements of the scenario: say now if it has none to size
            scenario_problem(scenario, slots=int(options["slots"]))
        except ScenarioError as exc:
            errors.extend(exc.errors)
    if errors:
        raise ScenarioError(errors)
    return options


def input_scenario(doc: Any) -> dict[str, Any]:
    """A scenario document for a run on an MRSU input: one machine holding the input's capacity
    (a run records a scenario; the requirements are the input's).

    >>> input_scenario({"name": "x", "capacity": {"cpu": 4}})["vm_types"][0]["capacity"]
    {'cpu': 4}
    """
    capacity = dict(doc.get("capacity") or {}) if isinstance(doc, Mapping) else {}
    name = doc.get("name") if isinstance(doc, Mapping) else None
    return {
        "name": str(name or "MRSU input")[:100],
        "resources": list(capacity),
        "vm_types": [{"name": "mrsu-input", "capacity": capacity, "price_per_hour": 0, "count": 1}],
        "jobs": [],
    }


def _input_path(error: FieldError) -> FieldError:
    """An error of the scenario :func:`input_scenario` records, at the input field it comes from."""
    path = error.path
    for prefix, field in (("vm_types[0].capacity", "input.capacity"), ("resources", "input.capacity"),
                          ("name", "input.name")):
        if path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "["):
            path = field + path[len(prefix):] if prefix != "resources" else field
            break
    else:
        path = "input"
    return FieldError(path, f"{error.message} (the run records the input as a scenario of one machine)")


def recorded_scenario(params: Mapping[str, Any]) -> dict[str, Any]:
    """The scenario a run on the MRSU input ``params["input"]`` records (:func:`input_scenario`).

    Raises :class:`ScenarioError` at the input's fields (``input.capacity``), never the recorded
    scenario's (``resources``): every problem of the request when it has any (the input's own
    limits included), else what the scenario's limits refuse of the input.
    """
    recorded = input_scenario(params.get("input") or {})
    try:
        parse_scenario(recorded)
    except ScenarioError as exc:
        mrsu_run({**params, "requirements": "input"})
        raise ScenarioError([_input_path(e) for e in exc.errors]) from None
    return recorded

