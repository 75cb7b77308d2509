"""ASGI entry point (the planner needs nothing asynchronous; provided for ASGI servers)."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "planner.settings.dev")

application = get_asgi_application()
