"""``python -m scheduling``: see :mod:`scheduling.cli`."""

import sys

from .cli import main
from .collector import skip_final_collection

code = main()
skip_final_collection()
sys.exit(code)
