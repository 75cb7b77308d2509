"""Static allocation, the front door: one call for every policy of papers 000 (Sections III-IV).

:func:`allocate` runs progressive filling (:mod:`~scheduling.fairness.filling`: DRF, TSF,
PS-DSF, rPS-DSF, BF-DRF under a server selection, over trials) or an exact optimisation
(:mod:`~scheduling.fairness.exact`: U-MMF, PF) and returns an :class:`Allocation`, whose
:meth:`~Allocation.to_dict` is the allocation document (``docs/results.md``). A *variant
spec* names one such allocation in one string, as the CLI, the planner and the reports
write it (:func:`parse_allocation_variant`)::

    drf | tsf | psdsf | rpsdsf [/rrr | /joint | /best-fit | /rrr-task | /best-fit-all]
                                                                  progressive filling
    bf-drf [/best-fit-all]                                        DRF with best-fit servers
    mmf | pf [/fractional | /integer]                             exact (fractional by default)

>>> from scheduling.fairness.model import FairnessProblem
>>> p = FairnessProblem(resources=("cpu", "mem"), machines=("c1#1", "c2#1"), machine_types=("c1", "c2"),
...     capacity=np.array([[100.0, 30.0], [30.0, 100.0]]), frameworks=("f1", "f2"),
...     demand=np.array([[5.0, 1.0], [1.0, 5.0]]), weight=np.ones(2), allowed=np.ones((2, 2), bool))
>>> a = allocate(p, policy="rpsdsf", servers="joint", trials=5, seed=1)
>>> doc = a.to_dict()
>>> doc["label"], doc["total_tasks"], doc["mean"]["f1"]
('rPS-DSF (joint)', 42.0, {'c1#1': 19.0, 'c2#1': 2.0})
>>> parse_allocation_variant("psdsf/joint", path="variants[0]").label
'PS-DSF (joint)'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import FieldError, ScenarioError
from ..numbers import seed_error
from ..scenario import Scenario
from . import filling
from .allocation_doc import allocation_document
from .model import FairnessProblem, fairness_problem

__all__ = [
    "ALLOCATION_VARIANTS",
    "EXACT_POLICIES",
    "Allocation",
    "AllocationVariant",
    "allocate",
    "allocation_label",
    "parse_allocation_variant",
]

#: The exact optimisations (:mod:`~scheduling.fairness.exact`).
#: The exact optimisations: U-MMF of tasks per weight (``mmf``), of DRF's dominant share
#: (``mmf-drf``) and of TSF's share (``mmf-tsf``), and PF (``pf``; the same for all three).
EXACT_POLICIES = ("mmf", "mmf-drf", "mmf-tsf", "pf")
#: How each policy is written in labels and tables.
POLICY_NAMES = {
    "drf": "DRF",
    "tsf": "TSF",
    "psdsf": "PS-DSF",
    "rpsdsf": "rPS-DSF",
    "bf-drf": "BF-DRF",
    "mmf": "U-MMF",
    "mmf-drf": "DRF-MMF",
    "mmf-tsf": "TSF-MMF",
    "pf": "PF",
}
#: Every variant spec, in display order (the planner's choices).
ALLOCATION_VARIANTS: tuple[str, ...] = (
    *(f"{p}/{s}" for p in ("drf", "tsf", "psdsf", "rpsdsf") for s in filling.SERVER_SELECTIONS),
    "bf-drf",
    "bf-drf/best-fit-all",
    *(f"{p}/{k}" for p in EXACT_POLICIES for k in ("fractional", "integer")),
)


@dataclass(frozen=True)
class AllocationVariant:
    """One allocation named by a spec: its policy, server selection (progressive) or integrality (exact)."""

    spec: str
    policy: str
    servers: str | None  # progressive filling only
    integer: bool
    label: str


def allocation_label(policy: str, servers: str | None, integer: bool) -> str:
    """``"DRF (rrr)"``, ``"BF-DRF"``, ``"PF (integer)"``: how an allocation is named.

    >>> allocation_label("psdsf", "joint", True), allocation_label("bf-drf", "best-fit", True)
    ('PS-DSF (joint)', 'BF-DRF')
    >>> allocation_label("pf", None, False), allocation_label("bf-drf", "best-fit-all", True)
    ('PF (fractional)', 'BF-DRF (best-fit-all)')
    """
    name = POLICY_NAMES.get(policy, policy)
    if policy in EXACT_POLICIES:
        return f"{name} ({'integer' if integer else 'fractional'})"
    if policy == "bf-drf":
        return name if servers in (None, "best-fit") else f"{name} ({servers})"
    return f"{name} ({servers})"


def parse_allocation_variant(spec: str, *, path: str) -> AllocationVariant:
    """The allocation a spec names; refused with ``path`` and the valid forms.

    >>> parse_allocation_variant("drf", path="policy")
    AllocationVariant(spec='drf/rrr', policy='drf', servers='rrr', integer=True, label='DRF (rrr)')
    >>> parse_allocation_variant("pf/integer", path="p").label
    'PF (integer)'
    >>> parse_allocation_variant("drf/fast", path="variants[2]")
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: variants[2]: unknown server selection 'fast' for drf \
(write drf, drf/rrr, drf/joint, drf/best-fit, drf/rrr-task or drf/best-fit-all)
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ScenarioError.single(
            path, "must be a policy such as drf/rrr, psdsf/joint, bf-drf or pf/integer"
        )
    policy, _, option = spec.strip().lower().partition("/")
    if policy in EXACT_POLICIES:
        if option not in ("", "fractional", "integer"):
            raise ScenarioError.single(
                path,
                f"unknown option {option!r} for {policy} (write {policy}/fractional or {policy}/integer)",
            )
        integer = option == "integer"
        kind = "integer" if integer else "fractional"
        return AllocationVariant(
            f"{policy}/{kind}", policy, None, integer, allocation_label(policy, None, integer)
        )
    if policy not in filling.POLICIES:
        choices = ", ".join((*filling.POLICIES, *EXACT_POLICIES))
        raise ScenarioError.single(path, f"unknown policy {policy!r} (policies: {choices})")
    if policy == "bf-drf":
        if option not in ("", *filling.BEST_FIT):
            raise ScenarioError.single(
                path, "bf-drf chooses servers by best fit (write bf-drf, bf-drf/best-fit-all, or drf/rrr)"
            )
        servers = option or "best-fit"
        return AllocationVariant(
            "bf-drf" if servers == "best-fit" else f"bf-drf/{servers}", policy, servers, True,
            allocation_label(policy, servers, True),
        )
    servers = option or "rrr"
    if servers not in filling.SERVER_SELECTIONS:
        forms = ", ".join([policy, *(f"{policy}/{s}" for s in filling.SERVER_SELECTIONS[:-1])])
        raise ScenarioError.single(
            path,
            f"unknown server selection {servers!r} for {policy} (write {forms} or {policy}/"
            f"{filling.SERVER_SELECTIONS[-1]})",
        )
    return AllocationVariant(
        f"{policy}/{servers}", policy, servers, True, allocation_label(policy, servers, True)
    )


@dataclass(frozen=True, eq=False)
class Allocation:
    """One static allocation: ``x`` (trials, frameworks, servers) of ``problem``, and what made it."""

    problem: FairnessProblem
    x: NDArray[np.float64]
    meta: dict[str, Any] = field(default_factory=dict)
    pf_reference: Allocation | None = None

    @property
    def mean(self) -> NDArray[np.float64]:
        """(N, I) tasks per framework and server, the mean over the trials."""
        mean: NDArray[np.float64] = self.x.mean(axis=0)
        return mean

    def pf_inequality(self) -> float | None:
        """Paper 000's eq. (9) of this allocation against ``pf_reference`` (``None`` without one)."""
        if self.pf_reference is None:
            return None
        from .exact import pf_inequality

        return float(pf_inequality(self.problem, self.mean, self.pf_reference.mean)["value"])

    def to_dict(self) -> dict[str, Any]:
        """The allocation document (``docs/results.md``)."""
        doc = allocation_document(self.problem, self.x, meta=self.meta)
        doc["pf_inequality"] = self.pf_inequality()
        return doc


def allocate(
    scenario_or_problem: Scenario | FairnessProblem,
    *,
    policy: str,
    servers: str | None = None,
    trials: int = 1,
    seed: int | None = 0,
    integer: bool | None = None,
    tolerance: float | None = None,
    pf_reference: Allocation | None = None,
    progress: Callable[[float], None] | None = None,
    label: str | None = None,
) -> Allocation:
    """Allocate a scenario's cluster to its frameworks by ``policy``.

    Parameters
    ----------
    scenario_or_problem : Scenario or FairnessProblem
        A scenario (its servers are ``vm_types`` x ``count``; every framework needs a
        ``task_demand``) or the problem built from one (:func:`~scheduling.fairness.model.fairness_problem`).
    policy : str
        ``drf``, ``tsf``, ``psdsf``, ``rpsdsf``, ``bf-drf`` (progressive filling, whole tasks) or
        ``mmf``, ``mmf-drf``, ``mmf-tsf``, ``pf`` (exact optimisations, :data:`EXACT_POLICIES`).
    servers : str, optional
        Progressive filling's server selection (``rrr`` by default; ``best-fit`` for ``bf-drf``).
    trials, seed
        Progressive filling's repetitions and the seed of their random choices (exact
        methods are deterministic and take one trial).
    integer : bool, optional
        Exact methods: whole tasks (``True``) or fractional (default). Progressive filling is
        always whole tasks.
    tolerance : float, optional
        PF: the relative error allowed in its log approximation (the exact module's default).
    pf_reference : Allocation, optional
        A PF allocation of the same problem: the document then reports eq. (9) against it.
    progress : callable, optional
        Called with the fraction done; it may raise to stop.
    label : str, optional
        The document's label (default :func:`allocation_label`).

    Raises
    ------
    ScenarioError
        With field paths (``frameworks[1].task_demand``, ``policy``, ``servers``, ``trials``,
        ``seed``).
    """
    problem = (
        scenario_or_problem
        if isinstance(scenario_or_problem, FairnessProblem)
        else fairness_problem(scenario_or_problem)
    )
    errors: list[FieldError] = []
    exact = policy in EXACT_POLICIES
    if exact and servers is not None:
        errors.append(FieldError("servers", f"{policy} is an optimisation: it takes no server selection"))
    if not exact and integer is False:
        errors.append(FieldError("integer", "progressive filling allocates whole tasks only"))
    if exact and trials != 1:
        errors.append(FieldError("trials", f"{policy} is deterministic: it takes one trial"))
    if not exact and tolerance is not None:
        errors.append(FieldError("tolerance", "only the exact optimisations take a tolerance"))
    if not exact and seed is not None and seed_error(seed) is not None:
        errors.append(FieldError("seed", str(seed_error(seed))))
    if pf_reference is not None and pf_reference.problem.demand.shape != problem.demand.shape:
        errors.append(FieldError("pf_reference", "is an allocation of another problem"))
    if errors:
        raise ScenarioError(errors)
    started = time.perf_counter()
    solver: dict[str, Any] | None = None
    meta: dict[str, Any]
    chosen: str | None = None
    if exact:
        from . import exact as exact_methods

        whole = bool(integer)
        if policy == "pf":
            result = exact_methods.pf_allocation(problem, integer=whole, tolerance=tolerance)
        else:  # mmf, mmf-drf, mmf-tsf: the criterion after the dash
            result = exact_methods.mmf_allocation(
                problem, integer=whole, tolerance=tolerance, criterion=policy.partition("-")[2] or "tasks"
            )
        x = np.asarray(result.x, dtype=float)[None, :, :]
        solver = dict(result.meta)
        meta = {
            "method": "exact",
            "policy": policy,
            "servers": None,
            "integer": whole,
            "tolerance": result.meta.get("tolerance"),
            "trials": 1,
            "seed": None,
        }
        if progress is not None:
            progress(1.0)
    else:
        chosen = filling.server_selection(policy, servers)
        x = filling.progressive_filling(
            problem, policy=policy, servers=chosen, trials=trials, seed=seed, progress=progress
        ).astype(float)
        whole = True
        meta = {
            "method": "progressive",
            "policy": policy,
            "servers": chosen,
            "integer": True,
            "tolerance": None,
            "trials": trials,
            "seed": seed,
        }
    meta["label"] = label if label is not None else allocation_label(policy, chosen, whole)
    meta["seconds"] = time.perf_counter() - started
    if solver is not None:
        meta["solver"] = solver
    return Allocation(problem=problem, x=x, meta=meta, pf_reference=pf_reference)
