"""Network-bound jobs (notes §8) in Chromium: the workload editor's Network σ columns, and the
replay's stretch of a network-bound job.

Playwright drives Debian's Chromium against the live server with the fixtures of
``test_browser.py`` (skipped without ``/usr/bin/chromium`` unless ``PLANNER_REQUIRE_BROWSER=1``;
console errors and uncaught exceptions fail the test).
"""

from __future__ import annotations

from typing import Any

import pytest

from .test_browser import browser, chromium_path, no_console_errors, page  # noqa: F401  (fixtures)

PASSWORD = "network-test-password"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def team(transactional_db: Any) -> Any:
    from django.contrib.auth import get_user_model

    from planner.teams.services import team_create

    user = get_user_model().objects.create_user(username="operator", password=PASSWORD)
    return team_create(owner=user, name="Data platform")


def sign_in(tab: Any, base: str) -> None:
    tab.goto(base + "/accounts/login/")
    tab.fill("#id_username", "operator")
    tab.fill("#id_password", PASSWORD)
    tab.click("button[type=submit]")
    tab.wait_for_url(base + "/")


def test_the_editor_sets_a_job_s_and_a_framework_s_network_sensitivity(
    live_server: Any, page: Any, team: Any  # noqa: F811
) -> None:
    from planner.scenarios.models import Workload
    from planner.scenarios.services import workload_create

    jobs = [{"id": f"j{k}", "framework": "pagerank" if k < 2 else "sort", "arrival_s": 10 * k, "executors": 2,
             "executor": {"cpu": 1, "mem": 2}, "duration_s": 60} for k in range(3)]
    workload = workload_create(team=team, user=team.memberships.get().user, name="PageRank and Sort",
                               frameworks=[{"name": "pagerank"}, {"name": "sort"}], jobs=jobs)
    base = live_server.url
    sign_in(page, base)
    page.goto(f"{base}/workloads/{workload.pk}/")
    page.wait_for_selector("#jobs-table tbody input[data-key='network_sensitivity']")
    assert "Network σ" in page.locator("#jobs-table thead").text_content()
    assert "Network σ" in page.locator("#fw-table thead").text_content()
    assert "network-bound" not in page.locator("#job-count").inner_text()

    # A bad value is put on its cell with the library's message; then fixed and saved.
    page.locator("#jobs-table tbody input[data-row='2'][data-key='network_sensitivity']").fill("-1")
    page.click("#save-workload")
    page.wait_for_selector("#jobs-table td.cell-error")
    assert "job 3 (id j2): network_sensitivity: must be >= 0" in page.locator("#save-errors").inner_text()
    page.locator("#jobs-table tbody input[data-row='2'][data-key='network_sensitivity']").fill("0.5")
    page.locator("#fw-table tbody input[data-fw='0'][data-key='network_sensitivity']").fill("0.39")
    page.locator("#jobs-table tbody input[data-row='1'][data-key='network_sensitivity']").fill("0")
    page.click("#save-workload")
    page.wait_for_function("() => document.getElementById('save-status').textContent.startsWith('Saved')")
    # j0 takes pagerank's 0.39, j1 sets 0 (not network-bound), j2 its own 0.5.
    assert "2 network-bound" in page.locator("#job-count").inner_text()
    stored = Workload.objects.get(pk=workload.pk)
    assert stored.frameworks[0]["network_sensitivity"] == 0.39
    assert [j.get("network_sensitivity") for j in stored.jobs] == [None, 0, 0.5]
    no_console_errors(page, expected_400s=1)  # the save with the bad cell


def test_the_replay_shows_a_network_bound_job_s_stretch(
    live_server: Any, page: Any, team: Any  # noqa: F811
) -> None:
    from planner.runs.execution import part_execute_now
    from planner.runs.models import Run, RunPart
    from planner.runs.services import run_start

    scenario = {
        "version": 3, "name": "one network-bound job", "resources": ["cpu"],
        "vm_types": [{"name": "vm", "capacity": {"cpu": 2}, "price_per_hour": 1, "count": 3}],
        "jobs": [{"id": "pr", "arrival_s": 0, "executors": 3, "executor": {"cpu": 1}, "duration_s": 600,
                  "network_sensitivity": 0.5}],
    }
    user = team.memberships.get().user
    run = run_start(user=user, team=team, scenario=scenario, schedulers=["fifo-spread"])
    for part_id in RunPart.objects.filter(run=run).values_list("id", flat=True):
        part_execute_now(part_id)
    assert Run.objects.get(pk=run.pk).status == "succeeded"
    base = live_server.url
    sign_in(page, base)
    page.goto(f"{base}/runs/{run.pk}/")
    # Round-robin puts the 3 executors on 3 VMs: 1 + 0.5 x 2/2 = 1.5, so the job ends at 900 s.
    page.eval_on_selector(
        "#replay-slider",
        "(el) => { el.value = '700'; el.dispatchEvent(new Event('input', {bubbles: true})); }",
    )
    page.wait_for_function("() => Number(document.getElementById('replay').dataset.t) === 700"
                           " && !document.getElementById('replay').hasAttribute('aria-busy')")
    chips = page.locator("#replay-vms .replay-exec")
    assert chips.count() == 3
    assert all(chips.nth(k).locator(".replay-stretch").inner_text().strip() == "⇢1.5" for k in range(3))
    assert "network-bound over 3 VMs: runs 1.5 × its duration" in (chips.first.get_attribute("title") or "")
    no_console_errors(page)
