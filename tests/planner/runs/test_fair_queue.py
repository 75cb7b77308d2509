"""Fair queueing between teams: one team's many parts never hold another team's part back.

Messages are tokens (``execution.part_claim``): a worker reading a message of a team that
already has parts running takes the oldest queued part of a team with fewer running parts
instead, and the two parts swap their messages, so every queued part keeps exactly one.
"""

from __future__ import annotations

from typing import Any

import pytest

from planner.core.errors import InputError
from planner.runs import execution, services
from planner.runs.models import Run, RunPart
from planner.teams.models import Team
from tests.planner.conftest import make_scenario_doc

pytestmark = pytest.mark.django_db

BIG = ["fifo-consolidate", "edf-bfd", "morpheus", "fifo-spread", "edf-bfd:rut.cpu=0.5,rut.mem=0.5"]


def parts(run: Run) -> list[RunPart]:
    return list(RunPart.objects.filter(run=run).order_by("position"))


@pytest.fixture
def big(team: Team, owner: Any, scenario_doc: dict[str, Any]) -> Run:
    return services.run_start(user=owner, team=team, scenario=scenario_doc, schedulers=BIG)


@pytest.fixture
def small(other_team: Team, outsider: Any) -> Run:
    doc = make_scenario_doc(jobs=10)
    return services.run_start(user=outsider, team=other_team, scenario=doc, schedulers=["edf-bfd"])


def test_a_message_of_a_busy_team_takes_the_waiting_part_of_an_idle_team(big: Run, small: Run) -> None:
    first, second, third, *_ = parts(big)
    assert execution.part_claim(first.pk, first.task_id) is not None  # team A: one running
    (lone,) = parts(small)
    messages = {p.pk: p.task_id for p in RunPart.objects.all()}

    # The next message in the broker is team A's second part; team B has none running.
    claim = execution.part_claim(second.pk, second.task_id)
    assert claim is not None and claim.part_id == lone.pk and claim.run_id == small.pk
    # The messages swapped: the consumed one is now the claimed part's, and the small run's
    # message (still in the broker) carries team A's second part.
    second.refresh_from_db()
    lone.refresh_from_db()
    assert (second.status, second.task_id) == ("queued", messages[lone.pk])
    assert (lone.status, lone.task_id) == ("running", messages[second.pk])
    # That message, when it comes, runs team A's second part; a duplicate of it does nothing.
    claim = execution.part_claim(lone.pk, messages[lone.pk])
    assert claim is not None and claim.part_id == second.pk
    assert execution.part_claim(lone.pk, messages[lone.pk]) is None
    # Every part still has one message: each queued part's own is unique and unconsumed.
    queued = RunPart.objects.filter(status="queued")
    assert queued.count() == len(BIG) - 2
    assert len(set(queued.values_list("task_id", flat=True))) == queued.count()
    assert not set(queued.values_list("task_id", flat=True)) & {messages[first.pk], messages[second.pk],
                                                                  messages[lone.pk]}
    assert third.pk in set(queued.values_list("pk", flat=True))


def test_every_part_runs_once_whatever_order_the_messages_come_in(big: Run, small: Run) -> None:
    # The broker's order: team A's five messages first, team B's last.
    messages = [(p.pk, p.task_id) for p in parts(big) + parts(small)]
    claimed = []
    for i, (pk, task_id) in enumerate(messages):
        claim = execution.part_claim(pk, task_id)
        assert claim is not None, f"message {i} found nothing to run"
        claimed.append(claim.part_id)  # and it keeps running while the next messages are read
    assert sorted(claimed) == sorted(pk for pk, _ in messages)
    # Team B's part was the second to start, not the sixth.
    assert claimed[1] == parts(small)[0].pk
    assert RunPart.objects.filter(status="running").count() == len(messages)


def test_with_one_worker_slot_teams_take_turns(big: Run, small: Run) -> None:
    """One worker process: team A has nothing running when the next message is read, but its
    last part started after team B's (never), so B's part goes first."""
    first, second, *_ = parts(big)
    execution.part_claim(first.pk, first.task_id)
    RunPart.objects.filter(pk=first.pk).update(status="succeeded")  # the slot is free again
    claim = execution.part_claim(second.pk, second.task_id)
    assert claim is not None and claim.part_id == parts(small)[0].pk


def test_no_swap_between_parts_of_one_team(big: Run) -> None:
    first, second, *_ = parts(big)
    execution.part_claim(first.pk, first.task_id)
    claim = execution.part_claim(second.pk, second.task_id)
    assert claim is not None and claim.part_id == second.pk


def test_a_heavy_runs_message_leaves_a_light_part_to_the_light_queue(
    big: Run, small: Run, settings: Any
) -> None:
    settings.PLANNER_HEAVY_QUEUE = "planner-heavy"
    settings.PLANNER_HEAVY_RUN_JOBS = big.job_count  # the big run is heavy, the small one is not
    assert small.job_count < big.job_count
    first, second, *_ = parts(big)
    execution.part_claim(first.pk, first.task_id)
    claim = execution.part_claim(second.pk, second.task_id)
    assert claim is not None and claim.part_id == second.pk


def test_a_team_cannot_queue_more_than_its_limit(
    team: Team, owner: Any, scenario_doc: dict[str, Any], settings: Any
) -> None:
    settings.PLANNER_TEAM_MAX_QUEUED_PARTS = 6
    services.run_start(user=owner, team=team, scenario=scenario_doc, schedulers=BIG)
    with pytest.raises(InputError) as caught:
        services.run_start(user=owner, team=team, scenario=scenario_doc, schedulers=["edf-bfd", "morpheus"])
    (error,) = caught.value.errors
    assert "5 parts queued or running" in error.message and "at most 6" in error.message
    assert Run.objects.filter(team=team).count() == 1  # nothing half-written
    services.run_start(user=owner, team=team, scenario=scenario_doc, schedulers=["edf-bfd"])  # one more fits
