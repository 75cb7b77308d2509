"""What else used the CPU while a benchmark measured: processes that are not the benchmark's.

    with ForeignLoad() as load:
        ...                      # the measurement
    print(load.line())           # "Other processes' CPU during the measurement: beam.smp 7.7 s"

A two-core machine shares its cores with whatever else runs on it. On one machine of this
workplace RabbitMQ (started for other projects; the planner does not use it) took a tenth of a
core for a while after boot (`RESULTS.md` §24). This reads every process's CPU seconds
(``/proc/<pid>/stat``, user + system) before and after, and reports the processes outside the
benchmark's own tree (its children, such as the planner's web and worker processes, are its
own) that used at least ``min_s`` seconds, busiest first. PostgreSQL and Redis serve the
planner's stack and are named apart. A process that ended during the measurement is not seen
(its time is lost), and one that started is counted from zero.
Linux only; elsewhere the line says so.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

__all__ = ["ForeignLoad"]

#: The services a benchmark's planner stack uses: reported apart, not as foreign load.
SERVICES = ("postgres", "redis-server")

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _processes() -> dict[int, tuple[str, int, float]]:
    """Every process: pid -> (name, parent pid, CPU seconds so far)."""
    found: dict[int, tuple[str, int, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        found[int(entry.name)] = (name, int(fields[1]), (int(fields[11]) + int(fields[12])) / _TICK)
    return found


def _tree(root: int, processes: dict[int, tuple[str, int, float]]) -> set[int]:
    """``root`` and every process descended from it."""
    children: dict[int, list[int]] = {}
    for pid, (_, parent, _) in processes.items():
        children.setdefault(parent, []).append(pid)
    tree: set[int] = set()
    pending = [root]
    while pending:
        pid = pending.pop()
        tree.add(pid)
        pending.extend(children.get(pid, []))
    return tree


class ForeignLoad:
    """CPU seconds used by other processes between ``__enter__`` and ``__exit__``."""

    def __init__(self, min_s: float = 0.5) -> None:
        self.min_s = min_s
        self.available = Path("/proc/self/stat").exists()
        self._before: dict[int, tuple[str, int, float]] = {}
        self.others: list[tuple[str, float]] = []  # (name, CPU s), busiest first
        self.services: list[tuple[str, float]] = []

    def __enter__(self) -> ForeignLoad:
        if self.available:
            self._before = _processes()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if not self.available:
            return
        after = _processes()
        # Our tree as it was at either end: children that ended before the end count as ours.
        ours = _tree(os.getpid(), after) | _tree(os.getpid(), self._before)
        others: dict[str, float] = {}
        services: dict[str, float] = {}
        for pid, (name, _, cpu) in after.items():
            if pid in ours:
                continue
            before = self._before.get(pid)
            used = cpu - (before[2] if before is not None and before[0] == name else 0.0)
            into = services if name in SERVICES else others
            into[name] = into.get(name, 0.0) + used
        self.others = sorted(((n, s) for n, s in others.items() if s >= self.min_s), key=lambda x: -x[1])
        self.services = sorted(((n, s) for n, s in services.items() if s >= self.min_s), key=lambda x: -x[1])

    def line(self) -> str:
        """One markdown line saying what else ran."""
        if not self.available:
            return "Other processes' CPU during the measurement: not known (no /proc)."
        shown = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in self.others[:5]) or (
            f"none above {self.min_s:g} s"
        )
        served = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in self.services)
        return (f"Other processes' CPU during the measurement: {shown}"
                + (f" (and the stack's services: {served})" if served else "") + ".")
