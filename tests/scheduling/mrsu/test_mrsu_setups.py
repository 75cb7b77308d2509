"""Paper 002's set-ups (scheduling/mrsu/setups.py): one registry, each with its figure, runnable
as it is, and the Fig. 2 set-up shows what the paper says Fig. 2 shows."""

from __future__ import annotations

import inspect
import json

import numpy as np
import pytest

from scheduling.mrsu import mrsu_result, mrsu_sweep, parse_mrsu_input
from scheduling.mrsu.model import input_document
from scheduling.mrsu.setups import PAPER_SWEEP, SETUPS
from scheduling.mrsu.workload import synthetic_workload


def test_every_set_up_names_its_figure_and_parses():
    assert list(SETUPS) == ["002-fig-2", "002-figs-3-5"]
    for key, setup in SETUPS.items():
        assert setup.key == key and setup.paper == "002" and setup.figure.startswith("Fig")
        assert setup.paper_claim and setup.notes and setup.label
        doc = json.loads(json.dumps(setup.input_document()))  # JSON as it is stored
        assert setup.figure in doc["name"]
        assert parse_mrsu_input(doc).requirements.shape == (10, 30, 4)  # Fig. 2: ten apps, 4 dims, 30 slots


def test_the_paper_sweep_is_the_sweeps_default():
    defaults = {k: p.default for k, p in inspect.signature(mrsu_sweep).parameters.items()}
    assert {k: defaults[k] for k in PAPER_SWEEP} == {**PAPER_SWEEP, "loads": tuple(PAPER_SWEEP["loads"])}
    assert SETUPS["002-figs-3-5"].sweep == PAPER_SWEEP
    with pytest.raises(TypeError):
        PAPER_SWEEP["seeds"] = 3  # type: ignore[index]  # one copy, read-only


def test_an_input_document_reads_back_into_the_same_problem():
    p = synthetic_workload(load=0.6, applications=7, slots=5, seed=4)
    q = parse_mrsu_input(json.loads(json.dumps(input_document(p, name="x"))))
    assert q.dimensions == p.dimensions and q.names == p.names
    assert np.array_equal(q.capacity, p.capacity) and np.array_equal(q.requirements, p.requirements)
    assert np.array_equal(q.priorities, p.priorities)


def test_fig_2_shows_what_the_paper_says():
    # "over-allocation and application dissatisfaction in both cases, although MRSU outperforms
    # VM-based in both metrics ... very little application dissatisfaction ... in MRSU"
    problem = parse_mrsu_input(SETUPS["002-fig-2"].input_document())
    doc = mrsu_result(problem, composition="gcd", mode="ft")
    mine = doc["misallocation"]
    vm = doc["baselines"]["vm-static"]["misallocation"]
    assert 0 < mine["over"] < vm["over"] and 0 < mine["under"] < vm["under"]
    assert mine["under"] < vm["under"] / 4  # "very little"
    rho = [v for slots in mine["coefficients"].values() for slot in slots for v in slot]
    assert len(rho) == 1200 and sum(v == 0 for v in rho) > 0


def test_the_presets_are_the_set_ups_and_each_is_a_valid_run() -> None:
    """The planner's start page offers :func:`presets`: one per set-up, in order, its input
    document and a run's parameters that start as they are (scheduling.mrsu.params)."""
    from scheduling.mrsu.params import mrsu_run
    from scheduling.mrsu.setups import presets

    found = presets()
    assert [p.key for p in found] == list(SETUPS)
    for preset in found:
        setup = SETUPS[preset.key]
        assert preset.scenario is None  # the input carries its own: the run records its machine
        assert setup.figure in preset.title and setup.paper_claim in preset.description
        assert preset.params["input"] == setup.input_document()
        options = mrsu_run(json.loads(json.dumps(preset.params)))  # as a form or the API sends them
        assert options["requirements"] == "input" and options["input"] == setup.input_document()
        assert options["compositions"] == ["gcd", "min"] and options["modes"] == ["ft", "id"]
    fig2, sweep = found
    assert "sweep" not in fig2.params and "Fig. 2" in fig2.title
    assert sweep.params["sweep"] == {**PAPER_SWEEP} and "Figs. 3-5" in sweep.title
    assert mrsu_run(sweep.params)["sweep"] == {**PAPER_SWEEP, "spread": 0.5, "slots_valid": None}
    assert presets()[1].params["sweep"]["loads"] is not PAPER_SWEEP["loads"]  # never the shared list
