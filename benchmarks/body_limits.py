"""Anonymous oversized bodies against gunicorn (3 sync workers) on 127.0.0.1: how long four
concurrent 60 MB POSTs hold the workers, how long a login page takes meanwhile, and the
workers' memory afterwards (docs/reliability.md, "Security").

    python benchmarks/body_limits.py [--tree PATH] [--port 8765]

``--tree`` runs another checkout (the figures before the fix came from the commit before
the body limits). Uses the embedded default's settings with a throwaway var folder (SQLite).
Sends traffic to 127.0.0.1 only; every request has a timeout, and the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

BODY_MB = 60
CONCURRENT = 4


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [int(p) for p in out]


def post_big(port: int, path: str, results: list[dict[str, float]]) -> None:
    body = b'{"username": "' + b"x" * (BODY_MB * 2**20) + b'", "password": "p"}'
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    status = -1
    try:
        conn.putrequest("POST", path)
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(len(body)))
        conn.endheaders()
        try:
            view = memoryview(body)
            for i in range(0, len(body), 1 << 20):
                conn.send(view[i:i + (1 << 20)])
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before reading it all: what a limit should do
        status = conn.getresponse().status
    except Exception:  # a reset after an early answer is still an answer
        status = status if status != -1 else 0
    finally:
        conn.close()
    results.append({"status": status, "seconds": time.perf_counter() - start})


def get_login(port: int) -> float:
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    conn.request("GET", "/accounts/login/")
    conn.getresponse().read()
    conn.close()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    tree = Path(args.tree)
    python = sys.executable
    var = tempfile.mkdtemp(prefix="planner-bench-")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "planner.settings.dev", "PLANNER_VAR_DIR": var,
           "PYTHONPATH": str(tree)}
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=tree, env=env, check=True)
    server = subprocess.Popen(
        [python, "-m", "gunicorn", "planner.wsgi:application", "--bind", f"127.0.0.1:{args.port}",
         "--workers", "3", "--timeout", "120"], cwd=tree, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                get_login(args.port)
                break
            except OSError:
                time.sleep(0.2)
        workers = children(server.pid)
        before = sum(rss_mb(p) for p in workers)
        results: list[dict[str, float]] = []
        threads = [threading.Thread(target=post_big, args=(args.port, "/api/auth/token/", results))
                   for _ in range(CONCURRENT)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        time.sleep(0.5)
        login_s = get_login(args.port)
        for t in threads:
            t.join(timeout=400)
        wall = time.perf_counter() - start
        time.sleep(2)
        after = sum(rss_mb(p) for p in children(server.pid))
        print(json.dumps({
            "tree": str(tree), "requests": CONCURRENT, "body_mb": BODY_MB,
            "statuses": sorted(int(r["status"]) for r in results),
            "slowest_request_s": round(max(r["seconds"] for r in results), 2),
            "all_answered_s": round(wall, 2), "login_page_meanwhile_s": round(login_s, 2),
            "workers_rss_before_mb": round(before), "workers_rss_after_mb": round(after),
        }, indent=2))
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
