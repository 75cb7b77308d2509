"""The search space of the cheapest-cluster search: a range of counts per VM type.

A *candidate* is one cluster: a count per VM type of the scenario (types the space does not
name keep the scenario's own count). :class:`SearchSpace` enumerates them as rows of one
integer array, so the tests that prune candidates (:mod:`.windows`, :mod:`.candidate_bounds`,
:func:`fits`) run on every candidate at once; :func:`cluster_scenario` is the scenario a
candidate is simulated on (types with no VM left out, as a scenario's types all have a VM).

>>> space = SearchSpace(("a", "b"), (0, 1), (2, 1))
>>> space.size, space.counts().tolist()
(3, [[0, 1], [1, 1], [2, 1]])
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...errors import FieldError, ScenarioError
from ...scenario import LIMITS, Scenario, VMType, executors_that_fit

__all__ = [
    "MAX_CANDIDATES",
    "SearchSpace",
    "cluster_scenario",
    "counts_text",
    "fits",
    "parse_count_range",
    "search_space",
    "with_reserved",
]

IntArray = NDArray[np.int64]

#: The most candidates one search may hold (counts 0-20 of five VM types are 4 million; a
#: search is meant for a few types with ranges of tens).
MAX_CANDIDATES = 250_000

_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


@dataclass(frozen=True)
class SearchSpace:
    """Every cluster with ``lo[i] <= count of vm_types[i] <= hi[i]`` (the scenario's VM types
    in its order; a type the search does not vary has ``lo == hi``)."""

    vm_types: tuple[str, ...]
    lo: tuple[int, ...]
    hi: tuple[int, ...]

    @property
    def size(self) -> int:
        """How many candidates the space holds."""
        n = 1
        for a, b in zip(self.lo, self.hi, strict=True):
            n *= b - a + 1
        return n

    def counts(self) -> IntArray:
        """Every candidate as one row of counts, the last VM type varying fastest (row ``k``
        is candidate ``k`` everywhere in a search's document).

        >>> SearchSpace(("a", "b"), (0, 1), (1, 2)).counts().tolist()
        [[0, 1], [0, 2], [1, 1], [1, 2]]
        """
        axes = [np.arange(a, b + 1, dtype=np.int64) for a, b in zip(self.lo, self.hi, strict=True)]
        grid = np.meshgrid(*axes, indexing="ij")
        return np.stack([g.ravel() for g in grid], axis=1).astype(np.int64)

    def ranges(self) -> dict[str, list[int]]:
        """``{vm type: [lo, hi]}``, the document's form."""
        return {t: [a, b] for t, a, b in zip(self.vm_types, self.lo, self.hi, strict=True)}

    def as_mapping(self, counts: Sequence[int]) -> dict[str, int]:
        """One candidate's counts by VM type name."""
        return {t: int(n) for t, n in zip(self.vm_types, counts, strict=True)}


def parse_count_range(text: str, path: str) -> tuple[str, int, int]:
    """``VMTYPE=LO-HI`` (or ``VMTYPE=N``) of the command line, read.

    >>> parse_count_range("m1.large=0-20", "--counts")
    ('m1.large', 0, 20)
    >>> parse_count_range("m1.large=20-3", "--counts")
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: --counts: m1.large=20-3: the lowest count must not exceed the highest
    """
    name, sep, rng = text.partition("=")
    m = _RANGE.match(rng)
    if not sep or not name.strip() or m is None:
        raise ScenarioError.single(path, f"{text}: must be VMTYPE=LO-HI (e.g. m1.large=0-20)")
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) is not None else lo
    if lo > hi:
        raise ScenarioError.single(path, f"{text}: the lowest count must not exceed the highest")
    return name.strip(), lo, hi


def search_space(
    scenario: Scenario, counts: Mapping[str, Sequence[int]], *, path: str = "counts"
) -> SearchSpace:
    """The space of ``counts`` (``{vm type: [lo, hi]}``) over ``scenario``'s VM types.

    A VM type ``counts`` does not name keeps the scenario's count. Every problem is reported
    with its path: a type the scenario does not have (``counts.m9``), a range that is not two
    whole numbers ``0 <= lo <= hi`` up to the scenario limit of machines, a space of more than
    :data:`MAX_CANDIDATES` candidates.

    >>> from scheduling.scenario import parse_scenario
    >>> s = parse_scenario({"vm_types": [{"name": "a", "capacity": {"cpu": 4, "mem": 8},
    ...     "price_per_hour": 1, "count": 3}, {"name": "b", "capacity": {"cpu": 8, "mem": 16},
    ...     "price_per_hour": 2}], "jobs": [{"id": "j", "arrival_s": 0, "executors": 1,
    ...     "executor": {"cpu": 1, "mem": 1}, "duration_s": 60}]})
    >>> search_space(s, {"b": [0, 4]})
    SearchSpace(vm_types=('a', 'b'), lo=(3, 0), hi=(3, 4))
    >>> search_space(s, {"c": [0, 1], "b": [2, 1]})
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: counts.c: is not a VM type of the scenario (a, b)
    counts.b: the lowest count must not exceed the highest
    """
    errors: list[FieldError] = []
    names = [t.name for t in scenario.vm_types]
    ranges: dict[str, tuple[int, int]] = {}
    if not isinstance(counts, Mapping):
        raise ScenarioError.single(path, "must map VM types to [lo, hi] ranges of counts")
    if not counts:
        errors.append(FieldError(path, "must name at least one VM type with a range of counts"))
    most = int(LIMITS["machines"])
    for name, rng in counts.items():
        p = f"{path}.{name}"
        if name not in names:
            errors.append(FieldError(p, f"is not a VM type of the scenario ({', '.join(names)})"))
            continue
        ok = (
            isinstance(rng, Sequence)
            and not isinstance(rng, str)
            and len(rng) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in rng)
        )
        if not ok:
            errors.append(FieldError(p, "must be two whole numbers [lo, hi]"))
            continue
        lo, hi = int(rng[0]), int(rng[1])
        if lo < 0 or hi > most:
            errors.append(FieldError(p, f"counts must be from 0 to {most:,}"))
        elif lo > hi:
            errors.append(FieldError(p, "the lowest count must not exceed the highest"))
        else:
            ranges[name] = (lo, hi)
    if errors:
        raise ScenarioError(errors)
    fixed = {t.name: t.count for t in scenario.vm_types}
    space = SearchSpace(
        tuple(names),
        tuple(ranges.get(n, (fixed[n], fixed[n]))[0] for n in names),
        tuple(ranges.get(n, (fixed[n], fixed[n]))[1] for n in names),
    )
    if space.size > MAX_CANDIDATES:
        raise ScenarioError.single(
            path, f"hold {space.size:,} candidate clusters; the most is {MAX_CANDIDATES:,}"
        )
    return space


def cluster_scenario(scenario: Scenario, counts: Sequence[int]) -> Scenario:
    """``scenario`` with its VM types' counts set to ``counts`` (in its order); a type with no VM
    is left out, as a scenario's VM types each have at least one.

    A type's markets (version 4) keep their order: its first machines are reserved, up to its
    reserved count; then spot, up to its spot count; the rest on demand. A market left with no
    machine is dropped.

    >>> from scheduling.scenario import parse_scenario
    >>> s = parse_scenario({"vm_types": [{"name": "a", "capacity": {"cpu": 4}, "price_per_hour": 1,
    ...     "count": 6, "reserved": {"price_per_hour": 0.5, "count": 3}, "spot": {"price_per_hour": 0.3,
    ...     "count": 2}}], "resources": ["cpu"], "jobs": [{"id": "j", "arrival_s": 0, "executors": 1,
    ...     "executor": {"cpu": 1}, "duration_s": 1}]})
    >>> [cluster_scenario(s, [n]).vm_types[0].market_counts() for n in (2, 4, 9)]
    [{'reserved': 2, 'spot': 0, 'on_demand': 0}, {'reserved': 3, 'spot': 1, 'on_demand': 0}, \
{'reserved': 3, 'spot': 2, 'on_demand': 4}]
    """
    types = tuple(_with_count(t, int(n)) for t, n in zip(scenario.vm_types, counts, strict=True) if n > 0)
    return dataclasses.replace(scenario, vm_types=types)


def _with_count(t: VMType, n: int) -> VMType:
    reserved = t.reserved
    if reserved is not None:
        kept = min(reserved.count, n)
        reserved = dataclasses.replace(reserved, count=kept) if kept else None
    spot = t.spot
    if spot is not None and spot.count is not None:
        kept = min(spot.count, n - (reserved.count if reserved is not None else 0))
        spot = dataclasses.replace(spot, count=kept) if kept else None
    return dataclasses.replace(t, count=n, reserved=reserved, spot=spot)


def with_reserved(scenario: Scenario, reserved: Mapping[str, int], *, path: str = "reserved") -> Scenario:
    """``scenario`` with so many machines of some VM types reserved (``{vm type: count}``), each
    type at the reserved price its scenario gives it (version 4: ``vm_types[i].reserved``); 0
    reserves none. A candidate with fewer machines of the type reserves them all
    (:func:`cluster_scenario`). Every problem is reported with its path (``reserved.m9``).

    >>> from scheduling.scenario import parse_scenario
    >>> s = parse_scenario({"vm_types": [{"name": "a", "capacity": {"cpu": 4}, "price_per_hour": 1,
    ...     "count": 2, "reserved": {"price_per_hour": 0.6, "count": 1}}, {"name": "b", "capacity":
    ...     {"cpu": 4}, "price_per_hour": 1}], "resources": ["cpu"], "jobs": [{"id": "j",
    ...     "arrival_s": 0, "executors": 1, "executor": {"cpu": 1}, "duration_s": 1}]})
    >>> with_reserved(s, {"a": 5}).vm_types[0].reserved
    ReservedPrice(price_per_hour=0.6, count=5)
    >>> with_reserved(s, {"b": 1, "c": 2})
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: reserved.b: the VM type has no reserved price (the scenario's \
vm_types[1].reserved.price_per_hour)
    reserved.c: is not a VM type of the scenario (a, b)
    """
    if not reserved:
        return scenario
    names = [t.name for t in scenario.vm_types]
    errors: list[FieldError] = []
    for name, n in reserved.items():
        if name not in names:
            errors.append(
                FieldError(f"{path}.{name}", f"is not a VM type of the scenario ({', '.join(names)})")
            )
        elif scenario.vm_types[names.index(name)].reserved is None:
            errors.append(
                FieldError(
                    f"{path}.{name}",
                    "the VM type has no reserved price (the scenario's "
                    f"vm_types[{names.index(name)}].reserved.price_per_hour)",
                )
            )
        elif not isinstance(n, int) or isinstance(n, bool) or n < 0:
            errors.append(FieldError(f"{path}.{name}", "must be a whole number >= 0"))
    if errors:
        raise ScenarioError(errors)
    types = []
    for t in scenario.vm_types:
        if t.name in reserved and t.reserved is not None:
            n = int(reserved[t.name])
            t = dataclasses.replace(t, reserved=dataclasses.replace(t.reserved, count=n) if n else None)
        types.append(t)
    return dataclasses.replace(scenario, vm_types=tuple(types))


def cluster_document(scenario: Scenario, counts: Sequence[int]) -> dict[str, Any]:
    """The scenario document of one candidate (for a comparison run of that cluster)."""
    return cluster_scenario(scenario, counts).to_dict()


def fits(scenario: Scenario, counts: IntArray) -> NDArray[np.bool_]:
    """Per candidate (row of ``counts``): can every job start on the empty cluster?

    A job fits when the VM types its framework may use hold all its executors at once; a
    candidate where one does not can never run it, so it is infeasible (not an error). Fewer
    VMs hold fewer executors: a candidate that fails fails with every smaller one.
    """
    frameworks = scenario.framework_map()
    # (framework, executor shape) -> the most executors a job of that shape asks for
    shapes: dict[tuple[str, tuple[float, ...]], int] = {}
    for j in scenario.jobs:
        key = (j.framework, j.executor)
        shapes[key] = max(shapes.get(key, 0), j.executors)
    ok = np.ones(len(counts), dtype=bool)
    for (fw, executor), executors in shapes.items():
        allowed = frameworks[fw].allowed_vm_types
        per_vm = np.array(
            [
                executors_that_fit(t.capacity, executor) if allowed is None or t.name in allowed else 0
                for t in scenario.vm_types
            ],
            dtype=np.int64,
        )
        ok &= counts @ per_vm >= executors
    return ok


def counts_text(space: SearchSpace, counts: Sequence[int]) -> str:
    """A candidate in words: ``m1.large ×4, m2.xlarge ×2`` (``no VMs`` for the empty cluster).

    >>> counts_text(SearchSpace(("a", "b", "c"), (0, 0, 0), (3, 3, 3)), [4, 0, 2])
    'a ×4, c ×2'
    """
    words = [f"{t} ×{int(n)}" for t, n in zip(space.vm_types, counts, strict=True) if n > 0]
    return ", ".join(words) or "no VMs"
