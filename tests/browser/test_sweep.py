"""A sweep in Chromium: started from its page on a pasted scenario, its points shown with the front
marked, its charts drawn, and a point opened as a comparison.

Playwright drives Debian's Chromium against the live server with the fixtures of
``test_browser.py`` (skipped without ``/usr/bin/chromium`` unless ``PLANNER_REQUIRE_BROWSER=1``;
console errors and uncaught exceptions fail the test). The parts run in threads of the test
process (``runs_in_threads``), calling the real library.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from scheduling.generators import synthetic_jobs

from .test_browser import (  # noqa: F401  (fixtures)
    browser,
    chromium_path,
    no_console_errors,
    operator,
    page,
    runs_in_threads,
    screenshot,
    sign_in,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCENARIO = {
    "version": 1, "name": "Two teams", "resources": ["cpu", "mem"],
    "vm_types": [{"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 3},
                 {"name": "big", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.48, "count": 2}],
    "frameworks": [{"name": "analytics"}, {"name": "etl"}],
    "jobs": synthetic_jobs(jobs=30, seed=1, arrival_rate_per_s=0.02, frameworks=["analytics", "etl"],
                           executors=(1, 4), executor={"cpu": (1, 4), "mem": (1, 8)}),
}


def test_a_sweep_starts_shows_every_point_and_opens_one_as_a_comparison(
    live_server: Any, page: Any, operator: Any, runs_in_threads: Any, screenshot: Any,  # noqa: F811
) -> None:
    base = live_server.url
    sign_in(page, base, screenshot)
    page.click("a:has-text('What if… (sweep counts, prices, load)')")
    page.wait_for_url(re.compile(r"/runs/new/sweep/"))
    page.check("input[name='source'][value='document']")
    page.fill("#id_document", json.dumps(SCENARIO))
    page.fill("#id_vary", "counts.small=1,3\nload.jobs=1,2")
    page.check("input[name='schedulers'][value='morpheus']")
    page.fill("#id_seeds", "2")
    screenshot("sweep-new")
    page.click("button:has-text('Start the sweep')")
    page.wait_for_url(re.compile(r"/runs/\d+/$"))
    page.wait_for_selector("#charts[data-drawn='true']", timeout=120_000)
    rows = page.locator("#sweep-points-table tbody tr")
    assert rows.count() == 16  # 2 counts x 2 loads x 2 schedulers x 2 seeds
    assert page.locator("#sweep-points-table tbody tr.best").count() >= 1
    assert page.locator("#sweep-cost-misses .js-plotly-plot").count() == 1
    assert page.locator("#sweep-cost-unfairness .js-plotly-plot").count() == 1
    assert page.locator("#sweep-bands-cost .chart-cell").count() == 2  # one per axis
    screenshot("sweep-results")
    no_console_errors(page)

    page.locator("#sweep-points-table tbody tr[data-point='3'] button:has-text('Compare')").click()
    page.wait_for_url(re.compile(r"/runs/\d+/$"))
    assert "point 3" in page.locator("h1").inner_text()
    page.wait_for_selector("#summary-table", timeout=120_000)
    no_console_errors(page)
