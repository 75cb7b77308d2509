"""Reading a cost run's result document: per-job and per-VM detail, in either layout.

A result document (``SimulationResult.to_dict()``, see docs/results.md) keeps its per-job
records and VM on-intervals *columnar* (format 2): one list per field, and each job's
placement as flat ``[machine, executors, machine, executors, ...]`` pairs of indices into
``machines``. What follows from other fields is not stored but derived here, exactly as the
simulator computes it: a job's ``wait_s`` and ``completion_s``, an interval's ``vm``,
``vm_type`` and ``cost`` (:func:`vm_interval_cost`). A 10,000-job document is then about half
the size of one dict per job. Documents stored before format 2 hold a list of dicts instead;
everything that reads per-job or per-interval detail goes through the functions here, which
accept both.

>>> doc = {"format": 2, "resources": ["cpu"],
...        "vm_types": [{"name": "small", "count": 2, "capacity": {"cpu": 4}, "price_per_hour": 1.0}],
...        "machines": {"name": ["small#1", "small#2"], "vm_type": [0, 0]},
...        "jobs": {"id": ["a"], "framework": ["default"], "arrival_s": [0.0], "placed_s": [5.0],
...                 "start_s": [5.0], "finish_s": [65.0], "executors": [3], "executor": {"cpu": [1.0]},
...                 "deadline_s": [None], "met_deadline": [None], "cost": [0.01],
...                 "placement": [[0, 2, 1, 1]]},
...        "vm_intervals": {"machine": [0], "on_s": [5.0], "off_s": [65.0], "billed_s": [60.0]}}
>>> job_count(doc), job_column(doc, "wait_s"), job_column(doc, "placement")
(1, [5.0], [{'small#1': 2, 'small#2': 1}])
>>> interval = next(iter_vm_intervals(doc))
>>> interval["vm_type"], round(interval["cost"], 6)  # 60 s at $1.00 an hour
('small', 0.016667)
>>> old = {**doc, "format": None, "jobs": list(iter_jobs(doc)), "vm_intervals": list(iter_vm_intervals(doc))}
>>> del old["format"], old["machines"]
>>> to_columnar(old) == doc
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from .billing import horizon_cost, vm_interval_cost

__all__ = [
    "DERIVED_JOB_FIELDS",
    "DERIVED_VM_INTERVAL_FIELDS",
    "DETAIL_SECTIONS",
    "FORMAT",
    "JOB_FIELDS",
    "NETWORK_JOB_FIELDS",
    "VM_INTERVAL_FIELDS",
    "has_network_fields",
    "horizon_cost",
    "is_columnar",
    "iter_jobs",
    "iter_vm_intervals",
    "job_column",
    "job_count",
    "job_placed",
    "jobs_at",
    "machine_markets",
    "machine_names",
    "machine_prices",
    "to_columnar",
    "vm_interval_column",
    "vm_interval_cost",
    "vm_interval_count",
]

#: The sections of a result document that grow with the run (per job, per machine, per
#: on-interval, per timeline row, per placement decision): nearly all of a big run's document.
#: What reads a few figures of a stored document leaves them out (the planner's reports).
DETAIL_SECTIONS = ("jobs", "machines", "scheduling_delay", "timeline", "vm_intervals")

#: The layout of the current result documents (the ``format`` key).
FORMAT = 2

#: Stored per-job columns (``executor`` is a mapping resource -> column).
JOB_FIELDS = (
    "id", "framework", "arrival_s", "placed_s", "start_s", "finish_s", "executors", "executor",
    "deadline_s", "met_deadline", "cost", "placement",
)
#: Per-job columns stored only when some job is network-bound (notes §8), with what a document
#: without them means: the job's network sensitivity (0) and its stretch, how much longer than
#: its ``duration_s`` it ran because its executors spanned several VMs (1).
NETWORK_JOB_FIELDS: dict[str, float] = {"network_sensitivity": 0.0, "stretch": 1.0}
#: Columns derived on read: ``wait_s = start_s - arrival_s``, ``completion_s = finish_s - arrival_s``.
DERIVED_JOB_FIELDS = ("wait_s", "completion_s")
#: Stored per-interval columns (``machine`` indexes ``machines``).
VM_INTERVAL_FIELDS = ("machine", "on_s", "off_s", "billed_s")
#: Per-interval fields derived on read: the machine's name and type, and ``cost``
#: (:func:`vm_interval_cost` of ``billed_s`` at the machine's marginal price, :func:`machine_prices`).
DERIVED_VM_INTERVAL_FIELDS = ("vm", "vm_type", "cost")
#: The market of a machine a document without a ``machines.market`` column names (its scenario
#: had on-demand prices only).
ON_DEMAND = "on_demand"

Result = Mapping[str, Any]


def is_columnar(doc: Result) -> bool:
    """Whether ``doc`` keeps its detail in columns (format 2 and later)."""
    return isinstance(doc.get("jobs"), Mapping)


def _count(vm_type: Mapping[str, Any]) -> int:
    return int(vm_type.get("count") or 0)


def machine_names(doc: Result) -> list[str]:
    """Every machine of the scenario, ``<vm type>#<k>`` in the scenario's order."""
    machines = doc.get("machines")
    if isinstance(machines, Mapping):
        return list(machines.get("name") or [])
    return [f"{vt['name']}#{k}" for vt in doc.get("vm_types") or [] for k in range(1, _count(vt) + 1)]


def machine_markets(doc: Result) -> list[str]:
    """Each machine's market (``reserved``, ``spot``, ``on_demand``): the ``machines.market``
    column, or every machine on demand when the document has none."""
    machines = doc.get("machines")
    if isinstance(machines, Mapping) and "market" in machines:
        return [str(m) for m in machines["market"]]
    return [ON_DEMAND] * len(machine_names(doc))


def _market_price(vm_type: Mapping[str, Any], market: str) -> float:
    """A machine's marginal price: 0 reserved (billed for the horizon apart), else its market's."""
    if market == "reserved":
        return 0.0
    if market == "spot" and isinstance(vm_type.get("spot"), Mapping):
        return float(vm_type["spot"]["price_per_hour"])
    return float(vm_type["price_per_hour"])


def machine_prices(doc: Result) -> list[float]:
    """Each machine's marginal hourly price: what an hour on costs beyond a reservation (a
    reserved VM's 0, a spot VM's spot price, else the on-demand price)."""
    vm_types = list(doc.get("vm_types") or [])
    machines = doc.get("machines")
    if isinstance(machines, Mapping):
        markets = machine_markets(doc)
        types = machines.get("vm_type") or []
        return [_market_price(vm_types[i], m) for i, m in zip(types, markets, strict=True)]
    return [float(vt["price_per_hour"]) for vt in vm_types for _ in range(_count(vt))]


def _machine_types(doc: Result) -> list[str]:
    types = [str(vt["name"]) for vt in doc.get("vm_types") or []]
    machines = doc.get("machines")
    if isinstance(machines, Mapping):
        return [types[i] for i in machines.get("vm_type") or []]
    return [str(vt["name"]) for vt in doc.get("vm_types") or [] for _ in range(_count(vt))]


# --------------------------------------------------------------------------- jobs


def job_count(doc: Result) -> int:
    jobs = doc.get("jobs")
    if isinstance(jobs, Mapping):
        return len(jobs.get("id") or [])
    return len(jobs or [])


def _placement_dict(pairs: Sequence[int], names: Sequence[str]) -> dict[str, int]:
    return {names[pairs[k]]: int(pairs[k + 1]) for k in range(0, len(pairs), 2)}


def job_column(doc: Result, key: str) -> list[Any]:
    """One per-job field for every job, in the scenario's order.

    ``key`` is a stored field (:data:`JOB_FIELDS`; ``placement`` comes back as
    ``{machine name: executors}`` per job, ``executor`` as ``{resource: demand}``), a
    derived one (``wait_s``, ``completion_s``) or a network field (:data:`NETWORK_JOB_FIELDS`:
    ``network_sensitivity``, ``stretch``; their defaults when the document has none).
    """
    jobs = doc.get("jobs")
    if not isinstance(jobs, Mapping):
        if key in NETWORK_JOB_FIELDS:
            return [j.get(key, NETWORK_JOB_FIELDS[key]) for j in jobs or []]
        return [j.get(key) for j in jobs or []]
    if key in NETWORK_JOB_FIELDS and key not in jobs:
        return [NETWORK_JOB_FIELDS[key]] * job_count(doc)
    if key == "wait_s":
        return [s - a for s, a in zip(jobs["start_s"], jobs["arrival_s"], strict=True)]
    if key == "completion_s":
        return [f - a for f, a in zip(jobs["finish_s"], jobs["arrival_s"], strict=True)]
    if key == "placement":
        names = machine_names(doc)
        return [_placement_dict(p, names) for p in jobs["placement"]]
    if key == "executor":
        resources = list(jobs["executor"])
        columns = [jobs["executor"][r] for r in resources]
        return [dict(zip(resources, values, strict=True)) for values in zip(*columns, strict=True)]
    return list(jobs[key])


def has_network_fields(doc: Result) -> bool:
    """Whether the document records each job's stretch (some job was network-bound, notes §8)."""
    jobs = doc.get("jobs")
    if isinstance(jobs, Mapping):
        return "stretch" in jobs
    return any(isinstance(j, Mapping) and "stretch" in j for j in jobs or [])


def iter_jobs(doc: Result, start: int = 0, stop: int | None = None) -> Iterator[dict[str, Any]]:
    """Jobs ``start:stop`` as one dict each (the fields of docs/results.md, derived ones included;
    ``network_sensitivity`` and ``stretch`` when the document has them)."""
    jobs = doc.get("jobs")
    if not isinstance(jobs, Mapping):
        yield from (dict(j) for j in list(jobs or [])[start:stop])
        return
    n = job_count(doc)
    yield from jobs_at(doc, range(max(0, start), n if stop is None else min(stop, n)))


def job_placed(doc: Result) -> list[bool]:
    """Per job: whether it has a placement (it started somewhere), without building any job."""
    jobs = doc.get("jobs")
    if not isinstance(jobs, Mapping):
        return [bool(j.get("placement")) for j in jobs or []]
    return [len(pairs) > 0 for pairs in jobs["placement"]]


def jobs_at(doc: Result, indices: Iterable[int]) -> Iterator[dict[str, Any]]:
    """The jobs at ``indices`` (in that order), each as :func:`iter_jobs` gives it."""
    jobs = doc.get("jobs")
    if not isinstance(jobs, Mapping):
        listed = list(jobs or [])
        yield from (dict(listed[i]) for i in indices)
        return
    names = machine_names(doc)
    resources = list(jobs["executor"])
    network = [key for key in NETWORK_JOB_FIELDS if key in jobs]
    for i in indices:
        arrival = jobs["arrival_s"][i]
        job: dict[str, Any] = {
            "id": jobs["id"][i],
            "framework": jobs["framework"][i],
            "arrival_s": arrival,
            "placed_s": jobs["placed_s"][i],
            "start_s": jobs["start_s"][i],
            "finish_s": jobs["finish_s"][i],
            "wait_s": jobs["start_s"][i] - arrival,
            "completion_s": jobs["finish_s"][i] - arrival,
            "executors": jobs["executors"][i],
            "executor": {r: jobs["executor"][r][i] for r in resources},
            "deadline_s": jobs["deadline_s"][i],
            "met_deadline": jobs["met_deadline"][i],
            "placement": _placement_dict(jobs["placement"][i], names),
            "cost": jobs["cost"][i],
        }
        for key in network:
            job[key] = jobs[key][i]
        yield job


# --------------------------------------------------------------------------- VM intervals


def vm_interval_count(doc: Result) -> int:
    intervals = doc.get("vm_intervals")
    if isinstance(intervals, Mapping):
        return len(intervals.get("on_s") or [])
    return len(intervals or [])


def vm_interval_column(doc: Result, key: str) -> list[Any]:
    """One field of every VM on-interval: ``vm`` (name), ``vm_type`` (name), ``cost``,
    ``interrupted`` (ended by a spot interruption; ``False`` when the document does not say) or a
    stored field (:data:`VM_INTERVAL_FIELDS`)."""
    intervals = doc.get("vm_intervals")
    if not isinstance(intervals, Mapping):
        return [iv.get(key) for iv in intervals or []]
    if key == "vm":
        names = machine_names(doc)
        return [names[m] for m in intervals["machine"]]
    if key == "vm_type":
        types = _machine_types(doc)
        return [types[m] for m in intervals["machine"]]
    if key == "interrupted" and key not in intervals:  # no spot VM could be reclaimed
        return [False] * vm_interval_count(doc)
    if key == "cost" and "cost" not in intervals:
        prices = machine_prices(doc)
        pairs = zip(intervals["machine"], intervals["billed_s"], strict=True)
        return [vm_interval_cost(billed, prices[m]) for m, billed in pairs]
    return list(intervals[key])


def iter_vm_intervals(doc: Result) -> Iterator[dict[str, Any]]:
    """Each VM on-interval as ``{"vm", "vm_type", "on_s", "off_s", "billed_s", "cost"}``."""
    intervals = doc.get("vm_intervals")
    if not isinstance(intervals, Mapping):
        yield from (dict(iv) for iv in intervals or [])
        return
    names, types = machine_names(doc), _machine_types(doc)
    costs = vm_interval_column(doc, "cost")
    for k, m in enumerate(intervals["machine"]):
        yield {
            "vm": names[m],
            "vm_type": types[m],
            "on_s": intervals["on_s"][k],
            "off_s": intervals["off_s"][k],
            "billed_s": intervals["billed_s"][k],
            "cost": costs[k],
        }


# --------------------------------------------------------------------------- upgrade


def to_columnar(doc: Result) -> dict[str, Any]:
    """A document of an older layout (a dict per job and per interval) in the current one.

    Derived fields are dropped (an interval's ``cost`` is :func:`vm_interval_cost` of its billed
    time, as the older simulator computed it too). Every other key is kept as it is; a document
    already columnar comes back unchanged (as a new dict).
    """
    out = dict(doc)
    if is_columnar(doc):
        return out
    names = machine_names(doc)
    type_index = {str(vt["name"]): k for k, vt in enumerate(doc.get("vm_types") or [])}
    index = {name: k for k, name in enumerate(names)}
    out["format"] = FORMAT
    out["machines"] = {"name": names, "vm_type": [type_index[t] for t in _machine_types(doc)]}
    records = list(doc.get("jobs") or [])
    resources = list(doc.get("resources") or [])
    jobs: dict[str, Any] = {
        key: [j.get(key) for j in records] for key in JOB_FIELDS if key not in ("executor", "placement")
    }
    jobs["executor"] = {r: [(j.get("executor") or {}).get(r) for j in records] for r in resources}
    # Pairs sorted by machine, as the simulator writes them, whatever order the names come in
    # (PostgreSQL's jsonb keeps an object's keys in its own order).
    jobs["placement"] = [
        [v for pair in sorted((index[name], int(k)) for name, k in (j.get("placement") or {}).items())
         for v in pair]
        for j in records
    ]
    out["jobs"] = {key: jobs[key] for key in JOB_FIELDS}
    if any("stretch" in j for j in records):
        out["jobs"].update({key: [j.get(key, default) for j in records]
                            for key, default in NETWORK_JOB_FIELDS.items()})
    intervals = list(doc.get("vm_intervals") or [])
    out["vm_intervals"] = {
        "machine": [index[iv["vm"]] for iv in intervals],
        **{key: [iv.get(key) for iv in intervals] for key in VM_INTERVAL_FIELDS[1:]},
    }
    return out
