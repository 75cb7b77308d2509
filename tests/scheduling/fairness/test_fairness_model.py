"""The fairness problem, the criteria of paper 000 and the allocation document, by hand."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from scheduling import ScenarioError, parse_scenario
from scheduling.fairness import allocation_document, fairness_problem
from scheduling.fairness import criteria as c
from scheduling.fairness.model import FairnessProblem


def table_one(**changes: Any) -> FairnessProblem:
    """Paper 000's Table I set-up: c1 = (100, 30), c2 = (30, 100), d1 = (5, 1), d2 = (1, 5)."""
    doc: dict[str, Any] = {
        "vm_types": [
            {"name": "c1", "capacity": {"cpu": 100, "mem": 30}, "price_per_hour": 0},
            {"name": "c2", "capacity": {"cpu": 30, "mem": 100}, "price_per_hour": 0},
        ],
        "frameworks": [
            {"name": "f1", "task_demand": {"cpu": 5, "mem": 1}},
            {"name": "f2", "task_demand": {"cpu": 1, "mem": 5}},
        ],
        "jobs": [],
    }
    doc.update(changes)
    return fairness_problem(parse_scenario(doc))


def test_problem_expands_counts_and_allowed_types() -> None:
    p = fairness_problem(
        parse_scenario(
            {
                "vm_types": [
                    {"name": "big", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 1, "count": 2},
                    {"name": "gpu", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 3},
                ],
                "frameworks": [
                    {
                        "name": "a",
                        "weight": 2,
                        "task_demand": {"cpu": 1, "mem": 2},
                        "allowed_vm_types": ["gpu"],
                    },
                    {"name": "b", "task_demand": {"cpu": 2, "mem": 1}},
                ],
                "jobs": [],
            }
        )
    )
    assert p.machines == ("big#1", "big#2", "gpu#1")
    assert p.machine_types == ("big", "big", "gpu")
    assert p.capacity.tolist() == [[8, 32], [8, 32], [4, 16]]
    assert p.weight.tolist() == [2, 1]
    assert p.allowed.tolist() == [[False, False, True], [True, True, True]]
    assert p.total_capacity.tolist() == [20, 80]


def test_problem_refuses_frameworks_without_demand_with_paths() -> None:
    doc = {
        "vm_types": [{"name": "m", "capacity": {"cpu": 4}, "price_per_hour": 0}],
        "resources": ["cpu"],
        "frameworks": [{"name": "a", "task_demand": {"cpu": 1}}, {"name": "b"}],
        "jobs": [],
    }
    with pytest.raises(ScenarioError) as exc:
        fairness_problem(parse_scenario(doc))
    assert [str(e) for e in exc.value.errors] == [
        "frameworks[1].task_demand: required by the fairness engine"
    ]
    doc["frameworks"] = []
    with pytest.raises(ScenarioError) as exc:
        fairness_problem(parse_scenario(doc))
    assert exc.value.errors[0].path == "frameworks"


def test_criteria_on_table_one_by_hand() -> None:
    p = table_one()
    x = np.array([4.0, 2.0])
    # DRF: totals (130, 130); f1 4 * max(5, 1)/130, f2 2 * max(1, 5)/130
    assert c.drf(p, x) == pytest.approx([20 / 130, 10 / 130])
    # TSF: T_1 = min(100/5, 30/1) + min(30/5, 100/1) = 20 + 6; T_2 = 6 + 20
    assert c.tasks_alone(p) == pytest.approx([26, 26])
    assert c.tsf(p, x) == pytest.approx([4 / 26, 2 / 26])
    # PS-DSF: f1 on c1 4 * max(5/100, 1/30) = 0.2, on c2 4 * max(5/30, 1/100) = 2/3
    np.testing.assert_allclose(c.psdsf(p, x), [[0.2, 2 / 3], [2 * 5 / 30, 2 * 5 / 100]])
    # rPS-DSF on residual c1 = (50, 20), c2 = (30, 100): f1 4 * max(5/50, 1/20) = 0.4
    residual = np.array([[50.0, 20.0], [30.0, 100.0]])
    assert c.rpsdsf(p, x, residual)[0] == pytest.approx([0.4, 4 * 5 / 30])


def test_criteria_weights_and_disallowed_servers() -> None:
    p = table_one(
        frameworks=[
            {"name": "f1", "weight": 2, "task_demand": {"cpu": 5, "mem": 1}, "allowed_vm_types": ["c1"]},
            {"name": "f2", "task_demand": {"cpu": 1, "mem": 5}},
        ]
    )
    x = np.array([4.0, 4.0])
    assert c.drf(p, x)[0] == pytest.approx(4 * 5 / 130 / 2)
    assert c.tasks_alone(p)[0] == pytest.approx(20)  # only c1 counts
    ps = c.psdsf(p, x)
    assert ps[0, 1] == np.inf  # f1 may not use c2: never the smallest
    assert ps[0, 0] == pytest.approx(4 * 0.05 / 2)


def test_best_fit_prefers_the_server_shaped_like_the_demand() -> None:
    residual = np.array([[100.0, 30.0], [30.0, 100.0], [50.0, 10.0]])
    h = c.best_fit_distance(np.array([5.0, 1.0]), residual)
    # normalised demand (1, 0.2); residuals (1, 0.3), (1, 3.33), (1, 0.2)
    assert h == pytest.approx([0.1, 10 / 3 - 0.2, 0.0])
    assert int(np.argmin(h)) == 2


def test_document_of_the_rps_dsf_allocation() -> None:
    p = table_one()
    doc = allocation_document(p, np.array([[[19, 2], [2, 19]]], dtype=float), meta={"label": "rPS-DSF"})
    json.dumps(doc, allow_nan=False)
    assert doc["study"] == "allocation" and doc["format"] == 1 and doc["trials"] == 1
    assert doc["machines"][1] == {"id": "c2#1", "vm_type": "c2", "capacity": {"cpu": 30, "mem": 100}}
    assert doc["mean"] == {"f1": {"c1#1": 19, "c2#1": 2}, "f2": {"c1#1": 2, "c2#1": 19}}
    assert doc["tasks"]["f1"] == {"mean": 21.0, "std": 0.0}
    # c1: cpu 19*5 + 2*1 = 97, mem 19 + 10 = 29 -> residual (3, 1): nothing fits, all stranded
    assert doc["residual"]["c1#1"] == {"cpu": 3.0, "mem": 1.0}
    assert doc["stranded"]["c1#1"] == {"cpu": 3.0, "mem": 1.0}
    # cpu: c1 97 + c2 (2*5 + 19*1) = 126 of 130; mem by symmetry the same
    assert doc["utilisation"] == {"cpu": pytest.approx(126 / 130), "mem": pytest.approx(126 / 130)}
    assert doc["criteria"]["f1"]["drf"] == pytest.approx(21 * 5 / 130)
    assert doc["outcomes"] == [{"tasks": {"f1": [19, 2], "f2": [2, 19]}, "trials": 1}]


def test_document_over_trials_uses_sample_std_and_counts_outcomes() -> None:
    p = table_one()
    trials = np.array([[[5, 0], [0, 5]], [[10, 4], [4, 10]], [[5, 0], [0, 5]]], dtype=float)
    doc = allocation_document(p, trials, meta={"label": "RRR-DRF", "trials": 3, "seed": 7})
    totals = np.array([10, 28, 10.0])
    assert doc["total_tasks"] == pytest.approx(totals.mean())
    assert doc["total_std"] == pytest.approx(totals.std(ddof=1))
    assert doc["std"]["f1"]["c1#1"] == pytest.approx(np.std([5, 10, 5], ddof=1))
    assert doc["outcomes"][0] == {"tasks": {"f1": [5, 0], "f2": [0, 5]}, "trials": 2}
    assert doc["seed"] == 7
    # c1 holds (75, 25) free after 5 tasks of f1: more fit, nothing stranded; after 10 of f1 and
    # 4 of f2 it holds (100 - 54, 30 - 30) = (46, 0): no task fits, 46 cpu stranded; mean 46 / 3
    assert doc["stranded"]["c1#1"] == {"cpu": pytest.approx(46 / 3), "mem": 0.0}
    assert doc["residual"]["c1#1"] == {"cpu": pytest.approx((75 + 46 + 75) / 3), "mem": pytest.approx(50 / 3)}


def test_task_efficiency_weighs_by_phi() -> None:
    p = table_one(
        frameworks=[
            {"name": "f1", "weight": 3, "task_demand": {"cpu": 5, "mem": 1}},
            {"name": "f2", "task_demand": {"cpu": 1, "mem": 5}},
        ]
    )
    doc = allocation_document(p, np.array([[[10, 0], [0, 4]]], dtype=float), meta={})
    assert doc["task_efficiency"] == 3 * 10 + 4
    assert doc["total_tasks"] == 14
