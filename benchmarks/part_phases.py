"""Where a part's time goes, phase by phase, in one process (issue 19, ``parts.py``'s run).

    python benchmarks/part_phases.py [--jobs 10000]

Starts the five-scheduler comparison of ``parts.py`` (the shipped 10,000-job workload on 1,400
VMs) through ``services.run_start`` on a scratch PostgreSQL database on 127.0.0.1 (dropped at
the end), without a broker, then executes its parts one after the other in this process, as
one worker process would (``execution.part_execute_now``), and times each phase of each part:
the scenario (read and parsed, or held), the simulation, the figure piece, the store of the
results and, for the last part, the close (reading the pieces, joining them, storing the
figures). A warm-up run comes first. Prints markdown; times in ms.
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared" / "data" / "rm-simulator"
FIVE = ["fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp"]
PHASES = ("scenario", "simulate", "figure piece", "store", "close: read pieces", "close: join",
          "close")


def timed(phases: dict[str, float], name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            phases[name] = phases.get(name, 0.0) + time.perf_counter() - t0
    return wrapper


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jobs", type=int, default=10_000)
    args = p.parse_args()
    import psycopg

    db = f"planner_phases_{secrets.token_hex(4)}"
    with psycopg.connect(host="127.0.0.1", port=5432, user="postgres", dbname="test", autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{db}"')
    os.environ.update(
        DJANGO_SETTINGS_MODULE="planner.settings.prod", SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1", DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{db}",
        SECURE_SSL_REDIRECT="false", PLANNER_WORK_DIR=str(Path(f"/tmp/{db}")),
    )
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    try:
        call_command("migrate", verbosity=0)
        call_command("planner_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
        from django.contrib.auth import get_user_model

        from planner.kinds.compare import kind as compare_kind
        from planner.runs import execution, selectors, services
        from planner.runs.models import RunPart
        from planner.teams.models import Team
        from scheduling.importers import import_rm_csv
        from scheduling.presets import preset_vm_types

        scenario = import_rm_csv(
            (SHARED / "large-scale-workload_jobs_high_load.csv").read_text(),
            name="10,000 jobs on 1,400 VMs", vm_types=preset_vm_types("paper-003", scale=100),
        )
        scenario["jobs"] = scenario["jobs"][: args.jobs]
        user = get_user_model().objects.get(username="demo")
        team = Team.objects.filter(memberships__user=user).first()
        phases: dict[str, float] = {}
        patches = [
            mock.patch.object(services, "parts_send", lambda *a, **k: 0),
            *(  # the scenario: held by the process (since issue 19's part work), or read and parsed
                [mock.patch.object(execution, "held_scenario",
                                   timed(phases, "scenario", execution.held_scenario))]
                if hasattr(execution, "held_scenario") else
                [mock.patch.object(execution, name, timed(phases, "scenario", getattr(execution, name)))
                 for name in ("run_scenario_document", "parse_scenario")]
            ),
            mock.patch.object(compare_kind, "simulate", timed(phases, "simulate", compare_kind.simulate)),
            mock.patch.object(execution, "_figure_pieces",
                              timed(phases, "figure piece", execution._figure_pieces)),
            mock.patch.object(execution, "_store", timed(phases, "store", execution._store)),
            mock.patch.object(execution, "run_close_if_done",
                              timed(phases, "close", execution.run_close_if_done)),
            mock.patch.object(selectors, "run_figure_pieces",
                              timed(phases, "close: read pieces", selectors.run_figure_pieces)),
            mock.patch.object(compare_kind, "join_figures",
                              timed(phases, "close: join", compare_kind.join_figures)),
        ]
        for patch in patches:
            patch.start()
        rows: list[tuple[str, dict[str, float]]] = []
        for repeat in range(2):  # a warm-up run, then the one reported
            getattr(execution, "held_scenario_drop", lambda: None)()  # a fresh worker process
            run = services.run_start(user=user, team=team, scenario=scenario, schedulers=FIVE)
            for part_id, task_id, label in (
                RunPart.objects.filter(run=run).order_by("position").values_list("id", "task_id", "label")
            ):
                phases.clear()
                assert execution.part_execute_now(part_id, task_id) == "succeeded"
                if repeat:
                    rows.append((label, dict(phases)))
        for patch in patches:
            patch.stop()
    finally:
        connections.close_all()
        with psycopg.connect(host="127.0.0.1", port=5432, user="postgres", dbname="test",
                             autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
    print(f"## A part's phases, one process, {len(scenario['jobs']):,} jobs (ms)\n")
    print(f"python {platform.python_version()}; load average after: "
          + " ".join(f"{x:.1f}" for x in os.getloadavg()) + "\n")
    print("| part | " + " | ".join(PHASES) + " |")
    print("|---|" + "---|" * len(PHASES))
    for label, got in rows:
        print(f"| {label} | " + " | ".join(f"{got[k] * 1000:.0f}" if k in got else "" for k in PHASES) + " |")


if __name__ == "__main__":
    main()
