"""What the allocation and the sharing tables share (papers 000 and 001): reading a
fairness document or summary (its study, frameworks, resources and sections) and the
readers and texts of comparison-table metrics.

:mod:`scheduling.fairness.allocation_tables` and :mod:`scheduling.fairness.sharing_tables`
build on it; :mod:`scheduling.fairness.tables` is the front door.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..numbers import finite
from ..tables import Headline, show

__all__ = [
    "FRAMEWORK_ROWS_COMPACT", "NO_WINDOW", "UNFAIRNESS_DEFINITION", "Doc", "framework_names", "paper_window",
    "resource_names", "study_of",
]

Doc = Mapping[str, Any]

#: ``fairness.definition`` of a sharing document whose unfairness is paper 001 §II's (notes §5);
#: older documents, without it, hold the pending-work reading there.
UNFAIRNESS_DEFINITION = "paper-001-ii"
#: How tables and figures say that a configuration has no contention window (paper 001 §II): its
#: unfairness is undefined, never 0.
NO_WINDOW = "no contention window"

#: With at most this many frameworks, the per-framework rows are in the compact table (the
#: page's); with more, in the files' full table only (``detail``).
FRAMEWORK_ROWS_COMPACT = 6


def study_of(doc: Doc) -> str:
    """``"allocation"`` or ``"sharing"``: the document's (or summary's) ``study``.

    >>> study_of({"study": "sharing"})
    'sharing'
    """
    study = doc.get("study")
    if study not in ("allocation", "sharing"):
        raise ValueError(f"not a fairness document: study is {study!r} (expected 'allocation' or 'sharing')")
    return str(study)


def paper_window(doc: Doc) -> bool:
    """Whether a sharing document's (or summary's) unfairness is paper 001 §II's.

    >>> paper_window({"fairness": {"definition": "paper-001-ii", "window": None}}), paper_window({})
    (True, False)
    """
    fairness = doc.get("fairness")
    return isinstance(fairness, Mapping) and fairness.get("definition") == UNFAIRNESS_DEFINITION


def no_window(doc: Doc) -> bool:
    """Whether a sharing document (or summary) of paper 001 §II's unfairness has no contention window."""
    fairness = doc.get("fairness")
    return paper_window(doc) and isinstance(fairness, Mapping) and not fairness.get("window")


def framework_names(doc: Doc) -> list[str]:
    """The frameworks of a document or summary, in its order.

    >>> framework_names({"frameworks": [{"name": "a"}, {"name": "b"}]})
    ['a', 'b']
    >>> framework_names({"frameworks": ["c"]})
    ['c']
    """
    out: list[str] = []
    for f in doc.get("frameworks") or []:
        name = f.get("name") if isinstance(f, Mapping) else f
        if name is not None and str(name) not in out:
            out.append(str(name))
    return out


def resource_names(doc: Doc) -> list[str]:
    """The resources of a document or summary, in its order."""
    return [str(r) for r in doc.get("resources") or []]


def _union(lists: Iterable[Iterable[str]]) -> list[str]:
    return list(dict.fromkeys(name for names in lists for name in names))



def _worst(values: Mapping[str, float | None], pick: Callable[..., float]) -> tuple[float | None, str | None]:
    """The extreme value and its name (the first name on a tie), ignoring ``None``."""
    numbers = [(v, k) for k, v in values.items() if v is not None]
    if not numbers:
        return None, None
    target = pick(v for v, _ in numbers)
    return target, next(k for v, k in numbers if v == target)


def _path(*steps: str) -> Callable[[Headline, Headline | None], float | None]:
    key = "/".join(steps)
    return lambda h, _base: finite(h.get(key))


def _reads(*paths: tuple[str, ...]) -> dict[str, Any]:
    """``reads`` and ``paths`` of a metric reading nested values: keys are the joined paths."""
    keys = tuple("/".join(p) for p in paths)
    return {"reads": keys, "paths": {k: p for k, p in zip(keys, paths, strict=True) if len(p) > 1}}


def _pct_of(*steps: str) -> Callable[[Headline, Headline | None], float | None]:
    get = _path(*steps)

    def value(h: Headline, base: Headline | None) -> float | None:
        v = get(h, base)
        return None if v is None else v * 100.0

    return value


def _with_name(unit: str, name_key: str) -> Callable[[float | None, Headline, str], str]:
    """``38.0% (scylla)``: the value and the framework it belongs to (none for a zero)."""

    def text(value: float | None, h: Headline, currency: str) -> str:
        shown = show(value, unit, currency)
        name = h.get(name_key)
        return f"{shown} ({name})" if value and name is not None else shown

    return text
