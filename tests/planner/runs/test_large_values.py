"""Where a row's large JSON values go: on SQLite after the columns lists and pages read (migration
0005: SQLite reaches a column by walking past the ones before it); on PostgreSQL, compressed
with LZ4 (migration 0006; `.ci/run` runs this file on PostgreSQL too)."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db

LARGE = {
    "runs_run": {"scenario", "figures", "context"},
    "runs_runpart": {"payload"},
    "runs_runresult": {"result", "figures"},
}


@pytest.mark.parametrize("table", sorted(LARGE))
def test_large_values_are_the_last_columns(table: str) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL stores large values out of line (TOAST): the order does not matter")
    with connection.cursor() as cursor:
        columns = [row[1] for row in cursor.execute(f"pragma table_info({table})").fetchall()]
    large = LARGE[table]
    assert set(columns[-len(large):]) == large, columns


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the rebuild is SQLite's only")
@pytest.mark.django_db(transaction=True)
def test_the_rebuild_keeps_every_row() -> None:
    """Rows stored before migration 0005 are there after it, value for value (SQLite: the
    migration does nothing on PostgreSQL)."""
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    before, after = [("runs", "0004_run_jobs_stored")], [("runs", "0005_large_values_last")]
    executor.migrate(before)
    try:
        old = MigrationExecutor(connection).loader.project_state(before).apps
        from django.contrib.auth import get_user_model

        from planner.teams.models import Team  # not migrated here: today's model

        user = get_user_model().objects.create(username="keeper")
        team = Team.objects.create(name="Keep")
        run = old.get_model("runs", "Run").objects.create(
            team_id=team.pk, created_by_id=user.pk, name="kept", scenario={"jobs": [1, 2]},
            context={"c": 1}, figures={"f": [1.5]}, kind="compare",
        )
        part = old.get_model("runs", "RunPart").objects.create(run_id=run.pk, position=0, label="edf-bfd",
                                                               payload={"p": "x"})
        old.get_model("runs", "RunResult").objects.create(
            run_id=run.pk, part_id=part.pk, variant="edf-bfd", position=0, summary={"s": 1},
            result={"total_cost": 2.5}, figures={"g": 1},
        )
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(after)
        new = executor.loader.project_state(after).apps
        r = new.get_model("runs", "Run").objects.get(pk=run.pk)
        assert (r.name, r.scenario, r.context, r.figures, r.kind) == (
            "kept", {"jobs": [1, 2]}, {"c": 1}, {"f": [1.5]}, "compare")
        p = new.get_model("runs", "RunPart").objects.get(pk=part.pk)
        assert (p.run_id, p.label, p.payload) == (run.pk, "edf-bfd", {"p": "x"})
        res = new.get_model("runs", "RunResult").objects.get(run_id=run.pk)
        assert (res.part_id, res.variant, res.summary, res.result, res.figures) == (
            part.pk, "edf-bfd", {"s": 1}, {"total_cost": 2.5}, {"g": 1})
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.parametrize("table", sorted(LARGE))
def test_postgresql_compresses_large_values_with_lz4(table: str) -> None:
    """Migration 0006: LZ4 for the large JSON values (PostgreSQL 14 and later, built with it)."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite compresses nothing")
    with connection.cursor() as cursor:
        cursor.execute("SELECT setting FROM pg_settings WHERE name = 'server_version_num'")
        if int(cursor.fetchone()[0]) < 140000:
            pytest.skip("column compression is PostgreSQL 14's")
        cursor.execute(
            "SELECT attname, attcompression FROM pg_attribute "
            "WHERE attrelid = %s::regclass AND attnum > 0 AND NOT attisdropped",
            [table],
        )
        compression = dict(cursor.fetchall())
    assert {column: compression[column] for column in LARGE[table]} == dict.fromkeys(LARGE[table], "l")
