"""Development: SQLite and a filesystem Celery broker under ``var/``, no Redis needed.

A real worker (``celery -A celery_app worker --pool=solo``) picks up the same task
messages the web process writes into ``var/broker/``.
"""

from __future__ import annotations

import os

from .base import *  # noqa: F403
from .base import VAR_DIR
from .env import env_list

DEBUG = True
SECRET_KEY = os.environ.get("SECRET_KEY", "django-insecure-dev-only-key-for-the-cluster-what-if-planner")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

VAR_DIR.mkdir(parents=True, exist_ok=True)
BROKER_DIR = VAR_DIR / "broker"
for _folder in ("queue", "processed", "control"):
    (BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": VAR_DIR / "planner.sqlite3",
        "OPTIONS": {
            # The worker writes progress while the web process reads: WAL lets them overlap,
            # IMMEDIATE transactions avoid "database is locked" on lock upgrades.
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        },
    }
}

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # Producer and consumer share one folder: the web process writes, the worker reads.
    "data_folder_in": str(BROKER_DIR / "queue"),
    "data_folder_out": str(BROKER_DIR / "queue"),
    "processed_folder": str(BROKER_DIR / "processed"),
    "control_folder": str(BROKER_DIR / "control"),
    "store_processed": False,
}
