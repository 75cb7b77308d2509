"""The sharing document (``docs/results.md``) of an online sharing run
(:func:`scheduling.fairness.sharing.share`): per framework over time its running tasks,
dominant share, share held in offers, fair share and waiting tasks (downsampled to at most
about :data:`MAX_TIMELINE_POINTS` points), utilisation, unfairness over the contention
window (paper 001 §II; ``fairness.pending_work`` the pending-work reading beside it), the
offer cycle's rules, makespan, completion and offer counts.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..charts.downsample import downsample_step
from ..metrics import fairness_summary, window_unfairness
from ..scenario import Scenario
from ..scenario.checks import plain
from .sharing_run import _Run
from .tables_common import UNFAIRNESS_DEFINITION

__all__ = ["MAX_TIMELINE_POINTS"]

#: A document's timeline keeps at most about this many points (downsampled keeping the step
#: shape: every bucket's first and last points and each series' extremes). The fairness
#: figures are computed from the whole timeline first.
MAX_TIMELINE_POINTS = 4_000


def _vector(resources: tuple[str, ...], values: Any) -> dict[str, float | int]:
    return {r: plain(float(v)) for r, v in zip(resources, values, strict=True)}


def _none_or(value: float) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


def _document(run: _Run, scenario: Scenario, *, label: str | None, seed: int) -> dict[str, Any]:
    names, res = run.names, scenario.resources
    t, kinds = run.series()
    running, share, held, fair, pending = (
        kinds[k] for k in ("running", "share", "held", "fair_share", "pending")
    )
    utilisation = kinds["utilisation"]
    firsts: list[float | None] = []
    lasts: list[float | None] = []
    for k in range(len(names)):
        starts = run.start[(run.task_fw == k) & ~np.isnan(run.start)]
        firsts.append(float(starts.min()) if starts.size else None)
        lasts.append(float(starts.max()) if starts.size else None)
    unfairness = window_unfairness(t, share, firsts, lasts, run.tasks_of.tolist(), names, run.weight)
    # the pending-work reading, beside it under its own name
    pending_fair = kinds["pending_fair_share"]
    summary = fairness_summary(t, share, pending_fair, names, run.weight)
    contention = (pending_fair > 0).sum(axis=1) >= 2
    pending_window: list[float] | None = None
    if contention.any():
        rows = np.flatnonzero(contention)
        end = t[rows[-1] + 1] if rows[-1] + 1 < t.size else t[rows[-1]]
        pending_window = [float(t[rows[0]]), float(end)]
    series: dict[str, Any] = {}
    for kind, values in (
        ("running", running),
        ("share", share),
        ("held", held),
        ("fair_share", fair),
        ("pending", pending),
    ):
        for k, name in enumerate(names):
            series[f"{kind}\x00{name}"] = values[:, k]
    for k, name in enumerate(res):
        series[f"utilisation\x00{name}"] = utilisation[:, k]
    kept_t, kept = downsample_step(t, series, MAX_TIMELINE_POINTS)
    timeline: dict[str, Any] = {"t": kept_t}
    for key, kept_values in kept.items():
        kind, name = key.split("\x00")
        integral = kind in ("running", "pending")
        timeline.setdefault(kind, {})[name] = [
            int(v) if integral and v is not None else v for v in kept_values
        ]
    for kind in ("running", "share", "held", "fair_share", "pending", "utilisation"):
        timeline.setdefault(kind, {})
    dt = np.diff(t, append=t[-1]) if t.size else np.zeros(0)
    busy = ((running.sum(axis=1) + pending.sum(axis=1)) > 0) & (dt > 0)
    stats: dict[str, Any] = {}
    for k, name in enumerate(res):
        u = utilisation[:, k]
        span = float((dt * busy).sum())
        stats[name] = {
            "mean": float((u * dt * busy).sum() / span) if span > 0 else None,
            "max": float(u.max()) if u.size else None,
            "busy_s": span,
        }
    completion: dict[str, Any] = {}
    for k, name in enumerate(names):
        mine = run.task_fw == k
        started = mine & ~np.isnan(run.start)
        done = mine & ~np.isnan(run.finish) & (run.finish <= (t[-1] if t.size else 0.0) + 1e-9)
        waits = (run.start - run.arrival)[started]
        completion[name] = {
            "tasks": int(mine.sum()),
            "launched": int(started.sum()),
            "finished": int(done.sum()),
            "first_start_s": float(run.start[started].min()) if started.any() else None,
            "last_start_s": float(run.start[started].max()) if started.any() else None,
            "last_finish_s": float(run.finish[done].max()) if done.any() else None,
            "mean_wait_s": float(waits.mean()) if waits.size else None,
            "max_wait_s": float(waits.max()) if waits.size else None,
        }
    all_done = run.finished == len(run.task_fw)
    makespan = float(np.nanmax(run.finish)) if all_done and len(run.task_fw) else None
    fmap = scenario.framework_map()
    frameworks = []
    for k, name in enumerate(names):
        f = fmap[name]
        demand = f.task_demand
        if demand is None and f.queues:
            demand = f.queues[0].task_demand
        if demand is None:
            first = next((j.executor for j in scenario.jobs if j.framework == name), None)
            demand = first
        frameworks.append(
            {
                "name": name,
                "weight": plain(float(run.weight[k])),
                "policy": run.policy[k] if run.mode == "offers" else None,
                "refuse_s": plain(float(run.refuse[k])),
                "hold_s": plain(float(run.hold_s[k])),
                "tasks": int(run.tasks_of[k]),
                "task_demand": None if demand is None else _vector(res, demand),
            }
        )
    return {
        "study": "sharing",
        "format": 1,
        "label": label
        or f"{'Offers' if run.mode == 'offers' else 'Characterized'} ({run.criterion.upper()})",
        "mode": run.mode,
        "criterion": run.criterion,
        "servers": run.servers,
        "allocation_interval_s": float(run.interval),
        "seed": seed,
        "horizon_s": run.horizon,
        "stopped": run.stopped,
        "resources": list(res),
        "machines": [
            {"id": m, "vm_type": vt, "capacity": _vector(res, run.capacity[i])}
            for i, (m, vt) in enumerate(zip(run.problem.machines, run.problem.machine_types, strict=True))
        ],
        "frameworks": frameworks,
        "timeline": timeline,
        "fairness": {
            "definition": UNFAIRNESS_DEFINITION,
            "contention_s": unfairness["contention_s"],
            "window": unfairness["window"],
            "frameworks": unfairness["frameworks"],
            "pending_work": {
                "contention_s": summary["contention_s"],
                "window": pending_window,
                "frameworks": summary["frameworks"],
            },
        },
        "rules": run.rules.to_dict(),
        "makespan_s": makespan,
        "completion": completion,
        "offers": {
            name: {
                "made": int(run.made[k]),
                "accepted": int(run.accepted[k]),
                "declined": int(run.declined[k]),
            }
            for k, name in enumerate(names)
        },
        "utilisation_stats": stats,
    }
