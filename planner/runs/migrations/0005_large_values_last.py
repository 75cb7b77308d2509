"""SQLite: the large JSON values of runs, parts and results move to the end of their rows.

SQLite stores a row's columns in order and reaches a column by walking past the ones before
it, through a large value's overflow pages: with a run's 144 MB scenario or a result's 572 MB
document stored before the columns a list or a page selects (a migration had appended
``run_id``, ``variant``, ``kind``, ``created_at``... after them), reading those small columns
cost hundreds of milliseconds a row. The tables are rebuilt (SQLite's documented procedure,
as Django does for any altered column) with the small columns first and the large values
last, largest at the end; the migration state is reordered the same way so that a later
rebuild keeps this order. PostgreSQL stores large values out of line (TOAST), so nothing
changes there.
"""

from django.db import migrations, models
from django.db.migrations.operations.base import Operation

LARGE_LAST = {
    "run": [
        ("context", models.JSONField(default=dict)),
        ("figures", models.JSONField(null=True, blank=True)),
        ("scenario", models.JSONField()),
    ],
    "runpart": [("payload", models.JSONField(default=dict))],
    "runresult": [
        ("figures", models.JSONField(null=True, blank=True)),
        ("result", models.JSONField()),
    ],
}


def large_values_last(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    for model_name in LARGE_LAST:
        # The historical model's fields are in the state's order, which the state operations
        # below have just changed: the rebuilt table takes it.
        schema_editor._remake_table(apps.get_model("runs", model_name))


def state_reorder() -> list[Operation]:
    ops: list[Operation] = []
    for model_name, fields in LARGE_LAST.items():
        for name, field in fields:
            ops.append(migrations.RemoveField(model_name=model_name, name=name))
            ops.append(migrations.AddField(model_name=model_name, name=name, field=field))
    return ops


class Migration(migrations.Migration):
    dependencies = [
        ("runs", "0004_run_jobs_stored"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_reorder()),
        migrations.RunPython(large_values_last, migrations.RunPython.noop),
    ]
