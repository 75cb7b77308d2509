"""PostgreSQL: the large JSON values of runs, parts and results compressed with LZ4.

PostgreSQL compresses a large value before storing it out of line (TOAST), with pglz unless a
column says otherwise. LZ4 (PostgreSQL 14 and later, when the server was built with it, as
Debian's and the official images are) compresses and decompresses several times faster, for a
value a fifth to two fifths larger: on a 5 MB result document, storing it took 139 ms against
272 ms and reading a key out of it 3.0 ms against 7.2 (``benchmarks/toast_compression.py``,
``benchmarks/RESULTS.md`` §19). A part stores
its result document as it ends, and pages and the join read keys out of them, so both wait on
it. Values stored before keep their compression; a server without LZ4 keeps pglz (the change
is skipped with a notice). SQLite compresses nothing: nothing changes there.
"""

from __future__ import annotations

from django.db import NotSupportedError, migrations, transaction

LARGE = {
    "run": ("scenario", "figures", "context"),
    "runpart": ("payload",),
    "runresult": ("result", "figures"),
}


def _compress_with(method: str):
    def change(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql" or connection.pg_version < 140000:
            return
        quote = schema_editor.quote_name
        for model_name, fields in LARGE.items():
            model = apps.get_model("runs", model_name)
            for name in fields:
                column = model._meta.get_field(name).column
                try:
                    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
                        cursor.execute(
                            f"ALTER TABLE {quote(model._meta.db_table)} "
                            f"ALTER COLUMN {quote(column)} SET COMPRESSION {method}"
                        )
                except NotSupportedError as exc:  # a server built without LZ4
                    print(f"\n  {model._meta.db_table}.{column}: kept its compression ({exc})".rstrip())
                    return

    return change


class Migration(migrations.Migration):
    dependencies = [
        ("runs", "0005_large_values_last"),
    ]

    operations = [
        migrations.RunPython(_compress_with("lz4"), _compress_with("pglz")),
    ]
