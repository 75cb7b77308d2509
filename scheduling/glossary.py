"""The planner's words, defined once: a one-line meaning in an operator's language, the paper
it comes from and where in the planner it appears.

The planner's glossary page and the command line's ``--help`` are rendered from
:data:`TERMS`; the pages link every use of a term to its entry (the ``spellings`` are how the
pages write it). Shared code: it names the papers but imports none of them.

>>> entry = term("drf")
>>> entry.term, entry.paper.startswith("paper 000")
('DRF (dominant resource fairness)', True)
>>> print(help_text(["drf"]))  # doctest: +ELLIPSIS
Terms: DRF (dominant resource fairness): every framework gets the same dominant share, ...
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["TERMS", "Term", "command_terms", "help_text", "term", "terms_in"]


@dataclass(frozen=True)
class Term:
    """One entry of the glossary."""

    key: str  #: its anchor on the glossary page (``/glossary/#<key>``)
    term: str  #: the term as the pages write it
    meaning: str  #: one line, in an operator's words
    paper: str  #: the paper (and section) it comes from
    where: str  #: where in the planner it appears
    #: every way the pages write it (case-sensitive, whole words), besides ``term``
    spellings: tuple[str, ...] = ()
    #: the ``python -m scheduling`` sub-commands whose ``--help`` explains it
    commands: tuple[str, ...] = ()

    @property
    def written(self) -> tuple[str, ...]:
        return (self.term, *self.spellings)


_P000 = "paper 000 (Kesidis et al., fairness on heterogeneous servers)"
_P001 = "paper 001 (Saha et al., fairness in Apache Mesos)"
_P002 = "paper 002 (Gutierrez-Estevez and Luo, multi-resource schedulable unit)"
_P003 = "paper 003 (Islam et al., cost-efficient Spark scheduling on cloud VMs)"
_P004 = "paper 004 (Tahir et al., UDRF for complex jobs)"

#: Every term, in the order the glossary page lists them.
TERMS: tuple[Term, ...] = (
    Term("drf", "DRF (dominant resource fairness)",
         "every framework gets the same dominant share, the share of the cluster's resource it uses "
         "most of; as far as whole tasks allow.",
         _P000,
         'allocation and sharing studies (policy "drf"), python -m scheduling allocate --policy drf',
         ("DRF",), ("allocate", "share", "udrf")),
    Term("tsf", "TSF (task share fairness)",
         "every framework gets the same share of the tasks it could run if it had the cluster to itself.",
         _P000,
         'allocation study (policy "tsf"), python -m scheduling allocate --policy tsf',
         ("TSF",), ("allocate",)),
    Term("ps-dsf", "PS-DSF (per-server dominant share fairness)",
         "dominant shares measured server by server, so a framework is not charged for resources of a "
         "server it cannot use; rPS-DSF is its variant that reads the servers' remaining capacity.",
         _P000,
         'allocation study (policies "psdsf", "rpsdsf"), python -m scheduling allocate --policy psdsf',
         ("PS-DSF", "rPS-DSF"), ("allocate",)),
    Term("dominant-share", "dominant share",
         "a framework's largest share of any one resource of the cluster (8 of 100 cores and 30 of 100 "
         "GB: 30 %).",
         f"{_P000}; {_P001}",
         "allocation and sharing studies (share timelines, per-framework tables), the comparison's "
         "fairness chart",
         ("Dominant share", "dominant shares", "Dominant shares"),
         ("allocate", "share", "udrf", "simulate")),
    Term("unfairness-area", "unfairness area",
         "how far a framework's dominant share stays below its fair share, summed over the time both "
         "frameworks want more (share x seconds); 0 is perfectly fair.",
         f"{_P001}, §II",
         "sharing study and the comparison's fairness chart (the shaded area), python -m scheduling share",
         ("Unfairness area",), ("share", "simulate")),
    Term("rduc", "RDUC",
         "a group of users linked through the machine-class resources their jobs both need (a connected "
         "part of the user dependency graph); UDRF shares each group on its own.",
         f"{_P004}, Definitions 1-2",
         "UDRF study (the dependency graph, RDUC tables), python -m scheduling udrf",
         ("RDUCs",), ("udrf",)),
    Term("mrsu", "MRSU (multi-resource schedulable unit)",
         "the smallest bundle of resources (e.g. 0.5 core and 2 GB) that allocations are counted in, "
         "composed by GCD or MIN from the applications' requirements.",
         f"{_P002}, eqs. 6-7",
         "MRSU sizing (the MRSU tuple, units available, advisor), python -m scheduling mrsu",
         ("MRSU",), ("mrsu", "mrsu-sweep", "mrsu-advise")),
    Term("ft-id", "FT / ID (full tuples / independent dimensions)",
         "MRSU-FT hands out whole units (every resource together); MRSU-ID counts each resource's units "
         "on its own, so less is over-allocated.",
         f"{_P002}, eqs. 8-9",
         'MRSU sizing (modes "ft" and "id", Figs. 3-5), python -m scheduling mrsu --mode ft',
         ("MRSU-FT", "MRSU-ID"), ("mrsu", "mrsu-sweep")),
    Term("theta-d", "θd (deadline violation, eq. 12)",
         "deadlines missed divided by deadlines met (not by jobs): 0.5 is one miss for every two met; "
         "above 1, more are missed than met.",
         f"{_P003}, eq. 12",
         "the comparison table (Deadline violation θd), reports, python -m scheduling simulate",
         ("θd", "theta_d"), ("simulate",)),
    Term("exact-per-decision", "exact per decision",
         "the ILP placement (edf-ilp) finds the cheapest VMs for each job when it starts, given the VMs "
         "already on; it does not plan the whole run, so a choice that is cheapest now can keep VMs on "
         "longer later and cost more overall than a heuristic (BFD).",
         f"{_P003}, Algorithm 2",
         "the comparison's schedulers (ilp placement), ILP fallbacks row, python -m scheduling simulate",
         ("Exact per decision",), ("simulate",)),
    Term("lower-bound", "lower bound",
         "no schedule can cost less: the cheapest fractional mix of VM types that covers the scenario's "
         "total work (resource-hours); the gap to it is how much any scheduler could still save at most.",
         "the planner's own bound (scheduling/cost/bounds.py), for " + _P003,
         "the comparison table (Lower bound, Gap to lower bound), cumulative cost chart, reports",
         ("Lower bound", "Gap to lower bound", "gap to the lower bound"),
         ("simulate",)),
)

_BY_KEY = {t.key: t for t in TERMS}


def term(key: str) -> Term:
    """The glossary's entry ``key`` (a :class:`Term`'s ``key``).

    Raises
    ------
    KeyError
        If there is no such term.
    """
    return _BY_KEY[key]


def _pattern(written: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + re.escape(written) + r"(?![\w-])")


def terms_in(text: str) -> list[Term]:
    """The terms ``text`` uses, in glossary order.

    >>> [t.key for t in terms_in("DRF against TSF; the lower bound")]
    ['drf', 'tsf', 'lower-bound']
    """
    return [t for t in TERMS if any(_pattern(w).search(text) for w in t.written)]


def help_text(keys: Iterable[str]) -> str:
    """The entries ``keys`` as a command's ``--help`` shows them: one paragraph each (blank
    lines between), the same text as the glossary page.

    >>> print(help_text(["theta-d"]))  # doctest: +ELLIPSIS
    Terms: θd (deadline violation, eq. 12): deadlines missed divided by deadlines met ...
    """
    entries = [term(k) for k in keys]
    lines = [f"{t.term}: {t.meaning} [{t.paper}] Appears in: {t.where}." for t in entries]
    return "\n\n".join(("Terms: " if n == 0 else "") + line for n, line in enumerate(lines))


def command_terms(command: str) -> list[str]:
    """The keys of the terms a ``python -m scheduling`` sub-command's ``--help`` explains.

    >>> command_terms("mrsu")
    ['mrsu', 'ft-id']
    """
    return [t.key for t in TERMS if command in t.commands]
