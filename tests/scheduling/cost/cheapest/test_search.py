"""The cheapest-cluster search: its answer is the brute force's, its certificate adds up, its
parts join into the same answer, and what cannot be met says so."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scheduling import simulate
from scheduling.cost.cheapest import Target, cheapest, join_parts, search_part, search_space
from scheduling.cost.cheapest.search import CheapestSearch
from scheduling.cost.cheapest.space import cluster_scenario, fits
from scheduling.errors import ScenarioError

SPACE = {"m1.large": [0, 6], "m1.xlarge": [0, 6], "m2.xlarge": [0, 6]}
#: m1.xlarge at less than half the price per core of the others: the per-candidate bounds then differ.
SKEWED = {"m1.xlarge": 0.20}


def brute_force(scenario, scheduler, target):
    """Every candidate that fits simulated: the cheapest cost that meets the target (None: none)."""
    space = search_space(scenario, SPACE)
    counts = space.counts()
    ok = fits(scenario, counts)
    costs = []
    for k in np.flatnonzero(ok):
        r = simulate(cluster_scenario(scenario, counts[k]), scheduler=scheduler)
        if target.met(
            r.deadline_missed, r.deadline_jobs, r.mean_completion_s, r.to_dict()["p95_completion_s"]
        ):
            costs.append((r.total_cost, counts[k].tolist()))
    return min(costs) if costs else None


@pytest.mark.parametrize(
    ("scheduler", "pct", "prices"),
    [
        ("edf-bfd", 0.0, None),  # the paper's prices: every bound is the global one; windows prune
        ("edf-ilp", 5.0, SKEWED),  # misses allowed: no window; the bound prunes
    ],
)
def test_the_answer_is_the_cheapest_feasible_candidate_of_the_brute_force(light_head, scheduler, pct, prices):
    scenario = light_head(30, prices)
    target = Target(max_miss_pct=pct)
    doc = cheapest(scenario, scheduler=scheduler, counts=SPACE, target=target).to_dict()
    expected = brute_force(scenario, scheduler, target)
    assert expected is not None and doc["answer"] is not None and doc["certified"]
    assert doc["answer"]["cost"] == expected[0]
    assert doc["answer"]["missed"] <= target.max_missed(doc["answer"]["deadline_jobs"])
    # The certificate adds up, and every rule did what it says.
    assert doc["candidates"] == 343
    assert doc["simulated"] + sum(doc["pruned"].values()) == 343 and doc["unexplored"] == 0
    assert (doc["pruned"]["demand_window"] > 0) == (pct == 0)
    if prices:
        assert doc["pruned"]["bound"] > 0 and doc["simulated"] < 343 - doc["pruned"]["no_fit"]
    # Every candidate simulated had a bound below the answer's cost, or tied the last one.
    assert all(r["bound"] <= doc["answer"]["cost"] for r in doc["tried"])
    assert doc["gap_pct"] == pytest.approx(100 * (doc["answer"]["cost"] / doc["global_lower_bound"] - 1))
    assert doc["certificate"].startswith("cheapest within the space: ")
    json.dumps(doc, allow_nan=False)


def test_parts_join_into_the_answer_of_one_search(light_head):
    scenario = light_head(20, SKEWED)
    space = search_space(scenario, SPACE)
    whole = cheapest(scenario, scheduler="edf-bfd", counts=SPACE, target=Target(5.0)).to_dict()
    parts = [
        search_part(scenario, space=space, scheduler="edf-bfd", target=Target(5.0), part=i, parts=3)
        for i in range(3)
    ]
    joined = join_parts(list(reversed(parts)))
    assert joined["certified"] and joined["answer"]["cost"] == whole["answer"]["cost"]
    assert joined["simulated"] >= whole["simulated"]  # each part stops on its own cheapest
    assert joined["simulated"] + sum(joined["pruned"].values()) == joined["candidates"]
    with pytest.raises(ScenarioError, match="parts"):
        join_parts(parts[:2])


def test_a_budget_leaves_the_answer_uncertified(light_head):
    scenario = light_head(20)
    doc = cheapest(scenario, scheduler="edf-bfd", counts=SPACE, max_simulations=3).to_dict()
    assert doc["simulated"] == 3 and not doc["certified"] and doc["unexplored"] > 0
    assert doc["certificate"].startswith("not certified")
    assert doc["simulated"] + sum(doc["pruned"].values()) + doc["unexplored"] == doc["candidates"]


def test_a_time_budget_stops_with_what_was_found(light_head):
    doc = cheapest(light_head(10), scheduler="edf-bfd", counts=SPACE, time_budget_s=0.0).to_dict()
    assert doc["simulated"] == 0 and not doc["certified"] and doc["parts"][0]["stopped_by"] == "time"
    assert doc["certificate"].startswith("not certified: the search stopped at its time budget")


def test_a_target_no_candidate_meets_says_so_and_shows_the_closest(light_head):
    scenario = light_head(20)
    doc = cheapest(
        scenario,
        scheduler="edf-bfd",
        counts={"m1.large": [2, 4], "m1.xlarge": [2, 3], "m2.xlarge": [1, 2]},
        target=Target(max_miss_pct=100, max_mean_completion_s=1.0),
    ).to_dict()
    assert doc["answer"] is None and doc["certified"] and doc["simulated"] > 0
    assert doc["certificate"].startswith("the target cannot be met within the space")
    assert 0 < len(doc["closest"]) <= 5 and doc["closest"] == sorted(
        doc["closest"], key=lambda r: (r["missed"], r["mean_completion_s"], r["cost"])
    )


def test_a_job_that_fits_no_vm_of_a_candidate_makes_it_infeasible_not_an_error(scenario_of):
    # The job needs 6 cpu at once: the small type (4 cpu) alone never holds it.
    scenario = scenario_of(
        [
            {"name": "small", "capacity": {"cpu": 4}, "price_per_hour": 1.0},
            {"name": "big", "capacity": {"cpu": 8}, "price_per_hour": 3.0},
        ],
        jobs=[{"id": "j", "arrival_s": 0, "executors": 1, "executor": {"cpu": 6}, "duration_s": 3600}],
        resources=["cpu"],
    )
    doc = cheapest(scenario, scheduler="edf-bfd", counts={"small": [0, 5], "big": [0, 1]}).to_dict()
    assert doc["pruned"]["no_fit"] == 6 and doc["answer"]["counts"] == {"small": 0, "big": 1}
    assert doc["maximal_pruned"]["no_fit"] == [[5, 0]]


def test_more_vms_are_not_assumed_to_miss_fewer_deadlines(light_head):
    # Each candidate's verdict is its own simulation's: none is inferred from a neighbour.
    scenario = light_head(20)
    search = CheapestSearch(
        scenario, space=search_space(scenario, SPACE), scheduler="edf-bfd", target=Target(0.0)
    )
    while not search.done:
        for k in search.next_batch(4):
            search.record(search.evaluate(k))
    for k, outcome in search.outcomes.items():
        r = simulate(cluster_scenario(scenario, search.counts[k]), scheduler="edf-bfd")
        assert (outcome.cost, outcome.missed) == (r.total_cost, r.deadline_missed)


def test_bad_input_names_its_field(light_head):
    scenario = light_head(5)
    with pytest.raises(ScenarioError) as exc:
        cheapest(scenario, scheduler="edf-quantum", counts={"m9": [0, 2], "m1.large": [4, 1]})
    paths = {e.path for e in exc.value.errors}
    assert paths == {"counts.m9", "counts.m1.large", "scheduler"}
    with pytest.raises(ScenarioError, match="candidate clusters; the most is"):
        cheapest(scenario, scheduler="edf-bfd", counts={t: [0, 99] for t in SPACE})


def test_reservations_raise_the_bounds_and_the_answer_is_still_the_brute_forces(light_head):
    # m2.xlarge's first two machines reserved at $2.40/h for the whole run, used or not: every
    # candidate with m2.xlarge pays for its reservations, and the bound says so.
    import dataclasses

    from scheduling.scenario import ReservedPrice

    base = light_head(15)
    types = tuple(
        dataclasses.replace(t, reserved=ReservedPrice(2.40, 2)) if t.name == "m2.xlarge" else t
        for t in base.vm_types
    )
    scenario = dataclasses.replace(base, vm_types=types)
    space = {"m1.large": [0, 4], "m1.xlarge": [0, 2], "m2.xlarge": [0, 3]}
    doc = cheapest(scenario, scheduler="edf-bfd", counts=space, target=Target(5.0)).to_dict()
    counts = search_space(scenario, space).counts()
    ok = fits(scenario, counts)
    costs = []
    for k in np.flatnonzero(ok):
        r = simulate(cluster_scenario(scenario, counts[k]), scheduler="edf-bfd")
        if r.deadline_missed <= Target(5.0).max_missed(r.deadline_jobs):
            costs.append(r.total_cost)
    assert doc["certified"] and doc["answer"]["cost"] == min(costs)
    with_reserved = [r for r in doc["tried"] if r["counts"][2] > 0]
    assert with_reserved and all(r["bound"] > doc["global_lower_bound"] for r in with_reserved)
