"""``python -m scheduling``: see :mod:`scheduling.cli`."""

import sys

from .cli import main
from .collector import collector_paused, skip_final_collection

with collector_paused():  # main pauses it too; this holds the pause until the objects are frozen
    code = main()
    skip_final_collection()
sys.exit(code)
