"""Settings per environment, the Celery configuration, and `check --deploy` in production."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from celery_app import app
from planner.settings.env import database_from_url, env_bool
from scheduling import LIMITS

ROOT = Path(__file__).resolve().parents[3]

PROD_ENV = {
    "DJANGO_SETTINGS_MODULE": "planner.settings.prod",
    "SECRET_KEY": "k3y-" + "x9Zq!7vB" * 8,
    "ALLOWED_HOSTS": "planner.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://planner.example.org",
    "DATABASE_URL": "postgres://planner:secret@db.example.org:5432/planner",
    "CELERY_BROKER_URL": "redis://redis.example.org:6379/0",
    "SECURE_SSL_REDIRECT": "true",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true",
    "SESSION_COOKIE_SECURE": "true",
    "CSRF_COOKIE_SECURE": "true",
}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "SECURE_", "DATABASE_", "POSTGRES_"))
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_celery_uses_json_only_late_acks_and_time_limits() -> None:
    conf = app.conf
    assert conf.task_serializer == "json"
    assert conf.accept_content == ["json"]
    assert conf.result_serializer == "json"
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert 0 < conf.task_soft_time_limit < conf.task_time_limit


def test_the_run_task_is_registered_under_its_documented_name() -> None:
    import planner.runs.tasks  # noqa: F401

    assert {"planner.runs.tasks.run_part_execute", "planner.runs.tasks.runs_reap"} <= set(app.tasks)
    assert settings.CELERY_BEAT_SCHEDULE["runs-reap"]["task"] == "planner.runs.tasks.runs_reap"


def test_request_size_limit_matches_the_library_document_limit() -> None:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert limit == settings.PLANNER_MAX_BODY_BYTES
    # room for the document plus the small object that wraps it, not much more
    assert LIMITS["document_bytes"] < limit <= LIMITS["document_bytes"] * 1.1


def test_web_and_report_apps_are_installed() -> None:
    assert "planner.web" in settings.INSTALLED_APPS
    assert "planner.reports" in settings.INSTALLED_APPS


def test_check_deploy_is_clean_with_production_environment() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PROD_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_https_hardening_is_configurable_and_check_deploy_notices() -> None:
    env = {
        **PROD_ENV,
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_HSTS_SECONDS": "0",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
    }
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr + result.stdout


def test_production_refuses_to_start_without_a_secret_key() -> None:
    env = {k: v for k, v in PROD_ENV.items() if k != "SECRET_KEY"}
    result = manage("check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_database_url_is_parsed() -> None:
    db = database_from_url("postgres://u:p%40ss@db.example.org:5433/planner?sslmode=require")
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["USER"], db["PASSWORD"], db["HOST"], db["PORT"], db["NAME"]) == (
        "u", "p@ss", "db.example.org", "5433", "planner"
    )
    assert db["OPTIONS"] == {"sslmode": "require"}
    with pytest.raises(ValueError):
        database_from_url("mysql://u@h/db")


def test_environment_flags_are_strict() -> None:
    os.environ["PLANNER_TEST_FLAG"] = "maybe"
    try:
        with pytest.raises(ValueError):
            env_bool("PLANNER_TEST_FLAG", True)
    finally:
        del os.environ["PLANNER_TEST_FLAG"]
    assert env_bool("PLANNER_TEST_FLAG_UNSET", True) is True


def test_without_hsts_preload_check_deploy_says_only_that() -> None:
    """HSTS preload is the deployment's choice (docs/deploy.md): off by default, and then the one
    thing ``check --deploy`` reports is security.W021."""
    env = {k: v for k, v in PROD_ENV.items() if k != "SECURE_HSTS_PRELOAD"}
    result = manage("check", "--deploy", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    output = result.stdout + result.stderr
    assert "security.W021" in output and "1 issue" in output


def test_a_web_process_loads_every_view_at_start_and_freezes_it_out_of_the_collector() -> None:
    """planner.wsgi: the URLconf is loaded before the first request, and what was loaded is
    frozen, so a full garbage collection in a request does not scan it."""
    code = (
        "import gc, sys; import planner.wsgi; "
        "print(gc.get_freeze_count(), len(gc.get_objects()), 'planner.runs.apis' in sys.modules)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env["DJANGO_SETTINGS_MODULE"] = "planner.settings.test"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    frozen, tracked, views_loaded = result.stdout.split()
    assert int(frozen) > 50_000 and int(tracked) < 1_000 and views_loaded == "True"
