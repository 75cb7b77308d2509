"""Parts are sent below every other task's priority: on Redis, a worker that frees up reads the
reaper's message before the parts queued ahead of it (the recovery bound of a lost part)."""

from __future__ import annotations

import os
import socket
import uuid
from typing import Any

import pytest
from kombu import Connection

from celery_app import app
from planner.runs import services

REDIS = "redis://127.0.0.1:6379/14"


def _redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture()
def redis() -> Any:
    if not _redis_up():
        if os.environ.get("PLANNER_REQUIRE_SERVICES") == "1":
            pytest.fail("Redis not reachable on 127.0.0.1")
        pytest.skip("Redis not reachable on 127.0.0.1")
    with Connection(REDIS) as conn:
        yield conn


@pytest.mark.django_db
def test_the_reaper_is_read_before_the_parts_queued_ahead_of_it(
    redis: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    queue = f"priority-test-{uuid.uuid4().hex}"
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr("planner.runs.tasks.run_part_execute.apply_async", lambda **kw: sent.append(kw))
    assert services.parts_send([(101, "part-101"), (102, "part-102"), (103, "part-103")]) == 3
    # The parts' messages as parts_send sends them, then the reaper's as beat sends it (no
    # priority of its own), all to one queue of a real Redis.
    for kw in sent:
        app.send_task("planner.runs.tasks.run_part_execute", args=kw["args"], task_id=kw["task_id"],
                      queue=queue, priority=kw.get("priority"), connection=redis)
    app.send_task("planner.runs.tasks.runs_reap", queue=queue, connection=redis)
    read = []
    with redis.SimpleQueue(queue) as q:
        try:
            for _ in range(4):
                message = q.get(timeout=10)
                read.append(message.headers["task"])
                message.ack()
        finally:
            q.clear()
    assert read == ["planner.runs.tasks.runs_reap", *["planner.runs.tasks.run_part_execute"] * 3]
