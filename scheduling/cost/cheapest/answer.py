"""The answer document of a cheapest-cluster search, joined from its parts, and the front door.

:func:`cheapest` runs a whole search in this process (or a pool of ``workers``) and returns
its answer; the planner runs the parts of :func:`~.search.search_part` on its workers and joins
their documents with :func:`join_parts`, which is also what :func:`cheapest` does with its one
part, so both give the same document (docs/results.md, "Cheapest cluster"):

``answer`` (the cheapest candidate that met the target: ``counts`` by VM type, ``cost``,
``missed``, completion times, its ``bound``) or ``null``; ``certified`` and the
``certificate`` in words; ``candidates`` (M), ``simulated`` (N), ``pruned`` by rule
(``bound``, ``demand_window``, ``no_fit``) and ``unexplored`` (left by a budget, so not
certified); ``global_lower_bound`` over every cluster shape and the answer's ``gap_pct`` to it;
``tried`` (every simulated candidate, in the search's order), the ``frontier`` of cost against
misses, the ``closest`` candidates when none meets the target, the largest pruned clusters of
each rule (``maximal_pruned``) and the demand windows' figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import FieldError, ScenarioError
from ...scenario import Scenario, SimulationOptions
from ...tables import format_money
from ..schedulers import parse_scheduler
from .search import FORMAT, PRUNE_RULES, Progress, Target, search_part
from .space import SearchSpace, counts_text, search_space, with_reserved

__all__ = [
    "PRUNE_RULES",
    "CheapestResult",
    "certificate",
    "cheapest",
    "compact_part",
    "frontier",
    "join_parts",
    "search_options",
]

#: How many of the closest candidates an answer lists when none meets the target.
CLOSEST = 5

#: How many of a part's cheapest and closest candidates its compact document keeps.
KEEP = 25

#: Words of each budget that can stop a search, in the certificate.
BUDGET_WORDS = {"budget": "simulation budget", "time": "time budget"}

#: Words of each prune rule in the certificate.
RULE_WORDS = {
    "bound": "by bound",
    "demand_window": "by demand window",
    "no_fit": "because a job does not fit",
}


@dataclass(frozen=True)
class CheapestResult:
    """A search's answer; :meth:`to_dict` is the JSON document (module docstring)."""

    document: dict[str, Any]

    @property
    def answer(self) -> dict[str, Any] | None:
        answer: dict[str, Any] | None = self.document["answer"]
        return answer

    @property
    def certified(self) -> bool:
        return bool(self.document["certified"])

    def to_dict(self) -> dict[str, Any]:
        return self.document


def cheapest(
    scenario: Scenario,
    *,
    scheduler: str,
    counts: Mapping[str, Sequence[int]],
    target: Target | None = None,
    options: SimulationOptions | None = None,
    seed: int = 0,
    workers: int = 1,
    max_simulations: int | None = None,
    time_budget_s: float | None = None,
    reserved: Mapping[str, int] | None = None,
    progress: Progress | None = None,
) -> CheapestResult:
    """The cheapest cluster of the space ``counts`` that meets ``target`` under ``scheduler``,
    with the evidence that no cheaper one of the space does (:mod:`.search`).

    Parameters
    ----------
    scenario : Scenario
        The workload and the VM types (their prices and capacities; a type ``counts`` does not
        name keeps the scenario's count).
    scheduler : str
        One scheduler spec (``edf-bfd``, ``edf-ilp:ilp_time_limit_s=1``).
    counts : mapping
        ``{vm type: [lo, hi]}``: the range of counts of each VM type searched.
    target : Target, optional
        The most deadline misses (%) and completion times allowed; default: no miss.
    options : SimulationOptions, optional
        Run options; default the scenario's.
    seed : int
        The simulations' seed.
    workers : int
        Processes simulating candidates at once.
    max_simulations : int, optional
        Stop after this many simulations (the answer then says it is not certified).
    time_budget_s : float, optional
        Propose no new candidate after so many seconds (the same, by the clock).
    reserved : mapping, optional
        ``{vm type: n}``: reserve so many machines of the type at its reserved price
        (:func:`.space.with_reserved`); the scenario's own reservations otherwise.
    progress : callable, optional
        Fraction of the candidates to simulate done or skipped; may raise to stop.

    Returns
    -------
    CheapestResult
        Its ``to_dict()`` is the answer document; a space whose candidates all miss the
        target gives ``answer: None`` and the closest candidates.

    Raises
    ------
    ScenarioError
        For a scheduler, a range or a VM type that is not valid (named by its path).

    Examples
    --------
    >>> from scheduling.scenario import parse_scenario
    >>> s = parse_scenario({"resources": ["cpu"], "vm_types": [
    ...     {"name": "small", "capacity": {"cpu": 2}, "price_per_hour": 1},
    ...     {"name": "big", "capacity": {"cpu": 8}, "price_per_hour": 5}], "jobs": [
    ...     {"id": "a", "arrival_s": 0, "executors": 3, "executor": {"cpu": 2}, "duration_s": 3600,
    ...      "deadline_s": 3600},
    ...     {"id": "b", "arrival_s": 0, "executors": 1, "executor": {"cpu": 2}, "duration_s": 3600,
    ...      "deadline_s": 3600}]})
    >>> r = cheapest(s, scheduler="edf-bfd", counts={"small": [0, 4], "big": [0, 1]})
    >>> r.answer["counts"], r.answer["cost"], r.to_dict()["pruned"]
    ({'small': 4, 'big': 0}, 4.0, {'bound': 5, 'demand_window': 1, 'no_fit': 3})
    >>> print(r.to_dict()["certificate"])
    cheapest within the space: small ×4 at 4.0000; 1 of 10 candidates simulated; the rest pruned \
by bound (5), by demand window (1) or because a job does not fit (3)
    """
    scenario, space, spec = search_options(scenario, counts, scheduler, options, reserved)
    doc = search_part(
        scenario,
        space=space,
        scheduler=spec,
        target=target,
        options=options,
        seed=seed,
        workers=workers,
        max_simulations=max_simulations,
        time_budget_s=time_budget_s,
        progress=progress,
    )
    return CheapestResult(join_parts([doc]))


def join_parts(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The answer document of a search from the documents of all its parts (any order).

    Sound whatever part found what: a part stops only where the next bound of its share is at
    least its own cheapest cost met, which is at least the cheapest of all parts.
    """
    if not parts:
        raise ScenarioError.single("parts", "a search has at least one part")
    parts = sorted(parts, key=lambda d: int(d["part"]))
    first = parts[0]
    if len(parts) != int(first["parts"]) or [int(d["part"]) for d in parts] != list(range(len(parts))):
        raise ScenarioError.single(
            "parts", f"expected parts 0 to {int(first['parts']) - 1}, got {[int(d['part']) for d in parts]}"
        )
    tried = sorted((row for d in parts for row in d["tried"]), key=lambda r: (r["bound"], r["rank"]))
    meets = [r for r in tried if r["meets"]]
    best = min(meets, key=lambda r: (r["cost"], r["index"])) if meets else None
    certified = all(d["certified"] for d in parts)
    simulated = sum(int(d["simulated"]) for d in parts)  # a compact part lists only some (compact_part)
    not_simulated = int(first["to_simulate"]) - simulated
    pruned = dict(first["pruned_before"])
    unexplored = 0
    if certified:
        pruned["bound"] += not_simulated
    else:
        unexplored = not_simulated
    pruned = {rule: int(pruned[rule]) for rule in ("bound", "demand_window", "no_fit")}
    space = SearchSpace(
        tuple(first["space"]["vm_types"]),
        tuple(first["space"]["counts"][t][0] for t in first["space"]["vm_types"]),
        tuple(first["space"]["counts"][t][1] for t in first["space"]["vm_types"]),
    )
    # What the unexplored candidates could cost at least: their parts' next bounds.
    open_bounds = [
        float(d["next_bound"]) for d in parts if not d["certified"] and d["next_bound"] is not None
    ]
    lowest_possible = min([*open_bounds, *([best["cost"]] if best else [])], default=None)
    global_bound = float(first["global_lower_bound"])
    answer = _answer(space, best) if best is not None else None
    doc: dict[str, Any] = {
        "format": FORMAT,
        "kind": "cheapest-cluster",
        "scenario": first["scenario"],
        "scheduler": first["scheduler"],
        "seed": first["seed"],
        "target": first["target"],
        "max_missed": first["max_missed"],
        "space": first["space"],
        "prices": first["prices"],
        "reserved": first.get("reserved") or {},
        "answer": answer,
        "certified": certified,
        "candidates": int(first["candidates"]),
        "simulated": simulated,
        "pruned": pruned,
        "unexplored": unexplored,
        "lowest_possible": lowest_possible,
        "global_lower_bound": global_bound,
        "gap_pct": (
            100.0 * (best["cost"] - global_bound) / global_bound
            if best is not None and global_bound > 0
            else None
        ),
        "horizon_s": first["horizon_s"],
        "demand_windows": first["demand_windows"],
        "maximal_pruned": first["maximal_pruned"],
        "tried": tried,
        "frontier": frontier(tried),
        "closest": (
            []
            if best is not None
            else sorted(tried, key=lambda r: (r["missed"], r["mean_completion_s"], r["cost"]))[:CLOSEST]
        ),
        "parts": [
            {k: d[k] for k in ("part", "own", "simulated", "stopped_by", "next_bound", "certified")}
            for d in parts
        ],
    }
    doc["certificate"] = certificate(doc)
    return doc


def compact_part(doc: Mapping[str, Any], *, keep: int = KEEP) -> dict[str, Any]:
    """A part's document with only the simulated candidates an answer can show: its frontier,
    its ``keep`` cheapest that met the target and its ``keep`` closest to it. :func:`join_parts`
    of compact parts gives the same answer, certificate, counts, frontier and closest candidates
    as of the full parts; only ``tried`` is shorter (the planner stores this as a part's summary).

    >>> rows = [{"index": k, "cost": c, "missed": m, "meets": m == 0, "mean_completion_s": 1.0}
    ...         for k, (c, m) in enumerate([(5, 0), (6, 0), (4, 3), (7, 3)])]
    >>> [r["index"] for r in compact_part({"tried": rows}, keep=1)["tried"]]
    [0, 2]
    """
    tried = list(doc["tried"])
    meets = sorted((r for r in tried if r["meets"]), key=lambda r: (r["cost"], r["index"]))[:keep]
    closest = sorted(tried, key=lambda r: (r["missed"], r["mean_completion_s"], r["cost"]))[:keep]
    kept = {r["index"] for r in [*frontier(tried), *meets, *closest]}
    return {**doc, "tried": [r for r in tried if r["index"] in kept]}


def _answer(space: SearchSpace, row: Mapping[str, Any]) -> dict[str, Any]:
    keys = (
        "cost",
        "missed",
        "deadline_jobs",
        "miss_pct",
        "mean_completion_s",
        "p95_completion_s",
        "makespan_s",
        "bound",
        "index",
    )
    return {"counts": space.as_mapping(row["counts"]), **{k: row[k] for k in keys}}


def frontier(tried: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The simulated candidates no other one beats on both cost and misses (cheapest first).

    >>> rows = [{"cost": 3, "missed": 0}, {"cost": 2, "missed": 1}, {"cost": 2.5, "missed": 2},
    ...         {"cost": 1, "missed": 5}]
    >>> [(r["cost"], r["missed"]) for r in frontier(rows)]
    [(1, 5), (2, 1), (3, 0)]
    """
    out: list[dict[str, Any]] = []
    for row in sorted(tried, key=lambda r: (r["cost"], r["missed"])):
        if not out or row["missed"] < out[-1]["missed"]:
            out.append(dict(row))
    return out


def certificate(doc: Mapping[str, Any]) -> str:
    """The answer in one sentence: what was found, how much was simulated, why the rest was not."""
    space = doc["space"]
    names = tuple(space["vm_types"])
    ranges = SearchSpace(
        names, tuple(space["counts"][t][0] for t in names), tuple(space["counts"][t][1] for t in names)
    )
    pruned = doc["pruned"]
    rest = ", ".join(f"{RULE_WORDS[r]} ({pruned[r]})" for r in ("bound", "demand_window"))
    rest = f"{rest} or {RULE_WORDS['no_fit']} ({pruned['no_fit']})"
    share = f"{doc['simulated']} of {doc['candidates']} candidates simulated"
    answer = doc["answer"]
    if not doc["certified"]:
        found = (
            f"the cheapest found is {counts_text(ranges, list(answer['counts'].values()))} at "
            f"{format_money(answer['cost'])}"
            if answer
            else "none found meets the target"
        )
        spent = sorted({p["stopped_by"] for p in doc["parts"] if not p["certified"]})
        which = " and ".join(BUDGET_WORDS.get(b, str(b)) for b in spent)
        return (
            f"not certified: the search stopped at its {which}; {found}; {share}, {doc['unexplored']} not "
            f"explored, which could cost as little as {format_money(doc['lowest_possible'])}"
        )
    if answer is None:
        return f"the target cannot be met within the space: {share}, none meets it; the rest pruned {rest}"
    cluster = counts_text(ranges, list(answer["counts"].values()))
    cost = format_money(answer["cost"])
    return f"cheapest within the space: {cluster} at {cost}; {share}; the rest pruned {rest}"


def search_options(
    scenario: Scenario,
    counts: Mapping[str, Sequence[int]],
    scheduler: str,
    options: SimulationOptions | None,
    reserved: Mapping[str, int] | None = None,
) -> tuple[Scenario, SearchSpace, str]:
    """The scenario with its reservations (:func:`.space.with_reserved`), the space and the
    scheduler's spec of a search, checked (every problem with its path)."""
    errors: list[FieldError] = []
    space: SearchSpace | None = None
    spec = scheduler
    try:
        scenario = with_reserved(scenario, reserved or {})
    except ScenarioError as exc:
        errors.extend(exc.errors)
    try:
        space = search_space(scenario, counts)
    except ScenarioError as exc:
        errors.extend(exc.errors)
    try:
        spec = parse_scheduler(
            scheduler, resources=scenario.resources, base=options or scenario.options, path="scheduler"
        ).spec
    except ScenarioError as exc:
        errors.extend(exc.errors)
    if errors or space is None:
        raise ScenarioError(errors)
    return scenario, space, spec
