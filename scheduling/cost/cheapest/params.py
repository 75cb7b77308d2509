"""The parameters of a cheapest-cluster search, declared once (:mod:`scheduling.params`).

:data:`CHEAPEST_PARAMS` declares what a search takes: the scheduler, the range of counts of each
VM type, the target (the most deadline misses in %, optionally the most mean and 95th-percentile
completion time), the seed, the simulations at once and a budget of simulations;
:func:`cheapest_run` reads a request's parameters with them and checks the ranges and the
scheduler against the scenario, returning the run's options.

>>> cheapest_run({"counts": {"m1.large": [0, 3]}})["max_miss_pct"]
0.0
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import FieldError, ScenarioError
from ...params import Param, TextForm, read_params, seed_param
from ...scenario import DEFAULT_RESOURCES, Scenario
from ..schedulers import SCHEDULERS, parse_scheduler
from .answer import search_options
from .space import MAX_CANDIDATES, parse_count_range

__all__ = ["CHEAPEST_PARAMS", "MAX_WORKERS", "cheapest_run", "counts_text_form", "parse_counts"]

#: The most simulations one search runs at once (processes of the CLI, parts of a planner run).
MAX_WORKERS = 16


def parse_counts(text: str, path: str) -> dict[str, list[int]]:
    """``m1.large=0-20, m2.xlarge=2-4`` (commas or spaces between types) as ``{type: [lo, hi]}``.

    >>> parse_counts("m1.large=0-20, m2.xlarge=3", "counts")
    {'m1.large': [0, 20], 'm2.xlarge': [3, 3]}
    """
    out: dict[str, list[int]] = {}
    errors: list[FieldError] = []
    for word in text.replace(",", " ").split():
        try:
            name, lo, hi = parse_count_range(word, path)
        except ScenarioError as exc:
            errors.extend(exc.errors)
            continue
        if name in out:
            errors.append(FieldError(path, f"{name} is given twice"))
        out[name] = [lo, hi]
    if errors:
        raise ScenarioError(errors)
    return out


def parse_reserved(text: str, path: str) -> dict[str, int]:
    """``m1.large=2, m2.xlarge=1`` as ``{type: count}``.

    >>> parse_reserved("m1.large=2 m2.xlarge=0", "reserved")
    {'m1.large': 2, 'm2.xlarge': 0}
    """
    out: dict[str, int] = {}
    errors: list[FieldError] = []
    for word in text.replace(",", " ").split():
        name, sep, n = word.partition("=")
        if not sep or not name or not n.strip().isdigit():
            errors.append(FieldError(path, f"{word}: must be VMTYPE=N (e.g. m1.large=2)"))
        elif name in out:
            errors.append(FieldError(path, f"{name} is given twice"))
        else:
            out[name] = int(n)
    if errors:
        raise ScenarioError(errors)
    return out


def reserved_text_form(reserved: Any) -> str:
    """``{type: count}`` as the text :func:`parse_reserved` reads.

    >>> reserved_text_form({"m1.large": 2})
    'm1.large=2'
    """
    if isinstance(reserved, str):
        return reserved
    return ", ".join(f"{t}={n}" for t, n in (reserved or {}).items())


def counts_text_form(counts: Any) -> str:
    """``{type: [lo, hi]}`` as the text :func:`parse_counts` reads.

    >>> counts_text_form({"m1.large": [0, 20], "m2.xlarge": [3, 3]})
    'm1.large=0-20, m2.xlarge=3'
    """
    if isinstance(counts, str):
        return counts
    return ", ".join(f"{t}={lo}" if lo == hi else f"{t}={lo}-{hi}" for t, (lo, hi) in (counts or {}).items())


CHEAPEST_PARAMS: tuple[Param, ...] = (
    Param(
        "scheduler",
        "text",
        "Scheduler",
        "One scheduler spec <ordering>-<placement>[:key=value,...], e.g. edf-bfd or edf-ilp.",
        default="edf-bfd",
        choices=tuple(SCHEDULERS),
    ),
    Param(
        "counts",
        "mapping",
        "VM counts searched",
        "The range of counts of each VM type searched, e.g. "
        "m1.large=0-20, m1.xlarge=0-20 (a type not named keeps the scenario's count).",
        item=Param(
            "range",
            "list",
            item=Param("count", "integer", minimum=0, maximum=100_000),
            min_items=2,
            max_items=2,
        ),
        text=TextForm(parse_counts, counts_text_form, "m1.large=0-20, m1.xlarge=0-20"),
    ),
    Param(
        "reserved",
        "mapping",
        "Reserved VMs",
        "Reserve so many VMs of a type at the reserved price its scenario gives it, billed for the "
        "whole run, used or not (a candidate with fewer reserves them all), e.g. m1.large=2; "
        "empty: the scenario's own reservations.",
        default={},
        item=Param("count", "integer", minimum=0, maximum=100_000),
        text=TextForm(parse_reserved, reserved_text_form, "m1.large=2"),
    ),
    Param(
        "max_miss_pct",
        "number",
        "Most deadlines missed",
        "The target: at most this share of the deadline jobs miss their deadlines (0: none).",
        default=0.0,
        unit="%",
        minimum=0,
        maximum=100,
        flag="--max-miss-pct",
    ),
    Param(
        "max_mean_completion_s",
        "number",
        "Most mean completion time",
        "Also a target, if given: the mean time from a job's arrival to its end.",
        unit="s",
        minimum=0,
        exclusive_minimum=True,
        maximum=10**9,
        flag="--max-mean-completion",
    ),
    Param(
        "max_p95_completion_s",
        "number",
        "Most 95th-percentile completion time",
        "Also a target, if given: the 95th percentile of the time from a job's arrival to its end.",
        unit="s",
        minimum=0,
        exclusive_minimum=True,
        maximum=10**9,
        flag="--max-p95-completion",
    ),
    seed_param("The seed of the simulations."),
    Param(
        "workers",
        "integer",
        "Simulations at once",
        "Candidates simulated in parallel (processes of the "
        "command line, parts of a planner run); each part walks its share of the candidates in the "
        "order of their bounds.",
        default=2,
        minimum=1,
        maximum=MAX_WORKERS,
        flag="--workers",
    ),
    Param(
        "max_simulations",
        "integer",
        "Budget of simulations",
        "Stop after this many simulations (per part); "
        "the answer then says it is not certified (empty: no budget).",
        minimum=1,
        maximum=MAX_CANDIDATES,
        flag="--max-simulations",
    ),
)


def cheapest_run(params: Mapping[str, Any], *, scenario: Scenario | None = None) -> dict[str, Any]:
    """A search's options, read by :data:`CHEAPEST_PARAMS` and checked against the scenario (its
    VM types and resources; without one, what can be checked without it); every problem with
    its path (``counts.m9``, ``scheduler``).

    >>> cheapest_run({"counts": {"m1.large": [0, 3]}, "max_miss_pct": 1})
    {'scheduler': 'edf-bfd', 'counts': {'m1.large': [0, 3]}, 'max_miss_pct': 1.0, \
'max_mean_completion_s': None, 'max_p95_completion_s': None, 'seed': 0, 'workers': 2, \
'max_simulations': None, 'reserved': {}}
    >>> cheapest_run({"counts": {"m1.large": [3, 1]}, "scheduler": "edf-best"})
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: counts.m1.large: the lowest count must not exceed the highest
    scheduler: unknown placement 'best' in 'edf-best' (placements: bfd, ilp, consolidate, spread; named \
schedulers: fifo-spread, fifo-consolidate, morpheus, edf-bfd, edf-ilp)
    """
    values = read_params(CHEAPEST_PARAMS, params, what="a cheapest-cluster search")
    counts = values["counts"] or {}
    errors: list[FieldError] = []
    if scenario is not None:
        try:
            _, _, values["scheduler"] = search_options(
                scenario, counts, str(values["scheduler"]), None, values["reserved"] or {}
            )
        except ScenarioError as exc:
            errors.extend(exc.errors)
    else:
        if not counts:
            errors.append(FieldError("counts", "must name at least one VM type with a range of counts"))
        errors += [
            FieldError(f"counts.{t}", "the lowest count must not exceed the highest")
            for t, (lo, hi) in counts.items()
            if lo > hi
        ]
        try:
            values["scheduler"] = parse_scheduler(
                str(values["scheduler"]), resources=DEFAULT_RESOURCES, path="scheduler"
            ).spec
        except ScenarioError as exc:
            errors.extend(exc.errors)
    if errors:
        raise ScenarioError(errors)
    return {
        "scheduler": values["scheduler"],
        "counts": counts,
        "max_miss_pct": float(values["max_miss_pct"]),
        "max_mean_completion_s": values["max_mean_completion_s"],
        "max_p95_completion_s": values["max_p95_completion_s"],
        "seed": values["seed"],
        "workers": values["workers"],
        "max_simulations": values["max_simulations"],
        "reserved": dict(values["reserved"] or {}),
    }
