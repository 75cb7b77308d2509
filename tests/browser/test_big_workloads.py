"""A paged workload in Chromium: the editor reads pages from the server and saves one page.

Playwright drives Debian's Chromium against the live server with the fixtures of
``test_browser.py`` (skipped without ``/usr/bin/chromium`` unless ``PLANNER_REQUIRE_BROWSER=1``;
console errors and uncaught exceptions fail the test). The live server runs in this process,
so lowering ``INLINE_JOBS_MAX`` makes a 130-job workload a paged one.
"""

from __future__ import annotations

from typing import Any

import pytest

from .test_browser import browser, chromium_path, no_console_errors, page  # noqa: F401  (fixtures)

PASSWORD = "paged-test-password"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def team(transactional_db: Any) -> Any:
    from django.contrib.auth import get_user_model

    from planner.teams.services import team_create

    user = get_user_model().objects.create_user(username="operator", password=PASSWORD)
    return team_create(owner=user, name="Data platform")


def page_info_starts(page: Any, text: str) -> None:  # noqa: F811
    page.wait_for_function(
        "(text) => document.getElementById('page-info').textContent.startsWith(text)", arg=text
    )


def test_the_editor_pages_a_big_workload_from_the_server(
    live_server: Any,
    page: Any,  # noqa: F811
    team: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from planner.scenarios.models import Workload
    from planner.scenarios.services import workload_create

    monkeypatch.setattr("planner.web.views.workloads.INLINE_JOBS_MAX", 10)
    monkeypatch.setattr("planner.scenarios.serializers.INLINE_JOBS_MAX", 10)
    jobs = [
        {"id": f"j{k}", "arrival_s": k, "executors": 1, "executor": {"cpu": 1, "mem": 2}, "duration_s": 60}
        for k in range(130)
    ]
    workload = workload_create(team=team, user=team.memberships.get().user, name="Big", jobs=jobs)
    base = live_server.url
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", "operator")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(base + "/")
    page.goto(f"{base}/workloads/{workload.pk}/")
    page.wait_for_function("() => document.getElementById('page-info').textContent.includes('of 130')")
    assert page.locator("#jobs-table tbody tr").count() == 100
    assert page.locator("#job-filter").is_disabled()
    page.select_option("#page-size", "50")
    page_info_starts(page, "1–50 of 130")
    page.click("#page-next")
    page_info_starts(page, "51–100 of 130")
    assert page.locator("#jobs-table tbody tr").first.locator("td.idx").inner_text() == "51"
    page.locator("#jobs-table tbody input[data-row='0'][data-key='duration_s']").fill("-5")
    page.click("#save-workload")
    page.wait_for_selector("#save-errors:not([hidden])")
    assert "job 51 (id j50): duration_s" in page.locator("#save-errors").inner_text()
    assert page.locator("#jobs-table tbody tr").first.get_attribute("class") == "row-error"
    page.locator("#jobs-table tbody input[data-row='0'][data-key='duration_s']").fill("75")
    page.click("#save-workload")
    page.wait_for_function("() => document.getElementById('save-status').textContent.startsWith('Saved')")
    stored = Workload.objects.get(pk=workload.pk).jobs
    assert stored[50]["duration_s"] == 75 and stored[:50] == jobs[:50] and stored[51:] == jobs[51:]
    page.click("#page-next")
    page_info_starts(page, "101–130 of 130")
    assert page.locator("#page-next").is_disabled()
    no_console_errors(page, expected_400s=1)


def test_an_upload_shows_its_progress_then_its_preview_and_saves_with_prices(
    live_server: Any,
    page: Any,  # noqa: F811
    team: Any,
    tmp_path: Any,
) -> None:
    import json

    from planner.scenarios import importing
    from planner.scenarios.models import Cluster, Upload

    doc = {
        "resources": ["cpu", "mem"],
        "vm_types": [{"name": "n8", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0, "count": 3}],
        "jobs": [
            {"id": f"j{k}", "arrival_s": k, "executors": 1, "executor": {"cpu": 1, "mem": 1}, "duration_s": 5}
            for k in range(30)
        ],
    }
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(doc))
    base = live_server.url
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", "operator")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(base + "/")
    page.goto(base + "/uploads/")
    page.select_option("#id_format", "rm-simulator")
    assert page.locator(".upload-options[data-format='rm-simulator']").is_visible()
    assert not page.locator(".upload-options[data-format='jobs']").is_visible()
    page.select_option("#id_format", "scenario-json")
    page.fill("#id_name", "Traced")
    page.set_input_files("#id_upload", str(path))
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector("#upload-progress")  # waiting for a worker
    importing.upload_read_now(Upload.objects.get().pk)  # the worker, while the page polls
    page.wait_for_selector("#preview-jobs")  # the page reloaded by itself
    assert page.locator("#preview-jobs tbody tr").count() == importing.PREVIEW_JOBS
    page.click("#fill-prices")
    assert page.input_value("#id_price_0") == "0.48"
    page.click("#save-form button[type=submit]")
    page.wait_for_url(f"{base}/workloads/*/")
    cluster = Cluster.objects.get(pk=Upload.objects.get().cluster_id)
    assert [(e.vm_type.name, e.vm_type.price_per_hour) for e in cluster.entries.all()] == [("n8", 0.48)]
    no_console_errors(page)
