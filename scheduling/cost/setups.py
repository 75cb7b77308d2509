"""Paper 003's set-ups: the schedulers of its evaluation as a comparison's preset.

Section V of paper 003 compares five schedulers on its 14-VM cluster (Table 3; the catalogue's
VM preset ``paper-003``, :data:`scheduling.presets.VM_PRESETS`) with the authors' light- and
high-load workloads (``examples/paper003-light.json``, ``-high.json``; the planner's demo data):
Spark's FIFO with round-robin executors, FIFO consolidating, Morpheus, and the paper's EDF with
best-fit decreasing or with the exact placement. :func:`presets` gives that comparison as one
click of the comparison's start page, on the cluster and workload the operator chooses;
``benchmarks/paper_comparison.py`` reproduces its figures.

>>> [p.key for p in presets()], presets()[0].params["schedulers"][0]
(['003-evaluation'], 'fifo-spread')
"""

from __future__ import annotations

from ..params import Preset
from .schedulers import SCHEDULERS

__all__ = ["PAPER_SCHEDULERS", "presets"]

#: The schedulers of paper 003's evaluation, in its order (the named schedulers).
PAPER_SCHEDULERS: tuple[str, ...] = tuple(SCHEDULERS)


def presets() -> list[Preset]:
    """The comparison's presets: paper 003's evaluation, savings measured against Spark's default."""
    return [
        Preset(
            "003-evaluation",
            "Paper 003: the five schedulers of its evaluation",
            "FIFO spread (Spark's default), FIFO consolidate, Morpheus, EDF with best-fit decreasing and "
            "EDF with the exact placement, savings against FIFO spread; on your cluster and workload "
            "(the paper's: the 14-VM cluster and the authors' light load of the demo data).",
            None,
            {"schedulers": list(PAPER_SCHEDULERS), "baseline": "fifo-spread"},
        )
    ]
