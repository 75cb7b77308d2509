"""Issue 21: repeated wrong passwords lock a username out (web and API), the token endpoint
is throttled per address, and the right password does not work at once after 50 wrong ones."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from planner.teams.models import Team

RIGHT = {"username": "olivia", "password": "olivia-password"}
WRONG = {"username": "olivia", "password": "not-her-password"}


def test_the_web_login_locks_a_username_out_after_five_wrong_passwords(owner: Any, team: Team) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post("/accounts/login/", WRONG).status_code == 200  # the form again
    locked = client.post("/accounts/login/", WRONG)
    assert locked.status_code == 429
    assert b"Too many failed sign-in attempts" in locked.content
    right = client.post("/accounts/login/", RIGHT)
    assert right.status_code == 429  # the right password does not work at once
    assert "_auth_user_id" not in client.session
    assert int(right["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()


def test_another_address_is_not_locked_out(owner: Any, team: Team) -> None:
    client = Client(REMOTE_ADDR="10.0.0.1")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", WRONG)
    other = Client(REMOTE_ADDR="10.0.0.2")
    assert other.post("/accounts/login/", RIGHT).status_code == 302


def test_the_api_token_endpoint_locks_a_username_out(owner: Any, team: Team, settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"sign-in": "1000/min"}}
    client = APIClient()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post("/api/auth/token/", WRONG, format="json").status_code == 400
    locked = client.post("/api/auth/token/", WRONG, format="json")
    assert locked.status_code == 429
    assert "Too many failed sign-in attempts" in locked.json()["errors"][0]["message"]
    right = client.post("/api/auth/token/", RIGHT, format="json")
    assert right.status_code == 429
    assert "token" not in right.json()


def test_a_success_before_the_limit_resets_the_count(owner: Any, team: Team) -> None:
    client = Client()
    for _ in range(3):
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):
            client.post("/accounts/login/", WRONG)
        assert client.post("/accounts/login/", RIGHT).status_code == 302
        client.post("/accounts/logout/")


def test_the_token_endpoint_is_throttled_per_address(owner: Any, team: Team) -> None:
    rate = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["sign-in"].split("/")[0])
    client = APIClient()
    answers = [
        client.post("/api/auth/token/", {"username": f"nobody{i}", "password": "x"}, format="json")
        for i in range(rate + 1)
    ]
    assert [a.status_code for a in answers[:rate]] == [400] * rate
    assert answers[-1].status_code == 429
    assert "throttled" in answers[-1].json()["detail"]
    elsewhere = APIClient(REMOTE_ADDR="10.0.0.9")
    assert elsewhere.post("/api/auth/token/", RIGHT, format="json").status_code == 200


@pytest.mark.parametrize("backend", ["django.core.cache.backends.filebased.FileBasedCache"])
def test_the_embedded_default_shares_its_cache_between_processes(backend: str) -> None:
    from planner.settings import base

    assert base.CACHES["default"]["BACKEND"] == backend
