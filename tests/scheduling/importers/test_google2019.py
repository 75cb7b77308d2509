"""Google's 2019 trace: small BigQuery exports written here (JSON lines; the flat CSV of docs/traces.md)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scheduling import ScenarioError, parse_scenario
from scheduling.importers import Source, get_importer, sources_from_paths

ROOT = Path(__file__).resolve().parents[3]
G2019 = get_importer("google-2019")
S = 1_000_000


def collection(
    t: int, job: int, code: int, *, ctype: int = 0, after: list[int] | None = None
) -> dict[str, Any]:
    # BigQuery writes INT64 as strings; the enums as integers
    doc: dict[str, Any] = {
        "time": str(t),
        "type": code,
        "collection_id": str(job),
        "collection_type": ctype,
        "priority": 200,
        "user": "u",
        "collection_name": "n",
    }
    if after:
        doc["start_after_collection_ids"] = [str(a) for a in after]
    return doc


def instance(
    t: int,
    job: int,
    index: int,
    code: int,
    cpu: float | None = None,
    mem: float | None = None,
    ctype: int = 0,
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "time": str(t),
        "type": str(code),
        "collection_id": str(job),
        "instance_index": index,
        "collection_type": ctype,
        "machine_id": "0",
    }
    if cpu is not None:
        doc["resource_request"] = {"cpus": cpu, "memory": mem}
    return doc


def machine(t: int, machine_id: int, code: int, cpu: float | None, mem: float | None) -> dict[str, Any]:
    doc: dict[str, Any] = {"time": str(t), "machine_id": str(machine_id), "type": code, "switch_id": "s"}
    if cpu is not None:
        doc["capacity"] = {"cpus": cpu, "memory": mem}
    return doc


#: Job 1 (two instances) finishes; job 2 is killed; 3 is an alloc set; job 4 starts after job 1.
#: A duration runs from the first SCHEDULE of the job (here the collection's) or its instances.
COLLECTIONS = [
    collection(0, 3, 0, ctype=1),
    collection(100 * S, 1, 0),
    collection(100 * S, 4, 0, after=[1]),
    collection(101 * S, 1, 3),
    collection(150 * S, 2, 0),
    collection(151 * S, 2, 3),
    collection(160 * S, 2, 7),
    collection(200 * S, 1, 6),
    collection(210 * S, 4, 3),
    collection(300 * S, 4, 6),
]
INSTANCES = [
    instance(0, 3, 0, 0, 0.5, 0.5, ctype=1),
    instance(100 * S, 1, 0, 0, 0.0625, 0.03125),
    instance(100 * S, 1, 1, 0, 0.125, 0.015625),
    instance(100 * S, 4, 0, 0, 0.25, 0.25),
    instance(102 * S, 1, 0, 3),
    instance(103 * S, 1, 1, 3),
    instance(150 * S, 2, 0, 0, 0.0625, 0.0625),
    instance(152 * S, 2, 0, 3),
    instance(160 * S, 2, 0, 7),
    instance(190 * S, 1, 0, 6),
    instance(199 * S, 1, 1, 6),
    instance(211 * S, 4, 0, 3),
    instance(300 * S, 4, 0, 6),
]
MACHINES = [
    machine(0, 1, 1, 0.5, 0.5),
    machine(0, 2, 1, 0.5, 0.5),
    machine(0, 3, 1, None, None),
    machine(5, 1, 3, 0.5, 0.5),
]

FLAT = {
    "collection_events": ("time", "type", "collection_id", "collection_type", "start_after_collection_ids"),
    "instance_events": (
        "time",
        "type",
        "collection_id",
        "instance_index",
        "collection_type",
        "resource_request_cpus",
        "resource_request_memory",
    ),
    "machine_events": ("time", "machine_id", "type", "capacity_cpus", "capacity_memory"),
}


def flat_csv(table: str, docs: list[dict[str, Any]]) -> str:
    """The flattening query's CSV (docs/traces.md): nested fields joined by ``_``, ids by spaces."""
    lines = [",".join(FLAT[table])]
    for doc in docs:
        cells = []
        for name in FLAT[table]:
            if name.startswith("resource_request"):
                value = (doc.get("resource_request") or {}).get(name.rsplit("_", 1)[1])
            elif name.startswith("capacity"):
                value = (doc.get("capacity") or {}).get(name.rsplit("_", 1)[1])
            elif name == "start_after_collection_ids":
                value = " ".join(doc.get(name, []))
            else:
                value = doc.get(name)
            cells.append("" if value is None else str(value))
        lines.append(",".join(cells))
    return "\n".join(lines) + "\n"


def write_json(root: Path, tables: dict[str, list[dict[str, Any]]] | None = None) -> Path:
    tables = tables or {
        "collection_events": COLLECTIONS,
        "instance_events": INSTANCES,
        "machine_events": MACHINES,
    }
    root.mkdir(parents=True)
    for table, docs in tables.items():
        with gzip.open(root / f"{table}-000000000000.json.gz", "wt") as f:
            f.write("".join(json.dumps(d) + "\n" for d in docs))
    return root


def errors(fn: Any, *args: Any, **kwargs: Any) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        fn(*args, **kwargs)
    return [str(e) for e in info.value.errors]


EXPECTED = [
    {"id": "1", "arrival_s": 100, "executors": 2, "executor": {"cpu": 4, "mem": 2}, "duration_s": 98},
    {"id": "4", "arrival_s": 100, "executors": 1, "executor": {"cpu": 8, "mem": 16}, "duration_s": 90},
]


def test_json_lines_as_bigquery_exports_them(tmp_path: Path) -> None:
    imported = G2019.read_sources(sources_from_paths([str(write_json(tmp_path / "export"))]))
    assert imported.jobs == EXPECTED
    assert imported.document["vm_types"] == [
        {"name": "g2019-16c-32g", "capacity": {"cpu": 16, "mem": 32}, "price_per_hour": 0.96, "count": 2}
    ]
    warnings = {str(w) for w in imported.warnings}
    assert warnings >= {
        "collection_events: 1 alloc sets (collection_type 1) are not jobs: skipped",
        "machine_events: 1 machines added without a CPU or memory capacity are left out",
        "import: 1 job dropped: ended KILLED, LOST or FAILED (keep_killed=true keeps them)",
    }
    assert any("start_after_collection_ids" in w for w in warnings)
    parse_scenario({"version": 1, **imported.document})
    killed = G2019.read_sources(sources_from_paths([str(tmp_path / "export")]), {"keep_killed": True})
    assert [(j["id"], j["duration_s"]) for j in killed.jobs] == [("1", 98), ("4", 90), ("2", 9)]


def test_the_flat_csv_of_the_flattening_query(tmp_path: Path) -> None:
    sources = [
        Source.from_text("collection_events.csv", flat_csv("collection_events", COLLECTIONS)),
        Source.from_text("instance_events.csv", flat_csv("instance_events", INSTANCES)),
        Source.from_text("machine_events.csv", flat_csv("machine_events", MACHINES)),
    ]
    imported = G2019.read_sources(sources)
    assert imported.jobs == EXPECTED and len(imported.document["vm_types"]) == 1
    # tables recognised by their fields when their names do not say
    unnamed = [
        Source.from_text(f"part-{k}.csv", s.open_binary().read().decode()) for k, s in enumerate(sources)
    ]
    assert G2019.read_sources(unnamed).jobs == EXPECTED


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (
            {"time": "soon", "type": 0, "collection_id": "1", "instance_index": 0},
            "line 14, time: must be a whole number, got 'soon'",
        ),
        (
            {"time": "400000000", "type": 11, "collection_id": "1", "instance_index": 0},
            "line 14, type: must be an event code from 0 to 10",
        ),
        (
            {
                "time": "400000000",
                "type": 0,
                "collection_id": "1",
                "instance_index": 0,
                "resource_request": {"cpus": "x"},
            },
            "line 14, resource_request.cpus: must be a number >= 0, got 'x'",
        ),
        (
            {"time": "400000000", "type": 0, "collection_id": "1"},
            "line 14, instance_index: must be a whole number, got None",
        ),
    ],
)
def test_a_malformed_line_names_the_file_the_line_and_the_field(
    tmp_path: Path, doc: dict[str, Any], message: str
) -> None:
    root = write_json(
        tmp_path / "e", {"collection_events": COLLECTIONS, "instance_events": [*INSTANCES, doc]}
    )
    [error] = errors(G2019.read_sources, sources_from_paths([str(root)]))
    assert error == f"{root / 'instance_events-000000000000.json.gz'} {message}"
    (tmp_path / "instance_events.json").write_text(json.dumps(INSTANCES[1]) + "\n{not json\n")
    [error] = errors(G2019.read_sources, [Source.from_path(tmp_path / "instance_events.json")])
    assert error.startswith(f"{tmp_path / 'instance_events.json'} line 2: is not a JSON object")


def test_the_command_line(tmp_path: Path) -> None:
    root = write_json(tmp_path / "export")
    out_path = tmp_path / "S.json"
    run = [sys.executable, "-m", "scheduling", "import", "--format", "google-2019"]
    out = subprocess.run(
        [*run, str(root), "--start-s", "50", "-o", str(out_path)], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert [j["arrival_s"] for j in json.loads(out_path.read_text())["jobs"]] == [50, 50]
    assert "start_after_collection_ids" in out.stderr


@st.composite
def exports(draw: st.DrawFn) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    events: list[tuple[int, int, str, dict[str, Any]]] = []
    expected = []
    for job in range(draw(st.integers(1, 8))):
        submit = draw(st.integers(0, 3000)) * S
        tasks = draw(
            st.lists(
                st.tuples(
                    st.integers(0, 9), st.sampled_from([0.0625, 0.125]), st.sampled_from([0.03125, 0.0625])
                ),
                min_size=1,
                max_size=4,
            )
        )
        start, end = submit + draw(st.integers(0, 30)) * S, 0
        end = start + draw(st.integers(1, 400)) * S
        events.append((submit, 0, "c", collection(submit, job, 0)))
        for index, cpu, mem in tasks:
            events.append((submit, 1, "i", instance(submit, job, index, 0, cpu, mem)))
            events.append((start, 1, "i", instance(start, job, index, 3)))
        events.append((end, 1, "i", instance(end, job, tasks[-1][0], 6)))
        events.append((end, 2, "c", collection(end, job, 6)))
        expected.append(
            {
                "id": str(job),
                "arrival_s": submit // S,
                "executors": len({t[0] for t in tasks}),
                "executor": {"cpu": max(t[1] for t in tasks) * 32, "mem": max(t[2] for t in tasks) * 64},
                "duration_s": (end - start) // S,
            }
        )
    events.sort(key=lambda e: (e[0], e[1]))
    return [e[3] for e in events if e[2] == "c"], [e[3] for e in events if e[2] == "i"], expected


@given(exports(), st.integers(0, 2000))
def test_job_count_arrivals_and_sizes_follow_the_rule(
    export: tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]], start: int
) -> None:
    collections, instances, expected = export
    sources = [
        Source.from_text("collection_events", "".join(json.dumps(d) + "\n" for d in collections)),
        Source.from_text("instance_events", "".join(json.dumps(d) + "\n" for d in instances)),
    ]
    imported = G2019.read_sources(sources, {"start_s": start})
    kept = sorted((e for e in expected if e["arrival_s"] >= start), key=lambda e: (e["arrival_s"], e["id"]))
    assert imported.jobs == [{**e, "arrival_s": e["arrival_s"] - start} for e in kept]
