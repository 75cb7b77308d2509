"""PostgreSQL: storing and reading a result document with pglz and with LZ4 (migration runs.0006).

    python benchmarks/toast_compression.py [--scheduler fifo-spread] [--repeats 5]

Builds the result document of one scheduler on the shipped 10,000-job workload on 1,400 VMs
(the workload of ``parts.py``), then, in a scratch table of the ``test`` database on
127.0.0.1 (dropped at the end), inserts it ``--repeats`` times into a ``jsonb`` column
compressed with pglz and into one with LZ4, and reads one key out of every row: the work a part
does when it stores its document, and a page or the join when it reads a summary out of it.
Best times of the repeats; needs PostgreSQL 14 or later built with LZ4. Prints markdown.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared" / "data" / "rm-simulator"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scheduler", default="fifo-spread")
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args()
    import psycopg

    from scheduling import parse_scenario, simulate
    from scheduling.importers import import_rm_csv
    from scheduling.presets import preset_vm_types

    doc = import_rm_csv(
        (SHARED / "large-scale-workload_jobs_high_load.csv").read_text(),
        name="10,000 jobs", vm_types=preset_vm_types("paper-003", scale=100),
    )
    result = simulate(parse_scenario(doc), scheduler=args.scheduler).to_dict()
    text = json.dumps(result)
    rows = []
    with psycopg.connect("host=127.0.0.1 user=postgres dbname=test", autocommit=True) as conn:
        cur = conn.cursor()
        version = cur.execute("SHOW server_version").fetchone()[0]
        for method in ("pglz", "lz4"):
            table = f"bench_toast_{method}"
            cur.execute(f"DROP TABLE IF EXISTS {table}")
            cur.execute(f"CREATE TABLE {table} (id serial, d jsonb COMPRESSION {method})")
            try:
                stores = []
                for _ in range(args.repeats):
                    t0 = time.perf_counter()
                    cur.execute(f"INSERT INTO {table} (d) VALUES (%s::jsonb)", (text,))
                    stores.append(time.perf_counter() - t0)
                reads = []
                for _ in range(args.repeats):
                    t0 = time.perf_counter()
                    cur.execute(f"SELECT d -> 'total_cost' FROM {table}").fetchall()
                    reads.append((time.perf_counter() - t0) / args.repeats)
                size = cur.execute(f"SELECT pg_total_relation_size('{table}')").fetchone()[0] / args.repeats
            finally:
                cur.execute(f"DROP TABLE {table}")
            rows.append((method, min(stores), min(reads), size))
    print(f"PostgreSQL {version}, python {platform.python_version()}; {args.scheduler}'s document: "
          f"{len(text) / 1e6:.2f} MB of JSON\n")
    print("| compression | store (ms) | read one key (ms) | stored size (MB) |")
    print("|---|---|---|---|")
    for method, store, read, size in rows:
        print(f"| {method} | {store * 1000:.0f} | {read * 1000:.1f} | {size / 1e6:.2f} |")


if __name__ == "__main__":
    main()
