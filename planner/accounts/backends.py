"""The lockout backend: django-axes' check before the password is, for requests only.

``AUTHENTICATION_BACKENDS`` lists it before Django's ``ModelBackend``: a user locked out from
an address (``AXES_FAILURE_LIMIT`` wrong passwords for one username from one address within
``AXES_COOLOFF_TIME``) is refused before the password is even checked, by the login page, the
admin's login and the API's token endpoint alike.
"""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend


class SignInLockout(AxesStandaloneBackend):
    """Axes' standalone backend, except that a call without a request (a management command
    or a shell, ``authenticate(username=..., password=...)``) is nobody's sign-in attempt and
    is left to the next backend instead of raising."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
