"""The synthetic generator: its checks, its seed, and executors that fit the chosen cluster."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scheduling import ScenarioError, parse_scenario
from scheduling.generators import WorkloadSpec, generate_jobs, parse_generator_spec, synthetic_jobs
from scheduling.scenario import executors_that_fit

CLUSTER = [
    {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 2},
    {"name": "wide", "capacity": {"cpu": 12, "mem": 8}, "price_per_hour": 0.5, "count": 1},
]


def errors_of(data: Any) -> dict[str, str]:
    with pytest.raises(ScenarioError) as info:
        parse_generator_spec(data)
    return {e.path: e.message for e in info.value.errors}


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"jobs": 0}, "jobs"),
        ({"jobs": "many"}, "jobs"),
        ({"executors": [3, 1]}, "executors"),
        ({"executors": [1.5, 3]}, "executors"),
        ({"duration_s": [0, 10]}, "duration_s"),
        ({"executor": {"cpu": [1]}}, "executor.cpu"),
        ({"executor": {"\ud800": [1, 2]}}, "executor.\\ud800"),
        ({"executor": {}}, "executor"),
        ({"deadline_fraction": 2}, "deadline_fraction"),
        ({"frameworks": ["ok", ""]}, "frameworks[1]"),
        ({"frameworks": "etl"}, "frameworks"),
        ({"frameworks": ["etl", [], {}]}, "frameworks[1]"),  # not a name, and not hashable either
        ({"seed": -1}, "seed"),
        ({"seed": 2**63}, "seed"),
        ({"start_s": float("nan")}, "start_s"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_settings_are_checked_with_paths(data: dict[str, Any], path: str):
    assert path in errors_of(data)


def test_every_problem_is_reported_at_once():
    assert set(errors_of({"jobs": 0, "integer_sizes": "yes", "deadline_slack": [2, 1]})) == {
        "jobs",
        "integer_sizes",
        "deadline_slack",
    }


def test_parsed_settings_and_the_seed_reproduce_the_jobs():
    spec = parse_generator_spec(
        {"jobs": 20, "frameworks": ["a", "b", "a"], "seed": 5, "executor": {"cpu": [1, 2], "mem": [1, 4]}}
    )
    assert spec.frameworks == ("a", "b") and spec.seed == 5
    assert (
        generate_jobs(spec)
        == generate_jobs(spec)
        != generate_jobs(WorkloadSpec(**{**spec.__dict__, "seed": 6}))
    )
    assert generate_jobs(spec) == synthetic_jobs(
        seed=5, jobs=20, frameworks=("a", "b"), executor={"cpu": (1, 2), "mem": (1, 4)}
    )


def _fits(job: dict[str, Any], cluster: list[dict[str, Any]], allowed: dict[str, list[str]]) -> bool:
    names = allowed.get(job.get("framework", ""))
    usable = [t for t in cluster if names is None or t["name"] in names]
    shape = tuple(job["executor"][r] for r in ("cpu", "mem"))
    holdable = sum(
        executors_that_fit(tuple(t["capacity"][r] for r in ("cpu", "mem")), shape) * t["count"]
        for t in usable
    )
    return 1 <= job["executors"] <= holdable


def test_sizes_fit_the_chosen_cluster_and_the_frameworks_allowed_types():
    allowed = {"narrow": ["small"]}
    jobs = synthetic_jobs(
        seed=1,
        jobs=300,
        executors=(1, 10),
        executor={"cpu": (1, 16), "mem": (1, 16)},
        frameworks=("narrow", "any"),
        vm_types=CLUSTER,
        allowed_vm_types=allowed,
    )
    assert all(_fits(j, CLUSTER, allowed) for j in jobs)
    assert max(j["executor"]["cpu"] for j in jobs if j["framework"] == "narrow") <= 4
    assert max(j["executor"]["cpu"] for j in jobs) == 12  # the wide VM's
    doc = {
        "vm_types": CLUSTER,
        "frameworks": [{"name": "narrow", "allowed_vm_types": ["small"]}, {"name": "any"}],
        "jobs": jobs,
    }
    parse_scenario(doc)  # every job fits: no error
    unfitted = synthetic_jobs(
        seed=1,
        jobs=300,
        executors=(1, 10),
        executor={"cpu": (1, 16), "mem": (1, 16)},
        frameworks=("narrow", "any"),
    )
    assert not all(_fits(j, CLUSTER, allowed) for j in unfitted)  # without the cluster, many would not


def test_a_cluster_that_fits_every_draw_changes_nothing():
    roomy = [{"name": "huge", "capacity": {"cpu": 64, "mem": 256}, "count": 100}]
    assert synthetic_jobs(seed=3, jobs=100, vm_types=roomy) == synthetic_jobs(seed=3, jobs=100)


def test_ranges_no_vm_type_can_hold_are_refused():
    with pytest.raises(ScenarioError) as info:
        synthetic_jobs(seed=1, jobs=5, executor={"cpu": (5, 8), "mem": (12, 16)}, vm_types=CLUSTER)
    assert [str(e) for e in info.value.errors] == [
        "executor: the smallest executor of these ranges (5 cpu, 12 mem) fits no VM type of the cluster"
    ]
    with pytest.raises(ScenarioError) as info:
        synthetic_jobs(
            seed=1,
            jobs=5,
            executor={"cpu": (5, 8), "mem": (1, 2)},
            frameworks=("narrow",),
            vm_types=CLUSTER,
            allowed_vm_types={"narrow": ["small"]},
        )
    assert "framework 'narrow' may use" in str(info.value)


@settings(max_examples=40, deadline=None)
@given(
    caps=st.lists(
        st.tuples(st.integers(1, 16), st.integers(1, 64), st.integers(1, 3)), min_size=1, max_size=4
    ),
    cpu_high=st.integers(1, 24),
    mem_high=st.integers(1, 96),
    integer=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_every_generated_job_fits(caps, cpu_high, mem_high, integer, seed):
    cluster = [
        {"name": f"t{k}", "capacity": {"cpu": c, "mem": m}, "count": n} for k, (c, m, n) in enumerate(caps)
    ]
    jobs = synthetic_jobs(
        seed=seed,
        jobs=40,
        executors=(1, 20),
        executor={"cpu": (1, cpu_high), "mem": (1, mem_high)},
        integer_sizes=integer,
        vm_types=cluster,
    )
    assert all(_fits(j, cluster, {}) for j in jobs)
