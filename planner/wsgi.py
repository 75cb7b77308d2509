"""WSGI entry point: ``gunicorn planner.wsgi`` (set DJANGO_SETTINGS_MODULE=planner.settings.prod).

Each web process loads the whole application here, its URLconf included (every view,
serializer and run kind), instead of on its first request, then freezes what it has loaded
(:func:`gc.freeze`). The 120,000-odd objects of Django, DRF, the kinds and the library live as long
as the process and hold no garbage, yet every full collection scanned them all: a pause of
110-170 ms on a busy 2-core machine in the middle of whichever request triggered it (about one
in 2,000 requests of the runs list). Frozen, they are never scanned again (a full collection then
takes well under a millisecond); what requests allocate is collected as before.
"""

from __future__ import annotations

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "planner.settings.dev")

application = get_wsgi_application()

get_resolver().url_patterns  # noqa: B018  # imports the URLconf, and with it every view
gc.collect()  # what loading left behind, so that none of it is frozen
gc.freeze()
