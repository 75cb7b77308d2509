"""The cheapest cluster (issue 18): the cheapest VM counts, in given ranges, that meet a target.

A target is at most x % of deadlines missed (and optionally a mean or 95th-percentile completion
time); the cost of a cluster is what one scheduler's simulation of the workload on it pays for
the VMs it turns on. The search simulates candidates in increasing order of a lower bound on
their cost and stops when the next bound reaches the cheapest cost met; a target of no missed
deadline also prunes every cluster too small for the work due in some window. The answer comes
with its certificate: N of M candidates simulated, the rest pruned by bound, by demand window
or because a job does not fit.

* :mod:`.space`: the candidates (a range of counts per VM type) and the scenario of one;
* :mod:`.windows`: the demand-window test; :mod:`.candidate_bounds`: the per-candidate bound;
* :mod:`.search`: the search's state (batches for parallel workers, parts); :mod:`.answer`: the
  front door :func:`cheapest` and the answer document joined from the parts;
* :mod:`.params` (declared parameters), :mod:`.tables`, :mod:`.charts`, :mod:`.html`,
  :mod:`.cli` (``python -m scheduling cheapest``).
"""

from .answer import CheapestResult, cheapest, join_parts
from .params import CHEAPEST_PARAMS, cheapest_run
from .search import CheapestSearch, Target, search_part
from .space import SearchSpace, cluster_document, search_space

__all__ = [
    "CHEAPEST_PARAMS",
    "CheapestResult",
    "CheapestSearch",
    "SearchSpace",
    "Target",
    "cheapest",
    "cheapest_run",
    "cluster_document",
    "join_parts",
    "search_part",
    "search_space",
]
