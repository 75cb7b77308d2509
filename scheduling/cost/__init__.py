"""The cost engine (paper 003): simulate schedulers on a scenario and measure what they cost.

* :mod:`~scheduling.cost.simulator`: the discrete-event simulator, :func:`simulate` and
  :func:`compare`, with its job arrays (:mod:`~scheduling.cost.job_table`), the cluster's state
  (:mod:`~scheduling.cost.cluster`) and its timelines (:mod:`~scheduling.cost.timeline`);
* :mod:`~scheduling.cost.orderings` and :mod:`~scheduling.cost.placement`: job orderings and
  executor placements, named together by :mod:`~scheduling.cost.schedulers`;
* :mod:`~scheduling.cost.bounds`: the lower bound on any scheduler's cost;
* :mod:`~scheduling.cost.document`: the result document's readers (built by
  :mod:`~scheduling.cost.result_builder`); :mod:`~scheduling.cost.replay`: the cluster at any
  instant of a run, from its document.
"""

from .bounds import lower_bound_cost
from .schedulers import ORDERINGS, PLACEMENTS, SCHEDULERS, parse_scheduler
from .simulator import SimulationResult, compare, simulate

__all__ = [
    "ORDERINGS",
    "PLACEMENTS",
    "SCHEDULERS",
    "SimulationResult",
    "compare",
    "lower_bound_cost",
    "parse_scheduler",
    "simulate",
]
