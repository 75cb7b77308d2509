"""The Content-Security-Policy in Chromium: every page of a signed-in operator, the run page
with its charts and the API docs, with no policy violation and no console error.

Uses the fixtures of ``test_browser.py`` (skipped without ``/usr/bin/chromium`` unless
``PLANNER_REQUIRE_BROWSER=1``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .test_browser import browser, chromium_path, no_console_errors, page  # noqa: F401  (fixtures)

PASSWORD = "csp-test-password"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(
    e.violatedDirective + " " + e.blockedURI + " " + e.sourceFile + ":" + e.lineNumber);
});
"""


@pytest.fixture
def finished_run(transactional_db: Any) -> Any:
    from django.contrib.auth import get_user_model

    from planner.runs.execution import part_execute_now
    from planner.runs.models import Run, RunPart
    from planner.runs.services import run_start
    from planner.teams.services import team_create
    from scheduling.generators import synthetic_jobs

    user = get_user_model().objects.create_user(username="operator", password=PASSWORD)
    team = team_create(owner=user, name="Data platform")
    scenario = {
        "version": 1,
        "name": "csp",
        "resources": ["cpu", "mem"],
        "vm_types": [
            {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 3}
        ],
        "frameworks": [{"name": "analytics", "weight": 1}],
        "jobs": synthetic_jobs(
            jobs=20,
            seed=3,
            arrival_rate_per_s=0.05,
            frameworks=["analytics"],
            executors=(1, 2),
            executor={"cpu": (1, 2), "mem": (1, 4)},
        ),
    }
    run = run_start(user=user, team=team, scenario=scenario, schedulers=["fifo-spread", "edf-bfd"])
    for part_id in RunPart.objects.filter(run=run).order_by("position").values_list("id", flat=True):
        part_execute_now(part_id)
    run = Run.objects.get(pk=run.pk)
    assert run.status == "succeeded"
    return run


def test_no_page_violates_the_policy(live_server: Any, page: Any, finished_run: Any) -> None:  # noqa: F811
    base = live_server.url
    page.add_init_script(WATCH)
    page.goto(base + "/accounts/login/")
    policy = page.request.get(base + "/accounts/login/").headers["content-security-policy"]
    assert "script-src 'self'" in policy
    page.fill("#id_username", "operator")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(base + "/")
    # Every page the permission matrix lists that a GET shows, with this run and its team.
    from tests.planner.security.test_permission_matrix import PAGES

    ctx = {"run": finished_run.pk, "team": finished_run.team_id}
    paths = sorted(
        {
            op.url.format(**ctx)
            for (_name, method), op in PAGES.items()
            if method == "get"
            and op.kind != "public"
            and not set(re.findall(r"{(\w+)}", op.url)) - set(ctx)
            and not re.search(r"report\.|\.json", op.url)  # downloads, not pages
            and not op.url.startswith("/accounts/")  # Django's own password pages (the admin's look)
        }
        | {"/api/docs/"}
    )
    assert len(paths) > 15
    seen = {}
    for path in paths:
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        seen[path] = page.evaluate("() => window.__cspViolations")
    page.goto(base + f"/runs/{finished_run.pk}/")
    page.wait_for_selector(".js-plotly-plot .main-svg")  # the charts were drawn under the policy
    page.wait_for_load_state("networkidle")
    seen["charts"] = page.evaluate("() => window.__cspViolations")
    page.goto(base + "/api/docs/")
    page.wait_for_selector(".swagger-ui .information-container")  # Swagger UI ran under the policy
    seen["docs"] = page.evaluate("() => window.__cspViolations")
    assert {path: v for path, v in seen.items() if v} == {}
    no_console_errors(page)
