"""The sweep's presets: the paper's three VM types and the shipped 1,000-job workload.

Each preset is the authors' light-load workload on paper 003's 14-VM cluster (Table 3: six
m1.large, five m1.xlarge, three m2.xlarge; :data:`scheduling.presets.VM_PRESETS` ``paper-003``)
with the axes of one question:

* ``sweep-003-counts``: how many VMs of each type (the cluster's size and mix) against what
  FIFO and the paper's EDF + BFD cost and miss;
* ``sweep-003-spot-load``: a spot discount on the small type and a heavier load, three seeds
  (a band over them);
* ``sweep-003-sample``: the benchmark's set-up: 20 settings of the counts' grid drawn at random
  (seed 0), each run by the evaluation's five schedulers: 100 points.

>>> [p.key for p in presets()]
['sweep-003-counts', 'sweep-003-spot-load', 'sweep-003-sample']
>>> presets()[2].params["sample"] * len(presets()[2].params["schedulers"])
100
"""

from __future__ import annotations

from ..cost.setups import PAPER_SCHEDULERS, paper_workload
from ..params import Preset

__all__ = ["COUNTS_GRID", "presets"]

#: Counts around the paper's cluster (6, 5, 3), to about twice it; every cluster of the grid
#: holds the widest job of the workload (fewer larger VMs leave some of its jobs nowhere to run).
COUNTS_GRID: dict[str, list[int]] = {
    "counts.m1.large": [2, 4, 6, 8, 10, 12],
    "counts.m1.xlarge": [3, 5, 7, 9],
    "counts.m2.xlarge": [2, 3, 4, 5, 6],
}


def presets() -> list[Preset]:
    """The sweep's presets (the workload document is built on each call: it is the caller's)."""
    return [
        Preset(
            "sweep-003-counts",
            "Paper 003's cluster: how many VMs of each type",
            "The authors' 1,000-job light load on the paper's three VM types: 2 to 10 m1.large, 3 to 7 "
            "m1.xlarge and 2 or 4 m2.xlarge (18 clusters), under FIFO consolidate and EDF + BFD: 36 points.",
            paper_workload("light"),
            {"vary": {"counts.m1.large": [2, 6, 10], "counts.m1.xlarge": [3, 5, 7],
                      "counts.m2.xlarge": [2, 4]},
             "schedulers": ["fifo-consolidate", "edf-bfd"], "seeds": 1},
        ),
        Preset(
            "sweep-003-spot-load",
            "Paper 003's cluster: a spot discount and more load",
            "The authors' light load on the paper's 14 VMs, m1.large at 40 %, 70 % and 100 % of its price, "
            "1, 1.5 and 2 times the jobs (copies drawn per seed), 3 seeds, under Morpheus and EDF + BFD: "
            "54 points.",
            paper_workload("light"),
            {"vary": {"prices.m1.large": [0.4, 0.7, 1.0], "load.jobs": [1.0, 1.5, 2.0]},
             "schedulers": ["morpheus", "edf-bfd"], "seeds": 3},
        ),
        Preset(
            "sweep-003-sample",
            "Paper 003's five schedulers on 20 random clusters",
            "20 clusters drawn at random (seed 0) from 2-12 m1.large, 3-9 m1.xlarge and 2-6 m2.xlarge, each "
            "run by the evaluation's five schedulers on the authors' light load: 100 points.",
            paper_workload("light"),
            {"vary": {k: list(v) for k, v in COUNTS_GRID.items()}, "schedulers": list(PAPER_SCHEDULERS),
             "seeds": 1, "sample": 20, "seed": 0},
        ),
    ]
