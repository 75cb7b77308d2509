"""DRF's authtoken table held every API token as issued (plain text, never expiring). The
tokens are knox's now (digests only): the old table and its tokens are dropped, so a copy of
the database holds no usable token. Old tokens stop working; their users sign in again."""

from __future__ import annotations

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [
        migrations.RunSQL("DROP TABLE IF EXISTS authtoken_token", reverse_sql=migrations.RunSQL.noop),
    ]
