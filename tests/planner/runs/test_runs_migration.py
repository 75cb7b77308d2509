"""Migration 0002 keeps the runs stored before it readable: parts, variants, columnar detail."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scheduling import parse_scenario, simulate
from scheduling.cost.document import iter_jobs, iter_vm_intervals, to_columnar

# Every app available, so that the flush after the test may cascade: on PostgreSQL a TRUNCATE of
# auth_user fails otherwise, the table knox's first migration creates (swapped out for
# accounts.ApiToken, so Django flushes it not) referring to it.
pytestmark = pytest.mark.django_db(
    transaction=True, available_apps=[config.name for config in apps.get_app_configs()]
)

BEFORE = [("runs", "0001_initial")]


def latest_nodes(executor: MigrationExecutor) -> list[tuple[str, str]]:
    return list(executor.loader.graph.leaf_nodes())


def row_layout(doc: dict[str, Any]) -> dict[str, Any]:
    """A result document as the simulator wrote it before format 2: a dict per job and interval."""
    old = {k: v for k, v in doc.items() if k not in ("format", "machines")}
    old["jobs"] = list(iter_jobs(doc))
    old["vm_intervals"] = list(iter_vm_intervals(doc))
    return old


def test_old_runs_get_parts_variants_and_columnar_results(scenario_doc: dict[str, Any]) -> None:
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes("runs")
    executor.migrate(BEFORE)
    # The runs app as it was, beside the other apps as they are now (only runs is migrated back).
    others = [node for node in latest_nodes(executor) if node[0] != "runs"]
    old = executor.loader.project_state(BEFORE + others).apps
    User = old.get_model("auth", "User")
    Team = old.get_model("teams", "Team")
    Run = old.get_model("runs", "Run")
    RunResult = old.get_model("runs", "RunResult")
    team = Team.objects.create(name="Old team")
    user = User.objects.create(username="old-timer")
    scenario = parse_scenario(scenario_doc)
    docs = {
        spec: row_layout(simulate(scenario, scheduler=spec).to_dict()) for spec in ("fifo-spread", "edf-bfd")
    }
    done = Run.objects.create(
        team=team,
        created_by=user,
        kind="compare",
        name="finished",
        scenario=scenario_doc,
        status="succeeded",
        options={"schedulers": list(docs), "baseline": "fifo-spread", "seed": 0, "options": None},
        progress=1.0,
    )
    for position, (spec, doc) in enumerate(docs.items()):
        RunResult.objects.create(run=done, scheduler=spec, position=position, result=doc,
                                 summary={"total_cost": doc["total_cost"], "saving_vs_baseline_pct": 12.5})
    stuck = Run.objects.create(
        team=team, kind="compare", name="was running", scenario=scenario_doc, status="running", progress=0.4,
        options={"schedulers": ["edf-bfd"], "baseline": "edf-bfd", "seed": 0, "options": None},
    )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(latest)

    from planner.runs.models import Run as RunNow
    from planner.runs.models import RunPart
    from planner.runs.models import RunResult as ResultNow

    finished = RunNow.objects.get(pk=done.pk)
    assert finished.status == "succeeded"
    assert finished.context == {"lower_bound_cost": docs["edf-bfd"]["lower_bound_cost"]}
    parts = list(RunPart.objects.filter(run=finished).order_by("position"))
    assert [(p.label, p.status, p.progress) for p in parts] == [("fifo-spread", "succeeded", 1.0),
                                                                ("edf-bfd", "succeeded", 1.0)]
    for result in ResultNow.objects.filter(run=finished):
        assert result.part_id == parts[result.position].pk and result.variant == parts[result.position].label
        assert result.summary == {"total_cost": docs[result.variant]["total_cost"]}  # no frozen saving
        assert result.result == to_columnar(docs[result.variant])
        assert list(iter_jobs(result.result)) == docs[result.variant]["jobs"]

    waiting = RunNow.objects.get(pk=stuck.pk)
    assert (waiting.status, waiting.progress) == ("queued", 0.0)  # the reaper sends its part to a worker
    assert list(RunPart.objects.filter(run=waiting).values_list("label", "status", "sent_at")) == [
        ("edf-bfd", "queued", None)
    ]
