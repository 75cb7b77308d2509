"""Tests: SQLite in memory, or PostgreSQL when ``PLANNER_TEST_DATABASE=postgres``.

Tasks are not run eagerly: tests call the task functions directly, and enqueuing goes to
Celery's in-memory broker where nothing consumes it.
"""

from __future__ import annotations

import os

from .base import *  # noqa: F403

DEBUG = False
SECRET_KEY = "test-only-secret-key-not-used-anywhere-else-0123456789abcdef"
ALLOWED_HOSTS = ["testserver", "localhost"]
INSTALLED_APPS = [*INSTALLED_APPS, "tests.planner.kinds.price_ladder"]  # noqa: F405  (the worked example)

if os.environ.get("PLANNER_TEST_DATABASE", "").lower() == "postgres":
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.postgresql",
            "HOST": "127.0.0.1",
            "PORT": "5432",
            "NAME": "test",
            "USER": "postgres",
            "PASSWORD": "",
        }
    }
else:
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast, tests only

# Each test starts with an empty cache (tests/conftest.py clears it): throttle counts do not leak.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = "memory://"
# An in-memory SQLite database is private to its connection: a heartbeat thread would see
# none of it. Tests renew leases through progress reports (and test the thread on PostgreSQL).
PLANNER_PART_HEARTBEAT_S = 0
CELERY_TASK_ALWAYS_EAGER = False

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"null": {"class": "logging.NullHandler"}},
    "root": {"handlers": ["null"], "level": "WARNING"},
}

# Serve static files from the apps' folders (no collectstatic before tests).
WHITENOISE_AUTOREFRESH = True
