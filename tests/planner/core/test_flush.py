"""``manage.py flush`` empties the database, PostgreSQL included (`.ci/run` runs this file there),
where knox's unused token table refers to the users."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from planner.teams.models import Team


@pytest.mark.django_db(transaction=True)
def test_flush_empties_the_database() -> None:
    user = get_user_model().objects.create_user(username="flushed", password="flushed-password")
    Team.objects.create(name="Flushed")
    if connection.vendor == "postgresql":  # the table that made PostgreSQL refuse
        with connection.cursor() as cursor:
            cursor.execute("SELECT to_regclass('knox_authtoken') IS NOT NULL")
            assert cursor.fetchone() == (True,)
    call_command("flush", interactive=False, verbosity=0)
    assert not get_user_model().objects.filter(pk=user.pk).exists()
    assert not Team.objects.exists()
