"""Python's cyclic garbage collector, paused while the library builds or runs something large.

Reading a workload, validating it and simulating it allocate millions of small objects (rows,
tuples, lists) that hold no reference cycles: reference counting frees every one of them. The
cyclic collector still walks the young ones every few hundred allocations and, now and then,
every live object of the process (the hundreds of thousands of a big workload's jobs), finding
nothing: measured on 100,000 jobs (``benchmarks/RESULTS.md`` §19) those walks were a tenth of a
simulation's time and a quarter of the validation's, and they collected 294 objects in all.

:func:`collector_paused` switches the collector off for the length of a call and on again
after it, however the call ends. It only ever switches on what it switched off: nested
pauses, and a caller that had switched the collector off itself, are left as they were. The
collector is process-wide, so a thread that runs beside a paused call goes without it for that
long too; its cycles are found at the first collection after.

:func:`skip_final_collection` is for a process whose work is done: the command line calls it
before it exits.

>>> import gc
>>> @collector_paused()
... def busy() -> bool:
...     return gc.isenabled()
>>> gc.isenabled(), busy(), gc.isenabled()
(True, False, True)
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused", "skip_final_collection"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off inside the block (or the decorated call), as it was after."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def skip_final_collection() -> None:
    """Spare a process that is about to exit the interpreter's last collection.

    When it exits, CPython runs the cyclic collector once more over every object still alive.
    After a 100,000-job simulation that is a walk over millions of objects that hold no cycle,
    finding nothing: 0.45 s of CPU, a tenth of the whole command (``benchmarks/RESULTS.md`` §22).
    :func:`gc.freeze` moves every live object out of the collector's reach, so that walk is
    skipped; exit handlers still run and every object is still freed. Call it while the
    collector is still paused: switched on first, it would walk every object allocated during
    the pause at its next allocation (0.15 s more). Only for a process whose work is done: a
    frozen object in a cycle is never collected.
    """
    gc.freeze()
