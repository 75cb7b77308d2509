"""The Celery application: ``celery -A celery_app worker``.

Configuration comes from Django settings under the ``CELERY_`` namespace (see
``planner/settings/base.py``): JSON only, late acknowledgement, one message prefetched,
soft and hard time limits. ``DJANGO_SETTINGS_MODULE`` defaults to the development settings.
"""

from __future__ import annotations

import os

from celery import Celery

from .lifetime import die_with_parent

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "planner.settings.dev")

app = Celery("planner")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

__all__ = ["app", "die_with_parent"]
