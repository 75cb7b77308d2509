"""The production topology of docker-compose.yml started as plain processes, for the
end-to-end tests and the web benchmarks: a fresh PostgreSQL database, Redis as the Celery
broker, gunicorn with the production settings and a real Celery worker process."""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PG = ("127.0.0.1", 5432)
REDIS = ("127.0.0.1", 6379)
REDIS_DB = 13  # kept apart from anything else on the machine's Redis


def _reachable(addr: tuple[str, int]) -> bool:
    try:
        with socket.create_connection(addr, timeout=2):
            return True
    except OSError:
        return False


def missing_services() -> list[str]:
    return [name for name, addr in (("PostgreSQL", PG), ("Redis", REDIS)) if not _reachable(addr)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# What a request to a server that is still starting (or too busy to answer yet) may raise:
# OSError covers a refused or reset connection (ConnectionError), a connection or a read that
# timed out (TimeoutError, alias socket.timeout) and urllib's URLError that wraps them or
# reports an HTTP error status; HTTPException covers a server that closed the connection
# before answering (RemoteDisconnected) or sent half an answer.
NOT_READY_YET = (OSError, http.client.HTTPException)


def wait_until_answers(
    url: str, *, timeout_s: float, request_timeout_s: float = 5, pause_s: float = 0.5
) -> bool:
    """Whether ``url`` answers 200 within about ``timeout_s`` seconds.

    Every failure of a request counts as "not ready yet" and is tried again after
    ``pause_s``: a busy machine makes the first requests time out, not only be refused.
    """
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(url, timeout=request_timeout_s) as r:
                if r.status == 200:
                    return True
        except NOT_READY_YET:
            pass
        if time.monotonic() + pause_s >= deadline:
            return False
        time.sleep(pause_s)


class Stack:
    def __init__(self, tmp: Path, *, web_workers: int = 2, worker_concurrency: int = 2,
                 env: dict[str, str] | None = None, worker: bool = True, redis_db: int | None = None):
        import psycopg

        self.db = f"planner_e2e_{secrets.token_hex(4)}"
        with psycopg.connect(host=PG[0], port=PG[1], user="postgres", dbname="test", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.db}"')
        self.port = _free_port()
        self.web_workers = web_workers
        self.worker_concurrency = worker_concurrency
        self.with_worker = worker  # False: the test starts its own workers (and beat)
        # Benchmarks use another database than the tests' (REDIS_DB, read when the stack starts).
        redis_db = REDIS_DB if redis_db is None else redis_db
        self.redis_db = redis_db
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "planner.settings.prod",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_URL": f"postgres://postgres@{PG[0]}:{PG[1]}/{self.db}",
            "CELERY_BROKER_URL": f"redis://{REDIS[0]}:{REDIS[1]}/{redis_db}",
            "SECURE_SSL_REDIRECT": "false",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
            "STATIC_ROOT": str(tmp / "static"),
            "PYTHONPATH": str(ROOT),
            "PLANNER_WORK_DIR": str(tmp / "work"),
            **(env or {}),
        }
        self.logs = tmp
        self.procs: list[subprocess.Popen[bytes]] = []
        self._redis_flush()

    def _redis_flush(self) -> None:
        import redis

        redis.Redis(host=REDIS[0], port=REDIS[1], db=self.redis_db).flushdb()

    def manage(self, *args: str) -> None:
        subprocess.run([str(BIN / "python"), "manage.py", *args], cwd=ROOT, env=self.env, check=True,
                       capture_output=True, timeout=300)

    def start(
        self, name: str, *cmd: str, env: dict[str, str] | None = None, cwd: Path | None = None
    ) -> subprocess.Popen[bytes]:
        log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(list(cmd), cwd=cwd or ROOT, env={**self.env, **(env or {})}, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
        self.procs.append(proc)
        return proc

    def up(self) -> None:
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")
        self.manage("planner_demo")
        self.start("web", str(BIN / "gunicorn"), "planner.wsgi:application",
                   "--bind", f"127.0.0.1:{self.port}", "--workers", str(self.web_workers), "--timeout", "120")
        if self.with_worker:
            self.start_worker()
        if not wait_until_answers(f"{self.base}/accounts/login/", timeout_s=60):
            raise AssertionError(f"gunicorn did not answer; log:\n{self.log('web')}")

    def start_worker(
        self, name: str = "worker", *, beat: bool = True, node: str | None = None,
        env: dict[str, str] | None = None, cwd: Path | None = None, concurrency: int | None = None,
        wrap: Callable[[list[str]], list[str]] | None = None,
    ) -> subprocess.Popen[bytes]:
        """A Celery worker as docker-compose runs it: one process per core (prefork's default)
        and, with ``beat``, the embedded beat (the reaper). Simulations are batch work: at a
        lower CPU priority than the web processes, a busy worker does not slow down pages and
        API calls (docker-compose: ``cpu_shares: 128``, about the same weight). ``node`` is its
        ``-n`` name (``worker@host``), ``env`` and ``cwd`` what differs on its machine (a working
        directory, a temp folder); ``wrap`` what the command is given to (a function of the
        command line: one that enters a memory limit first, ``memory_limit.MemoryLimit.enter``)."""
        cmd = ["nice", "-n", "10", str(BIN / "celery"), "-A", "celery_app", "worker", "--pool=prefork",
               f"--concurrency={concurrency or self.worker_concurrency}", "--loglevel=INFO"]
        if node:
            cmd += ["-n", node]
        if beat:
            cmd += ["--beat", "--schedule", str(self.logs / f"{name}-beat-schedule")]
        return self.start(name, *(wrap(cmd) if wrap else cmd), env=env, cwd=cwd)

    def start_beat(self, name: str = "beat") -> subprocess.Popen[bytes]:
        """The one beat of a deployment whose workers run without one (docker-compose's ``beat``)."""
        return self.start(name, str(BIN / "celery"), "-A", "celery_app", "beat",
                          "--schedule", str(self.logs / f"{name}-schedule"), "--loglevel=INFO")

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

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, dict[str, str], bytes]:
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


    def token(self, username: str = "demo", password: str = "demo-planner") -> str:
        status, _, body = self.call("POST", "/api/auth/token/", {"username": username, "password": password})
        assert status == 200, body
        return str(json.loads(body)["token"])

    def other_team(self, username: str = "bob", password: str = "bob-planner-pw") -> tuple[str, int]:
        """A second user with a team of their own: (their token, their team's id)."""
        self.manage("shell", "-c", (
            "from django.contrib.auth import get_user_model; "
            f"get_user_model().objects.create_user({username!r}, password={password!r})"
        ))
        token = self.token(username, password)
        status, _, body = self.call("POST", "/api/teams/", {"name": f"Team of {username}"}, token=token)
        assert status == 201, body
        return token, int(json.loads(body)["id"])

    def browser_session(
        self, username: str = "demo", password: str = "demo-planner"
    ) -> urllib.request.OpenerDirector:
        """An HTTP client signed in through the login form (session cookie + CSRF)."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        opener.open(f"{self.base}/accounts/login/", timeout=30).read()
        csrf = next(c.value for c in jar if c.name == "csrftoken")
        form = {"username": username, "password": password, "csrfmiddlewaretoken": csrf}
        data = urllib.parse.urlencode(form).encode()
        login = f"{self.base}/accounts/login/"
        req = urllib.request.Request(login, data=data, headers={"Referer": login})
        opener.open(req, timeout=30).read()
        assert any(c.name == "sessionid" for c in jar), "login failed"
        return opener

    def wait_for_run(
        self, token: str, run_id: int, timeout: float = 600
    ) -> tuple[dict[str, Any], list[float]]:
        seen: list[float] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, _, body = self.call("GET", f"/api/runs/{run_id}/progress/", token=token)
            assert status == 200, body
            p = json.loads(body)
            seen.append(float(p["progress"]))
            if p["status"] in ("succeeded", "failed", "cancelled"):
                return p, seen
            time.sleep(0.3)
        raise AssertionError(f"run {run_id} did not finish; worker log:\n{self.log('worker')}")


T = TypeVar("T", bound=tuple[Any, ...])


def runs_by_concurrency(
    run_once: Callable[[Stack, str], T], repeats: int, concurrencies: tuple[int, ...] = (1, 2)
) -> list[tuple[int, list[T]]]:
    """A benchmark's runs on a fresh stack per worker concurrency: for each, one warm-up run
    (imports, first connections; not kept), then ``repeats`` runs of ``run_once(stack, token)``,
    whose first item is the run's seconds (printed to stderr as each concurrency ends)."""
    rows: list[tuple[int, list[T]]] = []
    for concurrency in concurrencies:
        with tempfile.TemporaryDirectory() as tmp:
            stack = Stack(Path(tmp), web_workers=1, worker_concurrency=concurrency)
            try:
                stack.up()
                token = stack.token()
                run_once(stack, token)
                results = [run_once(stack, token) for _ in range(repeats)]
            finally:
                stack.down()
        rows.append((concurrency, results))
        print(f"concurrency {concurrency}: {[round(float(r[0]), 2) for r in results]}", file=sys.stderr)
    return rows
