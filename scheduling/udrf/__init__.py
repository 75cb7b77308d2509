"""UDRF (paper 004): users with multi-task jobs on machine classes, against DRF.

* :mod:`~scheduling.udrf.model`: the arrays of a UDRF problem built from a scenario (version 3:
  machine classes and users' complex jobs); :mod:`~scheduling.udrf.graph`: the user dependency
  graph and its RDUCs;
* :mod:`~scheduling.udrf.offline`: Fig. 3's rounds on each RDUC, a user's jobs in lockstep
  (notes §7), and :mod:`~scheduling.udrf.offline_doc`: :func:`offline_document`, UDRF against
  DRF on a scenario, with who gets less than under DRF;
* :mod:`~scheduling.udrf.online`: :func:`online_document`, the online algorithm (Fig. 5)
  simulated with per-second decisions and a waiting queue;
* :mod:`~scheduling.udrf.properties`: Pareto efficiency, envy-freeness, sharing incentive and
  strategy-proofness checked on an allocation;
* :mod:`~scheduling.udrf.synthetic`: seeded scenarios with the shape of the paper's trace;
* :mod:`~scheduling.udrf.params`: the study's parameters, declared once (the planner's fields
  and checks, the command line's flags, the online simulation's rule);
  :mod:`~scheduling.udrf.setups`: the paper's Fig. 1, the hand-worked cases and the start
  page's presets; :mod:`~scheduling.udrf.reproduce`: the paper's claims, measured;
* :mod:`~scheduling.udrf.tables`, :mod:`~scheduling.udrf.charts`, :mod:`~scheduling.udrf.html`
  and :mod:`~scheduling.udrf.cli`: the tables, figures, standalone page and sub-commands.
"""

from .model import UdrfProblem
from .offline_doc import offline_document
from .online import online_document
from .synthetic import synthetic_document, synthetic_scenario

__all__ = [
    "UdrfProblem",
    "offline_document",
    "online_document",
    "synthetic_document",
    "synthetic_scenario",
]
