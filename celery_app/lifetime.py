"""Child processes of a worker die with it.

``celery worker --beat`` runs the beat scheduler in a child process. When the worker was
killed (``kill -9``, the OOM killer), that child lived on as an orphan, and the next start
ran a second beat beside it. On Linux the child asks the kernel for a signal when its parent
dies (``PR_SET_PDEATHSIG``); elsewhere nothing changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import signal
import sys
from typing import Any

from celery.signals import beat_embedded_init

logger = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int | None = None) -> bool:
    """Ask for SIGTERM when the parent process dies; returns whether the kernel agreed.

    If the parent is already gone (``parent_pid`` given and no longer the parent), exit now:
    the signal would never come.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
            return False
    except OSError:
        logger.warning("could not ask to die with the parent process", exc_info=True)
        return False
    if parent_pid is not None and os.getppid() != parent_pid:
        os.kill(os.getpid(), signal.SIGTERM)
    return True


@beat_embedded_init.connect
def _beat_dies_with_worker(sender: Any = None, **_: Any) -> None:
    # Only the beat embedded in a worker (``worker --beat``); a standalone ``celery beat``
    # keeps its own lifetime.
    die_with_parent()
