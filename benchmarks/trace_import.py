"""Benchmark (issue 20): a trace import streams, so its memory does not grow with the file.

    python benchmarks/trace_import.py                       # 256 MB and 1 GB files
    python benchmarks/trace_import.py --sizes-mb 64 256     # quicker
    python benchmarks/trace_import.py --gzip --sizes-mb 256 # the files gzipped, as Google ships them

Writes, in a temporary folder deleted afterwards, ``task_events`` files of the Google 2011
trace's shape (13 columns, time-ordered, jobs of 10-60 tasks each submitted, scheduled and
finished, with a 44-character user hash as in the trace; the seed fixes everything) of each
size, with a ``job_events`` file of the same jobs beside them. Then, each in a fresh process
so that its peak resident memory (``ru_maxrss``) is its own, it imports them with the
``google-2011`` importer three ways:

* ``stream``: task and job events, every job read and let go (what a preview or a caller that
  stores jobs as they come does): the memory is what the import itself holds;
* ``capped``: ``read_sources`` of the task events alone with ``--max-jobs 10000``: the jobs
  kept, held until the files end (without job events a job is complete only then);
* ``all``: ``read_sources`` of the task events alone, no option: up to the scenario's limit of
  200,000 jobs kept.

and prints, per size and way, the lines read, the jobs, the seconds, the lines per second
and the peak RSS. Tests never time anything; this is run by hand and recorded in
``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import heapq
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[1]
S = 1_000_000
MB = 2**20

#: One way of importing, run in its own process: prints "lines jobs seconds".
CHILD = """
import sys, time
sys.path.insert(0, {root!r})
from scheduling.importers import Source, get_importer
importer = get_importer("google-2011")
way, tasks, jobs = sys.argv[1], sys.argv[2], sys.argv[3]
cluster = [{{"name": "big", "capacity": {{"cpu": 64, "mem": 256}}, "price_per_hour": 1, "count": 2000}}]
start = time.perf_counter()
if way == "stream":
    from scheduling.importers.traces import Report
    options = importer.parse_options({{}})
    sources = [Source.from_path(jobs), Source.from_path(tasks)]
    count = sum(1 for _ in importer.stream(sources, options, Report(), cluster))
else:
    options = {{"max_jobs": 10000}} if way == "capped" else {{}}
    count = len(importer.read_sources([Source.from_path(tasks)], options,
                                      vm_types=cluster).jobs)
print(count, time.perf_counter() - start)
"""


def write_trace(folder: Path, size_bytes: int, seed: int, *, gz: bool = False) -> tuple[Path, Path, int]:
    """``task_events`` of about ``size_bytes`` (uncompressed) and the ``job_events`` of its jobs,
    in time order, gzipped (level 1) when ``gz``."""
    rng = random.Random(seed)
    ending = ".csv.gz" if gz else ".csv"
    tasks_path, jobs_path = folder / f"task_events{ending}", folder / f"job_events{ending}"

    def create(path: Path) -> TextIO:
        return gzip.open(path, "wt", compresslevel=1) if gz else path.open("w")

    users = [base64.b64encode(rng.randbytes(33)).decode() for _ in range(500)]
    pending: list[tuple[int, int, str, str]] = []  # (time, sequence, table, line)
    lines = 0
    written = 0
    sequence = 0
    t = 600 * S
    job = 6_000_000_000
    with create(tasks_path) as tasks, create(jobs_path) as jobs:

        def flush(until: int) -> None:
            nonlocal lines, written
            while pending and pending[0][0] <= until:
                _, _, table, line = heapq.heappop(pending)
                if table == "task":
                    tasks.write(line)
                    lines += 1
                    written += len(line)
                else:
                    jobs.write(line)

        while written < size_bytes:
            job += rng.randrange(1, 50)
            t += int(rng.expovariate(1 / (0.2 * S)))
            flush(t)
            user = rng.choice(users)
            n_tasks = rng.randint(10, 60)
            cpu, mem = rng.choice((0.0125, 0.025, 0.0625, 0.125)), rng.choice((0.0159, 0.0318, 0.0636))
            start = t + rng.randrange(0, 5 * S)
            end = start + int(rng.expovariate(1 / (300 * S))) + S
            jobs.write(f"{t},,{job},0,{user},2,name,logical\n")
            for k in range(n_tasks):
                common = f"{user},2,0,{cpu},{mem},0.0001,0\n"
                tasks.write(f"{t},,{job},{k},,0,{common}")
                lines += 1
                written += len(common) + 30
                for when, code in ((start, 1), (end - rng.randrange(0, S), 4)):
                    sequence += 1
                    line = f"{when},,{job},{k},{rng.randrange(1, 12000)},{code},{common}"
                    heapq.heappush(pending, (when, sequence, "task", line))
            sequence += 1
            heapq.heappush(pending, (end, sequence, "job", f"{end},,{job},4,{user},2,name,logical\n"))
        flush(2**62)
    return tasks_path, jobs_path, lines


def measure(way: str, tasks: Path, jobs: Path) -> tuple[int, float, float]:
    """``(jobs, seconds, peak RSS in MB)`` of one way of importing, in a fresh process."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(root=str(ROOT)), way, str(tasks), str(jobs)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"{way} failed with status {status}")
    count, seconds = out.split()
    return int(count), float(seconds), usage.ru_maxrss / 1024  # Linux: kilobytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes-mb", type=int, nargs="+", default=[256, 1024])
    parser.add_argument("--ways", nargs="+", default=["stream", "capped", "all"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gzip", action="store_true", help="write the files gzipped (level 1)")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("| file | lines | way | jobs | seconds | lines/s | peak RSS |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    for size in args.sizes_mb:
        with tempfile.TemporaryDirectory(prefix="trace-import-") as tmp:
            started = time.perf_counter()
            tasks, jobs, lines = write_trace(Path(tmp), size * MB, args.seed, gz=args.gzip)
            real = size if args.gzip else tasks.stat().st_size / MB
            on_disk = tasks.stat().st_size / MB
            print(f"<!-- wrote {on_disk:.0f} MB of task_events in {time.perf_counter() - started:.0f} s -->",
                  file=sys.stderr)
            for way in args.ways:
                count, seconds, rss = measure(way, tasks, jobs)
                name = f"{real:,.0f} MB" + (f" ({on_disk:,.0f} MB gzipped)" if args.gzip else "")
                print(f"| {name} | {lines:,} | {way} | {count:,} | {seconds:.1f} | "
                      f"{lines / seconds:,.0f} | {rss:,.0f} MB |", flush=True)
    print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
