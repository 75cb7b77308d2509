"""The fit rule over columns (``check_jobs_fit``) says what ``parse_scenario`` says of the same jobs."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from scheduling import ScenarioError, parse_scenario
from scheduling.scenario import JobShapes, check_jobs_fit

CLUSTER: dict[str, Any] = {
    "resources": ["cpu", "mem"],
    "vm_types": [
        {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 2},
        {"name": "big", "capacity": {"cpu": 8, "mem": 8}, "price_per_hour": 0.5, "count": 1},
    ],
    "frameworks": [{"name": "etl", "allowed_vm_types": ["small"]}, {"name": "web"}],
}


def jobs(seed: int, n: int) -> list[dict[str, Any]]:
    draw = random.Random(seed)
    return [
        {
            "id": i if i % 3 else f"job-{i}",  # ids given as integers too
            **({"framework": draw.choice(["etl", "web"])} if i % 4 else {}),
            "arrival_s": i,
            "executors": draw.randint(1, 12),
            "executor": {"cpu": draw.choice([1, 2, 4, 6, 8.0, 9]), "mem": draw.choice([1, 4.5, 8, 16, 20])},
            "duration_s": 60,
        }
        for i in range(n)
    ]


@pytest.mark.parametrize("seed", range(6))
def test_columns_give_the_errors_of_the_whole_parse(seed: int) -> None:
    drawn = jobs(seed, 300)
    with pytest.raises(ScenarioError) as whole:
        parse_scenario({**CLUSTER, "jobs": drawn})
    cluster = parse_scenario({**CLUSTER, "jobs": []})
    shapes = JobShapes(
        frameworks=np.array([j.get("framework", "default") for j in drawn], dtype=object),
        executor=np.array([[j["executor"]["cpu"], j["executor"]["mem"]] for j in drawn], dtype=float),
        executors=np.array([j["executors"] for j in drawn]),
    )
    with pytest.raises(ScenarioError) as columns:
        check_jobs_fit(cluster, shapes, job_id=lambda i: drawn[i]["id"])
    assert [(e.path, e.message) for e in columns.value.errors] == [
        (e.path, e.message) for e in whole.value.errors
    ]
    assert any(e.path.endswith(".executors") for e in whole.value.errors)  # crowded jobs
    assert any(e.path.endswith(".executor") for e in whole.value.errors)  # misfits
    assert whole.value.errors[-1].message.startswith("... and ")  # past the report limit


def test_jobs_that_fit_pass_and_none_is_nothing() -> None:
    cluster = parse_scenario({**CLUSTER, "jobs": []})
    empty = JobShapes(np.empty(0, dtype=object), np.empty((0, 2)), np.empty(0, dtype=np.int64))
    check_jobs_fit(cluster, empty, job_id=str)
    fits = JobShapes(
        np.array(["etl", "web"], dtype=object), np.array([[1.0, 1.0], [8.0, 8.0]]), np.array([8, 1])
    )
    check_jobs_fit(cluster, fits, job_id=str)
