"""Documents written a job at a time, and the price lists by capacity."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scheduling.exports import jobs_csv_text, scenario_json_text
from scheduling.generators import generate_jobs, parse_generator_spec
from scheduling.importers import get_importer
from scheduling.presets import VM_PRESETS
from scheduling.price_lists import PRICE_LISTS, suggested_price

scalars = st.one_of(
    st.integers(-5, 5), st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=4),
    st.none(), st.booleans(),
)
# Nested as a job's executor, and deeper: objects (with keys json turns into text), lists, tuples.
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.tuples(inner, inner),
        st.dictionaries(st.sampled_from(["cpu", "mem", "\u2028", "\"q\""]), inner, max_size=3),
        st.dictionaries(st.one_of(st.integers(-2, 2), st.booleans(), st.none()), inner, max_size=2),
    ),
    max_leaves=6,
)
jobs = st.lists(st.dictionaries(st.sampled_from(["id", "x", "é"]), values, max_size=3), max_size=6)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(jobs, st.integers(1, 4), st.booleans())
def test_the_streamed_json_is_what_json_dumps_writes(
    given_jobs: list[dict[str, Any]], size: int, options: bool
) -> None:
    head: dict[str, Any] = {"version": 1, "name": "ünïcode", "jobs": []}
    if options:
        head["options"] = {"boot_time_s": 3}
    chunks = [given_jobs[i : i + size] for i in range(0, len(given_jobs), size)]
    doc = {**head, "jobs": given_jobs}
    assert "".join(scenario_json_text(head, chunks)) == json.dumps(doc, indent=2, ensure_ascii=False)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, {"x": [1, math.nan]}, object()])
def test_what_json_refuses_is_refused_with_json_s_own_error(bad: Any) -> None:
    head: dict[str, Any] = {"version": 1, "jobs": []}
    job = {"id": "a", "executor": {"cpu": bad}}
    with pytest.raises((ValueError, TypeError)) as ours:
        "".join(scenario_json_text(head, [[job]]))
    with pytest.raises((ValueError, TypeError)) as theirs:
        json.dumps({**head, "jobs": [job]}, indent=2, ensure_ascii=False, allow_nan=False)
    assert (type(ours.value), str(ours.value)) == (type(theirs.value), str(theirs.value))


def test_the_jobs_csv_reads_back_through_the_jobs_importer() -> None:
    drawn = generate_jobs(
        parse_generator_spec(
            {
                "jobs": 300,
                "seed": 5,
                "frameworks": ["a", "b"],
                "deadline_fraction": 0.5,
                "network_fraction": 0.3,
                "network_sensitivity": 2,
            }
        )
    )
    text = "".join(jobs_csv_text([drawn[:100], drawn[100:]], ["cpu", "mem"]))
    assert get_importer("jobs").read_text(text).jobs == drawn


def test_price_lists_price_the_presets_own_types_at_their_prices() -> None:
    for name, prices in PRICE_LISTS.items():
        for vm_type in VM_PRESETS[name][1]:
            assert abs(suggested_price(vm_type["capacity"], prices) - vm_type["price_per_hour"]) < 1e-3
    assert (
        suggested_price({"gpu": 4}, next(iter(PRICE_LISTS.values()))) == 0
    )  # unpriced resources add nothing
    assert "paper-000" not in PRICE_LISTS  # a preset without prices is no price list
