"""Paper 004's set-ups (scheduling.udrf.setups): the Fig. 1 document written once, the presets."""

from __future__ import annotations

import json
from pathlib import Path

from scheduling.params import param_named, read_params
from scheduling.scenario import parse_scenario
from scheduling.udrf.offline_doc import offline_document
from scheduling.udrf.params import UDRF_PARAMS, udrf_run
from scheduling.udrf.setups import (
    ONLINE_RUNS,
    SYNTHETIC,
    below_drf_document,
    fig1_document,
    fig1_online_document,
    presets,
    two_classes_document,
)
from scheduling.udrf.synthetic import synthetic_document

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "paper004-fig1.json"


def test_the_example_file_is_the_librarys_fig1() -> None:
    """examples/paper004-fig1.json (the command line's and the docs') is the document the library
    defines: change one, change both."""
    assert json.loads(EXAMPLE.read_text()) == fig1_document()


def test_fig1_gives_the_papers_numbers() -> None:
    doc = offline_document(parse_scenario(fig1_document()), compare_drf=True)
    assert doc["policies"]["udrf"]["users"][0]["jobs"] == {"job1": 28, "job2": 8}
    assert doc["policies"]["drf"]["users"][0]["jobs"] == {"job1": 8, "job2": 8}


def test_each_call_gives_a_fresh_copy() -> None:
    doc = fig1_document()
    doc["vm_types"][0]["count"] = 1
    doc["frameworks"].clear()
    assert fig1_document()["vm_types"][0]["count"] == 8 and len(fig1_document()["frameworks"]) == 4


def test_the_online_set_up_runs_every_job_many_times() -> None:
    doc = fig1_online_document()
    jobs = [j for f in doc["frameworks"] for j in f["complex_jobs"]]
    assert len(jobs) == 5 and {j["runs"] for j in jobs} == {ONLINE_RUNS} == {100}
    assert doc["name"] == "UDRF: the four users of paper 004, Fig. 1, each job run 100 times"
    without_runs = json.loads(json.dumps(doc))
    for job in (j for f in without_runs["frameworks"] for j in f["complex_jobs"]):
        del job["runs"]
    without_runs["name"] = fig1_document()["name"]
    assert without_runs == fig1_document()
    assert fig1_online_document(3)["frameworks"][1]["complex_jobs"][0]["runs"] == 3


def test_the_presets_are_valid_runs() -> None:
    found = presets()
    assert [p.key for p in found] == ["004-fig1", "004-fig1-online", "004-two-classes", "004-below-drf",
                                      "004-synthetic-online"]
    fig1, online, two_classes, below, synthetic = found
    assert two_classes.scenario == two_classes_document() and below.scenario == below_drf_document()
    assert two_classes.params == below.params == {"compare_drf": True, "online": False}
    assert fig1.scenario == fig1_document() and fig1.params == {"compare_drf": True, "online": False}
    assert online.scenario == fig1_online_document()
    assert online.params == {"compare_drf": True, "online": True, "interval_s": 1.0}
    assert synthetic.scenario == synthetic_document(**SYNTHETIC)
    assert synthetic.params["queue_capacity"] == 100 and synthetic.params["online"] is True
    assert dict(SYNTHETIC) == {"users": 50, "jobs": 200, "classes": 60, "seed": 0}
    for preset in found:
        assert preset.title and preset.description
        scenario = parse_scenario(preset.scenario)
        options = udrf_run(preset.params, scenario=scenario)  # a run the planner would start
        assert options["policies"] == ["udrf", "drf"]
        # every parameter a preset sets is declared (a start page fills its field)
        read_params(UDRF_PARAMS, preset.params)
        assert all(param_named(UDRF_PARAMS, k) for k in preset.params)
    # the synthetic trace's size: 60 machine classes, 200 jobs
    assert len(synthetic.scenario["vm_types"]) == 60
    assert sum(len(f["complex_jobs"]) for f in synthetic.scenario["frameworks"]) == 200


def test_the_presets_do_not_share_documents() -> None:
    a, b = presets(), presets()
    assert a[0].scenario == b[0].scenario and a[0].scenario is not b[0].scenario
