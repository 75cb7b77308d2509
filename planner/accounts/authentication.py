"""The API's token authentication: knox's, refusing a header that is not text with a 401."""

from __future__ import annotations

from typing import Any

from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from rest_framework import exceptions


class TokenAuthentication(KnoxTokenAuthentication):
    """``Authorization: Token <token>``, checked against the stored digests (expired tokens are
    deleted as they are met). A token that is not ASCII is a 401, not a 500."""

    def authenticate_credentials(self, token: bytes) -> Any:
        try:
            token.decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        return super().authenticate_credentials(token)
