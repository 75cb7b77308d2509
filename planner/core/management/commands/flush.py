"""``manage.py flush``, as Django's, but also on PostgreSQL with knox's unused table.

django-rest-knox's migrations create its own token table, ``knox_authtoken``, even though the
planner's tokens live in ``accounts.ApiToken`` (``KNOX_TOKEN_MODEL``): the table stays empty, but
its foreign key to ``auth_user`` makes PostgreSQL refuse to truncate the users alone. The flush
therefore always truncates with ``CASCADE`` (as Django's tests do when they flush only some
apps' tables), which also empties the tables that refer to the ones flushed: here only that
empty table. The test runner's flush between transactional tests is this command too.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands.flush import Command as DjangoFlush


class Command(DjangoFlush):
    def handle(self, **options: Any) -> None:
        options["allow_cascade"] = True
        super().handle(**options)
