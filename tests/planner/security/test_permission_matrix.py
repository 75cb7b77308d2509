"""Issue 21: who may do what, for every API operation and every page, generated from the URLconf.

Five points of view on team A's objects: anonymous, A's owner, A's member (who created none of
them), B's owner (an outsider) and a staff user in no team. The rows below say, per operation,
what kind of thing it touches; the expectations follow from the kind:

* ``object``: one of team A's objects. Anonymous: 401 (API) or the login page; outsider and
  staff: 404, as if it did not exist; owner: allowed; member: allowed, or 403 where only the
  owner or the object's creator may (``member_denied``).
* ``list``: a collection. Outsider and staff see none of team A's ids or names.
* ``create``: a write naming team A in its body. Outsider and staff: refused (400/404), nothing
  written.
* ``own``: the caller's own things (their tokens, their session). ``public``: anyone.
* ``invitee``: an invitation addressed to someone else: 404 for every signed-in point of view.

Every request runs in a savepoint that is rolled back, so one operation's write never changes
what the next one sees. :func:`test_every_operation_has_a_row` fails when a route or a method
is added without a row here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from planner.catalogue.models import VMType
from planner.runs.models import Run
from planner.scenarios.models import Cluster, Upload, Workload
from planner.teams.invitations import invitation_create
from planner.teams.models import Membership, Team
from planner.teams.services import membership_create

HTTP_METHODS = ("get", "post", "put", "patch", "delete")


@dataclass(frozen=True)
class Op:
    kind: str  # object, list, create, own, public
    url: str  # formatted with the context: {team}, {cluster}, {workload}, {run}, {vm_type}, {member}
    body: dict[str, Any] = field(default_factory=dict)
    member_denied: bool = False  # a member of team A gets 403 (owner-only, or made by someone else)
    json: bool = False  # a page that takes a JSON body (the workload editor's save)


def ctx_body(body: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    text = json.dumps(body).replace('"@team"', str(ctx["team"])).replace("{member}", str(ctx["member"]))
    return dict(json.loads(text))


SCENARIO = {
    "version": 1,
    "name": "m",
    "resources": ["cpu"],
    "vm_types": [{"name": "n", "capacity": {"cpu": 1}, "price_per_hour": 1, "count": 1}],
    "frameworks": [{"name": "f"}],
    "jobs": [
        {"id": "j", "framework": "f", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1}, "duration_s": 1}
    ],
}

# --------------------------------------------------------------------------- the API
API: dict[tuple[str, str], Op] = {
    ("api:root", "get"): Op("own", "/api/"),
    ("api:auth-token", "post"): Op("public", "/api/auth/token/", {"username": "x", "password": "y"}),
    ("api:auth-tokens", "get"): Op("own", "/api/auth/tokens/"),
    ("api:auth-token-detail", "delete"): Op("own", "/api/auth/tokens/{token}/"),
    ("api:auth-sign-out", "post"): Op("own", "/api/auth/sign-out/"),
    ("api:auth-sign-out-everywhere", "post"): Op("own", "/api/auth/sign-out-everywhere/"),
    ("api:schema", "get"): Op("own", "/api/schema/"),
    ("api:docs", "get"): Op("own", "/api/docs/"),
    ("api:team-list", "get"): Op("list", "/api/teams/"),
    ("api:team-list", "post"): Op("own", "/api/teams/", {"name": "New"}),
    ("api:team-detail", "get"): Op("object", "/api/teams/{team}/"),
    ("api:team-detail", "patch"): Op("object", "/api/teams/{team}/", {"name": "Renamed"}, member_denied=True),
    ("api:team-members", "get"): Op("object", "/api/teams/{team}/members/"),
    ("api:team-members", "post"): Op(
        "object", "/api/teams/{team}/members/", {"username": "stella"}, member_denied=True
    ),
    ("api:team-invitations", "get"): Op("object", "/api/teams/{team}/invitations/", member_denied=True),
    ("api:team-invitations", "post"): Op(
        "object", "/api/teams/{team}/invitations/", {"username": "nina"}, member_denied=True
    ),
    ("api:team-invitation", "delete"): Op(
        "object", "/api/teams/{team}/invitations/{invitation}/", member_denied=True
    ),
    ("api:invitation-list", "get"): Op("own", "/api/invitations/"),
    ("api:invitation-accept", "post"): Op("invitee", "/api/invitations/{invitation}/accept/"),
    ("api:invitation-decline", "post"): Op("invitee", "/api/invitations/{invitation}/decline/"),
    ("api:team-member", "patch"): Op(
        "object", "/api/teams/{team}/members/{member}/", {"role": "owner"}, member_denied=True
    ),
    ("api:team-member", "delete"): Op("object", "/api/teams/{team}/members/{owner}/", member_denied=True),
    ("api:vm-type-list", "get"): Op("list", "/api/vm-types/"),
    ("api:vm-type-list", "post"): Op(
        "create",
        "/api/vm-types/",
        {"team": "@team", "name": "z1", "capacity": {"cpu": 1, "mem": 1}, "price_per_hour": 1},
    ),
    ("api:vm-type-detail", "get"): Op("object", "/api/vm-types/{vm_type}/"),
    ("api:vm-type-detail", "put"): Op(
        "object",
        "/api/vm-types/{vm_type}/",
        {"name": "z2", "capacity": {"cpu": 1, "mem": 1}, "price_per_hour": 1},
        member_denied=True,
    ),
    ("api:vm-type-detail", "patch"): Op(
        "object", "/api/vm-types/{vm_type}/", {"price_per_hour": 2}, member_denied=True
    ),
    ("api:vm-type-detail", "delete"): Op("object", "/api/vm-types/{vm_type}/", member_denied=True),
    ("api:cluster-list", "get"): Op("list", "/api/clusters/"),
    ("api:cluster-list", "post"): Op(
        "create",
        "/api/clusters/",
        {"team": "@team", "name": "c2", "entries": [{"vm_type": "m1.large", "count": 1}]},
    ),
    ("api:cluster-detail", "get"): Op("object", "/api/clusters/{cluster}/"),
    ("api:cluster-detail", "put"): Op(
        "object",
        "/api/clusters/{cluster}/",
        {"name": "c3", "entries": [{"vm_type": "m1.large", "count": 1}]},
        member_denied=True,
    ),
    ("api:cluster-detail", "patch"): Op(
        "object", "/api/clusters/{cluster}/", {"name": "c4"}, member_denied=True
    ),
    ("api:cluster-detail", "delete"): Op("object", "/api/clusters/{cluster}/", member_denied=True),
    ("api:cluster-export", "get"): Op("object", "/api/clusters/{cluster}/export/?workload={workload}"),
    ("api:workload-list", "get"): Op("list", "/api/workloads/"),
    ("api:workload-list", "post"): Op("create", "/api/workloads/", {"team": "@team", "name": "w2"}),
    ("api:workload-detail", "get"): Op("object", "/api/workloads/{workload}/"),
    ("api:workload-detail", "put"): Op(
        "object", "/api/workloads/{workload}/", {"name": "w3"}, member_denied=True
    ),
    ("api:workload-detail", "patch"): Op(
        "object", "/api/workloads/{workload}/", {"name": "w4"}, member_denied=True
    ),
    ("api:workload-detail", "delete"): Op("object", "/api/workloads/{workload}/", member_denied=True),
    ("api:workload-generate", "post"): Op(
        "object", "/api/workloads/{workload}/generate/", {"seed": 1}, member_denied=True
    ),
    ("api:workload-import-csv", "post"): Op(
        "object",
        "/api/workloads/{workload}/import-csv/",
        {"csv": "id,arrival_s,executors,cpu,mem,duration_s\nj1,0,1,1,1,10\n"},
        member_denied=True,
    ),
    ("api:scenario-import", "post"): Op(
        "create", "/api/scenarios/import/", {"team": "@team", "scenario": SCENARIO}
    ),
    ("api:run-list", "get"): Op("list", "/api/runs/"),
    ("api:run-list", "post"): Op(
        "create", "/api/runs/", {"team": "@team", "scenario": SCENARIO, "schedulers": ["edf-bfd"]}
    ),
    ("api:run-detail", "get"): Op("object", "/api/runs/{run}/"),
    ("api:run-detail", "delete"): Op("object", "/api/runs/{run}/", member_denied=True),
    ("api:run-cancel", "post"): Op("object", "/api/runs/{run}/cancel/", member_denied=True),
    ("api:run-progress", "get"): Op("object", "/api/runs/{run}/progress/"),
    ("api:run-figures", "get"): Op("object", "/api/runs/{run}/figures/"),
    ("api:run-figure-page", "get"): Op("object", "/api/runs/{run}/figure-page/?figure=gantt:edf-bfd&page=0"),
    ("api:run-scenario", "get"): Op("object", "/api/runs/{run}/scenario/"),
    ("api:run-result", "get"): Op("object", "/api/runs/{run}/results/edf-bfd/"),
    ("api:run-report", "get"): Op("object", "/api/runs/{run}/report/csv/"),
    ("api:run-replay", "get"): Op("object", "/api/runs/{run}/replay/edf-bfd/?t=0"),
    ("api:workload-jobs", "get"): Op("object", "/api/workloads/{workload}/jobs/"),
    ("api:importer-list", "get"): Op("own", "/api/importers/"),
    ("api:upload-list", "get"): Op("list", "/api/uploads/"),
    ("api:upload-list", "post"): Op(
        "create", "/api/uploads/", {"team": "@team", "name": "u2", "format": "jobs"}
    ),
    ("api:upload-detail", "get"): Op("object", "/api/uploads/{upload}/"),
    ("api:upload-detail", "delete"): Op("object", "/api/uploads/{upload}/", member_denied=True),
    ("api:upload-save", "post"): Op(
        "object", "/api/uploads/{upload}/save/", {"name": "w9"}, member_denied=True
    ),
}

# --------------------------------------------------------------------------- the pages
PAGES: dict[tuple[str, str], Op] = {
    ("login", "get"): Op("public", "/accounts/login/"),
    ("logout", "post"): Op("public", "/accounts/logout/"),
    ("password_change", "get"): Op("own", "/accounts/password_change/"),
    ("password_change_done", "get"): Op("own", "/accounts/password_change/done/"),
    ("password_reset", "get"): Op("public", "/accounts/password_reset/"),
    ("password_reset_done", "get"): Op("public", "/accounts/password_reset/done/"),
    ("password_reset_confirm", "get"): Op("public", "/accounts/reset/x/y/"),
    ("password_reset_complete", "get"): Op("public", "/accounts/reset/done/"),
    ("sign-out-everywhere", "post"): Op("own", "/accounts/sign-out-everywhere/"),
    ("web:dashboard", "get"): Op("list", "/"),
    ("web:team-switch", "post"): Op("create", "/team/switch/", {"team": "@team", "next": "/"}),
    ("web:team-new", "get"): Op("own", "/teams/new/"),
    ("web:invitation-accept", "post"): Op("invitee", "/invitations/{invitation}/accept/"),
    ("web:invitation-decline", "post"): Op("invitee", "/invitations/{invitation}/decline/"),
    ("web:invitation-withdraw", "post"): Op(
        "object", "/teams/{team}/invitations/{invitation}/withdraw/", member_denied=True
    ),
    ("web:team-members", "get"): Op("object", "/teams/{team}/members/"),
    ("web:team-members", "post"): Op(
        "object", "/teams/{team}/members/", {"username": "stella", "role": "member"}, member_denied=True
    ),
    ("web:team-settings", "post"): Op(
        "object", "/teams/{team}/settings/", {"name": "R", "currency": "$"}, member_denied=True
    ),
    ("web:team-member-role", "post"): Op(
        "object", "/teams/{team}/members/{member}/role/", {"m{member}-role": "owner"}, member_denied=True
    ),
    ("web:team-member-remove", "post"): Op(
        "object", "/teams/{team}/members/{owner}/remove/", member_denied=True
    ),
    ("web:catalogue", "get"): Op("list", "/catalogue/"),
    ("web:vm-type-add", "post"): Op("own", "/catalogue/add/", {"new-name": "q"}),
    ("web:vm-type-presets", "post"): Op("own", "/catalogue/presets/"),
    ("web:vm-type-edit", "post"): Op("object", "/catalogue/{vm_type}/", {"name": "x"}, member_denied=True),
    ("web:vm-type-delete", "post"): Op("object", "/catalogue/{vm_type}/delete/", member_denied=True),
    ("web:clusters", "get"): Op("list", "/clusters/"),
    ("web:cluster-new", "get"): Op("own", "/clusters/new/"),
    ("web:cluster-edit", "get"): Op("object", "/clusters/{cluster}/"),
    ("web:cluster-edit", "post"): Op("object", "/clusters/{cluster}/", {"name": "x"}, member_denied=True),
    ("web:cluster-delete", "post"): Op("object", "/clusters/{cluster}/delete/", member_denied=True),
    ("web:workloads", "get"): Op("list", "/workloads/"),
    ("web:workload-new", "get"): Op("own", "/workloads/new/"),
    ("web:scenario-upload", "get"): Op("own", "/workloads/import/"),
    ("web:workload-edit", "get"): Op("object", "/workloads/{workload}/"),
    ("web:workload-edit", "post"): Op(
        "object", "/workloads/{workload}/", {"name": "x"}, member_denied=True, json=True
    ),
    ("web:workload-csv", "post"): Op(
        "object", "/workloads/{workload}/csv/", {"csv": "x"}, member_denied=True
    ),
    ("web:workload-generate", "post"): Op("object", "/workloads/{workload}/generate/", member_denied=True),
    ("web:workload-export", "get"): Op("object", "/workloads/{workload}/export.json?cluster={cluster}"),
    ("web:workload-delete", "post"): Op("object", "/workloads/{workload}/delete/", member_denied=True),
    ("web:runs", "get"): Op("list", "/runs/"),
    ("web:run-detail", "get"): Op("object", "/runs/{run}/"),
    ("web:run-cancel", "post"): Op("object", "/runs/{run}/cancel/", member_denied=True),
    ("web:run-delete", "post"): Op("object", "/runs/{run}/delete/", member_denied=True),
    ("web:run-report", "get"): Op("object", "/runs/{run}/report.csv"),
    ("web:plotly-js", "get"): Op("public", "/vendor/plotly-{plotly}.min.js"),
    ("web:compare-start", "get"): Op("list", "/runs/new/"),
    ("web:compare-start", "post"): Op("own", "/runs/new/", {"source": "stored"}),
    ("web:compare-side-by-side", "get"): Op("list", "/runs/compare/?a={run}&b={run}"),
    ("web:compare-what-if", "get"): Op("object", "/runs/{run}/what-if/"),
    ("web:allocation-start", "get"): Op("list", "/runs/new/allocation/"),
    ("web:sharing-start", "get"): Op("list", "/runs/new/sharing/"),
    ("web:mrsu-start", "get"): Op("list", "/runs/new/mrsu/"),
    ("web:udrf-start", "get"): Op("list", "/runs/new/udrf/"),
    ("web:reproduce-start", "get"): Op("list", "/runs/new/reproduce/"),
    ("web:cheapest-start", "get"): Op("list", "/runs/new/cheapest/"),
    ("web:cheapest-candidate-compare", "post"): Op("object", "/runs/{cheapest_run}/candidates/1/compare/"),
    ("web:ladder-start", "get"): Op("list", "/runs/new/ladder/"),  # the test settings' worked example
    ("web:glossary", "get"): Op("own", "/glossary/"),
    ("web:workload-jobs-csv", "get"): Op("object", "/workloads/{workload}/jobs.csv"),
    ("web:upload-new", "get"): Op("own", "/uploads/"),
    ("web:upload-detail", "get"): Op("object", "/uploads/{upload}/"),
    ("web:upload-delete", "post"): Op("object", "/uploads/{upload}/delete/", member_denied=True),
    ("web:sweep-start", "get"): Op("list", "/runs/new/sweep/"),
    ("web:sweep-point-compare", "post"): Op("object", "/runs/{sweep_run}/points/1/compare/"),
}


def url_names() -> Iterator[tuple[str, Any]]:
    """Every named route of the URLconf (``namespace:name``) with its view, the admin's aside
    (staff's own site, outside the teams' model)."""

    def walk(resolver: URLResolver, namespace: str | None) -> Iterator[tuple[str, Any]]:
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                if pattern.app_name == "admin":
                    continue
                yield from walk(pattern, pattern.namespace or namespace)
            elif isinstance(pattern, URLPattern) and pattern.name:
                yield (f"{namespace}:{pattern.name}" if namespace else pattern.name), pattern.callback

    yield from walk(get_resolver(), None)


def api_methods(callback: Any) -> list[str]:
    cls = getattr(callback, "cls", None)
    return [m for m in HTTP_METHODS if cls is not None and hasattr(cls, m)]


def test_every_operation_has_a_row() -> None:
    missing = []
    for name, callback in url_names():
        if name.startswith("api:"):
            missing += [(name, m) for m in api_methods(callback) if (name, m) not in API]
        elif not any(key[0] == name for key in PAGES):
            missing.append((name, "*"))
    assert missing == [], f"operations without a row in the permission matrix: {missing}"
    known = {name for name, _ in url_names()}
    assert {name for name, _ in API} | {name for name, _ in PAGES} <= known  # no stale rows


# --------------------------------------------------------------------------- the points of view
@pytest.fixture
def world(
    owner: Any,
    member: Any,
    outsider: Any,
    team: Team,
    other_team: Team,
    cluster: Cluster,
    workload: Workload,
    succeeded_run: Run,
    execute_run: Callable[[int], str],
) -> dict[str, Any]:
    from planner.accounts.services import token_issue
    from planner.web.views.base import plotly_version

    staff = get_user_model().objects.create_user(username="stella", password="stella-password", is_staff=True)
    membership_create(team=other_team, user=outsider, username="stella", role=Membership.Role.MEMBER)
    vm_type = VMType.objects.filter(team=team).order_by("pk").first()
    assert vm_type is not None
    # A cheapest-cluster search of team A (queued: opening a candidate reads its options alone).
    from planner.runs.services import run_start

    params = {"counts": {"m1.large": [0, 1]}}
    cheapest_run = run_start(user=owner, cluster=cluster, workload=workload, kind="cheapest", params=params)
    # A sweep of team A with its one point simulated (opening the point reads its record).
    sweep = {"vary": {"counts.m1.large": [1]}, "schedulers": ["edf-bfd"]}
    sweep_run = run_start(user=owner, cluster=cluster, workload=workload, kind="sweep", params=sweep)
    assert execute_run(sweep_run.pk) == "succeeded"
    # An upload of team A, received (its import is not run here).
    upload = Upload.objects.create(team=team, created_by=owner, name="upload-A-secret", format="jobs")
    # Names found nowhere else, so a page that shows one has shown team A's object.
    Team.objects.filter(pk=team.pk).update(name="Team-A-secret")
    Cluster.objects.filter(pk=cluster.pk).update(name="cluster-A-secret")
    Workload.objects.filter(pk=workload.pk).update(name="workload-A-secret")
    Run.objects.filter(pk=succeeded_run.pk).update(name="run-A-secret")
    VMType.objects.filter(pk=vm_type.pk).update(name="vm-A-secret")
    token, _ = token_issue(user=owner, name="matrix")
    # An invitation of team A for someone who is none of the points of view: nobody here may use it.
    invitation = invitation_create(team=team, user=owner, username="nina")
    ctx = {
        "team": team.pk,
        "cluster": cluster.pk,
        "workload": workload.pk,
        "run": succeeded_run.pk,
        "cheapest_run": cheapest_run.pk,
        "sweep_run": sweep_run.pk,
        "upload": upload.pk,
        "vm_type": vm_type.pk,
        "member": member.pk,
        "owner": owner.pk,
        "token": token.token_key,
        "invitation": invitation.pk,
        "plotly": plotly_version(),
    }
    secrets = {
        "ids": {team.pk, cluster.pk, workload.pk, succeeded_run.pk},
        "names": ["Team-A-secret", "cluster-A-secret", "workload-A-secret", "run-A-secret", "vm-A-secret",
                  "upload-A-secret"],
    }
    return {
        "ctx": ctx,
        "secrets": secrets,
        "users": {"owner": owner, "member": member, "outsider": outsider, "staff": staff, "anonymous": None},
    }


def call(user: Any, op: Op, method: str, ctx: dict[str, Any], *, api: bool) -> Any:
    client: Any = APIClient() if api else Client()
    if user is not None:
        client.force_login(user)
    url = op.url.format(**ctx)
    body = ctx_body(op.body, ctx)
    with transaction.atomic():
        if api:
            response = getattr(client, method)(url, body or None, format="json")
        elif method == "get":
            response = client.get(url)
        elif op.json:
            response = client.post(url, json.dumps(body), content_type="application/json")
        else:
            response = client.post(url, body)
        transaction.set_rollback(True)
    return response


def leaks(response: Any, secrets: dict[str, Any], *, api: bool) -> list[str]:
    """Team A's ids in an API list, or its names on a page."""
    if api:
        data = response.json()
        rows = data.get("results", []) if isinstance(data, dict) else []
        return [
            f"id {r.get('id')}"
            for r in rows
            if isinstance(r, dict)
            and r.get("id") in secrets["ids"]
            and r.get("team", r.get("id")) in secrets["ids"]
        ]
    text = response.content.decode(errors="replace")
    return [name for name in secrets["names"] if re.search(re.escape(name), text)]


def verdict(who: str, op: Op, method: str, response: Any, world: dict[str, Any], *, api: bool) -> str | None:
    """What is wrong with ``response`` for ``who``, or ``None``."""
    code = response.status_code
    if code >= 500:
        return f"{code}"
    if op.kind == "public":
        return None
    if who == "anonymous":
        if api:
            return None if code == 401 else f"{code}, expected 401"
        return (
            None if code == 302 and "/accounts/login/" in response["Location"] else f"{code}, expected login"
        )
    if op.kind == "invitee":  # someone else's invitation: only "nina" may accept or decline it
        return None if code == 404 or (not api and code == 404) else f"{code}, expected 404"
    if op.kind == "own":
        return None if code not in (401, 403) else f"{code} on the caller's own things"
    outsider = who in ("outsider", "staff")
    if op.kind == "object":
        if outsider:
            return None if code == 404 else f"{code}, expected 404"
        if who == "member" and op.member_denied:
            # A page checks its form before the permission: an incomplete one is a 400, no change.
            return None if code == 403 or (not api and code == 400) else f"{code}, expected 403"
        return None if code not in (401, 403, 404) else f"{code}, expected access"
    if op.kind == "list":
        if outsider:
            found = leaks(response, world["secrets"], api=api) if code == 200 else []
            return f"leaks {found}" if found else None
        return None if code in (200, 302) else f"{code}, expected the list"
    if op.kind == "create":
        if outsider:
            return (
                None
                if code in (400, 404) or (not api and code == 302 and method == "post" and who == "outsider")
                else f"{code}, expected refusal"
            )
        return None if code not in (401, 403, 404) else f"{code}, expected access"
    return f"unknown kind {op.kind}"


@pytest.mark.parametrize("who", ["anonymous", "owner", "member", "outsider", "staff"])
def test_the_matrix(world: dict[str, Any], who: str) -> None:
    user = world["users"][who]
    wrong = []
    for table, api in ((API, True), (PAGES, False)):
        for (name, method), op in table.items():
            response = call(user, op, method, world["ctx"], api=api)
            problem = verdict(who, op, method, response, world, api=api)
            if problem:
                wrong.append(f"{method.upper()} {op.url.format(**world['ctx'])} ({name}): {problem}")
    assert wrong == [], "\n".join(wrong)


def test_outsiders_switching_to_team_a_stay_outside(world: dict[str, Any]) -> None:
    client = Client()
    client.force_login(world["users"]["outsider"])
    client.post("/team/switch/", {"team": world["ctx"]["team"], "next": "/"})
    page = client.get("/clusters/").content.decode()
    assert "Table 3" not in page


def test_a_form_posted_to_the_workload_editor_is_a_415_not_a_500(
    client_for: Callable[[Any], Any], owner: Any, workload: Workload
) -> None:
    """Found by the matrix: the editor read ``request.body`` after a middleware had read the form."""
    response = client_for(owner).post(f"/workloads/{workload.pk}/", {"name": "x"})
    assert response.status_code == 415
    assert response.json()["errors"][0]["message"] == "the body must be application/json"
