"""Paper 003's set-ups: its evaluation's schedulers, its workloads, and its Fig. 3 example.

Section 6 of paper 003 compares five schedulers on its 14-VM cluster (Table 3; the catalogue's
VM preset ``paper-003``, :data:`scheduling.presets.VM_PRESETS`): Spark's FIFO with round-robin
executors, FIFO consolidating, Morpheus, and the paper's EDF with best-fit decreasing or with the
exact placement. Its workloads are WordCount and Sort (CPU- and memory-bound), PageRank
(network-bound) and a random mix of the three, each in a light- and a high-load hour. Here:

* the authors' own light- and high-load workloads (RM-Simulator CSVs, 1,000 jobs each:
  ``data/``, Apache-2.0) stand for the WordCount and Sort workloads as they are;
* the **PageRank-like** workload is the same jobs, every one network-bound (notes §8) with the
  sensitivity :data:`PAGERANK_SENSITIVITY`, calibrated on Fig. 6 (below);
* the **mixed** workload gives each job one of the three applications at random (seeded), so
  about a third are PageRank-like;
* Fig. 7's deadline experiment mixes priority (deadline) and regular jobs: a seeded half of the
  jobs keep their deadlines (the paper gives no share).

**The calibration.** :data:`PAGERANK_SENSITIVITY` is the smallest sensitivity, on a grid of
0.01, at which both BFD and ILP (``edf-bfd``, ``edf-ilp``) shorten the mean completion time
(arrival to finish) of the PageRank-like light-load workload by at least 14 % against Spark's
round-robin (``fifo-spread``): the least of Fig. 6's "at least 14 %" for PageRank at light load.
Fig. 6's other figures (high load, the mixed workload) are not used for it: the reproduction
table checks them against the model (``scheduling/cost/reproduce.py``).
``benchmarks/calibrate_network.py`` repeats the search.

:func:`presets` gives the comparison's one-click set-ups: the five schedulers on the cluster and
workload the operator chooses, and the five on the PageRank-like and mixed light-load workloads.

>>> [p.key for p in presets()][0], presets()[0].params["schedulers"][0]
('003-evaluation', 'fifo-spread')
>>> doc = paper_workload("light", "pagerank")
>>> doc["frameworks"], len(doc["jobs"]), doc["jobs"][0]["framework"]
([{'name': 'pagerank', 'network_sensitivity': 0.39}], 1000, 'pagerank')
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, Literal

import numpy as np

from ..importers import import_rm_csv
from ..params import Preset
from .schedulers import SCHEDULERS

__all__ = [
    "APPLICATIONS",
    "LOADS",
    "PAGERANK_SENSITIVITY",
    "PAPER_SCHEDULERS",
    "WORKLOADS",
    "fig3_scenario",
    "paper_workload",
    "presets",
]

#: The schedulers of paper 003's evaluation, in its order (the named schedulers).
PAPER_SCHEDULERS: tuple[str, ...] = tuple(SCHEDULERS)

#: The network sensitivity of a PageRank-like job (notes §8), calibrated on Fig. 6 of paper 003
#: (the module docstring says how; ``benchmarks/calibrate_network.py`` repeats it). A job whose
#: every executor has a VM of its own runs 1.39 times its duration.
PAGERANK_SENSITIVITY = 0.39

#: The light- and the high-load hour (the authors' RM-Simulator workloads).
LOADS: tuple[str, ...] = ("light", "high")
Load = Literal["light", "high"]
#: Paper 003's applications (§6.1.2); only PageRank is network-bound.
APPLICATIONS: tuple[str, ...] = ("wordcount", "sort", "pagerank")
#: The workloads of Figs. 5-6: WordCount and Sort (the authors' jobs as they are), PageRank, mixed.
WORKLOADS: tuple[str, ...] = ("wordcount-sort", "pagerank", "mixed")
Workload = Literal["wordcount-sort", "pagerank", "mixed"]

_DATA = Path(__file__).resolve().parent / "data"
_CSV = {"light": "workload_jobs_low_load.csv", "high": "workload_jobs_high_load.csv"}


@functools.lru_cache(maxsize=2)
def _authors_workload(load: str) -> str:
    """The authors' workload of ``load`` as a scenario document's JSON text (cached: read once)."""
    if load not in _CSV:
        raise ValueError(f"unknown load {load!r} (loads: {', '.join(LOADS)})")
    text = (_DATA / _CSV[load]).read_text()
    return json.dumps(import_rm_csv(text, name=f"Paper 003 {load} load (RM-Simulator)"))


def paper_workload(
    load: Load | str,
    workload: Workload | str = "wordcount-sort",
    *,
    seed: int = 0,
    sensitivity: float = PAGERANK_SENSITIVITY,
    deadline_share: float = 1.0,
) -> dict[str, Any]:
    """A scenario document of paper 003's evaluation: the authors' ``load`` workload on the
    paper's 14-VM cluster, as the ``workload`` of Figs. 5-6.

    Parameters
    ----------
    load : {"light", "high"}
        The authors' light- or high-load workload (1,000 jobs, every one with a deadline).
    workload : {"wordcount-sort", "pagerank", "mixed"}
        ``wordcount-sort``: the jobs as they are (none network-bound); ``pagerank``: every job
        in the framework ``pagerank`` of network sensitivity ``sensitivity``; ``mixed``: each job
        in one of the frameworks ``wordcount``, ``sort``, ``pagerank``, drawn uniformly by ``seed``.
    seed : int
        The draws of the mixed workload and of ``deadline_share`` (ignored otherwise).
    sensitivity : float
        The network sensitivity of the PageRank-like jobs (default: the calibrated one).
    deadline_share : float
        The share of jobs that keep their deadline (Fig. 7's priority jobs), drawn by ``seed``
        after the applications; 1 keeps them all.

    Returns
    -------
    dict
        A scenario document (version 3 when a job is network-bound); ``parse_scenario`` it.

    Examples
    --------
    >>> mixed = paper_workload("high", "mixed", seed=3, deadline_share=0.5)
    >>> sorted({j["framework"] for j in mixed["jobs"]}), mixed["version"]
    (['pagerank', 'sort', 'wordcount'], 3)
    >>> 400 < sum("deadline_s" in j for j in mixed["jobs"]) < 600
    True
    """
    if workload not in WORKLOADS:
        raise ValueError(f"unknown workload {workload!r} (workloads: {', '.join(WORKLOADS)})")
    if not 0 <= deadline_share <= 1:
        raise ValueError("deadline_share must be between 0 and 1")
    doc: dict[str, Any] = json.loads(_authors_workload(load))
    jobs: list[dict[str, Any]] = doc["jobs"]
    rng = np.random.default_rng(seed)
    if workload == "pagerank":
        doc["frameworks"] = [{"name": "pagerank", "network_sensitivity": sensitivity}]
        for job in jobs:
            job["framework"] = "pagerank"
    elif workload == "mixed":  # §6.1.2: "randomly mixed the previously mentioned applications"
        doc["frameworks"] = [{"name": a} for a in APPLICATIONS[:-1]]
        doc["frameworks"].append({"name": "pagerank", "network_sensitivity": sensitivity})
        for job, k in zip(jobs, rng.integers(0, len(APPLICATIONS), len(jobs)).tolist(), strict=True):
            job["framework"] = APPLICATIONS[k]
    if deadline_share < 1:
        for job, keep in zip(jobs, (rng.random(len(jobs)) < deadline_share).tolist(), strict=True):
            if not keep:
                job.pop("deadline_s", None)
    if workload != "wordcount-sort" and sensitivity > 0:
        doc["version"] = 3
    name = {"wordcount-sort": "WordCount and Sort", "pagerank": "PageRank-like", "mixed": "mixed"}[workload]
    doc["name"] = f"Paper 003 {load} load, {name}" + (f" (seed {seed})" if workload == "mixed" else "")
    return doc


def fig3_scenario() -> dict[str, Any]:
    """Fig. 3 of paper 003 as a scenario document: two jobs on four VMs of 2, 4, 6 and 8 cores.

    Each VM costs its size per hour (the paper: "the cost of using each VM is equivalent to its
    size"); job-1 has two executors of one core, job-2 two of two cores; both arrive together
    and run an hour, so a run's cost is the summed price of the VMs it used. The VMs are listed
    largest first, the order a price-blind consolidation may pick them in (Fig. 3b's VM-4).

    >>> [t["name"] for t in fig3_scenario()["vm_types"]]
    ['VM-4', 'VM-3', 'VM-2', 'VM-1']
    """
    return {
        "version": 1,
        "name": "Paper 003, Fig. 3: two jobs on four VMs",
        "resources": ["cpu"],
        "vm_types": [{"name": f"VM-{k}", "capacity": {"cpu": 2 * k}, "price_per_hour": 2 * k, "count": 1}
                     for k in (4, 3, 2, 1)],
        "jobs": [
            {"id": "job-1", "arrival_s": 0, "executors": 2, "executor": {"cpu": 1}, "duration_s": 3600},
            {"id": "job-2", "arrival_s": 0, "executors": 2, "executor": {"cpu": 2}, "duration_s": 3600},
        ],
    }


def _network_presets() -> tuple[Preset, ...]:
    # Built on each call (a few milliseconds): a preset's document is the caller's to change.
    schedulers = {"schedulers": list(PAPER_SCHEDULERS), "baseline": "fifo-spread"}
    return (
        Preset(
            "003-pagerank-light",
            "Paper 003: PageRank-like jobs at light load (network-bound)",
            f"The authors' light-load workload with every job network-bound at the calibrated "
            f"sensitivity {PAGERANK_SENSITIVITY:g} (notes §8): a job whose executors span k VMs runs "
            f"1 + {PAGERANK_SENSITIVITY:g} (k − 1) / (executors − 1) times its duration. Calibrated so "
            "that BFD and ILP shorten the mean completion time by at least Fig. 6's 14 % against FIFO "
            "spread; the five schedulers of the evaluation on the paper's 14-VM cluster.",
            paper_workload("light", "pagerank"),
            dict(schedulers),
        ),
        Preset(
            "003-mixed-light",
            "Paper 003: the mixed workload at light load",
            f"The authors' light-load workload, each job WordCount, Sort or PageRank at random (seed 0); "
            f"the PageRank-like jobs network-bound at the calibrated sensitivity {PAGERANK_SENSITIVITY:g}. "
            "The five schedulers of the evaluation on the paper's 14-VM cluster.",
            paper_workload("light", "mixed", seed=0),
            dict(schedulers),
        ),
    )


def presets() -> list[Preset]:
    """The comparison's presets: paper 003's evaluation (savings against Spark's default) on the
    operator's scenario, then on the PageRank-like and the mixed light-load workloads."""
    return [
        Preset(
            "003-evaluation",
            "Paper 003: the five schedulers of its evaluation",
            "FIFO spread (Spark's default), FIFO consolidate, Morpheus, EDF with best-fit decreasing and "
            "EDF with the exact placement, savings against FIFO spread; on your cluster and workload "
            "(the paper's: the 14-VM cluster and the authors' light load of the demo data).",
            None,
            {"schedulers": list(PAPER_SCHEDULERS), "baseline": "fifo-spread"},
        ),
        *_network_presets(),
    ]
