"""Every page renders with realistic data, escapes what users typed, and has an empty state."""

from __future__ import annotations

import gzip
import re

import pytest
from django.urls import reverse

from planner.catalogue.services import vm_type_create
from planner.scenarios.services import workload_create

pytestmark = pytest.mark.django_db

EVIL = '<script>alert("x")</script>'


def test_every_page_renders(owner_client, succeeded_run, queued_run, failed_run, cluster, workload):
    urls = [
        reverse("web:dashboard"),
        reverse("web:catalogue"),
        reverse("web:catalogue") + "?add_resource=gpu",
        reverse("web:clusters"),
        reverse("web:cluster-new"),
        reverse("web:cluster-edit", args=[cluster.pk]),
        reverse("web:workloads"),
        reverse("web:workload-new"),
        reverse("web:workload-edit", args=[workload.pk]),
        reverse("web:scenario-upload"),
        reverse("web:runs"),
        reverse("web:runs") + "?status=failed",
        reverse("web:compare-start"),
        reverse("web:compare-start") + f"?cluster={cluster.pk}&workload={workload.pk}",
        reverse("web:run-detail", args=[succeeded_run.pk]),
        reverse("web:run-detail", args=[queued_run.pk]),
        reverse("web:run-detail", args=[failed_run.pk]),
        reverse("web:compare-side-by-side"),
        reverse("web:compare-side-by-side") + f"?a={succeeded_run.pk}&b={succeeded_run.pk}",
        reverse("web:team-new"),
    ]
    for url in urls:
        response = owner_client.get(url)
        assert response.status_code == 200, url
        assert b"<h1>" in response.content, url


def test_empty_states(client_for, make_user):
    from planner.teams.services import team_create

    user = make_user("newcomer")
    team_create(owner=user, name="Fresh")
    client = client_for(user)
    assert b"No runs yet" in client.get(reverse("web:dashboard")).content
    assert b"No clusters yet" in client.get(reverse("web:clusters")).content
    assert b"No workloads yet" in client.get(reverse("web:workloads")).content
    assert b"No runs yet" in client.get(reverse("web:runs")).content
    assert b"needs two finished runs" in client.get(reverse("web:compare-side-by-side")).content
    new_run = client.get(reverse("web:compare-start")).content
    assert b"You need a" in new_run


def test_dashboard_shows_the_teams_objects(owner_client, succeeded_run, queued_run, cluster, workload):
    page = owner_client.get(reverse("web:dashboard")).content.decode()
    assert reverse("web:run-detail", args=[succeeded_run.pk]) in page
    assert "badge-succeeded" in page and "badge-queued" in page
    assert "Table 3" in page and "Tiny" in page
    # Totals of Table 3: 6 x 4 + 5 x 8 + 3 x 12 cores, $0.24 x 6 + 0.48 x 5 + 0.72 x 3 per hour.
    assert ">100<" in page and ">6.0000<" in page


def test_user_input_is_escaped_everywhere(owner_client, owner, team, cluster):
    vm_type_create(team=team, user=owner, name=EVIL, capacity={"cpu": 2, "mem": 4}, price_per_hour=0.1)
    workload = workload_create(team=team, user=owner, name=EVIL, description=EVIL)
    for url in [
        reverse("web:catalogue"),
        reverse("web:workloads"),
        reverse("web:workload-edit", args=[workload.pk]),
        reverse("web:compare-start"),
        reverse("web:cluster-edit", args=[cluster.pk]),
    ]:
        page = owner_client.get(url).content.decode()
        assert EVIL not in page, url
        assert "&lt;script&gt;" in page or "\\u003Cscript\\u003E" in page, url


def test_run_page_escapes_names_and_errors(owner_client, succeeded_run, failed_run):
    page = owner_client.get(reverse("web:run-detail", args=[succeeded_run.pk])).content.decode()
    assert "Nightly <b>what-if</b>" not in page
    assert "Nightly &lt;b&gt;what-if&lt;/b&gt;" in page
    failed = owner_client.get(reverse("web:run-detail", args=[failed_run.pk])).content.decode()
    assert "fits on no VM &lt;script&gt;" in failed
    assert "The run failed" in failed


def test_catalogue_shows_resource_columns_and_presets(owner_client):
    page = owner_client.get(reverse("web:catalogue") + "?add_resource=gpu").content.decode()
    assert ">gpu<" in page
    assert "paper-003" in page and "paper-000" in page
    assert 'name="vm1-cap_cpu"' in page or "cap_cpu" in page


def test_workload_editor_loads_jobs_from_the_api(owner_client, workload):
    page = owner_client.get(reverse("web:workload-edit", args=[workload.pk])).content.decode()
    assert 'id="workload-config"' in page
    assert reverse("api:workload-detail", args=[workload.pk]) in page
    assert '"job-0"' not in page  # jobs are fetched, not embedded
    assert 'action="' + reverse("web:workload-csv", args=[workload.pk]) in page
    api = owner_client.get(reverse("api:workload-detail", args=[workload.pk]))
    assert api.status_code == 200 and len(api.json()["jobs"]) == workload.job_count


def test_workload_editor_page_does_not_load_the_jobs(owner_client, workload):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        owner_client.get(reverse("web:workload-edit", args=[workload.pk]))
    workload_queries = [q["sql"] for q in ctx.captured_queries if '"scenarios_workload"' in q["sql"]]
    assert workload_queries, "the page reads the workload"
    assert not [sql for sql in workload_queries if '"scenarios_workload"."jobs"' in sql]


def test_plotly_is_served_locally_with_long_caching(client_for):
    from planner.web.views.base import plotly_version

    client = client_for(None)
    url = reverse("web:plotly-js", args=[plotly_version()])
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip, br")
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "immutable" in response["Cache-Control"] and "max-age=31536000" in response["Cache-Control"]
    assert b"plotly" in gzip.decompress(response.content)[:2000].lower()
    plain = client.get(url)
    assert "Content-Encoding" not in plain and plain.content.startswith(b"/**")
    assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    assert client.get(reverse("web:plotly-js", args=["0.0.1"])).status_code == 404


def test_run_page_uses_the_local_plotly(owner_client, succeeded_run):
    from planner.web.views.base import plotly_version

    page = owner_client.get(reverse("web:run-detail", args=[succeeded_run.pk])).content.decode()
    assert reverse("web:plotly-js", args=[plotly_version()]) in page
    # Every script and stylesheet from this site (a page's random tokens may spell "cdn").
    loaded = re.findall(r'<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]*)"', page)
    assert loaded and all(url.startswith("/") and not url.startswith("//") for url in loaded), loaded
    assert "cdn.plot.ly" not in page


def test_api_docs_are_linked(owner_client):
    page = owner_client.get(reverse("web:dashboard")).content.decode()
    assert 'href="/api/docs/"' in page


def test_the_glossary_page_is_the_librarys_text(owner_client):
    from django.utils.html import escape

    from scheduling.glossary import TERMS

    page = owner_client.get(reverse("web:glossary")).content.decode()
    for t in TERMS:
        assert f'id="{t.key}"' in page and escape(t.meaning) in page and escape(t.paper) in page
    # Every page carries the terms for app.js to link, and a link to the glossary.
    dashboard = owner_client.get(reverse("web:dashboard")).content.decode()
    assert 'id="glossary-terms"' in dashboard and f'href="{reverse("web:glossary")}"' in dashboard
