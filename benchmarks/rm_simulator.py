"""Benchmark of issue 19: our edf-bfd against the paper-003 authors' own simulator, side by side.

    python benchmarks/rm_simulator.py                    # the four rows, once each
    python benchmarks/rm_simulator.py --repeats 3        # medians of three interleaved rounds
    python benchmarks/rm_simulator.py --rows 10000x1400  # one row

RM-Simulator (Java, ``../shared/anchors/rm-simulator/``) is compiled with ``javac`` into a
temporary folder; without a JDK the benchmark prints why and exits 0 (skipped). Both simulators
run the same workload: the authors' 10,000-job high-load CSV
(``large-scale-workload_jobs_high_load.csv``), or 10 copies of it back to back (each copy's
arrivals and deadlines shifted by the span of the one before, 100,000 jobs), on the paper's VM mix
(Table 3) of 14 or 1,400 VMs. Theirs: EDF queue (``queue.policy=2``) with their "FirstFit"
(``scheduler.policy=1``), which is Algorithm 3's best fit; ours: ``edf-bfd``.

Each simulation is its own process, and the rows are interleaved (ours, theirs, ours, theirs,
...) so that a change in the machine's load hits both alike. Measured per process with
``os.wait4``: CPU seconds (user + system, every thread: the JVM's compiler and collector threads
count) and peak resident memory. A process does everything: start-up, reading the CSV, the
simulation and its results (theirs writes two CSV files, ours builds the result document; their
one line per event on stdout goes to /dev/null) and its exit. Ours runs as ``python -m scheduling``
does: with the cyclic collector paused from start to end, its last walk at exit skipped
(``scheduling.collector``). Ours also reports the CPU seconds of ``simulate`` alone. CPU seconds
are the fairer measure on a busy machine: the load average is printed beside the table. Prints
markdown.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from foreign_load import ForeignLoad  # benchmarks/, next to this file

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
ANCHOR = SHARED / "anchors" / "rm-simulator"
CSV_10K = SHARED / "data" / "rm-simulator" / "large-scale-workload_jobs_high_load.csv"
ROWS = ("10000x1400", "10000x14", "100000x1400", "100000x14")
MIX = (6, 5, 3)  # the paper's Table 3 cluster; x100 is 1,400 VMs

INI = """simulator.home={home}
workload.type=1
queue.policy=2
scheduler.policy=1
resourceSplitThreshold=0.2
job.total={jobs}
job.arrival=2
failed.queue=0
network.penalty=0
poisson.mean=50
lambda=0.01
deadline.tolerance=0
local.vm.type1=0
local.vm.type2=0
local.vm.type3=0
cloud.vm.type1={n1}
cloud.vm.type2={n2}
cloud.vm.type3={n3}
local.vm.price1=0
local.vm.price2=0
local.vm.price3=0
cloud.vm.price1=0.24
cloud.vm.price2=0.48
cloud.vm.price3=0.72
"""


@dataclass(frozen=True)
class Measured:
    cpu_s: float
    wall_s: float
    peak_rss_mib: float
    cost: float | None = None
    simulate_cpu_s: float | None = None


def workload_csv(copies: int) -> str:
    """The authors' CSV, or ``copies`` of it back to back (arrivals and deadlines shifted)."""
    rows = list(csv.reader(io.StringIO(CSV_10K.read_text())))
    header, body = rows[0], rows[1:]
    span = max(int(r[4]) for r in body) + 1
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    n = 0
    for k in range(copies):
        for r in body:
            w.writerow([f"job-{n}", r[1], r[2], r[3], int(r[4]) + k * span, r[5], int(r[6]) + k * span])
            n += 1
    return out.getvalue()


# Our processes read their modules' bytecode from __pycache__, as a deployed Python program does
# (the JVM reads its compiled classes): a machine that sets PYTHONDONTWRITEBYTECODE would have each
# process parse every module of numpy, PuLP and the library from source again (about 0.5 s of CPU).
# The caches are written by a warm-up run before the measured rounds.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure(cmd: list[str], cwd: Path) -> tuple[Measured, int]:
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=CHILD_ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    assert proc.stderr is not None
    err = proc.stderr.read().decode(errors="replace")
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err[-3000:]}")
    return Measured(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024), proc.returncode


def build_theirs(dest: Path) -> Path | None:
    """Compile RM-Simulator into ``dest``; ``None`` (after saying why) without a JDK."""
    javac, java = shutil.which("javac"), shutil.which("java")
    if javac is None or java is None:
        print("skipped: no JDK (javac and java) on PATH to build RM-Simulator", file=sys.stderr)
        return None
    if not (ANCHOR / "src").is_dir():
        print(f"skipped: RM-Simulator's source is not at {ANCHOR / 'src'}", file=sys.stderr)
        return None
    classes = dest / "classes"
    classes.mkdir(parents=True)
    sources = sorted(str(p) for p in (ANCHOR / "src").rglob("*.java"))
    subprocess.run([javac, "-nowarn", "-d", str(classes), *sources], check=True, capture_output=True)
    return classes


def run_theirs(classes: Path, home: Path, jobs: int, scale: int) -> Measured:
    (home / "logs").mkdir(exist_ok=True)
    n1, n2, n3 = (c * scale for c in MIX)
    (home / "simulator.ini").write_text(INI.format(home=home, jobs=jobs, n1=n1, n2=n2, n3=n3))
    measured, _ = measure(["java", "-cp", str(classes), "Manager.Controller"], home)
    cost = None
    for line in (home / "VMs_FF.csv").read_text().splitlines():
        if line.startswith("Total Cost:"):
            cost = float(line.split(",")[1]) / 3600.0  # price per hour x seconds used
    return Measured(measured.cpu_s, measured.wall_s, measured.peak_rss_mib, cost)


def run_ours(csv_path: Path, scale: int, scheduler: str) -> Measured:
    out = csv_path.with_suffix(".ours.json")
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", str(csv_path), "--scale", str(scale),
           "--scheduler", scheduler, "--out", str(out)]
    measured, _ = measure(cmd, ROOT)
    child = json.loads(out.read_text())
    return Measured(
        measured.cpu_s, measured.wall_s, measured.peak_rss_mib, child["cost"], child["simulate_cpu_s"]
    )


def child(csv_path: Path, scale: int, scheduler: str, out: Path) -> None:
    """One of our simulations, in its own process: read the CSV, simulate, build the document."""
    sys.path.insert(0, str(ROOT))
    from scheduling import parse_scenario, simulate
    from scheduling.collector import collector_paused, skip_final_collection
    from scheduling.importers import import_rm_csv
    from scheduling.presets import preset_vm_types

    # As ``python -m scheduling`` does: its whole command runs with the collector paused, and
    # the last walk at exit is skipped (``scheduling.collector``).
    with collector_paused():
        vm_types = preset_vm_types("paper-003", scale=scale)
        doc = import_rm_csv(csv_path.read_text(), name=csv_path.name, vm_types=vm_types)
        scenario = parse_scenario(doc)
        t0 = time.process_time()
        result = simulate(scenario, scheduler=scheduler)
        cpu = time.process_time() - t0
        out.write_text(json.dumps({"cost": result.total_cost, "simulate_cpu_s": cpu}))
        skip_final_collection()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", nargs="*", default=list(ROWS),
                   help="JOBSxVMS: jobs a multiple of 10,000, VMs of 14")
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--scheduler", default="edf-bfd")
    p.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--scale", type=int, default=1, help=argparse.SUPPRESS)
    p.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child is not None:
        child(args.child, args.scale, args.scheduler, args.out)
        return
    with tempfile.TemporaryDirectory(prefix="rm-bench-") as tmp_name:
        tmp = Path(tmp_name)
        classes = build_theirs(tmp)
        if classes is None:
            return
        rows = []
        for row in args.rows:
            jobs, vms = (int(x) for x in row.lower().split("x"))
            if jobs % 10_000 or vms % 14:
                raise SystemExit(f"{row}: jobs must be a multiple of 10,000 and VMs of 14")
            home = tmp / row
            home.mkdir()
            text = workload_csv(jobs // 10_000)
            (home / "workload_jobs_high_load.csv").write_text(text)
            rows.append((row, jobs, vms, home))
        run_ours(rows[0][3] / "workload_jobs_high_load.csv", rows[0][2] // 14, args.scheduler)  # warm-up
        load_before = os.getloadavg()
        results: dict[str, tuple[list[Measured], list[Measured]]] = {row: ([], []) for row, *_ in rows}
        with ForeignLoad() as foreign:
            for _ in range(args.repeats):
                for row, jobs, vms, home in rows:
                    ours = run_ours(home / "workload_jobs_high_load.csv", vms // 14, args.scheduler)
                    theirs = run_theirs(classes, home, jobs, vms // 14)
                    results[row][0].append(ours)
                    results[row][1].append(theirs)
                    print(f"{row}: ours {ours.cpu_s:.1f} s CPU, theirs {theirs.cpu_s:.1f} s CPU",
                          file=sys.stderr)
        load_after = os.getloadavg()
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    print(f"## Against RM-Simulator: {args.scheduler} and their EDF + FirstFit, CPU seconds\n")
    sys.path.insert(0, str(ROOT))
    from scheduling import compiled

    print(f"Our engine: {compiled.describe()}\n")
    python = f"python {platform.python_version()} ({os.path.realpath(sys.executable)})"
    print(f"{python}, {java}, {os.cpu_count()} cores; load average before "
          f"{load_before[0]:.1f}, after {load_after[0]:.1f} (1 min); {args.repeats} interleaved round(s), "
          "medians\n")
    print(f"{foreign.line()}\n")
    print("| jobs x VMs | ours CPU s (simulate alone) | theirs CPU s | ours / theirs | ours peak MiB "
          "| theirs peak MiB | ours wall s | theirs wall s | cost ours / theirs |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row, jobs, vms, _ in rows:
        our_runs, their_runs = results[row]

        def med(ms: list[Measured], attr: str) -> float:
            return statistics.median(float(getattr(m, attr)) for m in ms)

        ratio = med(our_runs, "cpu_s") / med(their_runs, "cpu_s")
        print(f"| {jobs:,} x {vms:,} | {med(our_runs, 'cpu_s'):.2f} ({med(our_runs, 'simulate_cpu_s'):.2f}) "
              f"| {med(their_runs, 'cpu_s'):.2f} | {ratio:.2f} | {med(our_runs, 'peak_rss_mib'):.0f} "
              f"| {med(their_runs, 'peak_rss_mib'):.0f} | {med(our_runs, 'wall_s'):.1f} "
              f"| {med(their_runs, 'wall_s'):.1f} "
              f"| {our_runs[0].cost:.2f} / {their_runs[0].cost or float('nan'):.2f} |")


if __name__ == "__main__":
    main()
