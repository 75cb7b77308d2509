"""The scenario document's version, its default resources and its size limits.

>>> DEFAULT_RESOURCES, int(LIMITS["jobs"])
(('cpu', 'mem'), 200000)
"""

from __future__ import annotations

__all__ = ["DEFAULT_RESOURCES", "LIMITS", "SCENARIO_VERSION"]

SCENARIO_VERSION = 1

#: The resources of a document (or a workload, a cluster, a VM type) that names none.
#: The one copy for the whole code base: the planner imports it from here.
DEFAULT_RESOURCES: tuple[str, ...] = ("cpu", "mem")

#: Size limits. A document beyond them is rejected before any large allocation.
LIMITS: dict[str, float] = {
    "document_bytes": 64 * 1024 * 1024,  # raw JSON text
    "resources": 16,
    "vm_types": 1_000,
    "machines": 100_000,  # sum of the VM types' counts
    "frameworks": 1_000,
    "jobs": 200_000,
    "executors_per_job": 100_000,
    "name_chars": 100,
    "description_chars": 10_000,
    "capacity": 1e9,  # per resource per VM, in the resource's unit
    "price_per_hour": 1e6,
    "time_s": 1e9,  # arrivals, durations, deadlines (about 31 years)
    "weight": 1e6,
    "errors_reported": 200,  # and as many warnings
}
