"""Job orderings behind one interface: FIFO, EDF (Algorithm 1 of paper 003) and Morpheus (eq. 10).

Each ordering is driven directly: jobs are enqueued, and a pass offers them to a stand-in for the
placement that starts a job when it is in ``fits`` (and records the order it was offered them).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from scheduling.cost.cluster import Cluster
from scheduling.cost.job_table import JobTable
from scheduling.cost.orderings import ORDERING_CLASSES, EdfOrdering, Ordering
from scheduling.scenario import SimulationOptions, parse_scenario


def setup(jobs: list[dict[str, Any]], ordering: str, **options: Any) -> tuple[Ordering, Cluster]:
    scenario = parse_scenario(
        {
            "vm_types": [{"name": "vm", "capacity": {"cpu": 8, "mem": 8}, "price_per_hour": 1.0, "count": 2}],
            "jobs": [
                {
                    "id": f"j{k}",
                    "arrival_s": k,
                    "duration_s": 10,
                    "executors": 1,
                    "executor": {"cpu": 1, "mem": 1},
                    **job,
                }
                for k, job in enumerate(jobs)
            ],
        }
    )
    cluster = Cluster(scenario)
    table = JobTable.from_scenario(scenario, rut=np.array([0.8, 0.2]), total=cluster.total)
    queue = ORDERING_CLASSES[ordering](
        table, cluster, SimulationOptions.from_dict(options, resources=("cpu", "mem"))
    )
    for job in range(len(jobs)):
        queue.enqueue(job)
    return queue, cluster


class Placement:
    """Starts the jobs in ``fits``; remembers what it was offered."""

    def __init__(self, fits: set[int]) -> None:
        self.fits = fits
        self.offered: list[int] = []

    def __call__(self, job: int) -> bool:
        self.offered.append(job)
        return job in self.fits


def test_the_registry_names_every_ordering() -> None:
    assert list(ORDERING_CLASSES) == ["fifo", "edf", "morpheus"]
    assert all(cls.name == name for name, cls in ORDERING_CLASSES.items())


def test_fifo_head_blocks_the_queue() -> None:
    queue, _ = setup([{}, {}, {}], "fifo")
    placement = Placement({0, 2})
    assert queue.schedule_pass(placement) == [0]
    assert placement.offered == [0, 1]  # j2 would fit, but it is behind j1
    placement.fits.add(1)
    assert queue.schedule_pass(placement) == [1, 2]
    assert queue.schedule_pass(placement) == []


def test_edf_takes_deadline_jobs_earliest_first_and_then_regular_jobs_by_demand() -> None:
    # Deadlines (absolute): j1 at 1 + 50, j3 at 3 + 20 (earlier); j0 and j2 are regular, j2 with
    # the larger RD_job (eq. 9: 4 executors against 1).
    queue, _ = setup([{}, {"deadline_s": 50}, {"executors": 4}, {"deadline_s": 20}], "edf")
    placement = Placement({0, 1, 2, 3})
    assert queue.schedule_pass(placement) == [3, 1, 2, 0]


def test_edf_a_waiting_deadline_job_blocks_later_deadline_jobs_and_every_regular_job() -> None:
    queue, _ = setup([{}, {"deadline_s": 50}, {"deadline_s": 20}], "edf")
    placement = Placement({0, 1})  # j2 (earliest deadline) does not fit
    assert queue.schedule_pass(placement) == []
    assert placement.offered == [2]
    placement.fits.add(2)
    assert queue.schedule_pass(placement) == [2, 1, 0]


def test_edf_skips_a_regular_job_that_does_not_fit() -> None:
    queue, _ = setup([{"executors": 2}, {"executors": 6}, {}], "edf")  # RD order: j1, j0, j2
    placement = Placement({0, 2})
    assert queue.schedule_pass(placement) == [0, 2]
    assert placement.offered == [1, 0, 2]
    assert queue.schedule_pass(Placement({1})) == [1]


def test_edf_backfill_lets_a_fitting_deadline_job_pass_a_waiting_one() -> None:
    queue, _ = setup([{}, {"deadline_s": 50}, {"deadline_s": 20}], "edf", edf_backfill=True)
    assert isinstance(queue, EdfOrdering)
    placement = Placement({0, 1})
    assert queue.schedule_pass(placement) == [1]  # j2 still waits, so j0 (regular) does not start
    assert queue.schedule_pass(Placement({0, 2})) == [2, 0]


def test_morpheus_starts_the_lowest_c_job_and_recomputes_it_as_the_load_changes() -> None:
    # Cluster totals 16 cpu, 16 GB. eq. 10: c_job = max((load + demand) / total).
    # j0: (6 cpu, 1 GB) -> 6/16; j1: (3, 3) -> 3/16; j2: (1, 7) -> 7/16. Empty cluster: j1 first.
    queue, cluster = setup(
        [
            {"executor": {"cpu": 6, "mem": 1}},
            {"executor": {"cpu": 3, "mem": 3}},
            {"executor": {"cpu": 1, "mem": 7}},
        ],
        "morpheus",
    )
    offered: list[int] = []

    def start(job: int) -> bool:
        offered.append(job)
        # Starting a job loads the cluster, as the simulator's placement does.
        cluster.apply({1 if job == 1 else 0: 1}, np.array([[6.0, 1.0], [3.0, 3.0], [1.0, 7.0]])[job])
        return True

    # After j1, the load is (3, 3): j0 -> max(9, 4)/16, j2 -> max(4, 10)/16: j0 next, then j2.
    assert queue.schedule_pass(start) == [1, 0, 2]
    assert offered == [1, 0, 2]


def test_morpheus_tries_every_waiting_job_once_per_pass() -> None:
    queue, _ = setup([{}, {}, {}], "morpheus")
    placement = Placement({1})
    assert queue.schedule_pass(placement) == [1]
    assert sorted(placement.offered) == [0, 1, 2] and len(placement.offered) == 3


@pytest.mark.parametrize("ordering", list(ORDERING_CLASSES))
def test_an_empty_queue_starts_nothing(ordering: str) -> None:
    queue, _ = setup([{}], ordering)
    assert queue.schedule_pass(Placement({0})) == [0]
    assert queue.schedule_pass(Placement({0})) == []


@pytest.mark.parametrize("ordering", list(ORDERING_CLASSES))
def test_a_pass_offers_the_jobs_in_the_orderings_queue_order(ordering: str) -> None:
    # The one rule the replay reads the queue by (Ordering.queue_order): when every job fits
    # and the load does not change, a pass offers them in exactly that order.
    jobs = [
        {"arrival_s": 5, "executors": 2},
        {"arrival_s": 0, "deadline_s": 40, "executor": {"cpu": 3, "mem": 1}},
        {"arrival_s": 5, "executor": {"cpu": 1, "mem": 4}},
        {"arrival_s": 1, "deadline_s": 20, "executors": 3},
        {"arrival_s": 2},
    ]
    queue, cluster = setup(jobs, ordering)
    placement = Placement(set(range(len(jobs))))
    queue.schedule_pass(placement)
    expected = type(queue).queue_order(queue.keys, np.arange(len(jobs)), cluster.used_total)
    assert placement.offered == expected.tolist()
    assert sorted(placement.offered) == list(range(len(jobs)))


def test_queue_orders_by_hand() -> None:
    # RUT 0.8 / 0.2 on totals (16, 16): RD_job = executors x (0.8 cpu + 0.2 mem) / 16.
    queue, _ = setup(
        [
            {"arrival_s": 0},  # regular, RD 0.0625
            {"arrival_s": 1, "deadline_s": 30},  # deadline 31
            {"arrival_s": 2, "executors": 3},  # regular, RD 0.1875
            {"arrival_s": 3, "deadline_s": 10},  # deadline 13
            {"arrival_s": 3, "executor": {"cpu": 1, "mem": 7}},  # regular, RD 0.1375
        ],
        "edf",
    )
    waiting = np.array([4, 3, 2, 1, 0])
    idle = np.zeros(2)
    assert ORDERING_CLASSES["fifo"].queue_order(queue.keys, waiting, idle).tolist() == [0, 1, 2, 3, 4]
    assert ORDERING_CLASSES["edf"].queue_order(queue.keys, waiting, idle).tolist() == [3, 1, 2, 4, 0]
    # c_job (eq. 10) on an idle cluster: 1/16 for j0, j1, j3; 3/16 for j2; 7/16 for j4 (its memory).
    assert ORDERING_CLASSES["morpheus"].queue_order(queue.keys, waiting, idle).tolist() == [0, 1, 3, 2, 4]
    # With 14 cpu in use, j4 (1 cpu) ties the others at 15/16 and j2 (3 cpu) is last: 17/16.
    busy = np.array([14.0, 0.0])
    assert ORDERING_CLASSES["morpheus"].queue_order(queue.keys, waiting, busy).tolist() == [0, 1, 3, 4, 2]
