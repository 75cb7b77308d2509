"""The comparison table: one row per metric, one value per scheduler."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, TypedDict

from ._common import Result, num

__all__ = ["SummaryRow", "format_duration", "format_money", "summary_rows"]

MISSING = "—"


class SummaryRow(TypedDict):
    """One metric of the comparison table."""

    key: str  #: stable identifier, e.g. ``"total_cost"``
    label: str  #: operator's wording, e.g. ``"Total cost ($)"``
    values: dict[str, str]  #: formatted value per scheduler (``"—"`` when not applicable)
    raw: dict[str, float | None]  #: the number behind each value, for sorting / highlighting
    better: Literal["lower", "higher"] | None  #: which direction is an improvement


def format_duration(seconds: float | None) -> str:
    """A duration for people: ``42.0 s``, ``5 min 03 s``, ``2 h 07 min``, ``3 d 04 h``.

    >>> [format_duration(s) for s in (42, 303, 7620, 273600, None)]
    ['42.0 s', '5 min 03 s', '2 h 07 min', '3 d 04 h', '—']
    """
    if seconds is None:
        return MISSING
    s = float(seconds) + 0.0  # + 0.0 turns -0.0 into 0.0
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


def format_money(value: float | None) -> str:
    """A cost: two decimals from 1 up, four below (cheap test runs stay readable).

    >>> format_money(1234.567), format_money(0.04), format_money(None)
    ('1,234.57', '0.0400', '—')
    """
    if value is None:
        return MISSING
    return f"{value:,.2f}" if abs(value) >= 1 else f"{value:.4f}"


def _pct(value: float | None, signed: bool = False) -> str:
    if value is None:
        return MISSING
    return f"{value:+.1f}%" if signed else f"{value:.1f}%"


def summary_rows(results: Mapping[str, Result], baseline: str | None = None) -> list[SummaryRow]:
    """Rows of the comparison table, in display order.

    Parameters
    ----------
    results : mapping of str to dict
        Result documents keyed by scheduler spec; columns follow this order.
    baseline : str, optional
        The scheduler the saving is measured against; the first one by default.

    Returns
    -------
    list of SummaryRow
        Total cost, saving vs baseline (%), gap to lower bound (%), makespan, deadline
        misses (missed / jobs with a deadline), deadline violation (eq. 12), mean
        completion, mean wait and ILP fallbacks.

    Raises
    ------
    ValueError
        If ``baseline`` is not one of the results.
    """
    names = list(results)
    if baseline is None:
        baseline = names[0] if names else None
    elif baseline not in results:
        raise ValueError(f"baseline {baseline!r} is not among the results: {', '.join(names)}")
    base_cost = num(results[baseline].get("total_cost")) if baseline is not None else None

    def row(
        key: str, label: str, better: Literal["lower", "higher"] | None,
        value: Callable[[Result], float | None], fmt: Callable[[Result, float | None], str],
    ) -> SummaryRow:
        raw = {n: value(r) for n, r in results.items()}
        shown = {n: fmt(r, raw[n]) for n, r in results.items()}
        return {"key": key, "label": label, "values": shown, "raw": raw, "better": better}

    def saving(r: Result) -> float | None:
        cost = num(r.get("total_cost"))
        if cost is None or not base_cost:
            return None
        return (base_cost - cost) / base_cost * 100.0

    def gap(r: Result) -> float | None:
        g = num(r.get("gap_to_lower_bound"))
        return None if g is None else g * 100.0

    def misses(r: Result, v: float | None) -> str:
        jobs = int(r.get("deadline_jobs") or 0)
        if jobs == 0:
            return "no deadlines"
        return f"{int(r.get('deadline_missed') or 0)} / {jobs} ({_pct(v)})"

    def fallbacks(r: Result) -> float | None:
        ilp: Any = r.get("ilp")
        return num(ilp.get("fallbacks")) if ilp else None

    def fallbacks_text(r: Result, v: float | None) -> str:
        if v is None:
            return MISSING
        return f"{int(v)} / {int((r.get('ilp') or {}).get('decisions') or 0)} decisions"

    rows = [
        row("total_cost", "Total cost ($)", "lower", lambda r: num(r.get("total_cost")),
            lambda r, v: format_money(v)),
        row("saving_pct", f"Saving vs {baseline} (%)" if baseline else "Saving vs baseline (%)", "higher",
            saving, lambda r, v: _pct(v, signed=True)),
        row("gap_to_lower_bound_pct", "Gap to lower bound (%)", "lower", gap, lambda r, v: _pct(v)),
        row("makespan_s", "Makespan", "lower", lambda r: num(r.get("makespan_s")),
            lambda r, v: format_duration(v)),
        row("deadline_miss_pct", "Deadline misses (missed / with deadline)", "lower",
            lambda r: num(r.get("deadline_miss_pct")), misses),
        row("deadline_violation_eq12_pct", "Deadline violation, eq. 12 (missed / met)", "lower",
            lambda r: num(r.get("deadline_violation_eq12_pct")), lambda r, v: _pct(v)),
        row("mean_completion_s", "Mean completion time", "lower", lambda r: num(r.get("mean_completion_s")),
            lambda r, v: format_duration(v)),
        row("mean_wait_s", "Mean wait", "lower", lambda r: num(r.get("mean_wait_s")),
            lambda r, v: format_duration(v)),
        row("ilp_fallbacks", "ILP fallbacks", "lower", fallbacks, fallbacks_text),
    ]
    if baseline is not None:
        rows[1]["values"][baseline] = "baseline"
    return rows
