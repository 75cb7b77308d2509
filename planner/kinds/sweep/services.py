"""The sweep's writes: a point opened as an ordinary comparison."""

from __future__ import annotations

from typing import Any

from planner.runs.models import Run, RunResult
from planner.runs.selectors import run_scenario
from planner.runs.services import run_start
from planner.teams.models import Team
from scheduling.sweep.evaluate import point_comparison_apart
from scheduling.sweep.expand import Point

__all__ = ["COMPARISON", "sweep_point_compare", "sweep_point_get"]

#: The kind a point opens as (by its key: kinds do not import each other).
COMPARISON = "compare"


def point_label(point: int) -> str:
    """The variant of one point: ``point 17``."""
    return f"point {point}"


def sweep_point_get(*, run: Run, point: int) -> Point | None:
    """Point ``point`` of the sweep ``run`` as recorded (``None``: no such point). One query."""
    record = (RunResult.objects.filter(run=run, variant=point_label(point)).values_list("summary", flat=True)
              .first())
    return None if record is None else Point.from_dict(record)


def sweep_point_compare(*, user: Any, team: Team, run: Run, point: Point) -> Run:
    """Queue a comparison of the sweep's schedulers on ``point``'s scenario (its VM counts and
    prices, its load drawn with its seed, its run options: the library's
    :func:`~scheduling.sweep.evaluate.point_comparison`), named after the sweep and the point.

    A sweep of a run that keeps its jobs apart is varied without them and the comparison reuses
    its chunks (a point's longer jobs scaled column by column); a point that draws more jobs
    from them is refused at ``load``.

    Raises what ``run_start`` raises (``InputError``, ``ScenarioError``) for a point that cannot
    be compared.
    """
    schedulers = list((run.options or {}).get("schedulers") or [])
    source = run_scenario(run)
    scenario, params, factor = point_comparison_apart(
        source.document, point, schedulers, jobs_apart=source.jobs_apart
    )
    settings = ", ".join(f"{k}={v}" for k, v in point.settings.items()) or "as it is"
    return run_start(user=user, team=team, scenario=scenario, kind=COMPARISON, params=params,
                     name=f"{run.name} — point {point.point} ({settings})"[:200],
                     jobs_of=source.jobs_of, duration_factor=factor)
