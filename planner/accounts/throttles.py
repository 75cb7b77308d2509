"""The API's sign-in throttle, counted in the shared cache.

The counts live in ``CACHES["default"]`` (a file cache on the embedded default, shared by
every process of the machine; Redis in production, shared by every web process), so a
client cannot spread its attempts over several workers.
"""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import SimpleRateThrottle


class SignInThrottle(SimpleRateThrottle):
    """``DEFAULT_THROTTLE_RATES["sign-in"]`` requests per client address, signed in or not."""

    scope = "sign-in"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
