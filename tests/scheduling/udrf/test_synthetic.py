"""The synthetic trace has paper 004's shape (§V, Figs. 6-8) and is drawn from its seed."""

from __future__ import annotations

import numpy as np
import pytest

from scheduling.errors import ScenarioError
from scheduling.scenario import parse_scenario
from scheduling.udrf.graph import rducs
from scheduling.udrf.model import UdrfProblem
from scheduling.udrf.synthetic import synthetic_document, synthetic_scenario


@pytest.fixture(scope="module")
def doc() -> dict:
    return synthetic_document(users=100, jobs=1000, classes=60, seed=11)


def all_jobs(doc: dict) -> list[dict]:
    return [j for f in doc["frameworks"] for j in f["complex_jobs"]]


def test_same_seed_same_trace_other_seed_other_trace() -> None:
    assert synthetic_document(seed=3) == synthetic_document(seed=3)
    assert synthetic_document(seed=3) != synthetic_document(seed=4)


def test_it_is_a_valid_version_3_scenario(doc: dict) -> None:
    scenario = parse_scenario(doc)  # validation: every task fits a machine, every run its classes
    assert len(scenario.class_capacity()) == 60
    assert sum(len(f.complex_jobs) for f in scenario.frameworks) == 1000
    assert len(scenario.frameworks) == 100 and all(f.complex_jobs for f in scenario.frameworks)


def test_about_65_percent_of_jobs_need_one_or_two_classes_fig_8(doc: dict) -> None:
    classes = np.array([len({t["machine_class"] for t in j["tasks"]}) for j in all_jobs(doc)])
    assert 0.58 <= np.mean(classes <= 2) <= 0.72
    assert classes.max() == 6 and classes.min() == 1
    # One task per class, 1-4 copies.
    assert all(len(j["tasks"]) == len({t["machine_class"] for t in j["tasks"]}) for j in all_jobs(doc))
    assert {t["count"] for j in all_jobs(doc) for t in j["tasks"]} == {1, 2, 3, 4}


def test_users_jobs_are_skewed_and_wide_users_have_many_jobs(doc: dict) -> None:
    per_user = np.array([len(f["complex_jobs"]) for f in doc["frameworks"]])
    assert per_user.min() >= 1 and per_user.max() >= 4 * np.median(per_user)
    breadth = np.array([np.mean([len(j["tasks"]) for j in f["complex_jobs"]]) for f in doc["frameworks"]])
    assert np.corrcoef(np.log(per_user), breadth)[0, 1] > 0.2  # §V: many jobs, many classes


def test_durations_runs_and_arrivals(doc: dict) -> None:
    jobs = all_jobs(doc)
    durations = [j["duration_s"] for j in jobs]
    assert min(durations) >= 10 and max(durations) <= 100
    runs = np.array([j["runs"] for j in jobs])
    assert runs.min() == 1 and runs.max() <= 20
    assert np.bincount(runs).argmax() == 1 and np.mean(runs > 5) > 0.15  # skewed, with a tail
    arrivals = [j["arrival_s"] for j in jobs]
    assert min(arrivals) >= 0 and max(arrivals) < 6 * 1000


def test_a_handful_of_rducs_figs_6_7(doc: dict) -> None:
    p = UdrfProblem.from_scenario(parse_scenario(doc))
    groups = rducs([p.positive_demand(u) for u in range(len(p.users))])
    shared = [g for g in groups if len(g) > 1]
    assert 1 <= len(shared) <= 8
    assert sum(len(g) for g in shared) >= 0.8 * len(p.users)


def test_classes_have_varied_capacities(doc: dict) -> None:
    cpu = {v["capacity"]["cpu"] * v["count"] for v in doc["vm_types"]}
    assert len(cpu) >= 8


def test_other_kinds_and_bad_sizes() -> None:
    s = synthetic_scenario(users=3, jobs=6, classes=4, kinds=("cpu", "mem", "gpu"), seed=2)
    assert s.resources == ("cpu", "mem", "gpu")
    one = synthetic_scenario(users=2, jobs=4, classes=1, seed=0)  # every job on the one class
    assert {t.machine_class for f in one.frameworks for j in f.complex_jobs for t in j.tasks} == {"mc000"}
    with pytest.raises(ScenarioError, match=r"^jobs: must be >= users \(10\)"):
        synthetic_document(users=10, jobs=5)
    with pytest.raises(ScenarioError, match=r"^classes: must be a whole number from 1 to 1,000"):
        synthetic_document(classes=0)
    with pytest.raises(ScenarioError, match=r"^kinds: at least one"):
        synthetic_document(kinds=())
