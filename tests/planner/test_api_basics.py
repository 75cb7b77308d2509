"""What every endpoint shares: authentication, the error format, body limits, the docs."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rest_framework.exceptions import ParseError
from rest_framework.test import APIClient

from planner.core.errors import PayloadTooLarge, add_to_form, error_list, field_errors, to_validation_error
from planner.core.parsers import StrictJSONParser
from planner.teams.models import Team
from scheduling import FieldError, ScenarioError

pytestmark = pytest.mark.django_db


def test_token_endpoint_and_token_authentication(owner: Any, team: Team) -> None:
    client = APIClient()
    response = client.post("/api/auth/token/", {"username": "olivia", "password": "olivia-password"}, format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/teams/").json()["count"] == 1
    bad = APIClient().post("/api/auth/token/", {"username": "olivia", "password": "wrong"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["message"].startswith("Unable to log in")


def test_session_authentication_works_too(client: Any, owner: Any, team: Team) -> None:
    client.force_login(owner)
    assert client.get("/api/teams/").status_code == 200


def test_malformed_json_is_a_400(api: Any, owner: Any, team: Team) -> None:
    response = api(owner).post("/api/vm-types/", '{"name": "x", ', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("JSON parse error")
    assert response.json()["errors"][0]["path"] == ""


def test_a_body_that_is_not_an_object_is_a_400(api: Any, owner: Any, team: Team) -> None:
    for url in ("/api/vm-types/", "/api/scenarios/import/", "/api/runs/", "/api/clusters/"):
        response = api(owner).post(url, "[1, 2]", content_type="application/json")
        assert response.status_code == 400, url
        assert response.json()["errors"], url


def test_infinity_literals_are_rejected(api: Any, owner: Any, team: Team) -> None:
    body = '{"name": "x", "capacity": {"cpu": Infinity}, "price_per_hour": 1}'
    response = api(owner).post("/api/vm-types/", body, content_type="application/json")
    assert response.status_code == 400
    assert "Infinity is not allowed" in response.json()["detail"]


def test_an_oversized_body_is_a_413_with_a_message(api: Any, owner: Any, team: Team, settings: Any) -> None:
    settings.PLANNER_MAX_BODY_BYTES = 1000
    response = api(owner).post("/api/scenarios/import/", {"name": "x" * 2000}, format="json")
    assert response.status_code == 413
    assert "larger than the limit" in response.json()["detail"]
    assert response.json()["errors"][0]["message"] == response.json()["detail"]


def test_the_parser_bounds_a_body_without_a_length(settings: Any) -> None:
    settings.PLANNER_MAX_BODY_BYTES = 10
    with pytest.raises(PayloadTooLarge):
        StrictJSONParser().parse(io.BytesIO(b'{"a": "0123456789"}'), parser_context={})
    with pytest.raises(ParseError):
        StrictJSONParser().parse(io.BytesIO(b"\xff\xfe"), parser_context={})
    assert StrictJSONParser().parse(io.BytesIO(b'{"a": 1}'), parser_context={}) == {"a": 1}


def test_unknown_urls_and_wrong_methods(api: Any, owner: Any, team: Team) -> None:
    client = api(owner)
    assert client.get("/api/runs/999999/").status_code == 404
    assert client.put("/api/runs/").status_code == 405


def test_schema_and_swagger_ui_are_served_without_a_cdn(api: Any, owner: Any) -> None:
    client = api(owner)
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert "/api/runs/{id}/cancel/" in schema.json()["paths"]
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "drf_spectacular_sidecar/swagger-ui-dist" in html
    assert "cdn.jsdelivr" not in html and "unpkg.com" not in html


def test_errors_map_to_paths_in_one_place() -> None:
    from rest_framework.exceptions import ValidationError

    exc = ScenarioError([FieldError("jobs[3].executor.cpu", "must be > 0"), FieldError("", "too big")])
    assert error_list(field_errors(exc)) == [
        {"path": "jobs[3].executor.cpu", "message": "must be > 0"},
        {"path": "", "message": "too big"},
    ]
    assert to_validation_error(exc).detail == {
        "jobs[3].executor.cpu": ["must be > 0"],
        "non_field_errors": ["too big"],
    }
    nested = ValidationError({"entries": [{}, {"count": ["bad"]}], "tags": {0: ["x"]}, "non_field_errors": ["all"]})
    assert [(e.path, e.message) for e in field_errors(nested)] == [
        ("entries[1].count", "bad"), ("tags[0]", "x"), ("", "all")
    ]


def test_errors_go_to_the_right_form_field() -> None:
    from django import forms

    class JobsForm(forms.Form):
        name = forms.CharField()
        jobs_csv = forms.CharField()

    form = JobsForm(data={"name": "w", "jobs_csv": "..."})
    assert form.is_valid()
    exc = ScenarioError([
        FieldError("name", "must not be empty"),
        FieldError("jobs[3].executor.cpu", "must be > 0"),
        FieldError("vm_types", "is required"),
    ])
    add_to_form(form, exc, field_for_path={"jobs": "jobs_csv"})
    assert form.errors["name"] == ["must not be empty"]
    assert form.errors["jobs_csv"] == ["jobs[3].executor.cpu: must be > 0"]
    assert form.non_field_errors() == ["vm_types: is required"]
