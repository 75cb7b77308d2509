"""WSGI entry point: ``gunicorn planner.wsgi`` (set DJANGO_SETTINGS_MODULE=planner.settings.prod)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "planner.settings.dev")

application = get_wsgi_application()
