"""Jobs and frameworks as the engine reads them."""

from __future__ import annotations

import numpy as np
import pytest

from scheduling.cost.job_table import JobTable
from scheduling.scenario import parse_scenario


def test_jobs_frameworks_and_rd_job() -> None:
    scenario = parse_scenario(
        {
            "vm_types": [
                {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 2},
                {"name": "gpu", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 1.0},
            ],
            "frameworks": [{"name": "ml", "weight": 3, "allowed_vm_types": ["gpu"]}],
            "jobs": [
                {
                    "id": "m",
                    "framework": "ml",
                    "arrival_s": 5,
                    "executors": 2,
                    "executor": {"cpu": 2, "mem": 8},
                    "duration_s": 60,
                    "deadline_s": 100,
                },
                {
                    "id": "e",
                    "arrival_s": 9,
                    "executors": 1,
                    "executor": {"cpu": 4, "mem": 4},
                    "duration_s": 30,
                },
            ],
        }
    )
    jobs = JobTable.from_scenario(scenario, rut=np.array([0.8, 0.2]), total=np.array([16.0, 64.0]))
    assert jobs.count == 2 and jobs.ids == ["m", "e"]
    assert jobs.framework_names == ["ml", "default"]  # declared, then the one jobs without a framework get
    assert jobs.framework.tolist() == [0, 1]
    assert jobs.framework_weight.tolist() == [3.0, 1.0]
    assert jobs.framework_allowed.tolist() == [[False, True], [True, True]]
    assert jobs.deadline_s == [105.0, None]
    assert jobs.arrival_s.tolist() == [5.0, 9.0] and jobs.duration_s.tolist() == [60.0, 30.0]
    # eq. 9: (0.8 x cpu / 16 + 0.2 x mem / 64) x executors
    assert jobs.resource_demand.tolist() == pytest.approx([(0.1 + 0.025) * 2, 0.2 + 0.0125])
