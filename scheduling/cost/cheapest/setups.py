"""The cheapest-cluster search's presets: paper 003's light load on its three VM types.

>>> [p.key for p in presets()]
['cheapest-003-none-missed', 'cheapest-003-one-pct']
>>> presets()[0].params["counts"]
{'m1.large': [0, 6], 'm1.xlarge': [0, 6], 'm2.xlarge': [0, 6]}
"""

from __future__ import annotations

from ...params import Preset
from ..setups import paper_workload

__all__ = ["PAPER_COUNTS", "presets"]

#: The search space of the presets: 0 to 6 VMs of each of the paper's three types (343 clusters).
PAPER_COUNTS = {"m1.large": [0, 6], "m1.xlarge": [0, 6], "m2.xlarge": [0, 6]}


def presets() -> list[Preset]:
    """The start page's one-click set-ups (the scenario is the authors' light load on paper 003's
    14-VM cluster: the search varies its counts)."""
    return [
        Preset(
            "cheapest-003-none-missed",
            "Paper 003's light load: the cheapest cluster that misses no deadline",
            "The authors' 1,000-job light load, 0 to 6 of each of the paper's three VM types (343 clusters), "
            "EDF + BFD, no deadline missed.",
            paper_workload("light"),
            {"scheduler": "edf-bfd", "counts": PAPER_COUNTS, "max_miss_pct": 0.0},
        ),
        Preset(
            "cheapest-003-one-pct",
            "Paper 003's light load: the cheapest cluster with the exact placement, 1 % missed",
            "The same space with EDF + the exact placement (ILP), at most 1 % of the deadlines missed.",
            paper_workload("light"),
            {"scheduler": "edf-ilp", "counts": PAPER_COUNTS, "max_miss_pct": 1.0},
        ),
    ]
