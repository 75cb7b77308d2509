"""The jobs CSV's optional network_sensitivity column (notes §8, scenario version 3)."""

from __future__ import annotations

import pytest

from scheduling import ScenarioError, parse_workload
from scheduling.importers import get_importer

JOBS_CSV = get_importer("jobs")
HEADER = "id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s,network_sensitivity\n"


def test_the_column_is_read_and_an_empty_cell_leaves_the_field_unset() -> None:
    imported = JOBS_CSV.read_text(HEADER + "pr,,0,4,2,4,300,,0.4\nwc,,10,2,1,2,60,90,\nz,,20,1,1,1,5,,0\n")
    assert [j.get("network_sensitivity") for j in imported.jobs] == [0.4, None, 0]
    assert imported.document["resources"] == ["cpu", "mem"]  # not a resource column
    workload = parse_workload(imported.document)
    assert [j.network_sensitivity for j in workload.jobs] == [0.4, None, 0.0]


def test_a_file_without_the_column_reads_as_before() -> None:
    imported = JOBS_CSV.read_text("id,arrival_s,executors,cpu,duration_s\nj,0,1,1,5\n")
    assert imported.jobs == [
        {"id": "j", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1}, "duration_s": 5}]


def test_errors_name_the_line_the_job_and_the_column() -> None:
    with pytest.raises(ScenarioError) as info:
        JOBS_CSV.read_text(HEADER + "pr,,0,4,2,4,300,,lots\n")
    assert [str(e) for e in info.value.errors] == [
        "line 2 (job pr), network_sensitivity: must be a number, got 'lots'"]
    imported = JOBS_CSV.read_text(HEADER + "ok,,0,1,1,1,10,,\npr,,0,4,2,4,300,,-0.5\n")
    with pytest.raises(ScenarioError) as info:
        parse_workload(imported.document)
    assert [str(e) for e in imported.locate(info.value.errors)] == [
        "line 3 (job pr), network_sensitivity: must be >= 0"]
