"""The cost comparison's table (paper 003): its metrics and the headline a run stores per scheduler.

:data:`COST_METRICS` are the rows of a cost comparison, as :class:`scheduling.tables.Metric`
data; :func:`headline` keeps what they read of a result document (a few hundred bytes per
scheduler), and :func:`scheduling.tables.comparison_table` with ``metrics=COST_METRICS`` lays
them out for the CLI, the HTML page, the run page and every report. :func:`cheapest` is the run
list's one line.

>>> from scheduling.tables import comparison_table
>>> a = {"total_cost": 10.0, "deadline_jobs": 4, "deadline_met": 2, "deadline_missed": 2,
...      "deadline_miss_pct": 50.0, "deadline_violation_eq12_pct": 100.0}
>>> b = {**a, "total_cost": 7.5}
>>> table = comparison_table({"fifo": a, "edf": b}, baseline="fifo", currency="€", metrics=COST_METRICS)
>>> rows = {row["key"]: row for row in table["rows"]}
>>> [(c["variant"], c["shown"], c["best"]) for c in rows["total_cost"]["cells"]]
[('fifo', '€10.00', False), ('edf', '€7.50', True)]
>>> [c["shown"] for c in rows["saving_pct"]["cells"]], rows["saving_pct"]["label"]
(['baseline', '+25.0%'], 'Saving vs fifo')
>>> rows["deadline_violation_eq12"]["cells"][0]["shown"]
'1.00 (2 missed ÷ 2 met)'
>>> cheapest({"fifo": a, "edf": b})
{'variant': 'edf', 'value': 7.5, 'shown': '$7.50'}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..numbers import finite, integral
from ..tables import MISSING, BestVariant, Headline, Metric, best_variant, show
from ..tables import headline as metrics_headline

__all__ = ["COST_METRICS", "cheapest", "headline"]


def _field(key: str) -> Callable[[Headline, Headline | None], float | None]:
    return lambda h, _base: finite(h.get(key))


def _saving(h: Headline, base: Headline | None) -> float | None:
    cost = finite(h.get("total_cost"))
    base_cost = finite(base.get("total_cost")) if base is not None else None
    return None if cost is None or base_cost is None else base_cost - cost


def _saving_pct(h: Headline, base: Headline | None) -> float | None:
    saving = _saving(h, base)
    base_cost = finite(base.get("total_cost")) if base is not None else None
    return None if saving is None or not base_cost else saving / base_cost * 100.0


def _gap_pct(h: Headline, _base: Headline | None) -> float | None:
    gap = finite(h.get("gap_to_lower_bound"))
    return None if gap is None else gap * 100.0


def _eq12(h: Headline, _base: Headline | None) -> float | None:
    # eq. 12 of paper 003: theta_d = theta_m / theta_s (missed / met), a ratio; the document
    # stores it x 100 as the paper prints it.
    pct = finite(h.get("deadline_violation_eq12_pct"))
    return None if pct is None else pct / 100.0


def _misses_text(value: float | None, h: Headline, _currency: str) -> str:
    jobs = integral(h.get("deadline_jobs"))
    if not jobs:
        return "no deadlines"
    missed = integral(h.get("deadline_missed")) or 0
    return f"{missed:,} / {jobs:,} ({show(value, 'percent')})"


def _eq12_text(value: float | None, h: Headline, _currency: str) -> str:
    if not integral(h.get("deadline_jobs")):
        return "no deadlines"
    missed, met = integral(h.get("deadline_missed")), integral(h.get("deadline_met"))
    counts = f"{missed:,} missed ÷ {met:,} met" if missed is not None and met is not None else ""
    if value is None:
        return f"{MISSING} (none met)" if met == 0 else MISSING
    return f"{show(value, 'ratio')} ({counts})" if counts else show(value, "ratio")


def _fallbacks(h: Headline, _base: Headline | None) -> float | None:
    return finite(h.get("ilp_fallbacks")) if h.get("ilp_decisions") is not None else None


def _fallbacks_text(value: float | None, h: Headline, _currency: str) -> str:
    if value is None:
        return MISSING
    return f"{int(value):,} / {integral(h.get('ilp_decisions')) or 0:,} decisions"


#: The rows of a cost comparison, in display order.
COST_METRICS: tuple[Metric, ...] = (
    Metric("total_cost", "Total cost", "money", ("total_cost",), _field("total_cost"), "lower"),
    Metric("saving", "Money saved vs {baseline}", "money", ("total_cost",), _saving, "higher",
           note="Saving: the baseline's total cost minus this one's (negative: it costs more).",
           relative=True, detail=True),
    Metric("saving_pct", "Saving vs {baseline}", "percent", ("total_cost",), _saving_pct, "higher",
           note="Saving: in % of the baseline's total cost (negative: it costs more).", relative=True),
    Metric("lower_bound_cost", "Lower bound", "money", ("lower_bound_cost",), _field("lower_bound_cost"),
           detail=True),
    Metric("gap_to_lower_bound_pct", "Gap to lower bound", "percent", ("gap_to_lower_bound",), _gap_pct,
           "lower", note="Gap to the lower bound: how far above the cost no scheduler can beat."),
    Metric("makespan_s", "Makespan", "seconds", ("makespan_s",), _field("makespan_s"), "lower"),
    Metric("jobs_total", "Jobs", "count", ("jobs_total",), _field("jobs_total"), detail=True),
    Metric("deadline_jobs", "Jobs with a deadline", "count", ("deadline_jobs",), _field("deadline_jobs"),
           detail=True),
    Metric("deadline_missed", "Deadlines missed", "count", ("deadline_missed",), _field("deadline_missed"),
           "lower", detail=True),
    Metric("deadline_miss_pct", "Deadline misses (missed / with deadline)", "percent",
           ("deadline_miss_pct", "deadline_jobs", "deadline_missed"), _field("deadline_miss_pct"), "lower",
           text=_misses_text),
    Metric("deadline_violation_eq12", "Deadline violation θd, eq. 12 (missed ÷ met)", "ratio",
           ("deadline_violation_eq12_pct", "deadline_jobs", "deadline_missed", "deadline_met"), _eq12,
           "lower", text=_eq12_text,
           note="θd (paper 003, eq. 12) divides deadlines missed by deadlines met, not by jobs with a "
                "deadline: 0.5 is one miss for every two met; above 1, more are missed than met."),
    Metric("mean_completion_s", "Mean completion time", "seconds", ("mean_completion_s",),
           _field("mean_completion_s"), "lower"),
    Metric("median_completion_s", "Median completion time", "seconds", ("median_completion_s",),
           _field("median_completion_s"), "lower", detail=True),
    Metric("p95_completion_s", "95th percentile completion time", "seconds", ("p95_completion_s",),
           _field("p95_completion_s"), "lower", detail=True),
    Metric("mean_wait_s", "Mean wait", "seconds", ("mean_wait_s",), _field("mean_wait_s"), "lower"),
    Metric("ilp_fallbacks", "ILP fallbacks", "count", ("ilp_fallbacks", "ilp_decisions"), _fallbacks,
           "lower", text=_fallbacks_text,
           paths={"ilp_fallbacks": ("ilp", "fallbacks"), "ilp_decisions": ("ilp", "decisions")}),
)


def headline(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The headline summary of a cost result document: exactly the keys :data:`COST_METRICS` read.

    Store this per scheduler and build the table from it without loading the document. A
    headline given back returns unchanged, so callers may pass either.

    >>> headline({"total_cost": 1.5, "ilp": {"decisions": 4, "fallbacks": 1}, "jobs": []})["ilp_fallbacks"]
    1
    >>> h = headline({"total_cost": 1.5}); headline(h) == h and h["ilp_decisions"] is None
    True
    """
    return metrics_headline(doc, COST_METRICS)


def cheapest(summaries: Mapping[str, Mapping[str, Any]], *, currency: str = "$") -> BestVariant | None:
    """The variant with the lowest total cost (for the run list), or ``None``.

    >>> cheapest({"a": {"total_cost": 2.0}, "b": {"total_cost": None}}, currency="€")
    {'variant': 'a', 'value': 2.0, 'shown': '€2.00'}
    """
    return best_variant(summaries, "total_cost", currency=currency, metrics=COST_METRICS)
