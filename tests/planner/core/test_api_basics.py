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
    credentials = {"username": "olivia", "password": "olivia-password"}
    response = client.post("/api/auth/token/", credentials, format="json")
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
    nested = ValidationError(
        {"entries": [{}, {"count": ["bad"]}], "tags": {0: ["x"]}, "non_field_errors": ["all"]}
    )
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


# --------------------------------------------------------------------------- the API root


def test_the_api_root_needs_authentication_like_every_endpoint(api: Any, team: Team) -> None:
    for url in ("/api/", "/api/teams/"):
        response = api(None).get(url)
        assert response.status_code == 401, url
        assert response["WWW-Authenticate"].startswith("Token"), url


def test_the_api_root_links_every_collection(api: Any, owner: Any, team: Team) -> None:
    client = api(owner)
    response = client.get("/api/")
    assert response.status_code == 200
    links = response.json()
    collections = ["teams", "vm-types", "clusters", "workloads", "uploads", "runs"]
    auth = {"auth/token", "auth/tokens", "auth/sign-out", "auth/sign-out-everywhere"}
    more = {"scenarios/import", "importers", "invitations", "schema", "docs"}
    assert set(collections) | auth | more == set(links)
    for name in collections:
        assert links[name] == f"http://testserver/api/{name}/"
        listed = client.get(links[name])
        assert listed.status_code == 200 and "results" in listed.json(), name
    assert "" not in links and not any("{" in link or "<" in link for link in links.values())


def test_the_api_root_is_in_the_openapi_schema(api: Any, owner: Any) -> None:
    schema = api(owner).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    root = schema["paths"]["/api/"]["get"]
    body = root["responses"]["200"]["content"]["application/json"]["schema"]
    assert body["additionalProperties"] == {"type": "string", "format": "uri"}
    assert "/api/auth/token/" in schema["paths"]


# --------------------------------------------------------------------------- one way to read bodies


def api_views() -> list[tuple[str, type]]:
    """Every view class under /api/, with its route."""
    from django.urls import URLPattern, get_resolver

    _, resolver = get_resolver().namespace_dict["api"]
    return [(str(p.pattern), p.callback.cls) for p in resolver.url_patterns if isinstance(p, URLPattern)]


def test_every_endpoint_reads_bodies_with_the_projects_parsers() -> None:
    from django.conf import settings
    from rest_framework.settings import api_settings

    from planner.core import parsers

    configured = settings.REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]
    assert all(path.startswith("planner.core.parsers.") for path in configured)
    assert list(api_settings.DEFAULT_PARSER_CLASSES) == [
        parsers.StrictJSONParser, parsers.StrictFormParser, parsers.StrictMultiPartParser
    ]
    views = api_views()
    assert len(views) > 20 and any(route == "auth/token/" for route, _ in views)
    for route, view in views:
        assert list(view.parser_classes) == list(api_settings.DEFAULT_PARSER_CLASSES), route


def test_the_token_endpoint_refuses_1000_nested_brackets_with_a_400() -> None:
    client = APIClient(raise_request_exception=False)
    response = client.post("/api/auth/token/", "[" * 1000 + "]" * 1000, content_type="application/json")
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert detail == "JSON parse error - the document is nested too deeply (at most 64 levels)"


# --------------------------------------------------------------------------- the strict JSON rules


def test_loads_strict_accepts_what_json_is_for() -> None:
    from planner.core.parsers import MAX_DEPTH, loads_strict

    assert loads_strict('{"name": "\\u00e9t\\u00e9 \\ud83d\\ude00", "n": [1, 2.5, -3e-5, true, null]}') == {
        "name": "été 😀", "n": [1, 2.5, -3e-5, True, None]
    }
    assert loads_strict("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    assert loads_strict(str(2**63 - 1)) == 2**63 - 1 and loads_strict(str(-(2**63))) == -(2**63)
    assert loads_strict("1.7e308") == 1.7e308
    assert loads_strict('"plain"') == "plain"


@pytest.mark.parametrize("text, path, message", [
    ('{"a": "x\\ud800"}', "a", "contains a lone surrogate (\\ud800 at character 2)"),
    ('{"a": ["ok", "\\udfff"]}', "a[1]", "contains a lone surrogate (\\udfff at character 1)"),
    ('{"a": "\\ude00\\ud83d"}', "a", "contains a lone surrogate (\\ude00 at character 1)"),  # pair reversed
    ('{"a": {"k\\uDBFF": 1}}', "a", 'the key "k\\udbff" contains a lone surrogate'),
    ('{"a": {"k\\ud800": [1e999]}}', "a", 'the key "k\\ud800" contains a lone surrogate'),
    ('{"a": {"k\\ud800": [1e999]}}', "a.k\\ud800[0]", "is too large"),  # a path through the bad key
    ('"\\ud800"', "", "contains a lone surrogate"),
    ('{"jobs": [{"cpu": 1e400}]}', "jobs[0].cpu", "is too large: numbers must be finite"),
    ('{"jobs": [{"cpu": -1e309}]}', "jobs[0].cpu", "is too large: numbers must be finite"),
    (f'{{"seed": {2**63}}}', "seed", "is out of range: integers must be between -9223372036854775808 and"),
    (f'{{"seed": {-(2**63) - 1}}}', "seed", "is out of range"),
    ('{"a": ' + "[" * 70 + "]" * 70 + "}", "a" + "[0]" * 63, "is nested more than 64 levels deep"),
])
def test_loads_strict_names_the_value_that_breaks_a_rule(text: str, path: str, message: str) -> None:
    from planner.core.errors import InputError
    from planner.core.parsers import loads_strict

    with pytest.raises(InputError) as exc:
        loads_strict(text)
    assert any(e.path == path and message in e.message for e in exc.value.errors), exc.value.errors
    str(exc.value).encode("utf-8")  # paths and messages are valid text themselves


@pytest.mark.parametrize("text, message", [
    ("[" * 5000 + "]" * 5000, "the document is nested too deeply (at most 64 levels)"),
    ("1" * 5000, "a number is too large: integers must be between"),
    ('{"a": NaN}', "NaN is not allowed; numbers must be finite"),
    ('{"a": 1,}', "Expecting property name enclosed in double quotes"),
])
def test_loads_strict_reports_text_that_is_not_json(text: str, message: str) -> None:
    from planner.core.parsers import JSONSyntaxError, loads_strict

    with pytest.raises(JSONSyntaxError, match=message.replace("(", r"\(").replace(")", r"\)")):
        loads_strict(text)


def test_a_surrogate_decoded_from_another_charset_is_refused(api: Any, owner: Any, team: Team) -> None:
    # UTF-7 decodes "+2AA-" to a lone surrogate without any JSON escape.
    body = '{"name": "t+2AA-"}'.encode("ascii")
    response = api(owner).post("/api/teams/", body, content_type="application/json; charset=utf-7")
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "name"
    assert "lone surrogate" in response.json()["errors"][0]["message"]
