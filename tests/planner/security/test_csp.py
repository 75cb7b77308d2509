"""Issue 21: every page carries a Content-Security-Policy that allows no inline script."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from planner.runs.models import Run


def directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


@pytest.mark.parametrize("path", ["/", "/runs/", "/catalogue/", "/api/docs/", "/api/teams/"])
def test_pages_carry_a_policy_without_inline_script(
    client_for: Callable[[Any], Any], owner: Any, team: Any, path: str
) -> None:
    response = client_for(owner).get(path)
    assert response.status_code == 200
    policy = directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert "'unsafe-eval'" not in policy["script-src"]


def test_the_login_page_carries_it_too(db: Any) -> None:
    from django.test import Client

    assert "script-src 'self'" in Client().get("/accounts/login/")["Content-Security-Policy"]


def test_no_page_has_an_inline_script(
    client_for: Callable[[Any], Any], owner: Any, succeeded_run: Run
) -> None:
    """Every <script> either has a src or is a JSON data block (never run)."""
    client = client_for(owner)
    pages = [
        "/",
        "/runs/",
        f"/runs/{succeeded_run.pk}/",
        "/catalogue/",
        "/clusters/",
        "/workloads/",
        "/runs/new/",
        "/api/docs/",
        "/accounts/login/",
    ]
    for path in pages:
        html = client.get(path).content.decode()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag or 'type="application/json"' in tag, (path, tag)
        assert not re.search(r"\son[a-z]+=\"", html), path  # no inline event handlers


def test_the_api_docs_script_is_served_from_a_url(
    client_for: Callable[[Any], Any], owner: Any, team: Any
) -> None:
    response = client_for(owner).get("/api/docs/?script=")
    assert response.status_code == 200
    assert "javascript" in response["Content-Type"]


@pytest.mark.parametrize("path", ["/api/schema/", "/api/docs/", "/api/docs/?script="])
def test_the_schema_and_docs_require_sign_in(db: Any, path: str) -> None:
    from rest_framework.test import APIClient

    assert APIClient().get(path).status_code == 401
