"""Paper 002's set-ups: the Fig. 2 snapshot and the Figs. 3-5 sweep, in one place.

Each :class:`MrsuSetup` is one experiment of Section IV of paper 002 (Gutierrez-Estevez and
Luo): the figure it reports, what the paper says that figure shows, the requirements it runs
on (a seeded :func:`~scheduling.mrsu.workload.synthetic_workload`, as an MRSU input document:
:meth:`MrsuSetup.input_document`), the compositions and modes, and, for Figs. 3-5, the
sweep's arguments (:func:`~scheduling.mrsu.sweep.mrsu_sweep` keywords). What the paper leaves
out (the load and seed of Fig. 2, the bounds of its uniform distributions) is chosen here and
said in ``notes``; docs/reproductions.md compares our figures with the paper's claims.

The planner's MRSU start page offers these set-ups as its presets (:func:`presets`: each
set-up's input document and a run's parameters); nothing about them is written there.

>>> list(SETUPS)
['002-fig-2', '002-figs-3-5']
>>> s = SETUPS["002-fig-2"]
>>> apps = s.input_document()["applications"]
>>> s.figure, len(apps), len(apps[0]["requirements"])
('Fig. 2', 10, 30)
>>> SETUPS["002-figs-3-5"].sweep["seeds"], len(SETUPS["002-figs-3-5"].sweep["loads"])
(100, 12)
>>> [(p.key, p.title, p.scenario, sorted(p.params)) for p in presets()][:1]
[('002-fig-2', 'Paper 002: Fig. 2 snapshot', None, ['compositions', 'input', 'modes', 'requirements'])]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..params import Preset
from .model import input_document
from .sweep import DEFAULT_LOADS
from .workload import synthetic_workload

__all__ = ["PAPER_SWEEP", "SETUPS", "MrsuSetup", "presets"]

#: The paper's sweep (Section IV, Figs. 3-5): loads 10 % to 125 % of capacity, 100 seeds, 50
#: applications, 30 slots; :func:`~scheduling.mrsu.sweep.mrsu_sweep`'s defaults.
PAPER_SWEEP: Mapping[str, Any] = MappingProxyType({
    "loads": list(DEFAULT_LOADS),
    "seeds": 100,
    "applications": 50,
    "slots": 30,
    "seed": 0,
})


@dataclass(frozen=True)
class MrsuSetup:
    """One experiment of paper 002, Section IV."""

    key: str
    figure: str  #: the paper's figure: "Fig. 2", "Figs. 3-5"
    title: str
    description: str  #: what runs, in an operator's words
    paper_claim: str  #: what the paper says the figure shows
    #: :func:`~scheduling.mrsu.workload.synthetic_workload` keywords of the requirements
    workload: Mapping[str, Any]
    compositions: tuple[str, ...] = ("gcd", "min")
    modes: tuple[str, ...] = ("ft", "id")
    #: :func:`~scheduling.mrsu.sweep.mrsu_sweep` keywords, or ``None`` (no sweep)
    sweep: Mapping[str, Any] | None = None
    notes: str = ""
    section: str = "§IV"
    paper: str = "002"
    label: str = ""  #: a short name among the set-ups

    def input_document(self) -> dict[str, Any]:
        """The requirements as an MRSU input document (docs/mrsu.md), named after the figure."""
        problem = synthetic_workload(**self.workload)
        return input_document(problem, name=f"Paper 002, {self.figure}: {self.title}")

    def run_params(self) -> dict[str, Any]:
        """An MRSU run's parameters (:data:`~scheduling.mrsu.params.MRSU_PARAMS`) of this set-up:
        its input document, compositions and modes, and its sweep if it has one."""
        params: dict[str, Any] = {
            "requirements": "input",
            "input": self.input_document(),
            "compositions": list(self.compositions),
            "modes": list(self.modes),
        }
        if self.sweep is not None:
            params["sweep"] = {k: list(v) if isinstance(v, tuple | list) else v
                               for k, v in self.sweep.items()}
        return params

    def preset(self) -> Preset:
        """The set-up as one click of a start page. Its scenario is ``None``: the input carries
        its own (the run records the input's machine)."""
        return Preset(
            self.key,
            f"Paper {self.paper}: {self.label or self.figure}",
            f"{self.description} The paper: {self.paper_claim}",
            None,
            self.run_params(),
        )


#: Fig. 2's workload: "a sample data center with ten applications", "the number of dimensions is
#: four and the simulation lasted for thirty time slots"; the load and seed are ours (80 %,
#: seed 0: both methods over- and under-allocate, MRSU little under, as the figure shows).
_FIG_2_WORKLOAD: Mapping[str, Any] = {"load": 0.8, "applications": 10, "slots": 30, "seed": 0}

SETUPS: dict[str, MrsuSetup] = {
    s.key: s
    for s in (
        MrsuSetup(
            key="002-fig-2",
            figure="Fig. 2",
            title="Misallocation coefficient snapshot",
            label="Fig. 2 snapshot",
            description="Ten applications, four dimensions (cpu, mem, disk, net), thirty slots at 80 % "
            "load; every composition and mode against VM-static.",
            paper_claim="Over-allocation and dissatisfaction in both, MRSU better in both metrics: very "
            "little dissatisfaction, many coefficients exactly 0.",
            workload=_FIG_2_WORKLOAD,
            notes="The paper gives neither the load nor the seed of Fig. 2: 80 % and seed 0 are ours. "
            "Requirements: the sweep's workload (docs/mrsu.md, 'Sweep document').",
        ),
        MrsuSetup(
            key="002-figs-3-5",
            figure="Figs. 3-5",
            title="Misallocation and dissatisfaction against load",
            label="Figs. 3-5 sweep",
            description="Loads 10-125 % of capacity, 100 seeds, 50 applications, 30 slots; GCD and MIN, "
            "MRSU-FT, MRSU-ID, VM-static and optimal (and Fig. 2's workload sized by every unit).",
            paper_claim="GCD beats MIN on both parts (Fig. 3); below capacity MRSU-ID < MRSU-FT < VM-static "
            "(Fig. 4); VM-static leaves more applications unserved than either MRSU at every load, "
            "optimal none until load reaches capacity (Fig. 5).",
            workload=_FIG_2_WORKLOAD,
            sweep=PAPER_SWEEP,
            notes="The bounds and grains of the uniform requirements are ours (docs/reproductions.md, "
            "'Paper 002'); the allocation parts run on Fig. 2's workload.",
        ),
    )
}


def presets() -> list[Preset]:
    """The set-ups of :data:`SETUPS` as a start page's presets, in order (each draws its
    requirements: cheap, ten applications x thirty slots)."""
    return [s.preset() for s in SETUPS.values()]
