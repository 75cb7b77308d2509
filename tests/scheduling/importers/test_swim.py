"""SWIM's Facebook workloads: the shipped BSD-licensed sample, the rule from bytes, the selection."""

from __future__ import annotations

import gzip
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scheduling import ScenarioError, parse_scenario
from scheduling.importers import Source, get_importer, sources_from_paths
from scheduling.importers.swim import swim_job

ROOT = Path(__file__).resolve().parents[3]
SWIM_DATA = ROOT.parent / "shared" / "data" / "swim"
DAY = SWIM_DATA / "FB-2009_samples_24_times_1hr_0.tsv"
FIRST50 = SWIM_DATA / "FB-2009_samples_24_times_1hr_0_first50jobs.tsv"
SWIM = get_importer("swim")
CLUSTER = [{"name": "m1.xlarge", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.48, "count": 50}]
needs_sample = pytest.mark.skipif(not DAY.exists(), reason="the shared SWIM sample is not on this machine")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scheduling", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def trace_lines(path: Path) -> list[list[str]]:
    return [line.rstrip("\n").split("\t") for line in path.read_text().splitlines() if line.strip()]


def errors(fn: Any, *args: Any, **kwargs: Any) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        fn(*args, **kwargs)
    return [str(e) for e in info.value.errors]


@needs_sample
def test_the_shipped_day_gives_one_job_a_line_and_validates(tmp_path: Path) -> None:
    vm_types = tmp_path / "vm.json"
    vm_types.write_text(json.dumps(CLUSTER))
    out_path = tmp_path / "S.json"
    out = run("import", "--format", "swim", str(DAY), "--vm-types", str(vm_types), "-o", str(out_path))
    assert out.returncode == 0, out.stderr
    doc = json.loads(out_path.read_text())
    rows = trace_lines(DAY)
    assert len(doc["jobs"]) == len(rows)
    assert [j["arrival_s"] for j in doc["jobs"]] == [int(r[1]) for r in rows]
    assert doc["vm_types"] == CLUSTER and doc["frameworks"] == []
    assert run("validate", str(out_path)).returncode == 0


def test_a_malformed_line_exits_2_naming_the_file_and_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("job0\t49\t49\t740773\t2339561\t627471\njob1\t101\t52\t73x6346\t1700537\t432269\n")
    out = run("import", "--format", "swim", str(bad))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.splitlines() == [
        f"error: {bad} line 2 (job job1), map input bytes: must be a number of bytes >= 0, got '73x6346'"
    ]
    bad.write_text("job0\t49\t49\t740773\n")
    assert errors(SWIM.read_sources, [Source.from_path(bad, name="bad.tsv")]) == [
        "bad.tsv line 1: has 4 tab-separated columns; SWIM has 6: job id, submit time, inter-job gap, "
        "map input bytes, shuffle bytes, reduce output bytes"
    ]
    bad.write_text("job0\t-4\t49\t740773\t0\t0\n")
    assert errors(SWIM.read_sources, [Source.from_path(bad, name="bad.tsv")]) == [
        "bad.tsv line 1 (job job0), submit time: must be a number of seconds >= 0, got '-4'"
    ]


def test_the_rule_from_bytes_by_hand() -> None:
    opts = SWIM.parse_options({"task_mb_per_s": 16, "max_executors": 4})
    mb = 2**20
    # 1 GB in: 16 maps of 64 MB on 4 executors, 4 waves of 4 s; 128 MB shuffle + 64 MB out: 3 reduces,
    # one wave of 64 MB at 16 MB/s.
    assert swim_job(1024 * mb, 128 * mb, 64 * mb, opts, None) == (4, 20.0)
    # A tiny job is padded to one block, shuffle and output to 1 KB each (SWIM's replay).
    assert swim_job(10, 0, 0, opts, None) == (1, round(4 + 2048 / (16 * mb), 6))
    # The cluster holds fewer executors at once than the job's tasks: more waves.
    assert swim_job(1024 * mb, 0, 0, opts, 2)[0] == 2
    assert swim_job(1024 * mb, 0, 0, opts, 2)[1] == pytest.approx(8 * 4 + 2048 / (16 * mb), abs=1e-6)


def test_gzipped_files_folders_and_several_files(tmp_path: Path) -> None:
    text = "a\t0\t0\t1\t1\t1\nb\t5\t5\t1\t1\t1\n"
    (tmp_path / "day").mkdir()
    with gzip.open(tmp_path / "day" / "one.tsv.gz", "wt") as f:  # the name need not say gzip: the bytes do
        f.write(text)
    (tmp_path / "day" / "two.tsv").write_text(text)
    imported = SWIM.read_sources(sources_from_paths([str(tmp_path / "day")]))
    assert [j["id"] for j in imported.jobs] == ["one/a", "two/a", "one/b", "two/b"]
    assert imported.origins[0].endswith("one.tsv.gz line 1")


@needs_sample
def test_window_sample_and_cap() -> None:
    rows = trace_lines(DAY)
    sources = [Source.from_path(DAY)]
    window = SWIM.read_sources(sources, {"start_s": 3600, "window_s": 3600})
    expected = [r for r in rows if 3600 <= int(r[1]) < 7200]
    assert [j["id"] for j in window.jobs] == [r[0] for r in expected]
    assert [j["arrival_s"] for j in window.jobs] == [int(r[1]) - 3600 for r in expected]
    assert any("before the window" in w.message for w in window.warnings)

    half = SWIM.read_sources(sources, {"sample": 0.5, "seed": 7})
    again = SWIM.read_sources(sources, {"sample": 0.5, "seed": 7})
    other = SWIM.read_sources(sources, {"sample": 0.5, "seed": 8})
    assert half.jobs == again.jobs != other.jobs
    assert 0.4 < len(half.jobs) / len(rows) < 0.6
    # the sample is a property of the job, not of the order or the window
    in_window = SWIM.read_sources(sources, {"sample": 0.5, "seed": 7, "start_s": 3600, "window_s": 3600})
    assert {j["id"] for j in in_window.jobs} == {j["id"] for j in half.jobs if 3600 <= j["arrival_s"] < 7200}

    capped = SWIM.read_sources(sources, {"max_jobs": 10})
    assert [j["id"] for j in capped.jobs] == [r[0] for r in rows[:10]]


def test_deadline_rules() -> None:
    text = "a\t0\t0\t1\t1\t1\nb\t5\t5\t1000000000\t1\t1\n"
    assert all("deadline_s" not in j for j in SWIM.read_text(text).jobs)
    for job in SWIM.read_text(text, {"deadline": "factor", "deadline_factor": 3}).jobs:
        assert job["deadline_s"] == pytest.approx(3 * job["duration_s"], abs=1e-5)
    drawn = SWIM.read_text(text, {"deadline": "range", "deadline_low": 2, "deadline_high": 4, "seed": 1}).jobs
    assert all(2 * j["duration_s"] <= j["deadline_s"] <= 4 * j["duration_s"] for j in drawn)
    assert (
        drawn
        == SWIM.read_text(text, {"deadline": "range", "deadline_low": 2, "deadline_high": 4, "seed": 1}).jobs
    )


@needs_sample
def test_preview_reads_only_the_first_jobs() -> None:
    preview = SWIM.preview([Source.from_path(DAY)], {"deadline": "factor"}, limit=5)
    assert [j["id"] for j in preview.jobs] == [r[0] for r in trace_lines(DAY)[:5]]
    assert all("deadline_s" in j for j in preview.jobs)


def test_options_are_declared_and_checked() -> None:
    names = [p.name for p in SWIM.options]
    assert {
        "start_s",
        "window_s",
        "sample",
        "seed",
        "max_jobs",
        "deadline",
        "block_mb",
        "task_mb_per_s",
    } <= set(names)
    assert errors(SWIM.parse_options, {"sample": 0, "block_mb": "big", "colour": 1}) == [
        "options.sample: must be a number in (0, 1]",
        "options.block_mb: must be a number in (0, 1e+06]",
        f"options.colour: unknown option (options: {', '.join(names)})",
    ]
    assert SWIM.parse_options({"sample": "0.5", "max_jobs": "7"})["max_jobs"] == 7


@st.composite
def swim_files(draw: st.DrawFn) -> tuple[str, list[tuple[str, int, int, int, int]]]:
    gaps = draw(st.lists(st.integers(0, 500), min_size=1, max_size=30))
    rows = []
    t = 0
    for k, gap in enumerate(gaps):
        t += gap
        sizes = draw(st.tuples(*[st.integers(0, 2**36)] * 3))
        rows.append((f"job{k}", t, gap, *sizes))
    return "".join("\t".join(map(str, r)) + "\n" for r in rows), rows


@given(swim_files(), st.integers(0, 3000), st.one_of(st.none(), st.integers(1, 5000)), st.integers(1, 40))
def test_job_count_arrivals_and_sizes_follow_the_rule(
    case: tuple[str, list[tuple[str, int, int, int, int, int]]], start: int, window: int | None, cap: int
) -> None:
    text, rows = case
    options = {
        "start_s": start,
        "window_s": window,
        "max_jobs": cap,
        "max_executors": 16,
        "executor_mem_gb": 4,
    }
    imported = SWIM.read_text(text, options)
    end = math.inf if window is None else start + window
    kept = [r for r in rows if start <= r[1] < end][:cap]
    assert [j["id"] for j in imported.jobs] == [r[0] for r in kept]
    assert [j["arrival_s"] for j in imported.jobs] == [r[1] - start for r in kept]
    checked = SWIM.parse_options(options)
    for job, row in zip(imported.jobs, kept, strict=True):
        assert job["executor"] == {"cpu": 1, "mem": 4}
        assert (job["executors"], job["duration_s"]) == swim_job(*row[3:], checked, None)
        assert 1 <= job["executors"] <= 16
    if imported.jobs:
        parse_scenario({**imported.document, "vm_types": CLUSTER})


def test_flags_and_options_are_checked_at_the_flag(tmp_path: Path) -> None:
    path = tmp_path / "day.tsv"
    path.write_text("a\t0\t0\t1\t1\t1\n")
    out = run("import", "--format", "swim", str(path), "--sample", "0", "--option", "block_mb=big,colour=red")
    assert out.returncode == 2
    assert out.stderr.splitlines() == [
        "error: --option.block_mb: must be a number, got 'big'",
        f"error: --option.colour: unknown option (options: {', '.join(p.name for p in SWIM.options)})",
    ]
    out = run("import", "--format", "swim", str(path), "--sample", "0")
    assert (out.returncode, out.stderr) == (2, "error: --sample: must be a number in (0, 1]\n")
    out = run("import", "--format", "jobs", str(path), "--window-s", "60")
    assert out.returncode == 2 and "--window-s: the jobs format takes no window_s" in out.stderr


def test_fb_2010_lines_with_input_paths_and_validate_on_a_preset(tmp_path: Path) -> None:
    # FB-2010's withInputPaths files add an input path (and empty cells) after the six columns
    path = tmp_path / "FB-2010_samples_24_times_1hr_withInputPaths_0.tsv"
    path.write_text(
        "job0\t1\t1\t2267942\t0\t1937944\tinputPath1\t\t\njob1\t2\t1\t20791551476\t12295202125\t1491950225\tp\t\t\n"
    )
    imported = SWIM.read_sources([Source.from_path(path)])
    assert [j["arrival_s"] for j in imported.jobs] == [1, 2]
    # validate (and simulate) read a trace file too, its jobs fitted to the preset's cluster
    out = run("validate", str(path), "--preset", "paper-000")
    assert out.returncode == 0, out.stderr
    assert "2 jobs, 6 machines" in out.stdout
