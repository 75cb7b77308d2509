"""Requirements per slot from a planner scenario: the most a framework demands at one instant.

Hand-worked: one VM type of 8 cpu / 32 GB; whole amounts, so the base unit is 1.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from scheduling.mrsu import scenario_problem
from scheduling.scenario import parse_scenario


def _scenario(jobs: list[dict[str, Any]]) -> Any:
    return parse_scenario({
        "vm_types": [{"name": "m", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 1, "count": 1}],
        "frameworks": [{"name": "a"}, {"name": "b"}],
        "jobs": [{"executors": 1, "framework": "a", **j} for j in jobs],
    })


def _job(k: int, arrival: float, duration: float, cpu: int, mem: int, **extra: Any) -> dict[str, Any]:
    return {"id": f"j{k}", "arrival_s": arrival, "duration_s": duration,
            "executor": {"cpu": cpu, "mem": mem}, **extra}


def test_jobs_one_after_another_in_a_slot_do_not_add_up() -> None:
    # three jobs of 2 cpu back to back over [0, 30): one slot needs 2 cpu, not 6
    p, _ = scenario_problem(_scenario([_job(k, 10 * k, 10, 2, 4) for k in range(3)]), slots=1)
    assert p.requirements.tolist() == [[[2, 4]]]


def test_overlapping_jobs_add_up_and_each_dimension_has_its_own_peak() -> None:
    # [0, 20) 1 cpu / 8 GB; [10, 30) 3 cpu / 1 GB; [25, 40) 1 cpu / 20 GB (framework b)
    # a: cpu peaks at 4 in [10, 20), mem at 9 in [10, 20); b alone: 1 / 20
    jobs = [_job(0, 0, 20, 1, 8), _job(1, 10, 20, 3, 1), _job(2, 25, 15, 1, 20, framework="b")]
    p, _ = scenario_problem(_scenario(jobs), slots=1)
    assert p.names == ("a", "b")
    assert p.requirements.tolist() == [[[4, 9]], [[1, 20]]]
    # four slots of 10 s: a runs [0,20) and [10,30); b [25,40)
    p, _ = scenario_problem(_scenario(jobs), slots=4)
    assert p.requirements[0].tolist() == [[1, 8], [4, 9], [3, 1], [0, 0]]
    assert p.requirements[1].tolist() == [[0, 0], [0, 0], [1, 20], [1, 20]]


def test_a_job_ending_as_another_starts_frees_its_share_first() -> None:
    p, _ = scenario_problem(_scenario([_job(0, 0, 10, 3, 3), _job(1, 10, 10, 3, 3)]), slots=1)
    assert p.requirements.tolist() == [[[3, 3]]]


@pytest.mark.parametrize("slots", [1, 7, 30, 300])
def test_a_steady_load_needs_the_same_in_every_slot_whatever_their_width(slots: int) -> None:
    # two jobs always running, each replaced by the next as it ends: 2 x (1 cpu, 2 GB) at every instant
    jobs = [_job(2 * k + i, 10 * k, 10, 1, 2) for k in range(60) for i in range(2)]
    p, _ = scenario_problem(_scenario(jobs), slots=slots)
    assert np.all(p.requirements[0] == [2, 4])
