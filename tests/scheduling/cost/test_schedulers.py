"""The scheduler tables: every ordering and placement the engine has, and the named schedulers."""

from __future__ import annotations

from scheduling import ORDERINGS, PLACEMENTS, SCHEDULERS, parse_scheduler
from scheduling.cost.orderings import ORDERING_CLASSES
from scheduling.cost.placement import PLACEMENT_FUNCTIONS


def test_tables_come_from_the_registries() -> None:
    assert ORDERINGS == tuple(ORDERING_CLASSES) == ("fifo", "edf", "morpheus")
    assert PLACEMENTS == tuple(PLACEMENT_FUNCTIONS) == ("bfd", "ilp", "consolidate", "spread")


def test_named_schedulers_are_the_papers() -> None:
    # Paper 003, Section 6.1.3 and Algorithms 1-3: Spark's default (arrival order, round-robin),
    # its consolidation option, Morpheus (eq. 10, packed), and the two proposed schedulers.
    assert SCHEDULERS == {
        "fifo-spread": ("fifo", "spread"),
        "fifo-consolidate": ("fifo", "consolidate"),
        "morpheus": ("morpheus", "consolidate"),
        "edf-bfd": ("edf", "bfd"),
        "edf-ilp": ("edf", "ilp"),
    }
    for name, (ordering, placement) in SCHEDULERS.items():
        spec = parse_scheduler(name, resources=("cpu", "mem"))
        assert (spec.ordering, spec.placement) == (ordering, placement)
