"""The importer registry and its entries: jobs CSV, RM-Simulator CSV, scenario JSON."""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from scheduling import LIMITS, FieldError, ScenarioError, parse_scenario, parse_workload
from scheduling.importers import (
    IMPORTERS,
    Imported,
    Importer,
    get_importer,
    guess_importer,
    import_rm_csv,
    read_jobs_csv,
    register,
)
from scheduling.importers.sources import Source
from scheduling.presets import preset_vm_types

#: The trace formats, registered after the plain ones.
TRACES = ["swim", "google-2011", "google-2019", "alibaba-2018"]
JOBS_CSV = get_importer("jobs")
RM_CSV = get_importer("rm-simulator")


def error_list(fn: Any, *args: Any) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        fn(*args)
    return [str(e) for e in info.value.errors]


# --------------------------------------------------------------------------- the registry


def test_the_registry_lists_each_format_once_with_its_file_types():
    assert list(IMPORTERS) == ["jobs", "rm-simulator", "scenario-json", *TRACES]
    for importer in IMPORTERS.values():
        assert importer.label and importer.file_types and importer.help
    assert [o.name for o in RM_CSV.options] == ["with_deadlines"]


def test_an_unknown_format_names_the_known_ones():
    assert error_list(get_importer, "parquet") == [f"format: must be one of {', '.join(IMPORTERS)}"]


def test_a_new_format_is_one_entry(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr("scheduling.importers.registry.IMPORTERS", dict(IMPORTERS))
    from scheduling.importers import registry

    def read_swim(lines: Iterable[str], options: Mapping[str, Any]) -> Imported:
        jobs = [
            {
                "id": f"s{k}",
                "arrival_s": float(t),
                "executors": 1,
                "executor": {"cpu": 1, "mem": 1},
                "duration_s": 10,
            }
            for k, t in enumerate(line.strip() for line in lines if line.strip())
        ]
        return Imported(
            {"frameworks": [], "jobs": jobs}, origins=tuple(f"line {k + 1}" for k in range(len(jobs)))
        )

    register(Importer(name="toy", label="Toy", file_types=(".toy",), read=read_swim, help="test"))
    assert registry.guess_importer("trace.toy", "0").name == "toy"
    assert [j["id"] for j in registry.get_importer("toy").read_text("0\n5\n").jobs] == ["s0", "s1"]
    with pytest.raises(ValueError):
        register(Importer(name="toy", label="again", file_types=(), read=read_swim))


@pytest.mark.parametrize(
    ("filename", "first_line", "expected"),
    [
        ("w.csv", "job-id,C,M,E,T_A,T_est,T_D", "rm-simulator"),
        ("w.csv", "\ufeffid,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s", "jobs"),
        ("w.json", "not even json", "scenario-json"),
        ("-", '  {"name": "x"}', "scenario-json"),
        ("w.csv", "a,b,c", None),
    ],
)
def test_guess_by_file_type_then_first_line(filename: str, first_line: str, expected: str | None):
    found = guess_importer(filename, first_line)
    assert (found.name if found else None) == expected


def test_importer_options_are_declared_and_checked():
    assert RM_CSV.parse_options(None) == {"with_deadlines": True}
    assert RM_CSV.parse_options({"with_deadlines": "no"}) == {"with_deadlines": False}
    assert error_list(RM_CSV.parse_options, {"with_deadlines": 3, "scale": 2}) == [
        "options.with_deadlines: must be true or false",
        "options.scale: unknown option (options: with_deadlines)",
    ]
    text = "job-id,C,M,E,T_A,T_est,T_D\njob-0,4,6,7,39,153,396\n"
    assert "deadline_s" not in RM_CSV.read_text(text, {"with_deadlines": False}).jobs[0]


# --------------------------------------------------------------------------- jobs CSV


def test_jobs_csv():
    text = (
        "id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s\n"
        "j1,analytics,0,4,2,4,300,900\n"
        "\n"
        "j2,,60.5,2,1,2.5,120,\n"
    )
    imported = JOBS_CSV.read_text(text)
    assert imported.jobs == [
        {
            "id": "j1",
            "framework": "analytics",
            "arrival_s": 0,
            "executors": 4,
            "executor": {"cpu": 2, "mem": 4},
            "duration_s": 300,
            "deadline_s": 900,
        },
        {
            "id": "j2",
            "arrival_s": 60.5,
            "executors": 2,
            "executor": {"cpu": 1, "mem": 2.5},
            "duration_s": 120,
        },
    ]
    assert imported.origins == ("line 2", "line 4")
    assert imported.document["resources"] == ["cpu", "mem"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "",
            "csv: is empty; the first line must be a header such as "
            "id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s",
        ),
        (
            "id,arrival_s,executors,duration_s\nj,0,1,5\n",
            "csv: the header names no resource column (one per resource, e.g. cpu,mem)",
        ),
        ("id,arrival_s,cpu,duration_s\nj,0,1,5\n", "csv: the header lacks executors"),
        ("id,arrival_s,executors,cpu,cpu,duration_s\n", "csv: the header repeats cpu"),
        (
            "id,arrival_s,executors,cpu,duration_s\nj,0,1,two,5\n",
            "line 2 (job j), cpu: must be a number, got 'two'",
        ),
        (
            "id,arrival_s,executors,cpu,duration_s\nj,0,1,nan,5\n",
            "line 2 (job j), cpu: must be a number, got 'nan'",
        ),
        ("id,arrival_s,executors,cpu,duration_s\nj,0,1,1\n", "line 2: has 4 columns, the header 5"),
        ("id,arrival_s,executors,cpu,duration_s\n,0,1,1,5\n", "line 2, id: must not be empty"),
        (
            'id,arrival_s,executors,cpu,duration_s\n"a\nb",0,1,x,5\n',
            "line 3 (job a\\nb), cpu: must be a number, got 'x'",
        ),
    ],
)
def test_jobs_csv_errors_name_the_line_and_the_job(text: str, expected: str):
    assert expected in error_list(JOBS_CSV.read_text, text)


def test_a_file_is_read_line_by_line_and_bounded(monkeypatch: pytest.MonkeyPatch):
    lines = iter(["id,arrival_s,executors,cpu,duration_s\n", "j1,0,1,1,5\n"])
    assert len(read_jobs_csv(lines, {}).jobs) == 1
    monkeypatch.setitem(LIMITS, "document_bytes", 60)
    too_long = io.StringIO("id,arrival_s,executors,cpu,duration_s\n" + "j,0,1,1,5\n" * 10)
    assert error_list(read_jobs_csv, too_long, {}) == ["csv: is larger than 0 MB"]


def test_validation_errors_of_imported_jobs_name_the_line_job_and_column():
    text = (
        "id,framework,arrival_s,executors,cpu,mem,duration_s\n"
        "ok,,0,1,1,1,10\n\nj-17,,0,0,1,1,10\nj-18,,0,1,-1,1,10\n"
    )
    imported = JOBS_CSV.read_text(text)
    with pytest.raises(ScenarioError) as info:
        parse_workload(imported.document)
    assert [str(e) for e in imported.locate(info.value.errors)] == [
        "line 4 (job j-17), executors: must be >= 1",
        "line 5 (job j-18), cpu: must be >= 0",
    ]
    # Appended after 30 jobs a workload already had: the paths count from there.
    shifted = [FieldError(f"jobs[{30 + k}].executor", "does not fit") for k in range(3)] + [
        FieldError("jobs[2].id", "x")
    ]
    assert [e.path for e in imported.locate(shifted, first_job=30)] == [
        "line 2 (job ok), cpu, mem",
        "line 4 (job j-17), cpu, mem",
        "line 5 (job j-18), cpu, mem",
        "jobs[2].id",
    ]


# ------------------------------------------------------------------- RM-Simulator CSV and scenario JSON


def test_rm_simulator_errors_found_by_validation_name_its_columns():
    text = (
        "job-id,C,M,E,T_A,T_est,T_D\njob-0,4,6,7,39,153,396\njob-1,40,8,1,96,54,173\njob-2,4,6,0,96,54,173\n"
    )
    imported = RM_CSV.read_text(text)
    doc = {**imported.document, "vm_types": preset_vm_types("paper-003")}
    with pytest.raises(ScenarioError) as info:
        parse_scenario(doc)
    assert [str(e) for e in imported.locate(info.value.errors)] == [
        "line 4 (job job-2), E: must be >= 1",
    ]
    del doc["jobs"][2]
    with pytest.raises(ScenarioError) as info:
        parse_scenario(doc)
    assert [str(e) for e in imported.locate(info.value.errors)] == [
        "jobs: 1 of 2 jobs need an executor larger than any VM type: "
        "largest executor 40 cpu, largest VM 12 cpu",
        "line 3 (job job-1), C, M: does not fit on any VM type the job's framework may use",
    ]


def test_import_rm_csv_keeps_its_document():
    doc = import_rm_csv("job-id,C,M,E,T_A,T_est,T_D\njob-0,4,6,7,39,153,396\n", name="x")
    assert list(doc) == ["version", "name", "resources", "vm_types", "frameworks", "jobs"]
    assert parse_scenario(doc).jobs[0].deadline_s == 357


def test_scenario_json_keeps_document_paths():
    imported = get_importer("scenario-json").read_text('{"vm_types": [], "jobs": [{"id": 1}]}')
    with pytest.raises(ScenarioError) as info:
        parse_scenario(imported.document)
    assert imported.locate(info.value.errors) == info.value.errors
    assert error_list(get_importer("scenario-json").read_text, "[1, 2]") == [
        "the scenario must be a JSON object"
    ]
    assert error_list(get_importer("scenario-json").read_text, '{"a": NaN}')[0].startswith("not valid JSON")


def test_a_jobs_csv_reports_every_error_at_once_in_the_files_order() -> None:
    from scheduling.errors import ScenarioError
    from scheduling.importers import read_jobs_csv

    lines = ["id,arrival_s,executors,cpu,mem,duration_s\n", "j1,0,0,1,2,60\n", "j2,zero,2,1,2,60\n",
             "j3,0,2,-1,2,60\n"]
    with pytest.raises(ScenarioError) as caught:
        read_jobs_csv(lines, {})
    assert [(e.path, e.message) for e in caught.value.errors] == [
        ("line 2 (job j1), executors", "must be >= 1"),
        ("line 3 (job j2), arrival_s", "must be a number, got 'zero'"),
        ("line 4 (job j3), cpu", "must be >= 0"),
    ]


@pytest.mark.parametrize(
    ("fmt", "header", "row"),
    [
        ("jobs", "id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s",
         "j{i},,{i},1,1,2,60,"),
        ("rm-simulator", "job-id,C,M,E,T_A,T_est,T_D", "job-{i},1,2,1,{i},60,600"),
    ],
)
def test_a_preview_of_a_job_a_line_format_reads_only_its_first_lines(fmt: str, header: str, row: str) -> None:
    importer = get_importer(fmt)
    good = [row.format(i=i) for i in range(30)]
    text = "\n".join([header, *good, "not,a,job", *good]) + "\n"
    with pytest.raises(ScenarioError):  # the whole file has a bad line ...
        importer.read_text(text)
    # ... past the lines the preview of its first 5 jobs reads, and those are the whole read's.
    preview = importer.preview([Source.from_text("jobs.csv", text)], limit=5)
    whole = importer.read_text("\n".join([header, *good]) + "\n")
    assert preview.jobs == whole.jobs[:5]
    assert importer.line_per_job
    assert not get_importer("scenario-json").line_per_job
