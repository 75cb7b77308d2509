"""Settings for the whole suite.

Property-based tests (hypothesis) draw their cases from a fixed seed by default, so the suite
gives the same verdict on every machine and every run: a case that fails once fails again, and
CI never goes red on a draw nobody can repeat. To explore new cases, run with
``HYPOTHESIS_PROFILE=explore``; add any failing case it finds to its test as an ``@example``.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
