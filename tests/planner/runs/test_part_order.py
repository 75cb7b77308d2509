"""A new run's part messages go longest expected first (services.parts_send_order): the order
in which workers start them, from the recent running times of parts of the same kind and label."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from planner.runs import selectors, services
from planner.runs.models import Run, RunPart
from planner.runs.tasks import run_part_execute
from planner.teams.models import Team

pytestmark = pytest.mark.django_db

THREE = ["fifo-spread", "edf-bfd", "morpheus"]
Start = Callable[[list[str]], tuple[Run, list[str]]]


@pytest.fixture()
def start(
    team: Team, owner: Any, scenario_doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> Start:
    """Start a comparison of ``schedulers``; the run and its parts' labels in the order sent."""

    def started(schedulers: list[str]) -> tuple[Run, list[str]]:
        sent: list[dict[str, Any]] = []
        monkeypatch.setattr(run_part_execute, "apply_async", lambda **kwargs: sent.append(kwargs))
        with django_capture_on_commit_callbacks(execute=True):
            run = services.run_start(user=owner, team=team, scenario=scenario_doc, schedulers=schedulers)
        label = dict(RunPart.objects.filter(run=run).values_list("id", "label"))
        return run, [label[message["args"][0]] for message in sent]

    return started


def _ran(run: Run, seconds: dict[str, float], *, status: str = "succeeded", ago_s: float = 60.0) -> None:
    """Record ``run``'s parts as ended after ``seconds`` each (by label)."""
    end = timezone.now() - timedelta(seconds=ago_s)
    for part in RunPart.objects.filter(run=run):
        if part.label in seconds:
            RunPart.objects.filter(pk=part.pk).update(
                status=status, started_at=end - timedelta(seconds=seconds[part.label]), finished_at=end
            )


def test_without_history_the_parts_go_in_the_plans_order(start: Start) -> None:
    _, order = start(THREE)
    assert order == THREE


def test_the_longest_expected_part_goes_first_and_a_label_never_run_before_it(start: Start) -> None:
    earlier, _ = start(THREE)
    _ran(earlier, {"fifo-spread": 2.0, "edf-bfd": 0.5, "morpheus": 3.0})
    _, order = start(THREE)
    assert order == ["morpheus", "fifo-spread", "edf-bfd"]
    # edf-ilp never ran: it might be the longest, so it does not wait for the others.
    _, order = start([*THREE, "edf-ilp"])
    assert order == ["edf-ilp", "morpheus", "fifo-spread", "edf-bfd"]


def test_the_estimate_is_the_median_time_per_job_of_recent_successes(start: Start) -> None:
    runs = [
        start(["edf-bfd"])[0]
        for _ in range(4)
    ]
    jobs = runs[0].job_count
    assert jobs >= 1
    _ran(runs[0], {"edf-bfd": 1.0 * jobs})
    _ran(runs[1], {"edf-bfd": 3.0 * jobs})
    _ran(runs[2], {"edf-bfd": 2.0 * jobs})
    _ran(runs[3], {"edf-bfd": 100.0 * jobs}, status="failed")  # a failure says nothing of its length
    got = selectors.part_seconds_per_job(kind="compare", labels=["edf-bfd", "edf-ilp"])
    assert got == {"edf-bfd": pytest.approx(2.0)}
    assert selectors.part_seconds_per_job(kind="mrsu", labels=["edf-bfd"]) == {}  # another kind's parts


def test_only_the_most_recent_parts_count(start: Start) -> None:
    history = selectors.PART_HISTORY
    runs = [
        start(["edf-bfd"])[0]
        for _ in range(history + 1)
    ]
    jobs = runs[0].job_count
    _ran(runs[0], {"edf-bfd": 1000.0 * jobs}, ago_s=3600.0)  # the oldest: past the window
    for run in runs[1:]:
        _ran(run, {"edf-bfd": 1.0 * jobs})
    got = selectors.part_seconds_per_job(kind="compare", labels=["edf-bfd"])
    assert got == {"edf-bfd": pytest.approx(1.0)}
