"""Reading numbers out of JSON documents: one rule for what counts as a number.

Result documents and request bodies are JSON: a value may be missing, ``null``, a string,
a boolean (which Python counts as an int) or, from a careless producer, NaN. Every reader
of such a document goes through these two functions.

>>> [finite(v) for v in (1, 2.5, True, "3", None, float("nan"), float("inf"))]
[1.0, 2.5, None, None, None, None, None]
>>> [integral(v) for v in (3, 3.0, 3.5, False)]
[3, 3, None, None]
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["finite", "integral"]


def finite(value: Any) -> float | None:
    """``value`` as a float when it is a finite int or float (not a bool), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def integral(value: Any) -> int | None:
    """``value`` as an int when it is a finite whole number (``3.0`` counts), else ``None``."""
    number = finite(value)
    return int(number) if number is not None and number == int(number) else None
