"""Run options: declared once, read by one rule, overridden with ``key=value`` text.

Every option of a simulation run is declared in :data:`OPTION_DECLARATIONS` (type, bounds,
unit, one line of help; the default is the :class:`SimulationOptions` field's own). The
same declaration reads an ``options`` object of a document (:meth:`SimulationOptions.from_dict`),
``key=value`` overrides of a scheduler spec or of the command line (:func:`parse_overrides`),
and gives the planner the fields of its run form (:func:`option_fields`), one RUT weight per
resource of the scenario.

>>> opts = SimulationOptions.from_dict({"boot_time_s": 30}, resources=("cpu", "mem"))
>>> opts.boot_time_s, opts.rut_weights(("cpu", "mem"))
(30.0, (0.8, 0.2))
>>> fields = option_fields(("cpu", "mem"))
>>> overrides = parse_overrides("rut.cpu=0.5,rut.mem=0.5,edf_backfill=yes", fields, path="scheduler")
>>> overrides
{'rut': {'cpu': 0.5, 'mem': 0.5}, 'edf_backfill': True}
>>> SimulationOptions.from_dict(overrides, resources=("cpu", "mem")).rut
(('cpu', 0.5), ('mem', 0.5))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any, Literal

from ..errors import FieldError, ScenarioError
from .checks import Problems, number, shown
from .limits import LIMITS

if TYPE_CHECKING:  # scheduling.params reads with this package's checks: imported when called
    from ..params import Param

__all__ = [
    "OPTION_DECLARATIONS",
    "OptionDeclaration",
    "OptionField",
    "SimulationOptions",
    "option_fields",
    "option_params",
    "parse_overrides",
    "read_option_values",
]

OptionKind = Literal["number", "boolean", "choice"]


@dataclass(frozen=True)
class SimulationOptions:
    """Options of one simulation run; every field has a documented default.

    ``rut`` maps each resource to its Resource Unification Threshold (eq. 5 of paper 003:
    the weights sum to 1); ``None`` means 0.8 cpu / 0.2 mem when both exist, else equal
    weights. Billing options are off (0) by default: the VM is billed for exactly the
    seconds it is on. ``edf_backfill`` lets a deadline job that fits start while an earlier
    deadline job waits (Algorithm 1 of paper 003 makes the earliest deadline block the queue).
    Each option's type, bounds and help are declared in :data:`OPTION_DECLARATIONS`.
    """

    rut: tuple[tuple[str, float], ...] | None = None
    ilp_time_limit_s: float = 10.0
    ilp_method: str = "knapsack"
    boot_time_s: float = 0.0
    min_billed_s: float = 0.0
    billing_granularity_s: float = 0.0
    scheduling_interval_s: float = 0.0
    edf_backfill: bool = False

    ILP_METHODS = ("knapsack", "integer", "binary")

    def rut_weights(self, resources: tuple[str, ...]) -> tuple[float, ...]:
        """The RUT weight of each resource, in the scenario's resource order."""
        if self.rut is not None:
            given = dict(self.rut)
            return tuple(float(given.get(r, 0.0)) for r in resources)
        if "cpu" in resources and "mem" in resources:
            return tuple(0.8 if r == "cpu" else 0.2 if r == "mem" else 0.0 for r in resources)
        return tuple(1.0 / len(resources) for _ in resources)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["rut"] = dict(self.rut) if self.rut is not None else None
        return out

    @classmethod
    def from_dict(
        cls,
        data: Any,
        *,
        resources: tuple[str, ...],
        path: str = "options",
        base: SimulationOptions | None = None,
    ) -> SimulationOptions:
        """Parse options; raises :class:`ScenarioError` naming each bad field."""
        problems = Problems()
        opts = read_options(data, resources, path, problems, base or cls())
        problems.raise_if_any()
        assert opts is not None
        return opts


# --------------------------------------------------------------------------- the declaration


@dataclass(frozen=True)
class OptionField:
    """One option as declared: enough to read it, check it and build a form field for it.

    ``name`` is the key in an ``options`` object, or ``rut.<resource>`` for a per-resource
    weight (``resource`` then names the resource). ``default`` is the value a run gets when
    the option is not given. Numbers lie in ``[minimum, maximum]`` (``minimum`` excluded
    when ``exclusive_minimum``); a choice is one of ``choices``.
    """

    name: str
    kind: OptionKind
    label: str
    help: str
    default: float | bool | str
    unit: str = ""
    minimum: float | None = None
    exclusive_minimum: bool = False
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    resource: str | None = None


@dataclass(frozen=True)
class OptionDeclaration:
    """An option as :data:`OPTION_DECLARATIONS` lists it; ``per_resource``: one per resource."""

    name: str
    kind: OptionKind
    label: str
    help: str
    unit: str = ""
    minimum: float | None = None
    exclusive_minimum: bool = False
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    per_resource: bool = False


_TIME_S = LIMITS["time_s"]

#: Every run option, once. Defaults are the :class:`SimulationOptions` fields' own.
OPTION_DECLARATIONS: tuple[OptionDeclaration, ...] = (
    OptionDeclaration(
        "rut",
        "number",
        "RUT weight",
        "Resource Unification Threshold weight of the resource "
        "(eq. 5 of paper 003); the weights of all resources sum to 1.",
        minimum=0,
        maximum=1,
        per_resource=True,
    ),
    OptionDeclaration(
        "ilp_time_limit_s",
        "number",
        "ILP time limit",
        "Seconds the exact placement may search per scheduling pass before it keeps its best placement.",
        unit="s",
        minimum=0,
        exclusive_minimum=True,
        maximum=3600,
    ),
    OptionDeclaration(
        "ilp_method",
        "choice",
        "ILP method",
        "How the exact placement is solved: knapsack covers, an integer program, or one binary per executor.",
        choices=SimulationOptions.ILP_METHODS,
    ),
    OptionDeclaration(
        "boot_time_s",
        "number",
        "Boot time",
        "Seconds from turning a VM on to its first executor; they are billed.",
        unit="s",
        minimum=0,
        maximum=_TIME_S,
    ),
    OptionDeclaration(
        "min_billed_s",
        "number",
        "Minimum billed period",
        "Each time a VM is on it is billed for at least this long (0: exactly the seconds it is on).",
        unit="s",
        minimum=0,
        maximum=_TIME_S,
    ),
    OptionDeclaration(
        "billing_granularity_s",
        "number",
        "Billing granularity",
        "Billed time is rounded up to a multiple of this (3600: per started hour; 0: per second).",
        unit="s",
        minimum=0,
        maximum=_TIME_S,
    ),
    OptionDeclaration(
        "scheduling_interval_s",
        "number",
        "Scheduling interval",
        "Seconds between scheduling passes (0: a pass at every arrival and completion).",
        unit="s",
        minimum=0,
        maximum=_TIME_S,
    ),
    OptionDeclaration(
        "edf_backfill",
        "boolean",
        "EDF backfill",
        "A deadline job that fits may start while an earlier "
        "deadline job waits (Algorithm 1 of paper 003 makes the earliest deadline block the queue).",
    ),
)


def option_fields(resources: Sequence[str]) -> list[OptionField]:
    """Every run option of a scenario with these resources, as the library declares it.

    The RUT weight is one field per resource (``rut.<resource>``), whatever the resources
    are; its defaults are the weights a run gets when none is given (0.8 cpu and 0.2 mem
    when both exist, else equal weights). Build a form from this list, read overrides with
    :func:`parse_overrides`, and check the values with :meth:`SimulationOptions.from_dict`.

    Parameters
    ----------
    resources
        The scenario's resources, in order.

    Returns
    -------
    list of OptionField
        In the order of :data:`OPTION_DECLARATIONS`.

    Examples
    --------
    >>> [(f.name, f.default) for f in option_fields(("cpu", "mem", "gpu"))][:3]
    [('rut.cpu', 0.8), ('rut.mem', 0.2), ('rut.gpu', 0.0)]
    >>> boot = next(f for f in option_fields(("cpu",)) if f.name == "boot_time_s")
    >>> boot.kind, boot.unit, boot.minimum, boot.default
    ('number', 's', 0, 0.0)
    """
    defaults = SimulationOptions()
    weights = defaults.rut_weights(tuple(resources)) if resources else ()
    out: list[OptionField] = []
    for d in OPTION_DECLARATIONS:
        common: dict[str, Any] = {
            "kind": d.kind,
            "help": d.help,
            "unit": d.unit,
            "minimum": d.minimum,
            "exclusive_minimum": d.exclusive_minimum,
            "maximum": d.maximum,
            "choices": d.choices,
        }
        if d.per_resource:
            out.extend(
                OptionField(name=f"{d.name}.{r}", label=f"{d.label} {r}", default=w, resource=r, **common)
                for r, w in zip(resources, weights, strict=True)
            )
        else:
            out.append(OptionField(name=d.name, label=d.label, default=getattr(defaults, d.name), **common))
    return out


# --------------------------------------------------------------------------- reading values

_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")


def read_option(spec: OptionField | OptionDeclaration, value: Any, path: str, problems: Problems) -> Any:
    """One option's value checked against its declaration, else ``None`` (with the problem added)."""
    if spec.kind == "number":
        return number(
            value,
            path,
            problems,
            minimum=spec.minimum,
            exclusive=spec.exclusive_minimum,
            maximum=spec.maximum,
        )
    if spec.kind == "boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, int | float) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in (*_TRUE, *_FALSE):
            return value.strip().lower() in _TRUE
        problems.add(path, "must be true or false")
        return None
    if value not in spec.choices:
        problems.add(path, f"must be one of {', '.join(spec.choices)}")
        return None
    return value


def read_option_values(
    specs: Sequence[OptionField], data: Any, path: str, problems: Problems
) -> dict[str, Any]:
    """The values of ``data`` (an object of option names) that ``specs`` declare, checked.

    Unknown names are problems. Used by the importers' options; run options, whose RUT
    weights are a group, go through :meth:`SimulationOptions.from_dict`.
    """
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        problems.add(path, "must be an object")
        return {}
    by_name = {s.name: s for s in specs}
    out: dict[str, Any] = {}
    for key, value in data.items():
        where = f"{path}.{shown(key)}" if path else shown(key)
        spec = by_name.get(key) if isinstance(key, str) else None
        if spec is None:
            known = ", ".join(by_name) or "none"
            problems.add(where, f"unknown option (options: {known})")
            continue
        checked = read_option(spec, value, where, problems)
        if checked is not None:
            out[key] = checked
    return out


def read_options(
    data: Any, resources: tuple[str, ...], path: str, problems: Problems, base: SimulationOptions
) -> SimulationOptions | None:
    """An ``options`` object read by :data:`OPTION_DECLARATIONS` over ``base``, else ``None``."""
    if data is None:
        return base
    if not isinstance(data, Mapping):
        problems.add(path, "must be an object")
        return None
    declared = {d.name: d for d in OPTION_DECLARATIONS}
    values: dict[str, Any] = {}
    for key, value in data.items():
        where = f"{path}.{shown(key)}" if path else shown(key)
        spec = declared.get(key) if isinstance(key, str) else None
        if spec is None:
            problems.add(where, f"unknown field (expected one of: {', '.join(sorted(declared))})")
        elif spec.per_resource:
            if value is not None:
                weights = _read_weights(spec, value, resources, where, problems)
                if weights is not None:
                    values[key] = weights
        else:
            checked = read_option(spec, value, where, problems)
            if checked is not None:
                values[key] = checked
    return replace(base, **values)


def _read_weights(
    spec: OptionDeclaration, value: Any, resources: tuple[str, ...], path: str, problems: Problems
) -> tuple[tuple[str, float], ...] | None:
    """RUT weights ``{"cpu": 0.8, "mem": 0.2}``: known resources, each in bounds, summing to 1."""
    if not isinstance(value, Mapping):
        problems.add(path, "must be an object mapping resources to weights")
        return None
    parsed: list[tuple[str, float]] = []
    ok = True
    for r, w in value.items():
        if r not in resources:
            problems.add(f"{path}.{shown(r)}", f"unknown resource (resources are {', '.join(resources)})")
            ok = False
            continue
        checked = read_option(spec, w, f"{path}.{r}", problems)
        if checked is None:
            ok = False
        else:
            parsed.append((r, checked))
    if not ok:
        return None
    total = sum(w for _, w in parsed)
    if abs(total - 1.0) > 1e-6:
        problems.add(path, f"weights must sum to 1 (eq. 5 of paper 003), got {total:g}")
        return None
    return tuple(sorted(parsed, key=lambda kv: resources.index(kv[0])))


# --------------------------------------------------------------------------- key=value overrides


def parse_overrides(
    text: str | Sequence[str], specs: Sequence[OptionField] | Sequence[Param], *, path: str
) -> dict[str, Any]:
    """``key=value[,key=value...]`` text as an options object, each value of its declared kind.

    The one parser of option overrides: scheduler specs (``edf-bfd:rut.cpu=0.5,rut.mem=0.5``),
    the command line's ``--option`` and importers' options. A dotted name (``rut.cpu``)
    becomes a nested object (``{"rut": {"cpu": 0.5}}``), as a document writes it. Only the
    text is converted here; bounds are checked when the object is read
    (:meth:`SimulationOptions.from_dict`, :func:`read_option_values`). A name given twice
    keeps its last value.

    Parameters
    ----------
    text
        One string of comma-separated items, or several such strings (repeated options).
    specs
        The options that may be given (:func:`option_fields`, or an importer's parameters).
    path
        Where the text came from; errors are ``<path>.<key>: <message>``.

    Raises
    ------
    ScenarioError
        For an item without ``=``, an unknown name, or a value that is not of its kind.

    Examples
    --------
    >>> parse_overrides(["boot_time_s=30", "ilp_method=binary"], option_fields(("cpu",)), path="--option")
    {'boot_time_s': 30.0, 'ilp_method': 'binary'}
    >>> parse_overrides("boot_time_s=soon,colour=red", option_fields(("cpu",)), path="scheduler")
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: scheduler.boot_time_s: must be a number, got 'soon'
    scheduler.colour: unknown option (options: rut.cpu, ilp_time_limit_s, ilp_method, boot_time_s, \
min_billed_s, billing_granularity_s, scheduling_interval_s, edf_backfill)
    """
    chunks = [text] if isinstance(text, str) else list(text)
    by_name = {s.name: s for s in specs}
    errors: list[FieldError] = []
    out: dict[str, Any] = {}
    for chunk in chunks:
        for item in filter(None, (p.strip() for p in chunk.split(","))):
            key, eq, raw = item.partition("=")
            key, raw = key.strip(), raw.strip()
            where = f"{path}.{shown(key)}" if key else path
            spec = by_name.get(key)
            if not eq:
                errors.append(FieldError(where, f"expected key=value, got {shown(item)!r}"))
                continue
            if spec is None:
                errors.append(FieldError(where, f"unknown option (options: {', '.join(by_name) or 'none'})"))
                continue
            value: Any = raw
            if spec.kind in ("number", "integer"):
                try:
                    value = float(raw)
                except ValueError:
                    errors.append(FieldError(where, f"must be a number, got {shown(raw)!r}"))
                    continue
            elif spec.kind == "boolean" and raw.lower() in (*_TRUE, *_FALSE):
                value = raw.lower() in _TRUE
            head, dot, tail = key.partition(".")
            if dot:
                nested = out.setdefault(head, {})
                nested[tail] = value
            else:
                out[key] = value
    if errors:
        raise ScenarioError(errors)
    return out


# --------------------------------------------------------------------------- as parameters


def option_params() -> tuple[Param, ...]:
    """The run options as :class:`~scheduling.params.Param` declarations of an ``options`` object:
    one per declaration (RUT weights: resource -> weight). None has a default of its own: an
    option not given keeps the scenario's value, whose default the help states.

    >>> [p.name for p in option_params()][:3], option_params()[0].kind
    (['rut', 'ilp_time_limit_s', 'ilp_method'], 'mapping')
    """
    from ..params import Param

    defaults = SimulationOptions()
    out: list[Param] = []
    for d in OPTION_DECLARATIONS:
        if d.per_resource:
            item = Param(d.name, d.kind, d.label, d.help, minimum=d.minimum, maximum=d.maximum)
            out.append(Param(d.name, "mapping", d.label, f"{d.help} Default: 0.8 cpu and 0.2 mem when both "
                             "exist, else equal weights.", item=item))
            continue
        default = getattr(defaults, d.name)
        shown_default = ("yes" if default else "no") if isinstance(default, bool) else f"{default:g}" if (
            isinstance(default, float)) else str(default)
        unit = f" {d.unit}" if d.unit else ""
        out.append(Param(d.name, d.kind, d.label, f"{d.help} Default: {shown_default}{unit}.", unit=d.unit,
                         minimum=d.minimum, exclusive_minimum=d.exclusive_minimum, maximum=d.maximum,
                         choices=d.choices))
    return tuple(out)
