"""The embedded default's runs list and run lookup with large runs stored (SQLite row layout).

    PLANNER_VAR_DIR=$(mktemp -d) python benchmarks/sqlite_rows.py [--runs 3] [--values 3000000]

Makes a fresh SQLite database (the dev settings, in ``PLANNER_VAR_DIR``), stores ``--runs``
runs whose scenario and result document each hold two columns of ``--values`` values (about
70 MB of JSON at the default), then times, best of 5, the runs list's first page as the list
reads it (each run and its results' summaries) and one run's lookup (``selectors.run_get``).
SQLite reaches a column by walking past the ones before it in the row, so what is stored
before the columns these reads select decides their time (migration runs 0005).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--values", type=int, default=3_000_000)
    args = parser.parse_args()
    if "PLANNER_VAR_DIR" not in os.environ:
        sys.exit("set PLANNER_VAR_DIR to an empty folder: the database is made there")
    os.environ["DJANGO_SETTINGS_MODULE"] = "planner.settings.dev"
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from planner.runs import selectors
    from planner.runs.models import Run, RunPart, RunResult
    from planner.teams.models import Membership, Team

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create(username="bench")
    team = Team.objects.create(name="bench")
    Membership.objects.create(team=team, user=user, role="owner")
    n = args.values
    big = {"jobs": {"id": [f"job-{i}" for i in range(n)], "x": list(range(n))}}
    for k in range(args.runs):
        run = Run.objects.create(team=team, created_by=user, name=f"run {k}", scenario=big, kind="compare")
        part = RunPart.objects.create(run=run, position=0, label="edf-bfd")
        RunResult.objects.create(run=run, part=part, variant="edf-bfd", position=0, summary={"cost": 1.0},
                                 result=big, figures={"f": 1})

    def listed() -> None:
        for r in selectors.run_list(user=user)[:20]:
            _ = (r.name, [x.summary for x in r.results.all()])

    print(f"{args.runs} runs, each a scenario and a result of {len(json.dumps(big)) / 1e6:.0f} MB of JSON")
    for name, read in (("runs list, first page", listed), ("one run (run_get)", lambda: selectors.run_get(
            user=user, pk=run.pk))):
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            read()
            times.append(time.perf_counter() - t0)
        print(f"{name}: best of 5 {min(times) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
