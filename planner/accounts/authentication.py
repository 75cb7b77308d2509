"""The API's token authentication: knox's, in one query, refusing a header that is not text with a 401."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.signals import token_expired
from rest_framework import exceptions

#: Where a request keeps what :class:`TokenAuthentication` found (the body-size middleware asks
#: before the view does: one lookup per request, not two).
_FOUND = "_planner_token_authenticated"


class TokenAuthentication(KnoxTokenAuthentication):
    """``Authorization: Token <token>``, checked against the stored digests. A token that is not
    ASCII is a 401, not a 500; an expired token is a 401 and is deleted as it is met.

    One query per request (the token's row with its user) and no write on a valid token: knox
    also reads every other token of the user on every request, to delete the expired ones; those
    are never accepted or listed (``selectors.token_list``) and are deleted when the user is
    issued a token (``services.token_issue``). Knox's ``AUTO_REFRESH`` (an UPDATE of the expiry
    on every request) stays off.
    """

    def authenticate(self, request: Any) -> Any:
        found = getattr(request, _FOUND, None)
        if found is not None:
            return found
        found = super().authenticate(request)
        if found is not None:
            # On the Django request: DRF's Request reads attributes through to it.
            setattr(getattr(request, "_request", request), _FOUND, found)
        return found

    def authenticate_credentials(self, token: bytes) -> Any:
        try:
            token.decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        return super().authenticate_credentials(token)

    def _cleanup_token(self, auth_token: Any) -> bool:
        """Whether ``auth_token`` (the presented token's row) has expired; it is deleted if so."""
        if auth_token.expiry is None or auth_token.expiry >= timezone.now():
            return False
        username = auth_token.user.get_username()
        auth_token.delete()
        token_expired.send(sender=self.__class__, username=username, source="auth_token")
        return True
