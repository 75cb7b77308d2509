"""docker-compose.yml and the end-to-end harness describe the same topology.

No Docker engine runs in CI, so tests/e2e/planner_stack.py starts the compose file's processes
directly; this keeps the two from drifting apart.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = (ROOT / "docker-compose.yml").read_text()
HARNESS = (ROOT / "tests" / "e2e" / "planner_stack.py").read_text()


def services() -> dict[str, str]:
    """Top-level services and their text blocks (a small reader for this file's layout)."""
    body = COMPOSE.split("\nservices:\n", 1)[1].split("\nvolumes:\n", 1)[0]
    blocks = re.split(r"^  (?=[a-z][\w-]*:\s*$)", body, flags=re.M)
    return {b.split(":", 1)[0]: b for b in blocks if b.strip()}


def test_compose_has_web_worker_redis_and_postgres():
    s = services()
    assert {"web", "worker", "redis", "db"} <= set(s)
    assert "gunicorn" in s["web"] and "planner.wsgi:application" in s["web"]
    assert '"celery", "-A", "celery_app", "worker"' in s["worker"]
    # Workers scale (several replicas, several machines); the beat is one service of its own.
    assert "--beat" not in s["worker"] and "replicas" not in s["beat"]
    assert '"celery", "-A", "celery_app", "beat"' in s["beat"]
    assert "image: redis:" in s["redis"] and "image: postgres:" in s["db"]
    assert "DJANGO_SETTINGS_MODULE: planner.settings.prod" in COMPOSE
    assert "CELERY_BROKER_URL: redis://redis:6379/0" in COMPOSE
    assert "DATABASE_URL: postgres://" in COMPOSE


def test_harness_starts_the_same_processes_with_the_same_settings():
    assert '"gunicorn"' in HARNESS and "planner.wsgi:application" in HARNESS
    assert '"celery"' in HARNESS and '"-A", "celery_app", "worker"' in HARNESS
    assert '"-A", "celery_app", "beat"' in HARNESS  # test_distributed: workers without a beat, one beat
    assert '"DJANGO_SETTINGS_MODULE": "planner.settings.prod"' in HARNESS
    assert '"CELERY_BROKER_URL": f"redis://' in HARNESS
    assert '"DATABASE_URL": f"postgres://' in HARNESS
    for step in ('"migrate"', '"collectstatic"'):
        assert step in HARNESS and step.strip('"') in COMPOSE + (ROOT / "Dockerfile").read_text()


def test_dockerfile_copies_every_package_the_app_imports():
    dockerfile = (ROOT / "Dockerfile").read_text()
    for path in ("scheduling", "planner", "celery_app", "templates", "static", "manage.py", "pyproject.toml"):
        assert f"COPY {path}" in dockerfile, path


def test_dockerfile_builds_the_compiled_core_for_each_copy_of_the_package():
    # scheduling/compiled.py finds a build beside the package it imports: /app's (the working
    # directory of gunicorn and celery) and the installed one; a failed build fails the image.
    dockerfile = (ROOT / "Dockerfile").read_text()
    run = dockerfile[dockerfile.index("pip install --no-deps ."):]
    assert "python -m scheduling compile && (cd / && python -m scheduling compile)" in run
    assert "--warn-only" not in run
    assert run.index("gcc") < run.index("python -m scheduling compile") < run.index("apt-get purge")


def test_workers_yield_the_cpu_to_the_web_in_both():
    """compose's worker containers and the harness's workers run at about the same low priority
    (docs/deploy.md, "Web processes"): `nice 10` is a CPU weight of 110 against the web's 1024."""
    s = services()
    shares = re.search(r"^\s+cpu_shares: (\d+)\s*$", s["worker"], flags=re.M)
    assert shares, s["worker"]
    assert int(shares.group(1)) <= 1024 // 8  # at most an eighth of the web's default 1024
    assert all("cpu_shares" not in s[name] for name in ("web", "db", "redis"))
    assert '"nice", "-n", "10"' in HARNESS
