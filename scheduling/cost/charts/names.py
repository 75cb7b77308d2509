"""The names a cost result document draws in its own colours: its frameworks and VM types."""

from __future__ import annotations

from collections.abc import Mapping

from ...charts import Result, colours
from ..document import job_column

__all__ = ["framework_colours", "framework_names", "vm_type_names"]


def framework_names(result: Result) -> list[str]:
    """The frameworks of a result (its jobs' and its fairness section's), sorted."""
    names = {str(f if f is not None else "default") for f in job_column(result, "framework")}
    fairness = result.get("fairness") or {}
    names.update(str(f) for f in (fairness.get("frameworks") or {}))
    return sorted(names)


def framework_colours(result: Result) -> dict[str, str]:
    """Colour of each framework of a result (the same in every figure and every run)."""
    return colours("framework", framework_names(result))


def vm_type_names(results: Mapping[str, Result]) -> list[str]:
    """VM type names in the scenario's order, united over the results."""
    names: dict[str, None] = {}
    for r in results.values():
        for vt in r.get("vm_types") or []:
            names[str(vt["name"])] = None
        for name in (r.get("cost_by_vm_type") or {}):
            names[str(name)] = None
        for name in ((r.get("timeline") or {}).get("active_vms") or {}):
            names[str(name)] = None
    return list(names)
