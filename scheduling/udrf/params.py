"""The parameters of a UDRF study, declared once (:mod:`scheduling.params`).

:data:`ONLINE_PARAMS` are the online simulation's options (paper 004 Fig. 5), read the same way
by ``python -m scheduling udrf`` (flags ``--interval``, ``--horizon``, ``--queue``, ``--seed``),
by a library caller (:func:`~scheduling.udrf.online.online_document`, through
:func:`read_online_options`) and by the planner; :data:`ONLINE_LIMITS` are their largest values,
taken from the declarations. :data:`UDRF_PARAMS` are a planner run's (and, with ``--online`` and
``--compare-drf``, the command line's), and :func:`udrf_run` reads them into the run's options.

>>> udrf_run({"online": True, "interval_s": 2})["policies"], udrf_run({})["baseline"]
(['udrf', 'drf'], 'DRF')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import FieldError, ScenarioError
from ..params import Param, param_named, read_params, seed_param
from ..scenario import Scenario
from .doc_reading import policy_label
from .model import UdrfProblem

__all__ = ["ONLINE_LIMITS", "ONLINE_PARAMS", "UDRF_PARAMS", "read_online_options", "udrf_run"]

ONLINE_PARAMS: tuple[Param, ...] = (
    Param("interval_s", "number", "Decision interval", "Seconds between the online algorithm's decisions.",
          unit="s", default=1.0, minimum=0, exclusive_minimum=True, maximum=3600.0, flag="--interval"),
    Param("horizon_s", "number", "Horizon",
          "Stop the online simulation here (empty: until every job is done).", unit="s", minimum=0,
          exclusive_minimum=True, maximum=30 * 86400.0, flag="--horizon"),
    Param("queue_capacity", "integer", "Waiting queue", "Jobs waiting at most (the paper's 100).",
          default=100, minimum=1, maximum=100_000, flag="--queue"),
    seed_param("The seed of the online tie-breaking order."),
)

#: The largest online options (a planner run's, the command line's and a library caller's),
#: as :data:`ONLINE_PARAMS` declares them.
ONLINE_LIMITS: dict[str, float | int] = {
    p.name: int(p.maximum) if p.kind == "integer" else p.maximum
    for p in ONLINE_PARAMS if p.maximum is not None and p.name != "seed"
}


def read_online_options(
    values: Mapping[str, Any], *, paths: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The online simulation's options read by :data:`ONLINE_PARAMS` (defaults filled in), or
    every problem, each on its path (``paths`` renames them: the command line's ``--interval``).

    >>> read_online_options({"interval_s": 2, "horizon_s": None})
    {'interval_s': 2.0, 'horizon_s': None, 'queue_capacity': 100, 'seed': 0}
    >>> read_online_options({"interval_s": float("inf"), "queue_capacity": 0},
    ...                     paths={"interval_s": "--interval"})
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: --interval: must be a number of seconds in (0, 3600]
    queue_capacity: must be a whole number from 1 to 100,000
    """
    try:
        return read_params(ONLINE_PARAMS, values, what="the online simulation")
    except ScenarioError as exc:
        at = paths or {}
        raise ScenarioError([FieldError(at.get(e.path, e.path), e.message) for e in exc.errors]) from None

UDRF_PARAMS: tuple[Param, ...] = (
    Param("online", "boolean", "Simulate online too",
          "Paper 004 Fig. 5: jobs arrive, run the times they must and leave.", default=False,
          flag="--online"),
    Param("compare_drf", "boolean", "Compare with DRF",
          "DRF treating every (class, resource) as a resource, beside UDRF.", default=True,
          flag="--compare-drf"),
    *ONLINE_PARAMS,
    Param("baseline", "text", "Baseline", "The policy the other is compared with (default: DRF's)."),
)


def udrf_run(params: Mapping[str, Any], *, scenario: Scenario | None = None) -> dict[str, Any]:
    """A UDRF study's options, read by :data:`UDRF_PARAMS`, or every problem: the request's fields
    (``interval_s``; ``baseline``, one of the policies compared, even when another field is
    wrong) and, with ``scenario``, the scenario's (``frameworks``: no user lists complex jobs).
    """
    errors: list[FieldError] = []
    values: dict[str, Any] | None = None
    try:
        values = read_params(UDRF_PARAMS, params, what="a UDRF study")
    except ScenarioError as exc:
        errors.extend(exc.errors)
    given = params if isinstance(params, Mapping) else {}
    if values is not None:
        compare, baseline = values["compare_drf"], values["baseline"]
    else:  # what can still be said of the baseline
        compare = given.get("compare_drf")
        if not isinstance(compare, bool):
            compare = param_named(UDRF_PARAMS, "compare_drf").default
        baseline = given.get("baseline") if isinstance(given.get("baseline"), str) else None
    policies = ["udrf", "drf"] if compare else ["udrf"]
    labels = [policy_label(p) for p in policies]
    if baseline in (None, ""):
        baseline = labels[-1]
    elif baseline not in labels:
        errors.append(FieldError("baseline", f"must be one of {', '.join(labels)}"))
    if scenario is not None:
        try:
            UdrfProblem.from_scenario(scenario)  # say now when no user has complex jobs
        except ScenarioError as exc:
            errors.extend(exc.errors)
    if values is None or errors:
        raise ScenarioError(errors)
    return {
        "online": values["online"],
        "compare_drf": values["compare_drf"],
        "policies": policies,
        "interval_s": values["interval_s"],
        "horizon_s": values["horizon_s"],
        "queue_capacity": values["queue_capacity"],
        "seed": values["seed"],
        "baseline": baseline,
    }
