"""The fairness engine (papers 000 and 001; notes §1-5): static allocation and online sharing.

* :mod:`~scheduling.fairness.model`: the arrays of a fairness problem built from a scenario;
* :mod:`~scheduling.fairness.criteria`: DRF, TSF, PS-DSF, rPS-DSF and the best-fit distance;
* :mod:`~scheduling.fairness.allocation_doc`: the allocation document every static method returns.
"""

from .allocation_doc import allocation_document
from .model import FairnessProblem, fairness_problem

__all__ = ["FairnessProblem", "allocation_document", "fairness_problem"]
