"""Fair queueing between teams on the real stack: one team's big run does not starve another's.

One worker process (the worst case: one slot), team A's run of many slow parts, then team B's
one-part run: B's part is the next to start once the part under way ends, before any of A's
parts that were waiting; B's wait is at most about one of A's parts. The measured figures are
printed (``-s``) and recorded in docs/reliability.md.
"""

from __future__ import annotations

import json
import time
from datetime import datetime
from typing import Any

import pytest

from tests.e2e.planner_stack import ROOT, Stack

pytestmark = pytest.mark.e2e

SLOW = "edf-ilp:ilp_method=binary"


@pytest.fixture(scope="module")
def stack_options() -> dict[str, Any]:
    return {"worker_concurrency": 1}


def scenario(jobs: int) -> dict[str, Any]:
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["jobs"] = doc["jobs"][:jobs]
    doc["name"] = f"first {jobs} jobs"
    return doc


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_a_small_run_of_another_team_waits_for_at_most_one_part(stack: Stack) -> None:
    token_a = stack.token()
    token_b, team_b = stack.other_team()

    # Team A: eight parts of a few seconds each, on a worker with one process.
    big = [SLOW, *(f"{SLOW},rut.cpu={w},rut.mem={1 - w}" for w in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9))]
    status, _, body = stack.call("POST", "/api/runs/", {"scenario": scenario(150), "schedulers": big},
                                 token=token_a)
    assert status == 201, body
    run_a = json.loads(body)["id"]

    def parts_of(token: str, run_id: int) -> list[dict[str, Any]]:
        status, _, body = stack.call("GET", f"/api/runs/{run_id}/progress/", token=token)
        assert status == 200, body
        return list(json.loads(body)["parts"])

    deadline = time.monotonic() + 300
    while not any(p["status"] == "running" for p in parts_of(token_a, run_a)):
        assert time.monotonic() < deadline, stack.log("worker")
        time.sleep(0.3)

    status, _, body = stack.call(
        "POST", "/api/runs/", {"team": team_b, "scenario": scenario(40), "schedulers": ["edf-bfd"]},
        token=token_b,
    )
    assert status == 201, body
    created = json.loads(body)
    run_b = created["id"]
    final_b, _ = stack.wait_for_run(token_b, run_b, timeout=600)
    assert final_b["status"] == "succeeded", final_b
    b_started = when(final_b["parts"][0]["started_at"])
    submitted = when(created["created_at"])

    # Team A's parts that started after B's run was submitted and before B's part: none.
    a_parts = parts_of(token_a, run_a)
    overtook = [p for p in a_parts if p["started_at"] and submitted < when(p["started_at"]) < b_started]
    assert overtook == [], (overtook, final_b)
    waiting_a = [p for p in a_parts if p["status"] == "queued" or
                 (p["started_at"] and when(p["started_at"]) > b_started)]
    assert waiting_a, "team A still had parts waiting when B's part started"

    final_a, _ = stack.wait_for_run(token_a, run_a, timeout=900)
    assert final_a["status"] == "succeeded", final_a
    durations = sorted(
        (when(p["finished_at"]) - when(p["started_at"])).total_seconds() for p in final_a["parts"]
    )
    wait = (b_started - submitted).total_seconds()
    print(f"\nfair queue: B waited {wait:.1f} s; A's parts took {durations[0]:.1f}-{durations[-1]:.1f} s "
          f"(median {durations[len(durations) // 2]:.1f} s); {len(big)} parts of A on one worker process")
