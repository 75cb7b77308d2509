"""Benchmark 5 (issue 6): how large a 10,000-job, five-scheduler run's result documents are.

    python benchmarks/result_size.py                  # JSON and PostgreSQL jsonb
    python benchmarks/result_size.py --no-database    # JSON only

The authors' 10,000-job workload (large-scale-workload_jobs_high_load.csv) on the paper's VM mix
x100 (1,400 VMs), compared under fifo-spread, fifo-consolidate, morpheus, edf-bfd and edf-ilp,
as a cost run stores it: one ``SimulationResult.to_dict()`` per scheduler. Reports the size of
each document as JSON text, its largest sections, and (unless ``--no-database``) what the five
take as ``jsonb`` in PostgreSQL: the summed ``pg_column_size`` of the stored values (after
PostgreSQL's own TOAST compression) and the size of the table with its TOAST table. It writes a
scratch table ``result_size_probe`` in the database given by ``--dsn`` and drops it afterwards.

Each is measured twice: as plain JSON, and as the planner stores a result document, with its
numeric columns packed (``scheduling.packed.pack_tree``, ``planner.core.dbfields``); with the
seconds it takes to write the text (packing and ``json.dumps``) and to insert it (the database
turning it into ``jsonb``), summed over the five documents, best of three.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scheduling import compare, parse_scenario  # noqa: E402
from scheduling.importers import import_rm_csv  # noqa: E402
from scheduling.packed import pack_tree  # noqa: E402
from scheduling.presets import preset_vm_types  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "rm-simulator"
SCHEDULERS = ["fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp"]
MIB = 2**20


def documents() -> dict[str, dict[str, Any]]:
    text = (SHARED / "large-scale-workload_jobs_high_load.csv").read_text()
    vm_types = preset_vm_types("paper-003", scale=100)
    doc = import_rm_csv(text, name="10,000 jobs on 1,400 VMs", vm_types=vm_types)
    results = compare(parse_scenario(doc), schedulers=SCHEDULERS)
    return {name: result.to_dict() for name, result in results.items()}


def jsonb_sizes(texts: dict[str, str], dsn: str) -> tuple[int, int, float]:
    """(summed pg_column_size of the stored documents, table size with TOAST, in bytes; the
    seconds the inserts took, best of three)."""
    import psycopg  # the planner's database driver; only this measure needs it

    best = float("inf")
    with psycopg.connect(dsn, autocommit=True) as connection:
        for _ in range(3):
            connection.execute("DROP TABLE IF EXISTS result_size_probe")
            connection.execute("CREATE TABLE result_size_probe (scheduler text, document jsonb)")
            try:
                start = time.perf_counter()
                for name, text in texts.items():
                    connection.execute("INSERT INTO result_size_probe VALUES (%s, %s::jsonb)", (name, text))
                best = min(best, time.perf_counter() - start)
                column = connection.execute(
                    "SELECT sum(pg_column_size(document)) FROM result_size_probe"
                ).fetchone()
                table = connection.execute("SELECT pg_total_relation_size('result_size_probe')").fetchone()
            finally:
                connection.execute("DROP TABLE result_size_probe")
    assert column is not None and table is not None
    return int(column[0]), int(table[0]), best


def written(docs: dict[str, dict[str, Any]], packed: bool) -> tuple[dict[str, str], float]:
    """The documents' texts, plain or packed, and the seconds writing them took (best of three)."""
    best, texts = float("inf"), {}
    for _ in range(3):
        start = time.perf_counter()
        texts = {name: json.dumps(pack_tree(doc) if packed else doc) for name, doc in docs.items()}
        best = min(best, time.perf_counter() - start)
    return texts, best


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dsn", default="host=127.0.0.1 user=postgres dbname=test")
    p.add_argument("--no-database", action="store_true", help="measure the JSON text only")
    args = p.parse_args()
    print(f"python {platform.python_version()}, {platform.machine()}", file=sys.stderr, flush=True)
    start = time.perf_counter()
    docs = documents()
    print(f"simulated in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    texts, _ = written(docs, packed=False)
    print("| scheduler | JSON MiB | largest sections (MiB) |")
    print("|---|---:|---|")
    for name, doc in docs.items():
        sizes = [(key, len(json.dumps(value))) for key, value in doc.items()]
        sections = sorted(sizes, key=lambda kv: -kv[1])
        largest = ", ".join(f"{key} {size / MIB:.2f}" for key, size in sections[:4])
        print(f"| {name} | {len(texts[name]) / MIB:.2f} | {largest} |")
    print(f"\n{len(texts)} documents, in all:\n")
    print("| stored as | JSON text MiB | writing the text s | jsonb MiB | table with TOAST MiB "
          "| inserting s |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, packed in (("plain JSON", False), ("packed columns (the planner)", True)):
        texts, seconds = written(docs, packed)
        total = sum(len(t) for t in texts.values())
        line = f"| {label} | {total / MIB:.1f} | {seconds:.2f} |"
        if args.no_database:
            line += " - | - | - |"
        else:
            column, table, inserting = jsonb_sizes(texts, args.dsn)
            line += f" {column / MIB:.1f} | {table / MIB:.1f} | {inserting:.2f} |"
        print(line)


if __name__ == "__main__":
    main()
