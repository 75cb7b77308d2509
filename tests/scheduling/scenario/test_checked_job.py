"""The parser's constructor of jobs (``checked_job``) makes the dataclass's own frozen ``Job``."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from scheduling.scenario import parse_workload
from scheduling.scenario.document import Job
from scheduling.scenario.workload_fields import CHECKED_JOB_FIELDS, checked_job


def test_it_sets_every_field_of_job_and_only_those_in_its_parameters_order() -> None:
    assert sorted(CHECKED_JOB_FIELDS) == sorted(f.name for f in dataclasses.fields(Job))
    assert tuple(inspect.signature(checked_job).parameters) == CHECKED_JOB_FIELDS


def test_a_checked_job_equals_hashes_pickles_and_stays_frozen_as_the_dataclass_does() -> None:
    values = {"id": "j", "arrival_s": 3.0, "executors": 2, "executor": (1.0, 4.0), "duration_s": 60.0,
              "framework": "etl", "deadline_s": 90.0, "network_sensitivity": 0.5}
    made = checked_job(*(values[name] for name in CHECKED_JOB_FIELDS))
    built = Job(**values)
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert pickle.loads(pickle.dumps(made)) == built
    assert dataclasses.replace(made, id="k") == Job(**{**values, "id": "k"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.id = "k"  # type: ignore[misc]
    assert not hasattr(made, "__dict__")  # slots: no dict a job


def test_parsed_jobs_are_the_dataclass_built_from_their_fields() -> None:
    jobs = parse_workload({"frameworks": [{"name": "etl"}], "jobs": [
        {"id": "a", "framework": "etl", "arrival_s": 0, "executors": 2, "executor": {"cpu": 1, "mem": 2},
         "duration_s": 5, "deadline_s": 9, "network_sensitivity": 0.25},
        {"id": 7, "arrival_s": 1.5, "executors": 1, "executor": {"cpu": 0.5, "mem": 0}, "duration_s": 2},
    ]}).jobs
    assert jobs == (
        Job(id="a", framework="etl", arrival_s=0.0, executors=2, executor=(1.0, 2.0), duration_s=5.0,
            deadline_s=9.0, network_sensitivity=0.25),
        Job(id="7", arrival_s=1.5, executors=1, executor=(0.5, 0.0), duration_s=2.0),
    )
