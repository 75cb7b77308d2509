"""A lone surrogate ("\\ud800") anywhere in a request is refused, names its field, and writes nothing.

Such a string cannot be encoded as UTF-8. Before, the API and two pages answered 500, and on
SQLite (the embedded default) the row was committed first, after which every list that
showed it answered 500 too. Here every create endpoint and page gets one, in each kind of
name (VM type, resource, cluster, workload, framework, job id, team, member, run), in the
three ways a request carries text:

* a JSON body, where the surrogate is a ``\\ud800`` escape (the API; the grid's saves);
* JSON text inside a form (the pages that take a pasted or uploaded scenario document);
* a form or a query string decoded with the charset the client names: UTF-7 decodes
  ``+2AA-`` to ``\\ud800`` (a browser sends UTF-8, whose invalid bytes Django replaces).

The tests run on the test settings' SQLite database, and check that no table changed.
(Django itself refuses a URL-encoded form in any charset but UTF-8; multipart forms and
query strings are decoded with the charset the request names.)
"""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from planner.catalogue.models import VMType
from planner.runs.models import Run, RunResult
from planner.scenarios.models import Cluster, ClusterEntry, Workload
from planner.teams.models import Membership, Team

pytestmark = pytest.mark.django_db

S = "\ud800"
SURROGATE = "contains a lone surrogate"
UTF7_FORM = "application/x-www-form-urlencoded; charset=utf-7"
CSV_HEADER = "id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s"


def tables() -> dict[str, Any]:
    """What the database holds: rows of every table a create could write, and the stored names."""
    return {
        "counts": {
            m.__name__: m.objects.count()
            for m in (Team, Membership, VMType, Cluster, ClusterEntry, Workload, Run, RunResult)
        },
        "names": sorted(
            [("team", n) for n in Team.objects.values_list("name", flat=True)]
            + [("vm_type", n) for n in VMType.objects.values_list("name", flat=True)]
            + [("cluster", n) for n in Cluster.objects.values_list("name", flat=True)]
            + [("workload", n) for n in Workload.objects.values_list("name", flat=True)]
        ),
        "workloads": [(w.frameworks, w.jobs) for w in Workload.objects.order_by("pk")],
        "clusters": list(Cluster.objects.order_by("pk").values_list("resources", "options")),
    }


def with_text(value: Any, path: list[str | int], text: str) -> Any:
    """A deep copy of ``value`` with ``text`` at ``path``."""
    out = copy.deepcopy(value)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = text
    return out


def dumped(body: Any) -> str:
    """JSON text as a client sends it: the surrogate becomes the escape ``\\ud800``."""
    text = json.dumps(body)
    assert "\\ud800" in text
    return text


# --------------------------------------------------------------------------- the API


@pytest.fixture
def api_cases(
    scenario_doc: dict[str, Any],
    cluster: Cluster,
    workload: Workload,
    team: Team,
) -> list[tuple[str, str, str, Any, str]]:
    """(what, method, url, body, path of the error) for every create or change of a name."""
    job = scenario_doc["jobs"][0]
    vm_type = VMType.objects.filter(team=team).order_by("pk").first()
    assert vm_type is not None
    entries = [{"vm_type": "m1.large", "count": 1}]
    capacity = {"cpu": 4, "mem": 16}
    return [
        (
            "VM type name",
            "post",
            "/api/vm-types/",
            {"name": "m" + S, "capacity": capacity, "price_per_hour": 1},
            "name",
        ),
        (
            "VM type resource",
            "post",
            "/api/vm-types/",
            {"name": "gpu box", "capacity": {"cpu": 4, "gpu" + S: 1}, "price_per_hour": 1},
            "capacity",
        ),
        ("VM type renamed", "patch", f"/api/vm-types/{vm_type.pk}/", {"name": "m" + S}, "name"),
        ("cluster name", "post", "/api/clusters/", {"name": "c" + S, "entries": entries}, "name"),
        (
            "cluster resource",
            "post",
            "/api/clusters/",
            {"name": "c", "resources": ["cpu", "mem" + S], "entries": entries},
            "resources[1]",
        ),
        ("cluster renamed", "patch", f"/api/clusters/{cluster.pk}/", {"name": "c" + S}, "name"),
        ("workload name", "post", "/api/workloads/", {"name": "w" + S}, "name"),
        (
            "framework",
            "post",
            "/api/workloads/",
            {"name": "w", "frameworks": [{"name": "f" + S, "weight": 1}]},
            "frameworks[0].name",
        ),
        (
            "job id",
            "post",
            "/api/workloads/",
            {"name": "w", "jobs": [with_text(job, ["id"], "j" + S)]},
            "jobs[0].id",
        ),
        (
            "job's framework",
            "post",
            "/api/workloads/",
            {"name": "w", "jobs": [with_text(job, ["framework"], "f" + S)]},
            "jobs[0].framework",
        ),
        (
            "job resource",
            "post",
            "/api/workloads/",
            {"name": "w", "jobs": [{**job, "executor": {"cpu": 1, "mem" + S: 1}}]},
            "jobs[0].executor",
        ),
        (
            "job id in the grid's save",
            "patch",
            f"/api/workloads/{workload.pk}/",
            {"jobs": [with_text(job, ["id"], "j" + S)]},
            "jobs[0].id",
        ),
        (
            "generated framework",
            "post",
            f"/api/workloads/{workload.pk}/generate/",
            {"jobs": 5, "frameworks": ["f" + S]},
            "frameworks[0]",
        ),
        (
            "job id in CSV",
            "post",
            f"/api/workloads/{workload.pk}/import-csv/",
            {"csv": f"{CSV_HEADER}\nj{S},,0,1,1,1,10,\n"},
            "csv",
        ),
        (
            "scenario VM type",
            "post",
            "/api/scenarios/import/",
            {"scenario": with_text(scenario_doc, ["vm_types", 0, "name"], "m" + S)},
            "scenario.vm_types[0].name",
        ),
        (
            "bare scenario job id",
            "post",
            "/api/scenarios/import/",
            with_text(scenario_doc, ["jobs", 2, "id"], "j" + S),
            "jobs[2].id",
        ),
        (
            "scenario name",
            "post",
            "/api/scenarios/import/",
            {"scenario": scenario_doc, "name": "s" + S},
            "name",
        ),
        (
            "run scenario framework",
            "post",
            "/api/runs/",
            {"scenario": with_text(scenario_doc, ["frameworks", 1, "name"], "f" + S)},
            "scenario.frameworks[1].name",
        ),
        (
            "run name",
            "post",
            "/api/runs/",
            {"cluster": cluster.pk, "workload": workload.pk, "name": "r" + S},
            "name",
        ),
        (
            "run scheduler",
            "post",
            "/api/runs/",
            {"cluster": cluster.pk, "workload": workload.pk, "schedulers": ["edf-bfd" + S]},
            "schedulers[0]",
        ),
        ("team name", "post", "/api/teams/", {"name": "t" + S}, "name"),
        ("team renamed", "patch", f"/api/teams/{team.pk}/", {"name": "t" + S}, "name"),
        ("member", "post", f"/api/teams/{team.pk}/members/", {"username": "u" + S}, "username"),
        ("sign-in", "post", "/api/auth/token/", {"username": "u" + S, "password": "p"}, "username"),
    ]


def test_the_api_refuses_every_name_with_a_surrogate_and_writes_nothing(
    owner: Any, api_cases: list[tuple[str, str, str, Any, str]]
) -> None:
    client = APIClient(raise_request_exception=False)  # a 500 must be seen as a status
    client.force_authenticate(owner)
    before = tables()
    for what, method, url, body, path in api_cases:
        response = getattr(client, method)(url, dumped(body), content_type="application/json")
        assert response.status_code == 400, (what, response.status_code, response.content[:300])
        errors = response.json()["errors"]
        assert any(e["path"] == path and SURROGATE in e["message"] for e in errors), (what, errors)
    assert tables() == before


def test_forms_and_query_strings_sent_to_the_api_in_another_charset_are_refused(
    owner: Any, workload: Workload
) -> None:
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(owner)
    before = tables()
    # A URL-encoded form (FormParser), and the same text in a multipart form (MultiPartParser).
    response = client.generic("POST", "/api/teams/", b"name=t%2B2AA-", content_type=UTF7_FORM)
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "name"
    boundary = "b0undary"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="csv"\r\n\r\n{CSV_HEADER}\r\n'
        f"j+2AA-,,0,1,1,1,10,\r\n--{boundary}--\r\n"
    ).encode("ascii")
    response = client.generic(
        "POST",
        f"/api/workloads/{workload.pk}/import-csv/",
        body,
        content_type=f"multipart/form-data; boundary={boundary}; charset=utf-7",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "csv"
    assert SURROGATE in response.json()["errors"][0]["message"]
    # Query strings: filters of the lists.
    for url, param in (("/api/runs/", "status"), ("/api/clusters/", "team"), ("/api/workloads/", "team")):
        # (DRF's test client takes the request's content type as an argument, not in the environ)
        response = client.get(url, QUERY_STRING=f"{param}=%2B2AA-", content_type="text/plain; charset=utf-7")
        assert response.status_code == 400, (url, response.content[:300])
        assert response.json()["errors"] == [
            {"path": param, "message": response.json()["errors"][0]["message"]}
        ]
    assert tables() == before


# --------------------------------------------------------------------------- the pages


@pytest.fixture
def browser(client_for_owner: Client) -> Client:
    return client_for_owner


@pytest.fixture
def client_for_owner(owner: Any, team: Team) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    return client


def test_a_pasted_or_uploaded_document_with_a_surrogate_is_a_form_error(
    browser: Client, scenario_doc: dict[str, Any]
) -> None:
    before = tables()
    text = dumped(with_text(scenario_doc, ["vm_types", 0, "name"], "m" + S))
    pasted = browser.post("/workloads/import/", {"document": text, "name": ""})
    assert pasted.status_code == 400
    assert pasted.context["form"].errors["document"][0].startswith(f"vm_types[0].name: {SURROGATE}")
    upload = io.BytesIO(text.encode())
    upload.name = "scenario.json"
    uploaded = browser.post("/workloads/import/", {"file": upload, "name": ""})
    assert uploaded.status_code == 400
    assert uploaded.context["form"].errors["file"][0].startswith(f"vm_types[0].name: {SURROGATE}")
    text = dumped(with_text(scenario_doc, ["jobs", 4, "id"], "j" + S))
    run = browser.post(
        "/runs/new/", {"source": "document", "document": text, "schedulers": ["edf-bfd"], "seed": "0"}
    )
    assert run.status_code == 400
    assert run.context["form"].errors["document"][0].startswith(f"jobs[4].id: {SURROGATE}")
    assert tables() == before


def multipart(fields: dict[str, str], boundary: str = "b0undary") -> tuple[bytes, str]:
    """A multipart form body whose ASCII values UTF-7 decodes (``+2AA-`` is the surrogate)."""
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
        for k, v in fields.items()
    ]
    body = "".join(parts) + f"--{boundary}--\r\n"
    return body.encode("ascii"), f"multipart/form-data; boundary={boundary}; charset=utf-7"


@pytest.fixture
def page_forms(
    cluster: Cluster, workload: Workload, team: Team
) -> list[tuple[str, str, dict[str, str], str]]:
    """(what, url, the form's fields with +2AA- for the surrogate, the field it is in)."""
    bad = "+2AA-"
    stored = {
        "source": "stored",
        "cluster": str(cluster.pk),
        "workload": str(workload.pk),
        "schedulers": "edf-bfd",
        "seed": "0",
    }
    return [
        (
            "VM type name",
            "/catalogue/add/",
            {
                "new-name": f"m{bad}",
                "new-price_per_hour": "1",
                "new-cap_cpu": "1",
                "new-cap_mem": "1",
                "resources": "cpu,mem",
            },
            "new-name",
        ),
        (
            "VM type resource",
            "/catalogue/add/",
            {"new-name": "m", "new-price_per_hour": "1", "new-cap_cpu": "1", "resources": f"cpu,g{bad}"},
            "resources",
        ),
        (
            "cluster name",
            "/clusters/new/",
            {"name": f"c{bad}", "entry_vm_type": "m1.large", "entry_count": "1"},
            "name",
        ),
        ("cluster resource", "/clusters/new/", {"name": "c", "resources": f"cpu,m{bad}"}, "resources"),
        ("cluster renamed", f"/clusters/{cluster.pk}/", {"name": f"c{bad}"}, "name"),
        ("workload name", "/workloads/new/", {"name": f"w{bad}"}, "name"),
        (
            "generated framework",
            f"/workloads/{workload.pk}/generate/",
            {"jobs": "5", "frameworks": f"f{bad}"},
            "frameworks",
        ),
        (
            "job id in pasted CSV",
            f"/workloads/{workload.pk}/csv/",
            {"csv": f"{CSV_HEADER}\nj{bad},,0,1,1,1,10,", "format": "jobs", "mode": "append"},
            "csv",
        ),
        ("scenario name", "/workloads/import/", {"document": "{}", "name": f"s{bad}"}, "name"),
        ("run name", "/runs/new/", {**stored, "name": f"r{bad}"}, "name"),
        ("run's custom scheduler", "/runs/new/", {**stored, "custom": f"edf-bfd{bad}"}, "custom"),
        ("team name", "/teams/new/", {"name": f"t{bad}"}, "name"),
        ("member", f"/teams/{team.pk}/members/", {"username": f"u{bad}", "role": "member"}, "username"),
        ("sign-in", "/accounts/login/", {"username": f"u{bad}", "password": "p"}, "username"),
    ]


def test_page_forms_in_another_charset_are_refused_naming_the_field(
    browser: Client, page_forms: list[tuple[str, str, dict[str, str], str]]
) -> None:
    before = tables()
    for what, url, fields, field in page_forms:
        body, content_type = multipart(fields)
        response = browser.generic("POST", url, body, content_type=content_type)
        assert response.status_code == 400, (what, response.status_code)
        assert response.context is not None and "errors" in response.context, (what, response.content[:500])
        errors = response.context["errors"]
        assert [e.path for e in errors] == [field], (what, errors)
        assert SURROGATE in errors[0].message
        html = response.content.decode()
        assert SURROGATE in html and f"<strong>{field}</strong>" in html, what
    assert tables() == before


def test_django_refuses_url_encoded_forms_in_another_charset(browser: Client) -> None:
    before = tables()
    response = browser.generic("POST", "/workloads/new/", b"name=w%2B2AA-", content_type=UTF7_FORM)
    assert response.status_code == 400
    assert "could not read what was sent" in response.content.decode()  # templates/400.html
    assert tables() == before


def test_page_query_strings_in_another_charset_are_refused(
    browser: Client, workload: Workload, cluster: Cluster
) -> None:
    for url, param in (
        ("/runs/", "status"),
        (f"/workloads/{workload.pk}/export.json", "cluster"),
        ("/catalogue/", "add_resource"),
        ("/runs/new/", "cluster"),
    ):
        response = browser.get(url, QUERY_STRING=f"{param}=%2B2AA-", CONTENT_TYPE="text/plain; charset=utf-7")
        assert response.status_code == 400, url
        assert [e.path for e in response.context["errors"]] == [param], url
    # A parameter's name: the message quotes it, escaped.
    response = browser.get("/runs/", QUERY_STRING="x%2B2AA-=1", CONTENT_TYPE="text/plain; charset=utf-7")
    assert response.status_code == 400
    assert response.context["errors"][0].message.startswith(
        'the field name "x\\ud800" contains a lone surrogate'
    )


def test_text_in_utf8_passes_through_the_check_untouched(browser: Client) -> None:
    # Invalid UTF-8 bytes are replaced by Django, not refused: the check only refuses what
    # decoding could not have produced from UTF-8.
    response = browser.generic(
        "POST",
        "/workloads/new/",
        "name=Été %F0%9F%9A%80 %ED%A0%80".encode(),
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 302
    assert Workload.objects.filter(name="Été 🚀 \ufffd\ufffd\ufffd").exists()
