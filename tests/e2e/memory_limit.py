"""A memory limit of the test's own on processes it starts: a child memory cgroup.

The child is made under the cgroup the test process itself is in (``/proc/self/cgroup``), so
it touches nothing else on the machine: cgroup v1's memory controller (``memory.limit_in_bytes``
and, where swap is accounted, ``memory.memsw.limit_in_bytes``, so the limit cannot be escaped by
swapping) or cgroup v2 where the memory controller is delegated to our subtree (``memory.max``,
``memory.swap.max``). A process enters it before it executes anything (:meth:`MemoryLimit.enter`),
so everything it and its children allocate is charged to it; when the charge reaches the limit
and nothing can be reclaimed, the kernel's out-of-memory killer kills the largest process in
it with ``SIGKILL``, as it does in a container with a memory limit.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

PREFIX = "planner-e2e-"


class Unavailable(Exception):
    """No memory cgroup can be made here; the message says why."""


def _mounts() -> list[tuple[str, str, str, str]]:
    """``(root, mount point, fs type, super options)`` of every cgroup file system."""
    out = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        left, _, right = line.partition(" - ")
        fields, after = left.split(), right.split()
        if after and after[0] in ("cgroup", "cgroup2"):
            out.append((fields[3], fields[4], after[0], after[2] if len(after) > 2 else ""))
    return out


def _own_cgroup() -> tuple[Path, Path, int]:
    """The cgroup this process is in (where the processes go back at the end), the one to make
    the child in, and the cgroup version.

    In v1 the child goes under our own cgroup. In v2 a cgroup that holds processes cannot hand
    the memory controller to children, so the child goes under ours only if it hands it out
    (the root); else beside ours, if our parent hands it out (a delegated subtree).
    """
    lines = [line.split(":", 2) for line in Path("/proc/self/cgroup").read_text().splitlines()]
    mounts = _mounts()
    for _, controllers, path in lines:
        if "memory" in controllers.split(","):  # cgroup v1's memory hierarchy
            for root, point, fstype, options in mounts:
                if fstype == "cgroup" and "memory" in options.split(","):
                    own = Path(point) / os.path.relpath(path, root)
                    return own, own, 1
    for hierarchy, controllers, path in lines:
        if hierarchy == "0" and controllers == "":  # the unified (v2) hierarchy
            for root, point, fstype, _ in mounts:
                if fstype == "cgroup2":
                    own = Path(point) / os.path.relpath(path, root)
                    for base in (own, own.parent):
                        control = base / "cgroup.subtree_control"
                        if control.exists() and "memory" in control.read_text().split():
                            return own, base, 2
                    raise Unavailable(f"cgroup v2 without the memory controller delegated to {own}")
    raise Unavailable("no memory cgroup hierarchy is mounted")


class MemoryLimit:
    """A child memory cgroup of ``limit_bytes``, without swap; :meth:`remove` it at the end."""

    def __init__(self, name: str, limit_bytes: int):
        self.home, parent, self.version = _own_cgroup()
        self.limit_bytes = limit_bytes
        for stale in parent.glob(f"{PREFIX}*"):  # of an earlier test killed before its clean-up
            with contextlib.suppress(OSError):
                stale.rmdir()  # only an empty one: nothing in it is running
        self.path = parent / f"{PREFIX}{name}-{os.getpid()}"
        try:
            self.path.mkdir()
        except OSError as exc:
            raise Unavailable(f"cannot make a memory cgroup under {parent}: {exc}") from exc
        try:
            if self.version == 1:
                self._write("memory.limit_in_bytes", limit_bytes)
                if (self.path / "memory.memsw.limit_in_bytes").exists():
                    self._write("memory.memsw.limit_in_bytes", limit_bytes)
            else:
                self._write("memory.max", limit_bytes)
                if (self.path / "memory.swap.max").exists():
                    self._write("memory.swap.max", 0)
        except OSError as exc:
            self.path.rmdir()
            raise Unavailable(f"cannot set a memory limit in {self.path}: {exc}") from exc

    def _write(self, name: str, value: int) -> None:
        (self.path / name).write_text(f"{value}\n")

    def _read(self, name: str) -> str:
        return (self.path / name).read_text()

    def enter(self, command: list[str]) -> list[str]:
        """``command`` run inside the cgroup: a shell moves itself in, then executes it (so
        the process keeps the shell's pid and its children are born inside)."""
        return ["sh", "-c", 'echo $$ > "$0" && exec "$@"', str(self.path / "cgroup.procs"), *command]

    def pids(self) -> list[int]:
        return [int(p) for p in self._read("cgroup.procs").split()]

    def usage_bytes(self) -> int:
        return int(self._read("memory.usage_in_bytes" if self.version == 1 else "memory.current"))

    def peak_bytes(self) -> int | None:
        """The most ever charged to the cgroup (``None`` on a v2 kernel without memory.peak)."""
        name = "memory.max_usage_in_bytes" if self.version == 1 else "memory.peak"
        return int(self._read(name)) if (self.path / name).exists() else None

    def reset_peak(self) -> None:
        if self.version == 1:
            self._write("memory.max_usage_in_bytes", 0)
        elif (self.path / "memory.peak").exists():
            (self.path / "memory.peak").write_text("reset\n")

    def oom_kills(self) -> int:
        """Processes the kernel's out-of-memory killer killed in the cgroup so far."""
        name = "memory.oom_control" if self.version == 1 else "memory.events"
        for line in self._read(name).splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def remove(self) -> None:
        """Move what is still inside (only processes the test started) back to the test's own
        cgroup, then delete the cgroup."""
        if not self.path.exists():
            return
        deadline = time.monotonic() + 30
        while True:
            for pid in self.pids():
                with contextlib.suppress(OSError):  # it exited meanwhile
                    (self.home / "cgroup.procs").write_text(f"{pid}\n")
            try:
                self.path.rmdir()
                return
            except OSError:  # a process forked meanwhile, or one exiting is still listed
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
