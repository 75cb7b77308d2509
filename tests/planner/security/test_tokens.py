"""Issue 21: API tokens are hashed at rest, expire, are several per user with names, are
revocable one by one or all at once, and a password change revokes them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from planner.accounts.models import ApiToken
from planner.teams.models import Team

CREDENTIALS = {"username": "olivia", "password": "olivia-password"}


def issue(name: str = "") -> dict[str, Any]:
    response = APIClient().post("/api/auth/token/", {**CREDENTIALS, "name": name}, format="json")
    assert response.status_code == 200, response.content
    return dict(response.json())


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_a_token_is_stored_only_as_a_digest(owner: Any, team: Team) -> None:
    issued = issue("laptop")
    (row,) = ApiToken.objects.filter(user=owner)
    assert issued["token"] not in {row.digest, row.token_key}
    assert issued["token"].startswith(row.token_key) and len(row.token_key) < len(issued["token"])
    assert issued["id"] == row.token_key and issued["name"] == "laptop"


def test_each_sign_in_gives_a_new_token_and_each_works(owner: Any, team: Team) -> None:
    first, second = issue("script"), issue("laptop")
    assert first["token"] != second["token"]
    for issued in (first, second):
        assert with_token(issued["token"]).get("/api/teams/").status_code == 200
    listed = with_token(first["token"]).get("/api/auth/tokens/").json()["results"]
    assert [(t["id"], t["name"]) for t in listed] == [(first["id"], "script"), (second["id"], "laptop")]
    assert all("token" not in t for t in listed)


def test_a_token_expires(owner: Any, team: Team) -> None:
    issued = issue()
    assert issued["expiry"] is not None
    ApiToken.objects.filter(user=owner).update(expiry=timezone.now() - timedelta(seconds=1))
    assert with_token(issued["token"]).get("/api/teams/").status_code == 401


def test_an_expired_token_is_deleted_when_it_is_met_and_others_are_deleted_at_the_next_issue(
    owner: Any, team: Team
) -> None:
    expired, other, working = issue("expired"), issue("other"), issue("working")
    past = timezone.now() - timedelta(seconds=1)
    ApiToken.objects.filter(token_key__in=[expired["id"], other["id"]]).update(expiry=past)
    assert with_token(expired["token"]).get("/api/teams/").status_code == 401
    assert not ApiToken.objects.filter(token_key=expired["id"]).exists()
    assert with_token(working["token"]).get("/api/teams/").status_code == 200
    listed = with_token(working["token"]).get("/api/auth/tokens/").json()["results"]
    assert [t["id"] for t in listed] == [working["id"]]  # an expired token is never listed
    assert with_token(other["token"]).get("/api/teams/").status_code == 401
    issue("new")
    assert not ApiToken.objects.filter(expiry__lt=timezone.now()).exists()


def test_a_token_request_reads_its_token_once_and_writes_nothing(owner: Any, team: Team) -> None:
    """Authentication is one query (the token's row and its user) on every API request, and a
    GET writes nothing: no refresh of the expiry, no clean-up of the user's other tokens."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    token = issue("script")["token"]
    for _ in range(3):
        issue()  # other tokens of the same user
    # A day old: knox's AUTO_REFRESH, if it were on, would now write a new expiry on every request.
    ApiToken.objects.filter(user=owner).update(expiry=timezone.now() + timedelta(days=29))
    client = with_token(token)
    for path in ("/api/runs/", "/api/teams/"):
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(path).status_code == 200
        sql = [q["sql"] for q in ctx.captured_queries]
        assert sum('"accounts_apitoken"' in q for q in sql) == 1, sql
        assert not [q for q in sql if q.split(" ", 1)[0].upper() in ("INSERT", "UPDATE", "DELETE")], sql


def test_a_large_body_is_authenticated_once(owner: Any, team: Team, settings: Any) -> None:
    """The body-size limit asks who sends a large body before the view does: one token lookup."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.PLANNER_SMALL_BODY_BYTES = 1024
    client = with_token(issue()["token"])
    body = '{"name": "' + "x" * 4096 + '"}'
    with CaptureQueriesContext(connection) as ctx:
        response = client.post("/api/runs/", body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert sum('"accounts_apitoken"' in q["sql"] for q in ctx.captured_queries) == 1


def test_one_token_is_revoked_and_the_others_still_work(owner: Any, team: Team) -> None:
    first, second = issue("a"), issue("b")
    client = with_token(first["token"])
    assert client.delete(f"/api/auth/tokens/{second['id']}/").status_code == 204
    assert with_token(second["token"]).get("/api/teams/").status_code == 401
    assert client.get("/api/teams/").status_code == 200
    assert client.post("/api/auth/sign-out/").status_code == 204
    assert with_token(first["token"]).get("/api/teams/").status_code == 401


def test_someone_elses_token_cannot_be_revoked(
    owner: Any, outsider: Any, team: Team, other_team: Team
) -> None:
    issued = issue()
    response = APIClient().post(
        "/api/auth/token/", {"username": "oscar", "password": "oscar-password"}, format="json"
    )
    assert with_token(response.json()["token"]).delete(f"/api/auth/tokens/{issued['id']}/").status_code == 404
    assert with_token(issued["token"]).get("/api/teams/").status_code == 200


def test_a_password_change_revokes_every_token(owner: Any, team: Team) -> None:
    first, second = issue(), issue()
    user = get_user_model().objects.get(pk=owner.pk)
    user.set_password("a-brand-new-password")
    user.save()
    for issued in (first, second):
        assert with_token(issued["token"]).get("/api/teams/").status_code == 401
    user.first_name = "Olivia"
    user.save()  # a save that keeps the password revokes nothing
    fresh = (
        APIClient()
        .post("/api/auth/token/", {"username": "olivia", "password": "a-brand-new-password"}, format="json")
        .json()["token"]
    )
    user.save()
    assert with_token(fresh).get("/api/teams/").status_code == 200


def test_the_password_change_page_revokes_tokens(owner: Any, team: Team) -> None:
    issued = issue()
    client = Client()
    client.force_login(owner)
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": "olivia-password",
            "new_password1": "quite-another-secret-9",
            "new_password2": "quite-another-secret-9",
        },
    )
    assert response.status_code == 302
    assert with_token(issued["token"]).get("/api/teams/").status_code == 401


def test_sign_out_everywhere_revokes_tokens_and_ends_web_sessions(owner: Any, team: Team) -> None:
    issued = issue()
    browser, other_browser = Client(), Client()
    assert browser.post("/accounts/login/", CREDENTIALS).status_code == 302
    assert other_browser.post("/accounts/login/", CREDENTIALS).status_code == 302
    assert other_browser.get("/api/teams/").status_code == 200
    response = browser.post("/accounts/sign-out-everywhere/")
    assert response.status_code == 302
    assert other_browser.get("/api/teams/").status_code in (401, 403)
    assert browser.get("/api/teams/").status_code in (401, 403)
    assert with_token(issued["token"]).get("/api/teams/").status_code == 401


def test_sign_out_everywhere_through_the_api(owner: Any, team: Team) -> None:
    first, second = issue(), issue()
    response = with_token(first["token"]).post("/api/auth/sign-out-everywhere/")
    assert response.status_code == 200 and response.json()["tokens"] == 2
    assert with_token(second["token"]).get("/api/teams/").status_code == 401


def test_a_token_that_is_not_text_is_a_401(db: Any) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token \xff\xfe-not-ascii")
    assert client.get("/api/teams/").status_code == 401


def test_tokens_per_user_are_bounded(owner: Any, team: Team, settings: Any) -> None:
    settings.PLANNER_TOKENS_PER_USER = 2
    issue(), issue()
    response = APIClient().post("/api/auth/token/", CREDENTIALS, format="json")
    assert response.status_code == 400
    assert "revoke one" in response.json()["errors"][0]["message"]
