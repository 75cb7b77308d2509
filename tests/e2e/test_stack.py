"""End to end on the production topology of docker-compose.yml, started as plain processes.

PostgreSQL (a fresh database on 127.0.0.1:5432), Redis (127.0.0.1:6379) as the Celery
broker, gunicorn serving ``planner.wsgi`` with the production settings, and a real Celery
worker process. A run submitted through the REST API completes on the worker, its results
equal what the library computes in-process (the CLI path), and its reports download.

Skipped when PostgreSQL or Redis is not reachable, unless ``PLANNER_REQUIRE_SERVICES=1``
(as in CI), in which case a missing service fails the test.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PG = ("127.0.0.1", 5432)
REDIS = ("127.0.0.1", 6379)
REDIS_DB = 13  # kept apart from anything else on the machine's Redis

pytestmark = pytest.mark.e2e


def _reachable(addr: tuple[str, int]) -> bool:
    try:
        with socket.create_connection(addr, timeout=2):
            return True
    except OSError:
        return False


def _require_services() -> None:
    missing = [name for name, addr in (("PostgreSQL", PG), ("Redis", REDIS)) if not _reachable(addr)]
    if missing:
        msg = f"{' and '.join(missing)} not reachable on 127.0.0.1"
        if os.environ.get("PLANNER_REQUIRE_SERVICES") == "1":
            pytest.fail(msg)
        pytest.skip(msg)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stack:
    def __init__(self, tmp: Path):
        import psycopg

        self.db = f"planner_e2e_{secrets.token_hex(4)}"
        with psycopg.connect(host=PG[0], port=PG[1], user="postgres", dbname="test", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.db}"')
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "planner.settings.prod",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_URL": f"postgres://postgres@{PG[0]}:{PG[1]}/{self.db}",
            "CELERY_BROKER_URL": f"redis://{REDIS[0]}:{REDIS[1]}/{REDIS_DB}",
            "SECURE_SSL_REDIRECT": "false",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
            "STATIC_ROOT": str(tmp / "static"),
            "PYTHONPATH": str(ROOT),
        }
        self.logs = tmp
        self.procs: list[subprocess.Popen[bytes]] = []
        self._redis_flush()

    def _redis_flush(self) -> None:
        import redis

        redis.Redis(host=REDIS[0], port=REDIS[1], db=REDIS_DB).flushdb()

    def manage(self, *args: str) -> None:
        subprocess.run([str(BIN / "python"), "manage.py", *args], cwd=ROOT, env=self.env, check=True,
                       capture_output=True, timeout=300)

    def start(self, name: str, *cmd: str) -> subprocess.Popen[bytes]:
        log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(list(cmd), cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        self.procs.append(proc)
        return proc

    def up(self) -> None:
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")
        self.manage("planner_demo")
        self.start("web", str(BIN / "gunicorn"), "planner.wsgi:application", "--bind", f"127.0.0.1:{self.port}",
                   "--workers", "2", "--timeout", "120")
        self.start("worker", str(BIN / "celery"), "-A", "celery_app", "worker", "--pool=solo", "--loglevel=INFO")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.base}/accounts/login/", timeout=5) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.5)
        raise AssertionError(f"gunicorn did not answer; log:\n{self.log('web')}")

    def log(self, name: str) -> str:
        path = self.logs / f"{name}.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def down(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        import psycopg

        with psycopg.connect(host=PG[0], port=PG[1], user="postgres", dbname="test", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)')
        self._redis_flush()

    # ---------------------------------------------------------------- HTTP

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, dict[str, str], bytes]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Token {token}")
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    _require_services()
    s = Stack(tmp_path_factory.mktemp("stack"))
    try:
        s.up()
        yield s
    finally:
        s.down()


def _wait(stack: Stack, token: str, run_id: int, timeout: float = 600) -> tuple[dict[str, Any], list[float]]:
    seen: list[float] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, _, body = stack.call("GET", f"/api/runs/{run_id}/progress/", token=token)
        assert status == 200, body
        p = json.loads(body)
        seen.append(float(p["progress"]))
        if p["status"] in ("succeeded", "failed", "cancelled"):
            return p, seen
        time.sleep(0.3)
    raise AssertionError(f"run {run_id} did not finish; worker log:\n{stack.log('worker')}")


def test_run_through_the_api_on_the_real_stack(stack: Stack) -> None:
    from scheduling import compare, load_scenario_json

    status, _, body = stack.call("POST", "/api/auth/token/", {"username": "demo", "password": "demo-planner"})
    assert status == 200, body
    token = json.loads(body)["token"]

    scenario_text = (ROOT / "examples" / "paper003-light.json").read_text()
    schedulers = ["fifo-spread", "edf-bfd", "edf-ilp"]
    status, _, body = stack.call(
        "POST", "/api/runs/", {"scenario": json.loads(scenario_text), "schedulers": schedulers, "seed": 3}, token=token
    )
    assert status == 201, body
    run_id = json.loads(body)["id"]

    final, seen = _wait(stack, token, run_id)
    assert final["status"] == "succeeded", (final, stack.log("worker"))
    assert seen == sorted(seen) and seen[-1] == 1.0

    # The worker's results are exactly what the library computes in-process (the CLI path).
    expected = compare(load_scenario_json(scenario_text), schedulers=schedulers, seed=3)
    for name in schedulers:
        status, _, body = stack.call("GET", f"/api/runs/{run_id}/results/{name}/", token=token)
        assert status == 200, body
        got = json.loads(body)
        got = got.get("result", got)
        assert got["total_cost"] == pytest.approx(expected[name].total_cost, rel=1e-12)
        assert got["deadline_missed"] == expected[name].deadline_missed

    for fmt, content_type, magic in (("csv", "text/csv", b"\xef\xbb\xbf"), ("xlsx", "spreadsheetml", b"PK"), ("pdf", "application/pdf", b"%PDF")):
        status, headers, body = stack.call("GET", f"/api/runs/{run_id}/report/{fmt}/", token=token)
        assert status == 200, body[:500]
        assert content_type in headers["Content-Type"]
        assert "attachment" in headers.get("Content-Disposition", "")
        assert body.startswith(magic)


def test_bad_input_and_outsiders_on_the_real_stack(stack: Stack) -> None:
    status, _, body = stack.call("POST", "/api/auth/token/", {"username": "demo", "password": "demo-planner"})
    token = json.loads(body)["token"]
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["jobs"][3]["executor"]["cpu"] = -1
    status, _, body = stack.call("POST", "/api/runs/", {"scenario": doc, "schedulers": ["edf-bfd"]}, token=token)
    assert status == 400
    assert any(e["path"] == "jobs[3].executor.cpu" for e in json.loads(body)["errors"])
    status, _, _ = stack.call("GET", "/api/runs/", token="not-a-token")
    assert status in (401, 403)


def test_cancel_a_running_run(stack: Stack) -> None:
    status, _, body = stack.call("POST", "/api/auth/token/", {"username": "demo", "password": "demo-planner"})
    token = json.loads(body)["token"]
    scenario = json.loads((ROOT / "examples" / "paper003-high.json").read_text())
    # Many schedulers so that the run is still going when the cancel arrives.
    schedulers = [f"{o}-{p}" for o in ("fifo", "edf", "morpheus") for p in ("bfd", "consolidate", "spread", "ilp")] * 2
    schedulers = [f"{s}:min_billed_s={k}" for k, s in enumerate(schedulers[:20])]
    status, _, body = stack.call("POST", "/api/runs/", {"scenario": scenario, "schedulers": schedulers}, token=token)
    assert status == 201, body
    run_id = json.loads(body)["id"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        _, _, body = stack.call("GET", f"/api/runs/{run_id}/progress/", token=token)
        if json.loads(body)["status"] == "running":
            break
        time.sleep(0.1)
    status, _, body = stack.call("POST", f"/api/runs/{run_id}/cancel/", token=token)
    assert status in (200, 202), body
    final, _ = _wait(stack, token, run_id, timeout=300)
    assert final["status"] == "cancelled", final
