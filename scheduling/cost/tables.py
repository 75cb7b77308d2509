"""The cost comparison's tables (paper 003): its metrics, the headline a run stores per scheduler,
two runs side by side, and the detail rows of its reports.

* :data:`COST_METRICS` are the rows of a cost comparison, as :class:`scheduling.tables.Metric`
  data; :func:`headline` keeps what they read of a result document (a few hundred bytes per
  scheduler), and :func:`scheduling.tables.comparison_table` with ``metrics=COST_METRICS`` lays
  them out for the CLI, the HTML page, the run page and every report. :func:`recommendation`
  (by :data:`RECOMMENDATION_RULE`: deadline misses first, then cost) is the run list's one line and
  the reports' recommendation.
* :func:`side_by_side_deltas`: B − A of the headline metrics :data:`SIDE_BY_SIDE_METRICS` of two
  runs, per scheduler (the figures are :func:`scheduling.cost.charts.side_by_side_figures`).
* Detail rows, their columns declared by the ``*_COLUMNS`` tuples (:func:`scheduling.tables.detail_table`
  lays them out): cost per VM type (:func:`vm_type_rows`), per framework (:func:`framework_rows`),
  per hour (:func:`hourly_rows`), and one row per job (:func:`job_rows`, capped and shared
  fairly between the schedulers).

>>> from scheduling.tables import comparison_table
>>> a = {"total_cost": 10.0, "deadline_jobs": 4, "deadline_met": 2, "deadline_missed": 2,
...      "deadline_miss_pct": 50.0, "deadline_violation_eq12_pct": 100.0}
>>> b = {**a, "total_cost": 7.5}
>>> table = comparison_table({"fifo": a, "edf": b}, baseline="fifo", currency="€", metrics=COST_METRICS)
>>> rows = {row["key"]: row for row in table["rows"]}
>>> [(c["variant"], c["shown"], c["best"]) for c in rows["total_cost"]["cells"]]
[('fifo', '€10.0000', False), ('edf', '€7.5000', True)]
>>> [c["shown"] for c in rows["saving_pct"]["cells"]], rows["saving_pct"]["label"]
(['baseline', '+25.0%'], 'Saving vs fifo')
>>> rows["deadline_violation_eq12"]["cells"][0]["shown"]
'1.00 (2 missed ÷ 2 met)'
>>> cheapest({"fifo": a, "edf": b})
{'variant': 'edf', 'value': 7.5, 'shown': '$7.5000'}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypedDict

from ..glossary import term
from ..numbers import finite, integral
from ..tables import (
    MISSING,
    BestVariant,
    Column,
    DetailTable,
    Headline,
    Metric,
    best_variant,
    detail_table,
    show,
)
from ..tables import headline as metrics_headline
from .document import has_network_fields, iter_jobs, job_count

__all__ = [
    "COST_METRICS",
    "FRAMEWORK_COLUMNS",
    "FRAMEWORK_NOTES",
    "HOURLY_NOTES",
    "JOB_COLUMNS",
    "MAX_JOB_ROWS",
    "RECOMMENDATION_RULE",
    "SIDE_BY_SIDE_METRICS",
    "STRETCH_COLUMN",
    "UNUSED_CAPACITY",
    "VM_TYPE_COLUMNS",
    "Pick",
    "cheapest",
    "framework_rows",
    "framework_table",
    "headline",
    "hourly_columns",
    "hourly_rows",
    "hourly_table",
    "job_columns",
    "job_rows",
    "jobs_listed",
    "placement_text",
    "recommendation",
    "recommendation_text",
    "side_by_side_deltas",
    "vm_type_rows",
    "vm_type_table",
]


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


def _lost_executor_hours(h: Headline, _base: Headline | None) -> float | None:
    seconds = finite(h.get("lost_executor_s"))
    return None if seconds is None else seconds / 3600.0


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
    # The cost split of reserved and spot prices (scenario version 4); rows only when some run has it.
    Metric("reserved_cost", "Reserved cost", "money", ("reserved_cost",), _field("reserved_cost"),
           note="Reserved cost: reserved VMs at their reserved price for the whole horizon (until the "
                "last job finishes), on or not.",
           paths={"reserved_cost": ("cost_by_market", "reserved")}, optional=True),
    Metric("on_demand_cost", "On-demand cost", "money", ("on_demand_cost",), _field("on_demand_cost"),
           paths={"on_demand_cost": ("cost_by_market", "on_demand")}, optional=True),
    Metric("spot_cost", "Spot cost", "money", ("spot_cost",), _field("spot_cost"),
           paths={"spot_cost": ("cost_by_market", "spot")}, optional=True),
    Metric("reserved_idle_cost", "Reserved idle cost", "money", ("reserved_idle_cost",),
           _field("reserved_idle_cost"), "lower",
           note="Reserved idle cost: what the reserved VMs cost while they were off.", optional=True),
    Metric("spot_interruptions", "Spot interruptions", "count", ("spot_interruption_count",),
           _field("spot_interruption_count"), "lower",
           paths={"spot_interruption_count": ("spot_interruptions", "interruptions")}, optional=True),
    Metric("lost_executor_hours", "Work lost to spot interruptions", "hours", ("lost_executor_s",),
           _lost_executor_hours, "lower",
           note="Work lost: executor-hours reclaimed spot VMs' executors had run, done again elsewhere.",
           paths={"lost_executor_s": ("spot_interruptions", "lost_executor_s")}, optional=True),
    Metric("lower_bound_cost", "Lower bound", "money", ("lower_bound_cost",), _field("lower_bound_cost"),
           note=f"Lower bound: {term('lower-bound').meaning}"),
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
           note=f"ILP placement, exact per decision: {term('exact-per-decision').meaning}",
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
    """The variant with the lowest total cost whatever its deadline misses, or ``None``.

    What to *recommend* is :func:`recommendation`'s rule, which weighs misses first.

    >>> cheapest({"a": {"total_cost": 2.0}, "b": {"total_cost": None}}, currency="€")
    {'variant': 'a', 'value': 2.0, 'shown': '€2.0000'}
    """
    return best_variant(summaries, "total_cost", currency=currency, metrics=COST_METRICS)


#: The rule of :func:`recommendation`, in the words pages and reports show beside it.
RECOMMENDATION_RULE = (
    "A scheduler that misses more deadlines is never recommended as the cheapest without saying so: "
    "the recommendation is the cheapest of the schedulers with the fewest deadline misses (\"cheapest "
    "with no misses\" when some miss none); when a scheduler that misses more costs less, it is named "
    "beside it with its misses."
)


class Pick(TypedDict):
    """One line of a :func:`recommendation`."""

    label: str  #: "cheapest with no misses", "fewest misses (6)", "cheapest", ...
    variant: str
    cost: float
    shown: str  #: the cost as a page shows it
    missed: int | None  #: deadline misses (``None``: no job has a deadline)


def _missed(h: Mapping[str, Any]) -> int | None:
    return integral(h.get("deadline_missed")) if integral(h.get("deadline_jobs")) else None


def recommendation(summaries: Mapping[str, Mapping[str, Any]], *, currency: str = "$") -> list[Pick]:
    """What a run recommends, by :data:`RECOMMENDATION_RULE`: one or two picks, the first the
    recommended one (the run list's headline, the reports' "Recommendation" row).

    The cheapest of the schedulers with the fewest deadline misses comes first; when a
    scheduler that misses more deadlines costs less, it follows, with its misses, so it is
    never shown as the cheapest without them.

    Parameters
    ----------
    summaries : mapping of str to mapping
        Headline summaries (:func:`headline`) or result documents per scheduler.
    currency : str, default "$"
        Symbol shown with money (display only).

    Examples
    --------
    >>> run = {"edf-ilp": {"total_cost": 0.4352, "deadline_jobs": 100, "deadline_missed": 11},
    ...        "morpheus": {"total_cost": 0.5, "deadline_jobs": 100, "deadline_missed": 6}}
    >>> [(p["label"], p["variant"], p["shown"]) for p in recommendation(run)]
    [('fewest misses (6)', 'morpheus', '$0.5000'), ('cheapest (11 missed)', 'edf-ilp', '$0.4352')]
    >>> recommendation_text(recommendation(run))
    'fewest misses (6): morpheus $0.5000 · cheapest (11 missed): edf-ilp $0.4352'
    >>> run["morpheus"]["deadline_missed"] = 0
    >>> recommendation_text(recommendation(run))
    'cheapest with no misses: morpheus $0.5000 · cheapest (11 missed): edf-ilp $0.4352'
    >>> recommendation_text(recommendation({"a": {"total_cost": 0.2}, "b": {"total_cost": 0.3}}))
    'cheapest: a $0.2000'
    """
    costs = {
        str(v): (cost, _missed(h))
        for v, h in summaries.items()
        if (cost := finite(h.get("total_cost"))) is not None
    }
    if not costs:
        return []

    def pick(label: str, variant: str) -> Pick:
        cost, missed = costs[variant]
        return {"label": label, "variant": variant, "cost": cost,
                "shown": show(cost, "money", currency), "missed": missed}

    cheapest_any = min(costs, key=lambda v: costs[v][0])  # the first on a tie
    counted = [m for _, m in costs.values() if m is not None]
    if not counted:
        return [pick("cheapest", cheapest_any)]
    fewest = min(counted)
    cheapest_fewest = min((v for v, (_, m) in costs.items() if m == fewest), key=lambda v: costs[v][0])
    first = "cheapest with no misses" if fewest == 0 else f"fewest misses ({fewest:,})"
    if costs[cheapest_any][0] >= costs[cheapest_fewest][0]:
        label = "cheapest, no misses" if fewest == 0 else f"cheapest, {first}"
        return [pick(label, cheapest_fewest)]
    missed = costs[cheapest_any][1]
    return [
        pick(first, cheapest_fewest),
        pick("cheapest" if missed is None else f"cheapest ({missed:,} missed)", cheapest_any),
    ]


def recommendation_text(picks: Sequence[Pick]) -> str:
    """A :func:`recommendation` in one line: ``label: variant cost`` per pick.

    >>> recommendation_text([])
    ''
    """
    return " · ".join(f"{p['label']}: {p['variant']} {p['shown']}" for p in picks)


# --------------------------------------------------------------------------- two runs side by side

#: The headline metrics two runs are compared by, B − A of each (keys of :data:`COST_METRICS`,
#: whose labels, units and better direction they keep).
SIDE_BY_SIDE_METRICS: tuple[str, ...] = ("total_cost", "makespan_s", "deadline_missed", "mean_completion_s")


def _metric(key: str) -> Metric:
    return next(m for m in COST_METRICS if m.key == key)


def side_by_side_deltas(
    summaries_a: Mapping[str, Headline], summaries_b: Mapping[str, Headline], *, currency: str = "$",
) -> list[dict[str, Any]]:
    """B − A (and %) of each of :data:`SIDE_BY_SIDE_METRICS`, per scheduler of either run.

    Parameters
    ----------
    summaries_a, summaries_b : mapping of str to headline
        Each run's headlines (:func:`headline`) or result documents, keyed by scheduler spec.
    currency : str, default "$"
        Symbol of money (display only).

    Returns
    -------
    list of dict
        One per scheduler, run A's first: ``scheduler``, ``in_a``, ``in_b`` and ``metrics``,
        each ``key``, ``label``, ``a``, ``b``, ``delta`` (signed), ``pct`` (of A) as shown by
        :func:`scheduling.tables.show`, and ``trend``: ``better``, ``worse`` or ``None`` (no change).

    Examples
    --------
    >>> rows = side_by_side_deltas({"edf-bfd": {"total_cost": 2.0}}, {"edf-bfd": {"total_cost": 1.5}})
    >>> [(r["label"], r["a"], r["b"], r["delta"], r["pct"], r["trend"]) for r in rows[0]["metrics"][:1]]
    [('Total cost', '$2.0000', '$1.5000', '−$0.5000', '−25.0%', 'better')]
    """
    metrics = [_metric(key) for key in SIDE_BY_SIDE_METRICS]
    names = list(dict.fromkeys([*summaries_a, *summaries_b]))
    out = []
    for name in names:
        a, b = summaries_a.get(name), summaries_b.get(name)
        cells = []
        for m in metrics:
            va = m.value(a, None) if a is not None else None
            vb = m.value(b, None) if b is not None else None
            delta = vb - va if va is not None and vb is not None else None
            pct = delta / va * 100.0 if delta is not None and va else None
            improved = delta is not None and (delta < 0) == (m.better == "lower")
            cells.append({
                "key": m.key, "label": m.label,
                "a": show(va, m.unit, currency), "b": show(vb, m.unit, currency),
                "delta": show(delta, m.unit, currency, signed=True), "pct": show(pct, "percent", signed=True),
                "trend": None if not delta else ("better" if improved else "worse"),
            })
        out.append({"scheduler": name, "in_a": a is not None, "in_b": b is not None, "metrics": cells})
    return out


# --------------------------------------------------------------------------- detail rows of a report

#: The label of the cost no job pays: capacity billed while no executor used it.
UNUSED_CAPACITY = "(unused capacity)"
#: At most this many job rows (all schedulers together) in :func:`job_rows` by default.
MAX_JOB_ROWS = 100_000

#: Columns of :func:`vm_type_rows`.
VM_TYPE_COLUMNS: tuple[Column, ...] = (
    Column("scheduler", "Scheduler"),
    Column("vm_type", "VM type"),
    Column("price_per_hour", "Price per hour", "price"),
    Column("count", "Machines", "count"),
    Column("vm_hours", "VM-hours", "hours"),
    Column("cost", "Cost", "money"),
    Column("share_pct", "Share of scheduler's cost", "percent"),
)
#: Columns of :func:`framework_rows`.
FRAMEWORK_COLUMNS: tuple[Column, ...] = (
    Column("scheduler", "Scheduler"),
    Column("framework", "Framework"),
    Column("cost", "Cost", "money"),
    Column("share_pct", "Share of scheduler's cost", "percent"),
)
#: What :func:`framework_table` says under its rows.
FRAMEWORK_NOTES: tuple[str, ...] = (
    "Each job pays its dominant share of the VMs it uses; the rest is unused capacity.",
)
#: What :func:`hourly_table` says under its rows.
HOURLY_NOTES: tuple[str, ...] = ("Hour 0 starts at the scenario's start.",)
#: Columns of :func:`job_rows`.
JOB_COLUMNS: tuple[Column, ...] = (
    Column("scheduler", "Scheduler"),
    Column("job", "Job"),
    Column("framework", "Framework"),
    Column("arrival_s", "Arrival", "seconds"),
    Column("start_s", "Start", "seconds"),
    Column("finish_s", "Finish", "seconds"),
    Column("wait_s", "Wait", "seconds"),
    Column("completion_s", "Completion", "seconds"),
    Column("executors", "Executors", "count"),
    Column("deadline_s", "Deadline", "seconds"),
    Column("met_deadline", "Met deadline"),
    Column("cost", "Cost", "money"),
    Column("placement", "Placement"),
)
#: The column :func:`job_columns` adds when some job was network-bound (notes §8).
STRETCH_COLUMN = Column("stretch", "Network stretch", "ratio")


def job_columns(results: Results) -> tuple[Column, ...]:
    """:data:`JOB_COLUMNS`, and each job's network stretch when some document records it
    (a scenario with network-bound jobs, notes §8: how much longer than its duration it ran).

    >>> [c.key for c in job_columns({"edf": {"jobs": [{"id": "a", "stretch": 1.1}]}})][-1]
    'stretch'
    >>> job_columns({"edf": {"jobs": [{"id": "a"}]}}) == JOB_COLUMNS
    True
    """
    if any(has_network_fields(r) for r in results.values()):
        return (*JOB_COLUMNS, STRETCH_COLUMN)
    return JOB_COLUMNS

Results = Mapping[str, Mapping[str, Any]]


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _sequence(value: Any) -> Sequence[Any]:
    return value if isinstance(value, list | tuple) else ()


def _pct(part: float | None, whole: float | None) -> float | None:
    if part is None or whole is None or whole == 0:
        return None
    return part / whole * 100.0


def _vm_types(results: Results) -> list[tuple[str, float | None, int | None]]:
    """Every VM type of the run, ``(name, price per hour, count)``, in scenario order."""
    seen: dict[str, tuple[str, float | None, int | None]] = {}
    for r in results.values():
        for vt in _sequence(r.get("vm_types")):
            vt = _mapping(vt)
            name = vt.get("name")
            if isinstance(name, str) and name not in seen:
                seen[name] = (name, finite(vt.get("price_per_hour")), integral(vt.get("count")))
    for r in results.values():
        for key in (*_mapping(r.get("cost_by_vm_type")), *_mapping(r.get("vm_hours_by_type"))):
            if isinstance(key, str) and key not in seen:
                seen[key] = (key, None, None)
    return list(seen.values())


def vm_type_rows(results: Results) -> list[dict[str, Any]]:
    """One row per (scheduler, VM type): VM-hours billed and their cost (:data:`VM_TYPE_COLUMNS`).

    Every VM type of the scenario appears (0 when unused), so a scheduler's costs sum to
    its total cost.

    >>> doc = {"vm_types": [{"name": "s", "price_per_hour": 0.5, "count": 2}, {"name": "l"}],
    ...        "total_cost": 2.0, "cost_by_vm_type": {"s": 2.0}, "vm_hours_by_type": {"s": 4.0}}
    >>> [(r["vm_type"], r["vm_hours"], r["cost"], r["share_pct"]) for r in vm_type_rows({"edf": doc})]
    [('s', 4.0, 2.0, 100.0), ('l', 0.0, 0.0, 0.0)]
    """
    types = _vm_types(results)
    rows: list[dict[str, Any]] = []
    for spec, r in results.items():
        costs = _mapping(r.get("cost_by_vm_type"))
        hours = _mapping(r.get("vm_hours_by_type"))
        total = finite(r.get("total_cost"))
        for name, price, count in types:
            cost = finite(costs.get(name, 0.0))
            rows.append({
                "scheduler": spec, "vm_type": name, "price_per_hour": price, "count": count,
                "vm_hours": finite(hours.get(name, 0.0)), "cost": cost, "share_pct": _pct(cost, total),
            })
    return rows


def framework_rows(results: Results) -> list[dict[str, Any]]:
    """One row per (scheduler, framework) of ``cost_by_framework``, unused capacity last
    (:data:`FRAMEWORK_COLUMNS`).

    Each job pays, per VM it uses, price x duration x its dominant share of that VM; the
    rest of the bill is the :data:`UNUSED_CAPACITY` line, so the rows sum to the total cost.

    >>> doc = {"total_cost": 4.0, "cost_by_framework": {"(unused capacity)": 1.0, "etl": 3.0}}
    >>> [(r["framework"], r["share_pct"]) for r in framework_rows({"edf": doc})]
    [('etl', 75.0), ('(unused capacity)', 25.0)]
    """
    names: list[str] = []
    for r in results.values():
        for key in _mapping(r.get("cost_by_framework")):
            if isinstance(key, str) and key not in names and key != UNUSED_CAPACITY:
                names.append(key)
    if any(UNUSED_CAPACITY in _mapping(r.get("cost_by_framework")) for r in results.values()):
        names.append(UNUSED_CAPACITY)
    rows: list[dict[str, Any]] = []
    for spec, r in results.items():
        costs = _mapping(r.get("cost_by_framework"))
        total = finite(r.get("total_cost"))
        for name in names:
            cost = finite(costs.get(name, 0.0))
            rows.append({"scheduler": spec, "framework": name, "cost": cost, "share_pct": _pct(cost, total)})
    return rows


def hourly_columns(schedulers: Iterable[str]) -> tuple[Column, ...]:
    """Columns of :func:`hourly_rows`: the hour, when it starts, then one cost per scheduler
    (key ``cost:<scheduler>``, labelled with the scheduler)."""
    return (Column("hour", "Hour", "count"), Column("from_s", "From", "seconds"),
            *(Column(f"cost:{spec}", spec, "money") for spec in schedulers))


def hourly_rows(results: Results) -> list[dict[str, Any]]:
    """Billed cost falling in each hour of the timeline: one row per hour, one cost per scheduler
    (:func:`hourly_columns`). Hours past a scheduler's last billed hour cost 0.

    >>> hourly_rows({"a": {"cost_by_hour": [1.0, 0.5]}, "b": {"cost_by_hour": [2.0]}})[1]
    {'hour': 1, 'from_s': 3600.0, 'cost:a': 0.5, 'cost:b': 0.0}
    """
    series = {spec: [finite(v) for v in _sequence(r.get("cost_by_hour"))] for spec, r in results.items()}
    n = max((len(s) for s in series.values()), default=0)
    rows: list[dict[str, Any]] = []
    for h in range(n):
        costs = {f"cost:{spec}": s[h] if h < len(s) else 0.0 for spec, s in series.items()}
        rows.append({"hour": h, "from_s": h * 3600.0, **costs})
    return rows


def placement_text(placement: Any) -> str:
    """A job's placement as text: ``m1.large#1 x2; m1.large#2 x1``.

    >>> placement_text({"m1.large#1": 2, "m1.large#2": 1})
    'm1.large#1 x2; m1.large#2 x1'
    """
    return "; ".join(f"{vm} x{n}" for vm, n in _mapping(placement).items())


def _job_count(r: Mapping[str, Any]) -> int:
    jobs = r.get("jobs")
    return job_count(r) if isinstance(jobs, Mapping | list | tuple) else 0


def jobs_listed(results: Results) -> int:
    """How many job rows :func:`job_rows` gives without a cap: every scheduler's jobs."""
    return sum(_job_count(r) for r in results.values())


def _quotas(results: Results, max_rows: int) -> dict[str, int]:
    """Rows per scheduler under a cap of ``max_rows``: shared fairly (smallest first, leftovers
    passed on), so that every scheduler's first jobs can be compared side by side."""
    counts = {spec: _job_count(r) for spec, r in results.items()}
    quota: dict[str, int] = {}
    left = max_rows
    for k, spec in enumerate(sorted(counts, key=counts.__getitem__)):
        quota[spec] = min(counts[spec], left // (len(counts) - k))
        left -= quota[spec]
    return quota


def job_rows(results: Results, max_rows: int = MAX_JOB_ROWS) -> list[dict[str, Any]]:
    """One row per (scheduler, job) with its times, deadline outcome, cost and placement
    (:func:`job_columns`: :data:`JOB_COLUMNS`, and the network stretch when some document
    records it), reading documents of either format (docs/results.md).

    At most ``max_rows`` rows, shared fairly between the schedulers (each keeps its first
    jobs; :func:`jobs_listed` says how many there are in all). Costs one dict per job shown.

    >>> doc = {"jobs": [{"id": "a", "arrival_s": 0, "start_s": 5, "met_deadline": True,
    ...                  "placement": {"s#1": 2}}, {"id": "b"}, {"id": "c"}]}
    >>> rows = job_rows({"fifo": doc, "edf": doc}, max_rows=3)
    >>> [(r["scheduler"], r["job"]) for r in rows], rows[0]["met_deadline"], rows[0]["placement"]
    ([('fifo', 'a'), ('edf', 'a'), ('edf', 'b')], 'yes', 's#1 x2')
    """
    quota = _quotas(results, max_rows)
    network = any(has_network_fields(r) for r in results.values())
    rows: list[dict[str, Any]] = []
    for spec, r in results.items():
        if not quota[spec]:
            continue
        for job in iter_jobs(r, 0, quota[spec]):
            j = _mapping(job)
            met = j.get("met_deadline")
            rows.append({
                "scheduler": spec,
                "job": str(j.get("id", "")),
                "framework": str(j.get("framework", "")),
                "arrival_s": finite(j.get("arrival_s")),
                "start_s": finite(j.get("start_s")),
                "finish_s": finite(j.get("finish_s")),
                "wait_s": finite(j.get("wait_s")),
                "completion_s": finite(j.get("completion_s")),
                "executors": integral(j.get("executors")),
                "deadline_s": finite(j.get("deadline_s")),
                "met_deadline": "yes" if met is True else "no" if met is False else "",
                "cost": finite(j.get("cost")),
                "placement": placement_text(j.get("placement")),
                **({"stretch": finite(j.get("stretch", 1.0))} if network else {}),
            })
    return rows


# --------------------------------------------------------------------------- the detail tables


def vm_type_table(results: Results, *, currency: str = "$") -> DetailTable:
    """The "Cost per VM type" table: :func:`vm_type_rows` laid out by :data:`VM_TYPE_COLUMNS`."""
    return detail_table("vm_types", "Cost per VM type", VM_TYPE_COLUMNS, vm_type_rows(results),
                        currency=currency)


def framework_table(results: Results, *, currency: str = "$") -> DetailTable:
    """The "Cost per framework" table: :func:`framework_rows` laid out by :data:`FRAMEWORK_COLUMNS`."""
    return detail_table("frameworks", "Cost per framework", FRAMEWORK_COLUMNS, framework_rows(results),
                        currency=currency, notes=FRAMEWORK_NOTES)


def hourly_table(results: Results, *, currency: str = "$") -> DetailTable:
    """The "Cost per hour" table: :func:`hourly_rows` laid out by :func:`hourly_columns`."""
    return detail_table("hours", "Cost per hour", hourly_columns(results), hourly_rows(results),
                        currency=currency, notes=HOURLY_NOTES)
