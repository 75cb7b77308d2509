"""The fairness engine (papers 000 and 001; notes §1-5): static allocation and online sharing.

* :mod:`~scheduling.fairness.model`: the arrays of a fairness problem built from a scenario;
* :mod:`~scheduling.fairness.criteria`: DRF, TSF, PS-DSF, rPS-DSF and the best-fit distance;
* :mod:`~scheduling.fairness.filling`: progressive filling with whole tasks over heterogeneous servers;
* :mod:`~scheduling.fairness.allocation`: :func:`allocate`, the front door of every static policy;
* :mod:`~scheduling.fairness.allocation_doc`: the allocation document every static method returns;
* :mod:`~scheduling.fairness.sharing`: :func:`share`, online sharing (the Mesos offer cycle or
  characterized allocation), and its sharing document;
* :mod:`~scheduling.fairness.setups`: the papers' set-ups;
* :mod:`~scheduling.fairness.tables`, :mod:`~scheduling.fairness.charts`,
  :mod:`~scheduling.fairness.html` and :mod:`~scheduling.fairness.cli`: the tables, figures,
  standalone page and sub-commands of both studies.
"""

from .allocation import (
    ALLOCATION_VARIANTS,
    Allocation,
    AllocationVariant,
    allocate,
    parse_allocation_variant,
)
from .allocation_doc import allocation_document
from .model import FairnessProblem, fairness_problem
from .sharing import SHARING_MODES, SharingResult, share

__all__ = [
    "ALLOCATION_VARIANTS",
    "SHARING_MODES",
    "Allocation",
    "AllocationVariant",
    "FairnessProblem",
    "SharingResult",
    "allocate",
    "allocation_document",
    "fairness_problem",
    "parse_allocation_variant",
    "share",
]
