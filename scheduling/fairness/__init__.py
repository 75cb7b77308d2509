"""The fairness engine (papers 000 and 001; notes §1-5): static allocation and online sharing.

* :mod:`~scheduling.fairness.model`: the arrays of a fairness problem built from a scenario.
"""

from .model import FairnessProblem, fairness_problem

__all__ = ["FairnessProblem", "fairness_problem"]
