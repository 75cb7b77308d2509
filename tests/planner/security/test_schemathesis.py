"""Issue 21: Schemathesis against the OpenAPI schema, in-process on the Django app (no network):
every operation answered without a server error and with a response the schema allows.

The schema comes from drf-spectacular's generator (what ``/api/schema/`` serves); requests go
through Django's WSGI handler with a signed-in user's API token, on the test database. The
number of cases is bounded (``MAX_EXAMPLES`` per operation, a fixed seed) so CI stays quick.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

MAX_EXAMPLES = 4


def _raw_schema() -> dict[str, Any]:
    schema = SchemaGenerator(patterns=None).get_schema(request=None, public=True)
    return dict(schema)


schema = schemathesis.openapi.from_dict(_raw_schema())
schema.app = get_wsgi_application()


@pytest.fixture(autouse=True)
def keep_the_test_connection() -> Iterator[None]:
    """The WSGI handler closes the database connection when a request ends; on PostgreSQL that is
    the test's own connection (its transaction), so keep it open as Django's test client does."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def token(db: Any) -> str:
    from django.contrib.auth import get_user_model

    from planner.accounts.services import token_issue
    from planner.teams.services import team_create

    user = get_user_model().objects.create_user(username="fuzzer", password="fuzzer-password-1")
    team_create(owner=user, name="Fuzz")
    _, secret = token_issue(user=user, name="schemathesis")
    return secret


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_the_api_conforms_to_its_schema(case: Any, token: str) -> None:
    case.call_and_validate(
        headers={"Authorization": f"Token {token}", "Host": "testserver", "Accept-Encoding": "identity"},
        checks=[not_a_server_error, status_code_conformance, content_type_conformance,
                response_schema_conformance],
    )
