"""Production: everything from environment variables.

Required: ``SECRET_KEY``, ``ALLOWED_HOSTS`` and a database (``DATABASE_URL`` such as
``postgres://user:pass@host:5432/planner`` or ``POSTGRES_DB``/``POSTGRES_USER``/
``POSTGRES_PASSWORD``/``POSTGRES_HOST``/``POSTGRES_PORT``). ``CELERY_BROKER_URL`` points at
Redis (default ``redis://localhost:6379/0``).

HTTPS hardening is on by default and each part can be turned off for a deployment that
terminates TLS elsewhere: ``SECURE_SSL_REDIRECT``, ``SECURE_HSTS_SECONDS``,
``SECURE_HSTS_INCLUDE_SUBDOMAINS``, ``SECURE_HSTS_PRELOAD``, ``SESSION_COOKIE_SECURE``,
``CSRF_COOKIE_SECURE``, ``SECURE_PROXY_SSL_HEADER`` (``X-Forwarded-Proto`` when set to
``1``), ``CSRF_TRUSTED_ORIGINS`` (comma-separated ``https://host`` origins).
"""

from __future__ import annotations

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .env import database_from_url, env_bool, env_int, env_list


def _required(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(f"the environment variable {name} is required in production")
    return value


DEBUG = False
SECRET_KEY = _required("SECRET_KEY")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("the environment variable ALLOWED_HOSTS is required in production")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

if os.environ.get("DATABASE_URL"):
    _database = database_from_url(os.environ["DATABASE_URL"])
else:
    _database = {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": os.environ.get("POSTGRES_DB", "planner"),
        "USER": os.environ.get("POSTGRES_USER", "planner"),
        "PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
        "HOST": os.environ.get("POSTGRES_HOST", "localhost"),
        "PORT": os.environ.get("POSTGRES_PORT", "5432"),
    }
_database["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 60)
_database["CONN_HEALTH_CHECKS"] = True
DATABASES = {"default": _database}

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "redis://localhost:6379/0")
# The shared cache (the sign-in throttle's counts): Redis, a database of its own.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": os.environ.get("PLANNER_CACHE_URL", "redis://localhost:6379/1"),
    }
}
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # Redis re-delivers an unacknowledged message after the visibility timeout; with
    # acks_late that must outlast the longest run or a second worker would start it.
    "visibility_timeout": max(3600, CELERY_TASK_TIME_LIMIT + 600),  # noqa: F405
}

SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", str(STATIC_ROOT)))  # noqa: F405
