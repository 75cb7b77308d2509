"""Issue 21: a body is limited by who sends it and where, before it is read.

Anonymous requests and the sign-in endpoints get 64 KiB; a signed-in user (session or token)
gets the scenario document's limit. The 413 comes before any parser reads the body.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from planner.teams.models import Team

SMALL = 64 * 1024


def big_json(size: int) -> str:
    return json.dumps({"name": "x" * size})


class ExplodingStream:
    """A request body that fails the test if anything reads it."""

    def read(self, *args: Any) -> bytes:
        raise AssertionError("the body was read")

    def readline(self, *args: Any) -> bytes:
        raise AssertionError("the body was read")


def test_settings_keep_anonymous_bodies_small() -> None:
    assert settings.PLANNER_SMALL_BODY_BYTES == SMALL
    assert settings.PLANNER_MAX_BODY_BYTES > 10 * SMALL


@pytest.mark.parametrize("path", ["/api/teams/", "/api/auth/token/", "/api/scenarios/import/"])
def test_an_anonymous_api_body_above_64_kib_is_a_413_json(db: Any, path: str) -> None:
    response = Client().post(path, big_json(SMALL + 10), content_type="application/json")
    assert response.status_code == 413
    body = response.json()
    assert "larger than the limit" in body["detail"]
    assert body["errors"][0]["path"] == ""


@pytest.mark.parametrize("path", ["/accounts/login/", "/workloads/import/", "/"])
def test_an_anonymous_page_post_above_64_kib_is_a_413(db: Any, path: str) -> None:
    response = Client().post(path, {"username": "x" * (SMALL + 10), "password": "p"})
    assert response.status_code == 413


def test_the_body_is_never_read_when_the_declared_length_is_too_large(db: Any) -> None:
    client = Client()
    response = client.generic(
        "POST",
        "/api/auth/token/",
        "",
        content_type="application/json",
        CONTENT_LENGTH=str(60 * 2**20),
        **{"wsgi.input": ExplodingStream()},
    )
    assert response.status_code == 413


def test_a_bad_token_is_anonymous(db: Any) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 64)
    response = client.post("/api/teams/", big_json(SMALL + 10), content_type="application/json")
    assert response.status_code == 413


def test_the_token_endpoint_is_small_even_for_a_signed_in_user(owner: Any, team: Team) -> None:
    client = Client()
    client.force_login(owner)
    response = client.post("/api/auth/token/", big_json(SMALL + 10), content_type="application/json")
    assert response.status_code == 413


def test_a_signed_in_session_may_send_a_large_document(owner: Any, team: Team) -> None:
    client = Client()
    client.force_login(owner)
    response = client.post("/api/teams/", big_json(SMALL * 4), content_type="application/json")
    assert response.status_code == 400  # read and checked: the name is too long
    assert response.json()["errors"][0]["path"] == "name"


def test_a_token_holder_may_send_a_large_document(owner: Any, team: Team) -> None:
    token = (
        APIClient()
        .post("/api/auth/token/", {"username": "olivia", "password": "olivia-password"}, format="json")
        .json()["token"]
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = client.post("/api/teams/", big_json(SMALL * 4), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "name"
