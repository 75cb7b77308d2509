"""Settings shared by every environment; ``dev``, ``prod`` and ``test`` adjust them.

Only what differs between environments lives in the other modules: the database, the
Celery broker, secrets and the HTTPS hardening.
"""

from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path

from scheduling import LIMITS

from .env import env_int

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(os.environ.get("PLANNER_VAR_DIR", BASE_DIR / "var"))


SECRET_KEY = os.environ.get("SECRET_KEY", "")  # dev and test set their own; prod requires it
DEBUG = False
ALLOWED_HOSTS: list[str] = []

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "planner.core",
    "planner.accounts",
    "planner.teams",
    "planner.catalogue",
    "planner.scenarios",
    "planner.runs",
    "planner.web",
    "planner.reports",
    # The run kinds, one app each (planner/kinds/): the order is the pages' and the API's.
    "planner.kinds.compare",
    "planner.kinds.allocation",
    "planner.kinds.sharing",
    "planner.kinds.mrsu",
    "planner.kinds.udrf",
    "planner.kinds.reproduce",
    "planner.kinds.sweep",
    "planner.kinds.cheapest",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Figures and results are large JSON (about 5x smaller compressed). Django masks the CSRF
    # token per response, which is the BREACH mitigation for the compressed HTML pages.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # After the CSRF check: a query string or a page's form whose text is not Unicode is a 400.
    "planner.core.middleware.ValidTextMiddleware",
    # An id in the URL beyond 64 bits is a 404, not a database overflow.
    "planner.core.middleware.IdRangeMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After the session's user is known and before anything reads a body: 413 above the
    # request's limit (small for anonymous requests and sign-in endpoints).
    "planner.core.middleware.BodySizeLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Content-Security-Policy on every response (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    # Last: turns a sign-in refused for too many failures into the lockout page (429).
    "axes.middleware.AxesMiddleware",
]

# Content-Security-Policy (django-csp): scripts only from the planner's own static files (no
# inline script anywhere: pages pass data in <script type="application/json"> blocks, which are
# not run, and the API docs load their set-up script from a URL of their own); styles may be
# inline because Plotly writes its own <style> elements and the pages set widths in style="".
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'", "blob:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Sign-in lockout (django-axes, planner.accounts): AXES_FAILURE_LIMIT wrong passwords for one
# username from one address lock that pair out for AXES_COOLOFF_TIME, on the login page, the
# admin's and the API's token endpoint; attempts are rows of the database (any backend).
AUTHENTICATION_BACKENDS = [
    "planner.accounts.backends.SignInLockout",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("PLANNER_SIGN_IN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("PLANNER_SIGN_IN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "planner.accounts.lockout.lockout_response"
# Behind a reverse proxy, the number of proxies whose X-Forwarded-For is trusted (docs/deploy.md);
# 0: the client is the connection's address.
PLANNER_PROXY_COUNT = env_int("PLANNER_PROXY_COUNT", 0)
AXES_IPWARE_PROXY_COUNT = PLANNER_PROXY_COUNT or None
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"] if PLANNER_PROXY_COUNT else ["REMOTE_ADDR"]
)

# API tokens (django-rest-knox, planner.accounts): stored as SHA-512 digests, expiring, named,
# several per user, revoked one by one, all at once ("sign out everywhere"), or by a password change.
KNOX_TOKEN_MODEL = "accounts.ApiToken"
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=env_int("PLANNER_TOKEN_TTL_DAYS", 30)),
    "AUTH_HEADER_PREFIX": "Token",
}
PLANNER_TOKENS_PER_USER = env_int("PLANNER_TOKENS_PER_USER", 20)

# The shared cache: the API's sign-in throttle counts here, so every process sees the same
# counts. The embedded default has several processes and no Redis: a file cache in var/.
# Production uses Redis (planner.settings.prod); tests a per-process memory cache.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(VAR_DIR / "cache"),
    }
}

ROOT_URLCONF = "planner.urls"
WSGI_APPLICATION = "planner.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "planner.web.context.team_currency",
            ],
        },
    },
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The web pages' own assets; listed only when the folder exists so a checkout without
# it raises no staticfiles.W004 warning.
STATICFILES_DIRS = [path for path in [BASE_DIR / "static"] if path.is_dir()]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# A scenario document may be as large as the library accepts (LIMITS["document_bytes"]);
# the API wraps it in a small object ({"scenario": ..., "schedulers": ...}), hence the margin.
PLANNER_MAX_BODY_BYTES = int(LIMITS["document_bytes"]) + 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = PLANNER_MAX_BODY_BYTES
# Anonymous requests and the sign-in endpoints (whoever calls them) send at most this much
# (planner.core.bodylimits): a stranger cannot make a worker read a large body.
PLANNER_SMALL_BODY_BYTES = env_int("PLANNER_SMALL_BODY_BYTES", 64 * 1024)
PLANNER_SIGN_IN_PATHS = ("/accounts/", "/api/auth/", "/admin/login/")
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

# How often a running part writes its progress (and notices a cancellation). Simulations
# call back about 100 times; this caps the writes.
PLANNER_RUN_PROGRESS_INTERVAL_S = 0.5
# Run parts (docs/architecture.md, "Bounds"): a worker holds a lease on the part it runs and
# renews it every HEARTBEAT_S; a lease not renewed for LEASE_S means the worker is gone, and
# the reaper (every REAP_INTERVAL_S) queues the part again, at most MAX_ATTEMPTS claims in
# all. So a dead worker's part is back in the queue within LEASE_S + REAP_INTERVAL_S (90 s).
# A queued part whose message is presumed lost is re-sent after RESEND_S (then 2x, 4x, ...).
PLANNER_PART_LEASE_S = env_int("PLANNER_PART_LEASE_S", 60)
PLANNER_PART_HEARTBEAT_S = env_int("PLANNER_PART_HEARTBEAT_S", 15)
PLANNER_PART_MAX_ATTEMPTS = env_int("PLANNER_PART_MAX_ATTEMPTS", 3)
PLANNER_PART_RESEND_S = env_int("PLANNER_PART_RESEND_S", 120)
PLANNER_REAP_INTERVAL_S = env_int("PLANNER_REAP_INTERVAL_S", 30)
# A worker process keeps the parsed scenario of the run it last ran a part of, for that run's
# next part (execution.held_scenario): only for a run of at most this many jobs (about 35 MB
# parsed for 100,000), so a big run's jobs are never held while another part computes.
PLANNER_PART_HOLD_JOBS = env_int("PLANNER_PART_HOLD_JOBS", 100_000)
# Uploads (planner/scenarios/importing.py): the worker importing one holds a lease, renewed
# with every progress write (reading reports at least every few MB; checking a million jobs
# takes tens of seconds without a report), so a lapsed lease means the worker is gone and
# a new delivery of the task may take the upload over. The import of a million-job file
# (read, check, store) takes minutes on a busy machine: benchmarks/RESULTS.md, "A million jobs".
PLANNER_UPLOAD_LEASE_S = env_int("PLANNER_UPLOAD_LEASE_S", 600)
PLANNER_UPLOAD_SOFT_TIME_LIMIT_S = env_int("PLANNER_UPLOAD_SOFT_TIME_LIMIT_S", 3600)
# Private folders of the parts' solver files (removed when a part ends, or by the reaper
# and a starting worker when their process died).
PLANNER_WORK_DIR = os.environ.get("PLANNER_WORK_DIR", str(Path(tempfile.gettempdir()) / "planner-work"))
# The most variants one run may list (a comparison's schedulers, an allocation study's
# policies, a sharing study's configurations): each is a part of the run. The defaults of every
# kind's parameters are the library's declarations (scheduling/<paper>/params.py).
PLANNER_MAX_VARIANTS_PER_RUN = env_int("PLANNER_MAX_VARIANTS_PER_RUN", 20)

REST_FRAMEWORK = {
    # Token first: an unauthenticated API request then gets 401 with a WWW-Authenticate
    # header instead of the 403 that session authentication alone would give.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "planner.accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # The only parsers: every endpoint reads its body by the same rules (planner.core.parsers),
    # and tests/planner/test_api_basics.py fails for a view that sets parsers of its own.
    "DEFAULT_PARSER_CLASSES": [
        "planner.core.parsers.StrictJSONParser",
        "planner.core.parsers.StrictFormParser",
        "planner.core.parsers.StrictMultiPartParser",
    ],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PAGINATION_CLASS": "planner.core.pagination.PageNumberPagination",
    "PAGE_SIZE": 25,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "planner.core.errors.api_exception_handler",
    # Sign-in endpoints (planner.accounts.throttles): per client address, in the shared cache.
    "DEFAULT_THROTTLE_RATES": {"sign-in": os.environ.get("PLANNER_SIGN_IN_RATE", "10/min")},
    "NUM_PROXIES": PLANNER_PROXY_COUNT or None,
    "STRICT_JSON": True,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Cluster What-If Planner API",
    "DESCRIPTION": (
        "Define VM types, clusters and workloads, run scheduler comparisons and read their "
        "results. Errors are 400 responses with `errors: [{path, message}]`; paths inside a "
        "scenario document are relative to the document (`jobs[3].executor.cpu`)."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Served from the drf-spectacular-sidecar package: the docs work without internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # The schema and the docs describe every endpoint and parameter: for signed-in users only.
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    # Lists as paginated, and the error answers every operation may give (planner.core.schema).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "planner.core.schema.document_errors_and_pages",
    ],
}

# --------------------------------------------------------------------------- Celery
# Read by celery_app through the CELERY_ namespace.
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]  # never pickle
CELERY_TASK_IGNORE_RESULT = True  # outcomes live on the run's row
CELERY_TASK_ACKS_LATE = True  # a task lost with its worker is delivered again ...
CELERY_TASK_REJECT_ON_WORKER_LOST = True  # ... including when the worker process dies
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # simulations are long: do not hoard messages
# A run part of a million jobs on 4,000 VMs (one scheduler, edf-bfd) took about half an hour on
# a busy 2-CPU machine (benchmarks/RESULTS.md, "A million jobs"); the limit leaves room for
# slower schedulers and several parts sharing the cores. Past it, the part fails with the reason.
CELERY_TASK_SOFT_TIME_LIMIT = env_int("PLANNER_TASK_SOFT_TIME_LIMIT_S", 4 * 3600)
CELERY_TASK_TIME_LIMIT = env_int("PLANNER_TASK_TIME_LIMIT_S", CELERY_TASK_SOFT_TIME_LIMIT + 60)
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = "planner"
# Run parts are sent at a lower priority than every other task (with Redis, 0 is the highest
# and the default): a worker that frees up reads the reaper's message (runs_reap, sent by beat
# to the same queue), a figures build or an import before the next of the queued parts, so a
# lost part is recovered within one part's duration however long the queue is
# (docs/architecture.md). The embedded default's filesystem broker ignores priorities.
PLANNER_PART_PRIORITY = 6
# Dedicated workers for heavy runs (docs/deploy.md): the parts of a run with at least
# PLANNER_HEAVY_RUN_JOBS jobs go to the queue PLANNER_HEAVY_QUEUE, which only the workers
# started with ``-Q planner-heavy`` (or ``-Q planner,planner-heavy``) consume. Empty (the
# default): every part goes to CELERY_TASK_DEFAULT_QUEUE.
# Fair queueing between teams (docs/architecture.md): a team has at most this many parts
# queued or running at once; a worker takes the waiting part of the team with the fewest
# running parts first, whatever message it reads.
PLANNER_TEAM_MAX_QUEUED_PARTS = env_int("PLANNER_TEAM_MAX_QUEUED_PARTS", 2000)
PLANNER_HEAVY_QUEUE = os.environ.get("PLANNER_HEAVY_QUEUE", "")
PLANNER_HEAVY_RUN_JOBS = env_int("PLANNER_HEAVY_RUN_JOBS", 100_000)
# A run on a stored workload of more jobs than this keeps the jobs as a copy of the workload's
# chunks instead of inside its scenario document (issue 19): the request that starts it checks
# them column by column and copies 13 MB instead of building and storing 144 MB of JSON; its
# parts read them back. At most this many, the run stores the whole document, as always.
PLANNER_RUN_INLINE_JOBS_MAX = env_int("PLANNER_RUN_INLINE_JOBS_MAX", 20_000)
CELERY_BEAT_SCHEDULE = {
    "runs-reap": {"task": "planner.runs.tasks.runs_reap", "schedule": float(PLANNER_REAP_INTERVAL_S)},
    "uploads-reap": {
        "task": "planner.scenarios.tasks.uploads_reap", "schedule": float(PLANNER_REAP_INTERVAL_S)
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("PLANNER_LOG_LEVEL", "INFO")},
}
