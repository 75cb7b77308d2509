"""Paper 004's set-ups: the Fig. 1 example and the presets a start page offers, in one place.

:func:`fig1_document` is the paper's example (Sections II-A and III-B of Tahir et al.), written
once here; ``examples/paper004-fig1.json`` is the same document (a test checks) for the command
line and the docs. :func:`fig1_online_document` is the same users with every job run
:data:`ONLINE_RUNS` times (the paper gives no runs for Fig. 1).

:func:`two_classes_document` is notes §7's check of Fig. 3 in lockstep (both users at DRF's
level) and :func:`below_drf_document` a user that UDRF gives less than DRF (Fig. 3's line 25;
it also breaks Theorem 4, docs/udrf-properties.md).

:func:`presets` are the planner's one-click set-ups (:class:`~scheduling.params.Preset`, with
the parameters of :data:`~scheduling.udrf.params.UDRF_PARAMS`): Fig. 1 offline, Fig. 1 online
with each job run 100 times, the two cases above offline, and a synthetic trace with the shape
of §V, online.

>>> [p.key for p in presets()]
['004-fig1', '004-fig1-online', '004-two-classes', '004-below-drf', '004-synthetic-online']
>>> fig1_online_document()["frameworks"][0]["complex_jobs"][0]["runs"]
100
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ..params import Preset
from .synthetic import synthetic_document

__all__ = [
    "ONLINE_RUNS", "SYNTHETIC", "below_drf_document", "fig1_document", "fig1_online_document", "presets",
    "two_classes_document",
]


def _vm_type(cls: str, cpu: int, mem: int, count: int) -> dict[str, Any]:
    return {"name": f"{cls}-node", "machine_class": cls, "capacity": {"cpu": cpu, "mem": mem},
            "price_per_hour": 0, "count": count}


def _task(cls: str, cpu: int, mem: int) -> dict[str, Any]:
    return {"machine_class": cls, "demand": {"cpu": cpu, "mem": mem}}


# Paper 004, Fig. 1, as a version-3 scenario document: four machine classes, four users; DRF
# lets u1 run 8 + 8 jobs, UDRF 28 + 8 (docs/reproductions.md). Given out as copies only
# (fig1_document), so no caller changes another's.
_FIG1: dict[str, Any] = {
    "version": 3,
    "name": "UDRF: the four users of paper 004, Fig. 1",
    "description": (
        "Paper 004 (Tahir et al., UDRF) Section II-A and III-B, reconstructed from the shares the text "
        "gives: four machine classes (hadoop, standard, public-IP, high-memory), user u1 with two one-task "
        "jobs (job1 in hadoop, job2 in standard), u2 with one job of two tasks (standard and public-IP), u3 "
        "with one job in public-IP, u4 with one job in high-memory. DRF lets u1 run 8 + 8 jobs, UDRF 28 + "
        "8. See docs/reproductions.md."
    ),
    "resources": ["cpu", "mem"],
    "vm_types": [
        _vm_type("hadoop", 7, 8, 8),
        _vm_type("standard", 4, 10, 4),
        _vm_type("public-ip", 8, 16, 3),
        _vm_type("high-memory", 8, 256, 4),
    ],
    "frameworks": [
        {"name": "u1", "complex_jobs": [
            {"id": "job1", "tasks": [_task("hadoop", 1, 1)]},
            {"id": "job2", "tasks": [_task("standard", 1, 2)]},
        ]},
        {"name": "u2", "complex_jobs": [
            {"id": "job", "tasks": [_task("standard", 1, 1), _task("public-ip", 1, 1)]},
        ]},
        {"name": "u3", "complex_jobs": [{"id": "job", "tasks": [_task("public-ip", 1, 4)]}]},
        {"name": "u4", "complex_jobs": [{"id": "job", "tasks": [_task("high-memory", 1, 25)]}]},
    ],
}

def _cpu_only(name: str, description: str, classes: dict[str, int],
              users: dict[str, list[tuple[str, list[tuple[str, int]]]]]) -> dict[str, Any]:
    """A version-3 document with cpu only: one machine per class, users' jobs as (id, [(class,
    cpu), ...])."""
    return {
        "version": 3, "name": name, "description": description, "resources": ["cpu"],
        "vm_types": [{"name": f"{c}-node", "machine_class": c, "capacity": {"cpu": cpu}, "price_per_hour": 0,
                      "count": 1} for c, cpu in classes.items()],
        "frameworks": [{"name": user, "complex_jobs": [
            {"id": job, "tasks": [{"machine_class": c, "demand": {"cpu": cpu}} for c, cpu in tasks]}
            for job, tasks in jobs]} for user, jobs in users.items()],
    }


# Notes §7's check of Fig. 3 in lockstep: both users at DRF's level 2/3.
_TWO_CLASSES = _cpu_only(
    "UDRF: two classes, lockstep (notes §7)",
    "Classes a and b of 10 cpu; u1 runs job1 (1 cpu on a) and job2 (2 cpu on b), u2 one job of 1 cpu "
    "on a. Fig. 3 in lockstep, as its §III-B example runs it, gives both users 2/3 (u1 10/3 of each job, "
    "u2 20/3), as DRF does (docs/udrf-properties.md).",
    {"a": 10, "b": 10},
    {"u1": [("job1", [("a", 1)]), ("job2", [("b", 2)])], "u2": [("job", [("a", 1)])]},
)

# A user below DRF, and Theorem 4 failing in x^u: line 25 saturates u1 when its job A fills s.
_BELOW_DRF = _cpu_only(
    "UDRF: a user below DRF (Fig. 3, line 25)",
    "Classes s (20 cpu), p and o (10 cpu); u1 runs A (1 cpu on s) and B (1 cpu on p, which nobody else "
    "needs), u2 one job of 2 cpu on s and 1 on o, u3 one job of 1 cpu on o. Under UDRF u1's A grows past "
    "B and fills s, which saturates u1 (Fig. 3, line 25) at level 1/2 with half of p idle; DRF gives it "
    "level 1. Reporting both jobs as its gross demand would give u1 DRF's allocation: Theorem 4 fails "
    "(docs/udrf-properties.md).",
    {"s": 20, "p": 10, "o": 10},
    {"u1": [("A", [("s", 1)]), ("B", [("p", 1)])], "u2": [("job", [("s", 2), ("o", 1)])],
     "u3": [("job", [("o", 1)])]},
)


def two_classes_document() -> dict[str, Any]:
    """Notes §7's two-class case (a fresh copy): u1 with job1 on a and job2 on b, u2 on a.

    >>> from scheduling.scenario import parse_scenario
    >>> from scheduling.udrf.offline_doc import offline_document
    >>> doc = offline_document(parse_scenario(two_classes_document()))
    >>> [[round(x, 6) for x in (u["level"], *u["jobs"].values())] for u in doc["policies"]["udrf"]["users"]]
    [[0.666667, 3.333333, 3.333333], [0.666667, 6.666667]]
    """
    return copy.deepcopy(_TWO_CLASSES)


def below_drf_document() -> dict[str, Any]:
    """Three classes where UDRF gives u1 half its DRF level (a fresh copy).

    >>> from scheduling.scenario import parse_scenario
    >>> from scheduling.udrf.offline_doc import offline_document
    >>> doc = offline_document(parse_scenario(below_drf_document()))
    >>> versus = doc["versus_drf"]
    >>> u1 = versus["users"][0]
    >>> versus["below"], versus["largest_loss"], u1["name"], u1["dominant_share"], u1["drf_dominant_share"]
    (1, 0.5, 'u1', 0.5, 1.0)
    """
    return copy.deepcopy(_BELOW_DRF)


#: The runs of every job in the online set-up of Fig. 1.
ONLINE_RUNS = 100

#: :func:`~scheduling.udrf.synthetic.synthetic_document` keywords of the synthetic preset: the
#: shape of the paper's evaluation (§V, Figs. 9-10) at a size a start page runs in seconds.
SYNTHETIC: Mapping[str, Any] = MappingProxyType({"users": 50, "jobs": 200, "classes": 60, "seed": 0})


def fig1_document() -> dict[str, Any]:
    """Paper 004's Fig. 1 as a version-3 scenario document (a fresh copy, safe to change).

    >>> doc = fig1_document()
    >>> [v["machine_class"] for v in doc["vm_types"]]
    ['hadoop', 'standard', 'public-ip', 'high-memory']
    """
    return copy.deepcopy(_FIG1)


def fig1_online_document(runs: int = ONLINE_RUNS) -> dict[str, Any]:
    """Fig. 1 with every job run ``runs`` times, named so.

    Online, every job of Fig. 1 run once would fit at once and show nothing: each must run many
    times (not in the paper), so that how many run together decides when it ends.
    """
    doc = fig1_document()
    for user in doc["frameworks"]:
        for job in user.get("complex_jobs", []):
            job["runs"] = runs
    doc["name"] = f"{doc['name']}, each job run {runs} times"
    return doc


def presets() -> list[Preset]:
    """A start page's buttons: the paper's Fig. 1 offline, and online with many runs a job, the
    two-class and the below-DRF cases offline, and a synthetic trace with the shape of its
    evaluation, online.

    Each call draws the synthetic trace again (a third of a second): a caller that shows them
    often keeps them.
    """
    return [
        Preset(
            "004-fig1",
            "Paper 004, Fig. 1",
            "Four users on four machine classes (hadoop, standard, public-IP, high-memory): DRF lets "
            "u1 run 8 + 8 jobs, UDRF 28 + 8 (examples/paper004-fig1.json).",
            fig1_document(),
            {"compare_drf": True, "online": False},
        ),
        Preset(
            "004-fig1-online",
            f"Paper 004, Fig. 1 online, {ONLINE_RUNS} runs a job",
            f"The same users and classes, each job run {ONLINE_RUNS} times (the paper gives no runs for "
            "Fig. 1), simulated online with one decision a second: u1's job1 ends sooner under UDRF, which "
            "runs it 28 at a time where DRF runs 8.",
            fig1_online_document(),
            {"compare_drf": True, "online": True, "interval_s": 1.0},
        ),
        Preset(
            "004-two-classes",
            "Lockstep: two classes (notes §7)",
            "u1 runs one job on each of two classes, u2 shares one of them: Fig. 3 run as its §III-B example "
            "runs it gives both users DRF's level 2/3.",
            two_classes_document(),
            {"compare_drf": True, "online": False},
        ),
        Preset(
            "004-below-drf",
            "A user below DRF (Fig. 3, line 25)",
            "u1's job A grows past its job B and fills a shared class, which saturates u1 at half the level "
            "DRF gives it; the study lists who gets less than under DRF.",
            below_drf_document(),
            {"compare_drf": True, "online": False},
        ),
        Preset(
            "004-synthetic-online",
            "Synthetic trace (§V), online",
            "A trace drawn with the shape of the paper's evaluation (scheduling.udrf.synthetic, "
            f"seed {SYNTHETIC['seed']}): "
            "50 users, 200 jobs on 60 machine classes, 65% of jobs on one or two classes, runs of "
            "10-100 s, a waiting queue of 100 jobs (Figs. 9-10).",
            synthetic_document(**SYNTHETIC),
            {"compare_drf": True, "online": True, "interval_s": 1.0, "queue_capacity": 100},
        ),
    ]
