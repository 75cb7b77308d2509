"""``python -m scheduling``: see :mod:`scheduling.cli`."""

import sys

from .cli import main

sys.exit(main())
