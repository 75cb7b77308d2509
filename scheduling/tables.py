"""Document to rows: the comparison table and the detail tables of every paper's results.

One module for the run page, the CLI, the standalone HTML pages and every file (CSV, XLSX, PDF).
A run compares *variants* (scheduler specs of a cost comparison, policies of a fairness study,
MRSU compositions, ...). Each variant has a result document (docs/results.md) or, on the run
page, only its stored *headline*: the few numbers the table reads (:func:`headline`).
:func:`comparison_table` turns the headlines into rows, one per :class:`Metric`, each with the
raw value and the shown text per variant, which direction is better and which variant is best.
Savings are computed here, on read, against whichever baseline the caller names; nothing stores
a saving.

Metric definitions are data: each paper declares its list of :class:`Metric` beside its
documents (the cost engine's :data:`scheduling.cost.tables.COST_METRICS`, the fairness
studies', MRSU's, UDRF's) and passes it in; the machinery here reads no paper's document.
Units are defined once (:data:`UNITS`): how a value is shown on a page, how a file labels
its column and how many decimals a file keeps (money as the page shows it, whole seconds).
Money is shown with the currency symbol passed in (display only: numbers are never
converted).

Detail tables (a run's per-window, per-application, per-VM-type rows) are declared the same
way: a tuple of :class:`Column` (the row dicts' key, a label, a unit of :data:`UNITS`) next
to the function that makes the row dicts; :func:`detail_table` lays them out once, with the
raw cells files write and the text a page or a terminal shows (:func:`cell_text`,
:func:`table_text`, :func:`comparison_text`).

>>> tasks = Metric("tasks", "Tasks", "tasks", ("tasks",), lambda h, _base: h.get("tasks"), "higher")
>>> table = comparison_table({"drf": {"tasks": 19.0}, "tsf": {"tasks": 21.0}}, metrics=[tasks])
>>> [(c["variant"], c["shown"], c["best"]) for c in table["rows"][0]["cells"]]
[('drf', '19.0', False), ('tsf', '21.0', True)]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, TypedDict

from .numbers import finite

__all__ = [
    "MISSING",
    "RESOURCE_UNITS",
    "UNITS",
    "BestVariant",
    "Better",
    "Cell",
    "Column",
    "Comparison",
    "ComparisonCell",
    "ComparisonRow",
    "DetailColumn",
    "DetailTable",
    "Headline",
    "Metric",
    "Unit",
    "amounts_text",
    "best_variant",
    "cell_text",
    "comparison_table",
    "comparison_text",
    "detail_table",
    "file_value",
    "format_duration",
    "format_money",
    "headline",
    "headline_keys",
    "labelled",
    "resource_label",
    "show",
    "table_text",
    "unit_label",
]

MISSING = "—"
Better = Literal["lower", "higher"]
#: A headline summary (or a whole result document: :func:`headline` reads either).
Headline = Mapping[str, Any]


# --------------------------------------------------------------------------- units


@dataclass(frozen=True)
class Unit:
    """How values of one unit are labelled and rounded; shown by :func:`show`."""

    key: str
    #: What a column label adds in brackets (``{currency}`` is replaced), ``""`` for nothing.
    symbol: str
    #: Decimals a file keeps (CSV values, XLSX number formats); ``None``: text, kept as is.
    decimals: int | None


#: Every unit a table uses. Times are seconds from the scenario's start or durations; money
#: is in the VM types' price unit; percentages are in percent (12.5 means 12.5 %). Tasks may
#: be fractional (a mean over trials, an exact fractional allocation); share-seconds are a
#: share of the cluster times seconds (the fairness engine's unfairness area); an amount is a
#: quantity of a resource in the scenario's own unit of it (cores, GB).
UNITS: dict[str, Unit] = {
    "money": Unit("money", "{currency}", 4),  # as pages show it (format_money)
    "price": Unit("price", "{currency}/h", 4),
    "percent": Unit("percent", "%", 2),
    "ratio": Unit("ratio", "", 3),
    "seconds": Unit("seconds", "s", 0),
    "hours": Unit("hours", "h", 3),
    "count": Unit("count", "", 0),
    "tasks": Unit("tasks", "", 2),
    "share_seconds": Unit("share_seconds", "share·s", 3),
    "amount": Unit("amount", "", 3),
    "text": Unit("text", "", None),
}


def unit_label(unit: str, currency: str = "$") -> str:
    """What a column label adds for ``unit``: ``"$"``, ``"s"``, ``"%"``, ``""`` ...

    >>> unit_label("money", "€"), unit_label("price"), unit_label("count")
    ('€', '$/h', '')
    """
    return UNITS[unit].symbol.replace("{currency}", currency)


def labelled(label: str, unit: str, currency: str = "$") -> str:
    """A column label with its unit, as files write it: ``Makespan (s)``, ``Total cost ($)``.

    >>> labelled("Makespan", "seconds"), labelled("Jobs", "count")
    ('Makespan (s)', 'Jobs')
    """
    symbol = unit_label(unit, currency)
    return f"{label} ({symbol})" if symbol else label


def file_value(value: float | None, unit: str) -> float | int | None:
    """``value`` rounded as files keep it: money as pages show it (four decimals), whole
    seconds, counts as ints.

    >>> file_value(0.34364, "money"), file_value(3599.6, "seconds"), file_value(3.0, "count")
    (0.3436, 3600, 3)
    """
    if value is None:
        return None
    decimals = UNITS[unit].decimals
    if decimals is None:
        return value
    if decimals == 0:
        return round(value)
    return round(value, decimals) + 0.0  # + 0.0 turns -0.0 into 0.0


def format_duration(seconds: float | None) -> str:
    """A duration for people: ``42.0 s``, ``5 min 03 s``, ``2 h 07 min``, ``3 d 04 h``.

    >>> [format_duration(s) for s in (42, 303, 7620, 273600, None, -1e-9, -90)]
    ['42.0 s', '5 min 03 s', '2 h 07 min', '3 d 04 h', '—', '0.0 s', '−1 min 30 s']
    """
    if seconds is None:
        return MISSING
    s = float(seconds) + 0.0  # + 0.0 turns -0.0 into 0.0
    if s < 0:  # a rounding of a tiny negative is no "−0.0 s"
        return format_duration(-s) if round(-s, 1) == 0 else "−" + format_duration(-s)
    if s < 60:
        return f"{s:.1f} s"
    whole = round(s)
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    minutes = round(s / 60)
    if minutes < 24 * 60:
        return f"{minutes // 60} h {minutes % 60:02d} min"
    hours = round(s / 3600)
    return f"{hours // 24} d {hours % 24:02d} h"


def format_money(value: float | None, currency: str = "") -> str:
    """A cost: one rule for every amount, four decimals (per-second billing makes a short run
    cost fractions of a cent, and ``$1.30`` beside ``$0.8866`` reads as two precisions), the
    decimals files keep too (:data:`UNITS`).

    >>> format_money(1234.567), format_money(0.04, "$"), format_money(-2.5, "€"), format_money(None)
    ('1,234.5670', '$0.0400', '−€2.5000', '—')
    """
    if value is None:
        return MISSING
    decimals = UNITS["money"].decimals
    return ("−" if value < 0 else "") + currency + f"{abs(value):,.{decimals}f}"


#: How a page writes a value of each unit (the magnitude; :func:`show` adds the sign).
_TEXT: dict[str, Callable[[float, str], str]] = {
    "money": lambda v, currency: format_money(v, currency),
    "price": lambda v, currency: format_money(v, currency) + "/h",
    "seconds": lambda v, _: format_duration(v),
    "percent": lambda v, _: f"{v:,.1f}%",
    "ratio": lambda v, _: f"{v:.2f}",
    "hours": lambda v, _: f"{v:,.2f} h",
    "count": lambda v, _: f"{v:,.0f}",
    "tasks": lambda v, _: f"{v:,.1f}",
    "share_seconds": lambda v, _: f"{v:,.2f} share·s",
    "amount": lambda v, _: f"{v:,.2f}".rstrip("0").rstrip("."),
    "text": lambda v, _: f"{v:g}",
}


#: The units of the resources a scenario names by convention (docs/scenario.md: cpu in cores,
#: mem in GB); any other resource is counted in its own unit, which the scenario does not name.
RESOURCE_UNITS: dict[str, str] = {"cpu": "cores", "mem": "GB"}


def amounts_text(amounts: Mapping[str, Any]) -> str:
    """Amounts of resources with their units (:data:`RESOURCE_UNITS`): one rule for every table
    that writes waste, over-allocation or a size.

    >>> amounts_text({"cpu": 2.0, "mem": 7.5, "gpu": 1})
    'cpu 2 cores, mem 7.5 GB, gpu 1'
    """
    parts = []
    for resource, value in amounts.items():
        unit = RESOURCE_UNITS.get(str(resource), "")
        parts.append(f"{resource} {show(finite(value), 'amount')}" + (f" {unit}" if unit else ""))
    return ", ".join(parts)


def resource_label(resource: str) -> str:
    """A resource's name with its unit for a column label: ``cpu (cores)``, ``gpu``.

    >>> resource_label("mem"), resource_label("gpu")
    ('mem (GB)', 'gpu')
    """
    unit = RESOURCE_UNITS.get(resource)
    return f"{resource} ({unit})" if unit else resource


def show(value: float | None, unit: str, currency: str = "$", *, signed: bool = False) -> str:
    """``value`` as a page shows it in ``unit`` (``—`` when missing; no sign on what reads as 0).

    >>> show(12.345, "percent"), show(-3.0, "percent", signed=True), show(0.5, "money", "£", signed=True)
    ('12.3%', '−3.0%', '+£0.5000')
    >>> show(1.5, "ratio"), show(7620, "seconds"), show(12, "count"), show(0.0116, "price")
    ('1.50', '2 h 07 min', '12', '$0.0116/h')
    >>> show(22.48, "tasks"), show(3.1, "share_seconds"), show(3.0, "amount"), show(2.5, "amount")
    ('22.5', '3.10 share·s', '3', '2.5')
    >>> show(-0.0004, "percent", signed=True), show(0.0004, "percent", signed=True)
    ('0.0%', '0.0%')
    """
    if value is None:
        return MISSING
    text_of = _TEXT.get(unit, _TEXT["text"])
    text = text_of(abs(value), currency)
    if text == text_of(0.0, currency):
        return text
    if value < 0:
        return "−" + text
    return ("+" if signed else "") + text


# --------------------------------------------------------------------------- metrics


@dataclass(frozen=True)
class Metric:
    """One row of a comparison table: what it reads, how it computes, shows and compares.

    ``value(this, baseline)`` computes the raw number from the variant's headline (and, for
    a metric measured against the baseline, the baseline's headline). ``text`` overrides how
    a value is shown (it gets the raw value, the variant's headline and the currency).
    """

    key: str
    label: str  #: operator's wording; ``{baseline}`` is replaced by the baseline's name
    unit: str  #: a key of :data:`UNITS`
    reads: tuple[str, ...]  #: the headline keys it reads (:func:`headline` keeps exactly these)
    value: Callable[[Headline, Headline | None], float | None]
    better: Better | None = None
    text: Callable[[float | None, Headline, str], str] | None = None
    note: str = ""  #: one line explaining the metric, shown under the table
    relative: bool = False  #: measured against the baseline (its own cell reads "baseline")
    detail: bool = False  #: files only (CSV, XLSX, PDF): left out of the compact table
    #: where a read key sits in a full result document, when not at its top level
    paths: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: left out of the table when no variant has a value (a figure of a feature the run did not
    #: use, such as the cost split of reserved and spot prices)
    optional: bool = False


def headline_keys(metrics: Sequence[Metric]) -> tuple[str, ...]:
    """Every key the metrics read, in order: what a stored headline summary must keep."""
    return tuple(dict.fromkeys(key for m in metrics for key in m.reads))


def headline(doc: Mapping[str, Any], metrics: Sequence[Metric]) -> dict[str, Any]:
    """The headline summary of a result document: exactly the keys the metrics read.

    Store this per variant (a few hundred bytes) and build the table from it without loading
    the document. A headline given back returns unchanged, so callers may pass either.

    >>> jobs = Metric("jobs", "Jobs", "count", ("jobs",), lambda h, _base: h.get("jobs"),
    ...               paths={"jobs": ("totals", "jobs")})
    >>> headline({"totals": {"jobs": 4}, "users": []}, [jobs])
    {'jobs': 4}
    >>> headline({"jobs": 4}, [jobs]) == {"jobs": 4}
    True
    """
    out: dict[str, Any] = {}
    for metric in metrics:
        for key in metric.reads:
            if key in doc or key not in metric.paths:
                out[key] = doc.get(key)
                continue
            node: Any = doc
            for step in metric.paths[key]:
                node = node.get(step) if isinstance(node, Mapping) else None
            out[key] = node
    return out


# --------------------------------------------------------------------------- the table


class ComparisonCell(TypedDict):
    """One variant's value in one row."""

    variant: str
    raw: float | None  #: the number (``None``: not applicable); the baseline's own saving is 0
    shown: str  #: the text a page shows (``"baseline"`` for the baseline's own saving)
    best: bool
    baseline: bool  #: this variant is the baseline


class ComparisonRow(TypedDict):
    """One metric of the comparison table."""

    key: str
    label: str  #: without the unit (pages show units in the values)
    unit: str  #: a key of :data:`UNITS`
    unit_label: str  #: ``"$"``, ``"s"``, ``"%"`` ... (files add it to the label)
    better: Better | None
    note: str
    relative: bool
    detail: bool
    best: list[str]  #: the best variants; empty when the shown values do not differ
    cells: list[ComparisonCell]


class Comparison(TypedDict):
    """The comparison table: JSON-ready (plain dicts, lists, str, float, bool, None)."""

    baseline: str | None
    currency: str
    variants: list[str]
    rows: list[ComparisonRow]


def _best(metric: Metric, cells: list[ComparisonCell], baseline: str | None) -> list[str]:
    """Variants with the best value; none when every variant shows the same text."""
    if metric.better is None or len({c["shown"] for c in cells}) < 2:
        return []
    pick = min if metric.better == "lower" else max
    candidates = [
        c for c in cells if c["raw"] is not None and not (metric.relative and c["variant"] == baseline)
    ]
    if len(candidates) < (1 if metric.relative else 2):
        return []  # nothing to compare with
    target = pick(c["raw"] for c in candidates if c["raw"] is not None)
    if metric.relative:
        # Best only when it beats the baseline itself (whose own saving is 0).
        base = next((c["raw"] for c in cells if c["variant"] == baseline), None)
        if base is None or pick(target, base) == base:
            return []
    shown = {c["shown"] for c in candidates if c["raw"] == target}
    best = [c["variant"] for c in candidates if c["shown"] in shown]
    # "Best" only where it shows: if every variant reads like the best, none is.
    return [] if len(best) == len(cells) else best


def comparison_table(
    summaries: Mapping[str, Mapping[str, Any]],
    *,
    baseline: str | None = None,
    currency: str = "$",
    metrics: Sequence[Metric],
    detail: bool = False,
) -> Comparison:
    """The comparison table of a run: one row per metric, one cell per variant.

    Parameters
    ----------
    summaries : mapping of str to mapping
        Per variant (in column order), its headline summary (:func:`headline`) or its whole
        result document.
    baseline : str, optional
        The variant savings are measured against; the first one by default.
    currency : str, default "$"
        Symbol shown with money (display only).
    metrics : sequence of Metric
        The rows, in order: the paper's own list (a cost comparison passes
        :data:`scheduling.cost.tables.COST_METRICS`).
    detail : bool, default False
        Include the metrics marked ``detail`` (the files' full table); the compact table
        (run page, CLI, HTML report) leaves them out.

    Returns
    -------
    Comparison
        ``{"baseline", "currency", "variants", "rows"}``; each row has ``key``, ``label``,
        ``unit``, ``unit_label``, ``better``, ``note``, ``relative``, ``detail``, ``best``
        (variants) and ``cells`` (``variant``, ``raw``, ``shown``, ``best``, ``baseline``).

    Raises
    ------
    ValueError
        If ``baseline`` is given and is not one of the variants.

    Examples
    --------
    >>> makespan = Metric("makespan_s", "Makespan", "seconds", ("makespan_s",),
    ...                   lambda h, _base: h.get("makespan_s"), "lower")
    >>> t = comparison_table({"a": {"makespan_s": 60.0}, "b": {"makespan_s": 60.04}}, metrics=[makespan])
    >>> row = next(r for r in t["rows"] if r["key"] == "makespan_s")
    >>> [c["shown"] for c in row["cells"]], row["best"]  # the same text: no best
    (['1 min 00 s', '1 min 00 s'], [])
    """
    variants = [str(v) for v in summaries]
    if baseline is None:
        baseline = variants[0] if variants else None
    elif baseline not in summaries:
        raise ValueError(f"baseline {baseline!r} is not one of the variants: {', '.join(variants)}")
    heads = {str(v): headline(s, metrics) for v, s in summaries.items()}
    base_head = heads[baseline] if baseline is not None else None
    rows: list[ComparisonRow] = []
    for metric in metrics:
        if metric.detail and not detail:
            continue
        cells: list[ComparisonCell] = []
        for variant in variants:
            h = heads[variant]
            raw = metric.value(h, base_head)
            raw = None if raw is None or not math.isfinite(raw) else raw + 0.0
            is_base = variant == baseline
            if metric.relative and is_base:
                text = "baseline"
            elif metric.text is not None:
                text = metric.text(raw, h, currency)
            else:
                text = show(raw, metric.unit, currency, signed=metric.relative)
            cells.append({"variant": variant, "raw": raw, "shown": text, "best": False, "baseline": is_base})
        if metric.optional and all(c["raw"] is None for c in cells):
            continue
        best = _best(metric, cells, baseline)
        for cell in cells:
            cell["best"] = cell["variant"] in best
        rows.append({
            "key": metric.key,
            "label": metric.label.replace("{baseline}", baseline or "baseline"),
            "unit": metric.unit,
            "unit_label": unit_label(metric.unit, currency),
            "better": metric.better,
            "note": metric.note,
            "relative": metric.relative,
            "detail": metric.detail,
            "best": best,
            "cells": cells,
        })
    return {"baseline": baseline, "currency": currency, "variants": variants, "rows": rows}


class BestVariant(TypedDict):
    variant: str
    value: float
    shown: str


def best_variant(
    summaries: Mapping[str, Mapping[str, Any]],
    key: str,
    *,
    currency: str = "$",
    metrics: Sequence[Metric],
) -> BestVariant | None:
    """The variant with the best value of the metric ``key`` (the first on a tie), or ``None``.

    Reads only the headline summaries, so a run list can call it per run. ``None`` when no
    variant has a value or the metric has no better direction.

    >>> makespan = Metric("makespan_s", "Makespan", "seconds", ("makespan_s",),
    ...                   lambda h, _base: h.get("makespan_s"), "lower")
    >>> best_variant({"a": {"makespan_s": 90.0}, "b": {"makespan_s": 60.0}}, "makespan_s", metrics=[makespan])
    {'variant': 'b', 'value': 60.0, 'shown': '1 min 00 s'}
    """
    metric = next((m for m in metrics if m.key == key), None)
    if metric is None:
        raise ValueError(f"no metric {key!r}; metrics: {', '.join(m.key for m in metrics)}")
    if metric.better is None or metric.relative:
        return None
    values = [(str(v), metric.value(headline(s, metrics), None)) for v, s in summaries.items()]
    numbers = [(v, x) for v, x in values if x is not None and math.isfinite(x)]
    if not numbers:
        return None
    pick = min if metric.better == "lower" else max
    target = pick(x for _, x in numbers)
    variant = next(v for v, x in numbers if x == target)
    return {"variant": variant, "value": target, "shown": show(target, metric.unit, currency)}


# --------------------------------------------------------------------------- detail tables


class Column(NamedTuple):
    """One column of a detail table: a key of the row dicts, its label (no unit), its unit.

    A tuple, so ``for key, label, unit in columns`` reads it as well as ``column.key``.

    >>> Column("price_per_unit", "Price per unit", "price")
    Column(key='price_per_unit', label='Price per unit', unit='price')
    """

    key: str
    label: str
    unit: str = "text"  #: a key of :data:`UNITS`


#: A detail table's cell as files write it: text, a number, or ``None`` (blank).
Cell = str | int | float | None


class DetailColumn(TypedDict):
    key: str
    label: str
    unit: str
    unit_label: str


class DetailTable(TypedDict):
    """A titled table of row dicts laid out by its columns; JSON-ready."""

    key: str
    title: str
    columns: list[DetailColumn]
    rows: list[list[Cell]]  #: raw cells (files round them by unit: :func:`file_value`)
    shown: list[list[str]]  #: the same cells as a page shows them (:func:`cell_text`)
    marked: list[bool]  #: per row: the row to point out (a recommendation), or not
    notes: list[str]


def cell_text(value: Any, unit: str, currency: str = "$") -> str:
    """A detail table's cell as a page shows it: text as it is, a number in its unit.

    >>> cell_text(38.04, "percent"), cell_text("cpu 2, mem 8", "text"), cell_text(None, "count")
    ('38.0%', 'cpu 2, mem 8', '—')
    >>> cell_text(0.05, "price", "€"), cell_text(3, "text"), cell_text(True, "count")
    ('€0.0500/h', '3', 'True')
    """
    if value is None:
        return MISSING
    if unit == "text" or isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    return show(finite(value), unit, currency)


def _cell(value: Any) -> Cell:
    if value is None or (isinstance(value, str | int | float) and not isinstance(value, bool)):
        return value
    return str(value)


def detail_table(
    key: str,
    title: str,
    columns: Sequence[Column],
    rows: Sequence[Mapping[str, Any]],
    *,
    currency: str = "$",
    notes: Sequence[str] = (),
    marked: Callable[[Mapping[str, Any]], bool] | None = None,
) -> DetailTable:
    """Row dicts laid out by their column declarations, for a page, a terminal and files.

    Parameters
    ----------
    key, title : str
        The table's stable identifier and its heading.
    columns : sequence of Column
        Which keys of the rows, in order, with their labels and units.
    rows : sequence of mapping
        The row dicts (a key a row lacks is a blank cell).
    currency : str, default "$"
        Symbol shown with money (display only).
    notes : sequence of str
        Lines shown with the table.
    marked : callable, optional
        Which rows to point out (``True`` for a recommended row).

    Examples
    --------
    >>> t = detail_table("u", "Units", [Column("unit", "Unit"), Column("held", "Held", "count")],
    ...                  [{"unit": "gcd", "held": 1200.0}], marked=lambda r: r["unit"] == "gcd")
    >>> t["rows"], t["shown"], t["marked"], [c["label"] for c in t["columns"]]
    ([['gcd', 1200.0]], [['gcd', '1,200']], [True], ['Unit', 'Held'])
    """
    return {
        "key": key,
        "title": title,
        "columns": [
            {"key": c.key, "label": c.label, "unit": c.unit, "unit_label": unit_label(c.unit, currency)}
            for c in columns
        ],
        "rows": [[_cell(row.get(c.key)) for c in columns] for row in rows],
        "shown": [[cell_text(row.get(c.key), c.unit, currency) for c in columns] for row in rows],
        "marked": [bool(marked(row)) if marked is not None else False for row in rows],
        "notes": list(notes),
    }


def table_text(table: DetailTable) -> str:
    """A detail table as aligned plain text for a terminal: its title, then header and rows.

    >>> print(table_text(detail_table("u", "Units", [Column("unit", "Unit"), Column("n", "Held", "count")],
    ...                               [{"unit": "gcd", "n": 12}, {"unit": "min", "n": 3}])))
    Units
    Unit  Held
    gcd     12
    min      3
    """
    numeric = [c["unit"] != "text" for c in table["columns"]]
    lines = [[c["label"] for c in table["columns"]], *table["shown"]]
    widths = [max(len(line[k]) for line in lines) for k in range(len(numeric))]
    out = [table["title"]]
    for line in lines:
        cells = [
            text.rjust(w) if right and line is not lines[0] else text.ljust(w)
            for text, w, right in zip(line, widths, numeric, strict=True)
        ]
        out.append("  ".join(cells).rstrip())
    out.extend(table["notes"])
    return "\n".join(out)


def comparison_text(table: Comparison, *, corner: str = "variant") -> str:
    """A comparison table as aligned plain text, for a terminal (every paper's subcommands).

    >>> tasks = Metric("total_tasks", "Tasks allocated", "tasks", ("total_tasks",),
    ...                lambda h, _base: h.get("total_tasks"), "higher")
    >>> t = comparison_table({"rPS-DSF": {"total_tasks": 42.0}}, metrics=[tasks])
    >>> lines = comparison_text(t).splitlines()
    >>> lines[0].split(), lines[1].rsplit(None, 1), len({len(line) for line in lines[:2]})
    (['variant', 'rPS-DSF'], ['Tasks allocated', '42.0'], 1)
    """
    rows = [[corner, *table["variants"]]]
    rows += [[row["label"], *(cell["shown"] for cell in row["cells"])] for row in table["rows"]]
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines = [
        "  ".join([r[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True))])
        for r in rows
    ]
    return "\n".join(line.rstrip() for line in lines)
