"""Settings for the whole suite.

Property-based tests (hypothesis) draw their cases from a fixed seed by default, so the suite
gives the same verdict on every machine and every run: a case that fails once fails again, and
CI never goes red on a draw nobody can repeat. To explore new cases, run with
``HYPOTHESIS_PROFILE=explore``; add any failing case it finds to its test as an ``@example``.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """Each test starts with an empty cache: the sign-in throttle's counts of one test never
    refuse another's requests (the test settings' cache is per process)."""
    yield
    if "django.core.cache" in sys.modules:  # never import Django for a library test
        with contextlib.suppress(Exception):
            sys.modules["django.core.cache"].cache.clear()
