"""How the UDRF tables and charts read a document (paper 004): its sections, its policies in column
order and the names they are shown by.

Shared by :mod:`scheduling.udrf.tables`, :mod:`scheduling.udrf.offline_tables`,
:mod:`scheduling.udrf.online_tables`, the UDRF charts and the planner's UDRF run kind; the
readers never raise on a missing or malformed part, they read it as empty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..numbers import finite
from ..numbers import section as _section
from ..tables import amounts_text

__all__ = ["OFFLINE", "ONLINE", "POLICY_LABELS", "Doc", "policies_of", "policy_label"]

Doc = Mapping[str, Any]

#: The policies a UDRF study compares, in column order, with the names tables and charts show.
POLICY_LABELS: dict[str, str] = {"udrf": "UDRF", "drf": "DRF"}
OFFLINE = "udrf-offline"
ONLINE = "udrf-online"




def policies_of(doc: Doc) -> list[str]:
    """The policies of a document or summary, in :data:`POLICY_LABELS` order (then any other).

    >>> policies_of({"policies": {"drf": {}, "udrf": {}}})
    ['udrf', 'drf']
    """
    present = list(_section(doc, "policies"))
    return [p for p in POLICY_LABELS if p in present] + [p for p in present if p not in POLICY_LABELS]


def policy_label(policy: str) -> str:
    """``UDRF``, ``DRF``: the column a policy is shown in."""
    return POLICY_LABELS.get(policy, policy)


def per_policy_columns(
    lead: Sequence[Any], measures: Sequence[tuple[str, str, str]], policies: Sequence[str]
) -> tuple[Any, ...]:
    """``lead`` columns, then each measure ``(key, label, unit)`` once per policy, side by side:
    ``<key>:<policy>`` labelled ``<label> (<policy's label>)``."""
    from ..tables import Column

    cols = list(lead)
    for what, label, unit in measures:
        cols += [Column(f"{what}:{p}", f"{label} ({policy_label(p)})", unit) for p in policies]
    return tuple(cols)


def _amounts_text(per_class: Mapping[str, Any], resources: Sequence[str]) -> str:
    """A user's amounts per class summed per resource kind, with their units: ``cpu 28 cores, mem 36 GB``."""
    sums = {r: sum(finite(_section(per_class, c).get(r)) or 0.0 for c in per_class) for r in resources}
    return amounts_text(sums)
