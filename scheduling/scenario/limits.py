"""The scenario document's version, its default resources and its size limits.

>>> DEFAULT_RESOURCES, int(LIMITS["jobs"]), SCENARIO_VERSION, READABLE_VERSIONS
(('cpu', 'mem'), 1000000, 4, (1, 2, 3, 4))
"""

from __future__ import annotations

__all__ = ["DEFAULT_RESOURCES", "LIMITS", "OFFER_POLICIES", "READABLE_VERSIONS", "SCENARIO_VERSION"]

#: The newest version: version 2 adds the frameworks' task ``queues``, ``offer_policy``,
#: ``refuse_s`` and ``hold_s`` (the online sharing simulator, papers 000 §V and 001).
#: A document that uses none of them is still written as version 1.
#: Version 3 adds machine classes (``vm_types[].machine_class``) and the frameworks'
#: ``complex_jobs`` (paper 004's users with multi-task jobs), and the network sensitivity of
#: jobs and frameworks (``network_sensitivity``: paper 003's network-bound jobs, notes §8). A
#: document is written with the lowest version that has every field it uses.
#: Version 4 adds reserved and spot prices of VM types (``vm_types[].reserved``,
#: ``vm_types[].spot``; issue 18).
SCENARIO_VERSION = 4
#: The versions this program reads.
READABLE_VERSIONS = (1, 2, 3, 4)

#: How a framework answers a resource offer (paper 001; notes §4), version 2.
OFFER_POLICIES = ("first-fit", "bin-packing", "greedy", "hold")

#: The resources of a document (or a workload, a cluster, a VM type) that names none.
#: The one copy for the whole code base: the planner imports it from here.
DEFAULT_RESOURCES: tuple[str, ...] = ("cpu", "mem")

#: Size limits. A document beyond them is rejected before any large allocation.
LIMITS: dict[str, float] = {
    # Raw JSON text: a million jobs written with indentation fit with room to spare (a
    # generated job with a framework and a deadline is about 215 bytes as ``json.dumps(indent=2)``
    # writes it, 142 without indentation).
    "document_bytes": 256 * 1024 * 1024,
    "resources": 16,
    "vm_types": 1_000,
    "machines": 100_000,  # sum of the VM types' counts
    "frameworks": 1_000,
    "jobs": 1_000_000,
    "executors_per_job": 100_000,
    "name_chars": 100,
    "description_chars": 10_000,
    "capacity": 1e9,  # per resource per VM, in the resource's unit
    "price_per_hour": 1e6,
    "time_s": 1e9,  # arrivals, durations, deadlines (about 31 years)
    "weight": 1e6,
    "queues": 1_000,  # per framework
    "queue_tasks": 1_000_000,  # the tasks of every queue of the document together
    "complex_jobs": 200_000,  # every framework's together
    "tasks_per_complex_job": 1_000,
    "runs": 1_000_000,  # times one complex job must run
    "network_sensitivity": 100,  # sigma of notes §8: a job spread over every VM lasts at most 101x
    "interruptions_per_hour": 3_600,  # a spot VM reclaimed once a second on average, at most
    "interruptions": 1_000_000,  # spot VMs reclaimed in one run (beyond it the run stops)
    "errors_reported": 200,  # and as many warnings
}
