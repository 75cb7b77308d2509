"""Charts of a cost comparison (paper 003), as plain Plotly figure dicts.

Pure functions of result documents (``SimulationResult.to_dict()``, see docs/results.md;
per-job and per-VM detail through :mod:`scheduling.cost.document`), built from the shared
helpers of :mod:`scheduling.charts`: money (:mod:`~scheduling.cost.charts.costs`), outcomes
(:mod:`~scheduling.cost.charts.outcomes`: the Gantt chart, completion times, deadlines) and
timelines (:mod:`~scheduling.cost.charts.timelines`: active VMs, cumulative cost, fairness;
utilisation is every paper's, :func:`scheduling.charts.utilisation_figure`), and two
comparisons' timelines overlaid (:mod:`~scheduling.cost.charts.side_by_side`).
:func:`all_figures` builds every figure of a comparison, keyed by a stable name in display
order, for the run page, the HTML page (:mod:`scheduling.cost.html`) and the reports.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from functools import partial

from ...charts import Figure, Result, text, utilisation_figure
from ...packed import pack, unpack_tree
from .costs import cost_breakdown_figure, cost_by_framework_figure, cost_by_hour_figure
from .names import framework_colours
from .outcomes import JOBS_PER_PAGE, GanttPage, completion_figure, deadline_figure, gantt_figure, gantt_pages
from .side_by_side import side_by_side_figures
from .timelines import active_vms_figure, cumulative_cost_figure, fairness_figure

__all__ = [
    "JOBS_PER_PAGE",
    "GanttPage",
    "active_vms_figure",
    "all_figures",
    "completion_figure",
    "cost_breakdown_figure",
    "cost_by_framework_figure",
    "cost_by_hour_figure",
    "cumulative_cost_figure",
    "deadline_figure",
    "fairness_figure",
    "figure_digest",
    "framework_colours",
    "gantt_figure",
    "gantt_page_size",
    "gantt_pages",
    "join_figures",
    "same_as",
    "side_by_side_figures",
    "variant_figures",
]


def gantt_page_size(schedulers: int) -> int:
    """Jobs per Gantt page in a comparison of ``schedulers``: 1,000 shared out, 100 to 300.

    The page :func:`all_figures` draws and every later page (:func:`gantt_figure` with
    ``page=``) use it, so the pages of one chart follow each other.

    >>> [gantt_page_size(n) for n in (1, 4, 5, 20)]
    [300, 250, 200, 100]
    """
    return max(100, min(JOBS_PER_PAGE, 1000 // max(1, schedulers)))


def all_figures(
    results: Mapping[str, Result],
    *,
    max_points: int | None = None,
    max_jobs: int | None = None,
    currency: str = "$",
    only: Collection[str] | None = None,
) -> dict[str, Figure]:
    """Every figure of a comparison, keyed by a stable name, in display order.

    Keys (``<key>`` is the readable default, ``<key>@<view>`` another view of it):

    * ``cumulative_cost`` (lines overlaid), ``cumulative_cost@multiples``;
    * ``utilisation`` (of the whole cluster, step mean over windows), ``utilisation@raw``
      (full detail), ``utilisation@multiples`` (one panel per scheduler);
    * ``active_vms`` (total per scheduler, step mean over windows), ``active_vms@raw``,
      ``active_vms@multiples`` (one panel per scheduler, stacked by VM type);
    * ``cost_breakdown`` (per VM type), ``cost_by_framework``, ``cost_by_hour``, ``deadlines``,
      ``completion``, ``completion@multiples``;
    * ``fairness:<scheduler>`` (means over windows), ``fairness:<scheduler>@raw`` for each
      result with a fairness section;
    * ``gantt:<scheduler>``: the first page of each scheduler's Gantt chart
      (:func:`gantt_figure` with ``page=`` draws the others; ``layout.meta`` says how many).

    ``cumulative_cost@multiples``, ``utilisation@multiples`` and ``completion@multiples``
    exist only for two schedulers or more; ``active_vms@multiples`` (the only view by VM
    type) always does.

    Parameters
    ----------
    results : mapping of str to dict
        Result documents keyed by scheduler spec.
    max_points : int, optional
        Points per timeline trace after downsampling; by default 4,000 shared out between
        the schedulers (at least 400, at most 2,000), which keeps a 10,000-job,
        five-scheduler run near 1 MB of JSON (goal: under 2 MB).
    max_jobs : int, optional
        Jobs per Gantt page; by default 1,000 shared out (at least 100, at most 300).
    currency : str, default "$"
        Symbol of money axes (display only).
    only : collection of str, optional
        Build only these keys (``fairness:`` and ``gantt:`` stand for every scheduler's
        default view).
    """
    pieces = {
        name: variant_figures(
            name, r, schedulers=len(results), max_points=max_points, max_jobs=max_jobs, only=only
        )
        for name, r in results.items()
    }
    return join_figures(pieces, max_points=max_points, currency=currency, only=only, digests=results)


#: What a result document's :func:`figure_digest` keeps of its ``timeline`` and ``jobs``
#: sections: what the figures over every scheduler read (the others are dropped).
DIGEST_TIMELINE = ("t", "utilisation", "active_vms", "cumulative_cost")
DIGEST_JOBS = ("arrival_s", "finish_s")  # completion_s = finish_s - arrival_s
#: Sections no figure over every scheduler reads (the Gantt chart and the fairness figures
#: read them in :func:`variant_figures`).
DIGEST_DROPPED = ("machines", "vm_intervals", "fairness", "scheduling_delay")


def figure_digest(result: Result) -> dict[str, object]:
    """What the figures over every scheduler read of one result document, and nothing else.

    A 10,000-job document is megabytes, most of it per-job and per-VM detail; its digest keeps
    the summary, the cost breakdowns, four timeline series and two job columns, so that the
    comparison's figures can be joined from small digests (:func:`join_figures`) without the
    full documents. The figures drawn from digests equal those drawn from the documents.

    The columns it keeps are packed (:mod:`scheduling.packed`): a planner run stores each
    digest in the database and the part that closes the run reads them all back, and a column
    of numbers as text is what costs most to write there and to read again.
    :func:`join_figures` unpacks them.

    >>> digest = figure_digest({"total_cost": 1.0, "vm_intervals": {}, "timeline": {"t": [0.0],
    ...     "queued_jobs": [0]}, "jobs": {"id": ["a"], "arrival_s": [0.0], "finish_s": [5.0]}})
    >>> digest["timeline"]["t"]["$packed"]
    'float64'
    >>> sorted(unpack_tree(digest).items())
    [('jobs', {'arrival_s': [0.0], 'finish_s': [5.0]}), ('timeline', {'t': [0.0]}), ('total_cost', 1.0)]
    """
    out: dict[str, object] = {}
    for key, value in result.items():
        if key in DIGEST_DROPPED:
            continue
        if key == "timeline" and isinstance(value, Mapping):
            value = {k: _packed(v) for k, v in value.items() if k in DIGEST_TIMELINE}
        elif key == "jobs" and isinstance(value, Mapping):
            value = {k: _packed(v) for k, v in value.items() if k in DIGEST_JOBS}
        out[key] = value
    return out


def _packed(value: object) -> object:
    """A column packed, or each column of an object of columns (per resource, per VM type)."""
    if isinstance(value, list):
        return pack(value)
    if isinstance(value, Mapping):
        return {k: _packed(v) for k, v in value.items()}
    return value


def _sizes(schedulers: int, max_points: int | None, max_jobs: int | None) -> tuple[int, int]:
    n = max(1, schedulers)
    return max_points or max(400, min(2000, 4000 // n)), max_jobs or gantt_page_size(n)


def _wanted(key: str, wanted: set[str] | None) -> bool:
    prefix = key.split(":", 1)[0] + ":" if ":" in key else None
    return wanted is None or key in wanted or (prefix in wanted and "@" not in key)


def variant_figures(
    name: str,
    result: Result,
    *,
    schedulers: int,
    max_points: int | None = None,
    max_jobs: int | None = None,
    only: Collection[str] | None = None,
) -> dict[str, object]:
    """One scheduler's share of a comparison's figures, from its document alone.

    ``{"figures": {...}, "digest": {...}}``: the figures of this scheduler only (its fairness
    figures and the first page of its Gantt chart, keys as in :func:`all_figures`) and its
    :func:`figure_digest`, from which :func:`join_figures` draws the figures over every
    scheduler. ``schedulers`` is how many the comparison has (it sizes the pages and the
    points). A planner run builds this inside each scheduler's part, where the document is at
    hand, so that only the joining is left when the last part ends.

    >>> from scheduling import parse_scenario, simulate
    >>> scenario = parse_scenario({"resources": ["cpu"], "vm_types": [{"name": "vm",
    ...     "capacity": {"cpu": 4}, "price_per_hour": 3.6}], "jobs": [{"id": "a", "arrival_s": 0,
    ...     "executors": 1, "executor": {"cpu": 4}, "duration_s": 100}]})
    >>> doc = simulate(scenario, scheduler="edf-bfd").to_dict()
    >>> piece = variant_figures("edf-bfd", doc, schedulers=1)
    >>> list(piece["figures"]), join_figures({"edf-bfd": piece}) == all_figures({"edf-bfd": doc})
    (['gantt:edf-bfd'], True)
    """
    points, jobs = _sizes(schedulers, max_points, max_jobs)
    wanted = set(only) if only is not None else None
    builders: dict[str, Callable[[], Figure]] = {}
    if result.get("fairness"):
        builders[f"fairness:{name}"] = partial(fairness_figure, result, view="mean")
        builders[f"fairness:{name}@raw"] = partial(fairness_figure, result, max_points=points)
    builders[f"gantt:{name}"] = partial(gantt_figure, result, jobs)
    figures = {key: build() for key, build in builders.items() if _wanted(key, wanted)}
    return {"figures": figures, "digest": figure_digest(result)}


def join_figures(
    pieces: Mapping[str, Mapping[str, object]],
    *,
    max_points: int | None = None,
    currency: str = "$",
    only: Collection[str] | None = None,
    digests: Mapping[str, Result] | None = None,
) -> dict[str, Figure]:
    """A comparison's figures (:func:`all_figures`) from each scheduler's :func:`variant_figures`.

    ``pieces`` are keyed by scheduler spec, in the comparison's order. The figures over every
    scheduler are drawn from the pieces' digests (or from ``digests``, full documents or
    digests, when given), then each scheduler's own figures follow, as :func:`all_figures`
    orders them.
    """
    results: Mapping[str, Result] = (
        digests if digests is not None
        else {name: unpack_tree(piece["digest"]) for name, piece in pieces.items()}
    )
    points, _ = _sizes(len(results), max_points, None)
    several = len(results) > 1
    builders: dict[str, Callable[[], Figure]] = {
        "cumulative_cost": lambda: cumulative_cost_figure(results, max_points=points, currency=currency),
        "cumulative_cost@multiples": lambda: cumulative_cost_figure(
            results, view="multiples", max_points=points, currency=currency),
        "utilisation": lambda: utilisation_figure(results, view="mean"),
        "utilisation@raw": lambda: utilisation_figure(results, view="raw", max_points=points),
        "utilisation@multiples": lambda: utilisation_figure(results, view="multiples", max_points=points),
        "active_vms": lambda: active_vms_figure(results, mode="total", view="mean"),
        "active_vms@raw": lambda: active_vms_figure(results, mode="total", view="raw", max_points=points),
        "active_vms@multiples": lambda: active_vms_figure(results, mode="stacked", max_points=points),
        "cost_breakdown": lambda: cost_breakdown_figure(results, currency=currency),
        "cost_by_framework": lambda: cost_by_framework_figure(results, currency=currency),
        "cost_by_hour": lambda: cost_by_hour_figure(results, currency=currency),
        "deadlines": lambda: deadline_figure(results),
        "completion": lambda: completion_figure(results, max_points=points),
        "completion@multiples": lambda: completion_figure(results, view="multiples", max_points=points),
    }
    wanted = set(only) if only is not None else None
    figures: dict[str, Figure] = {}
    for key, build in builders.items():
        if key.endswith("@multiples") and key != "active_vms@multiples" and not several:
            continue
        if _wanted(key, wanted):
            figures[key] = build()
    own = [dict(piece["figures"]) for piece in pieces.values()]  # type: ignore[call-overload]
    for prefix in ("fairness:", "gantt:"):  # every scheduler's fairness figures, then the Gantt charts
        for figs in own:
            figures.update((k, v) for k, v in figs.items() if k.startswith(prefix))
    _name_the_same(figures, results)
    return figures


def same_as(results: Mapping[str, Result]) -> dict[str, str]:
    """Schedulers whose runs are identical to an earlier one's (the same jobs' starts, finishes
    and placements, the same timelines): ``{later: earlier}``. Their curves would lie on top
    of each other, so the charts say so.

    >>> a = {"timeline": {"t": [0, 1]}, "jobs": {"id": ["j"]}, "total_cost": 1.0}
    >>> same_as({"x": a, "y": dict(a), "z": {**a, "total_cost": 2.0}})
    {'y': 'x'}
    >>> same_as({"x": a, "w": {**a, "timeline": {"t": [0, 2]}}, "v": {**a, "timeline": {"t": [0, 2]}}})
    {'v': 'w'}
    """
    def whole(r: Result) -> list[object]:
        return [r.get(k) for k in ("timeline", "jobs", "total_cost", "makespan_s")]

    # Runs are told apart by their cost and makespan first; only runs alike in both have their
    # timelines and jobs compared, value by value (a twin's 100,000-odd values in milliseconds,
    # where writing both out as text to compare took 50 ms for two 10,000-job digests).
    earlier: dict[str, list[str]] = {}  # cost and makespan -> names
    out: dict[str, str] = {}
    for name, r in results.items():
        alike = earlier.setdefault(json.dumps([r.get("total_cost"), r.get("makespan_s")], default=str), [])
        mine = whole(r) if alike else None
        twin = next((other for other in alike if whole(results[other]) == mine), None)
        if twin is None:
            alike.append(str(name))
        else:
            out[str(name)] = twin
    return out


def _name_the_same(figures: Mapping[str, Figure], results: Mapping[str, Result]) -> None:
    """A scheduler identical to another is named so in every legend: "morpheus (same as fifo)"."""
    twins = {text(later): f"{text(later)} (same as {text(earlier)})"
             for later, earlier in same_as(results).items()}
    if not twins:
        return
    for figure in figures.values():
        for trace in figure.get("data", []):
            if trace.get("name") in twins:
                trace["name"] = twins[trace["name"]]
