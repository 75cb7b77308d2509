"""A UDRF study in Chromium: the paper's Fig. 1 preset in one click, started, its graph and bars drawn.

Fixtures of ``test_browser.py`` (skipped without ``/usr/bin/chromium`` unless
``PLANNER_REQUIRE_BROWSER=1``; console errors fail the test). The part runs in a thread of the
test process, calling the real library (offline UDRF and DRF on the four users of Fig. 1).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

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


def test_the_fig1_preset_starts_and_shows_the_graph_and_bars(
    live_server: Any, page: Any, operator: Any, runs_in_threads: Any, screenshot: Any,  # noqa: F811
) -> None:
    base = live_server.url
    sign_in(page, base, screenshot)
    page.click("nav a:has-text('New UDRF study')")
    page.wait_for_url(re.compile(r"/runs/new/udrf/"))
    page.click("a[data-preset='004-fig1']")
    page.wait_for_load_state()
    assert page.locator("#preset-note").is_visible()
    assert page.locator("#udrf-rows").is_visible()
    assert page.locator("input[name='m0-name']").input_value() == "hadoop"
    assert (
        page.locator("textarea[name='j2-tasks']").input_value()
        == "standard: cpu=1, mem=1\npublic-ip: cpu=1, mem=1"
    )
    assert page.locator("input[name='compare_drf']").is_checked()
    # the third source: a stored cluster and workload, its panel shown only when chosen
    stored = page.locator(".source-panel[data-source='stored']")
    assert not stored.is_visible()
    page.check("input[name='source'][value='stored']")
    assert stored.is_visible() and not page.locator("#udrf-rows").is_visible()
    assert "Each VM type of the cluster is a machine class of its own" in stored.inner_text()
    page.check("input[name='source'][value='forms']")
    assert page.locator("#udrf-rows").is_visible()
    screenshot("udrf-new")
    no_console_errors(page)

    page.click("button:has-text('Start UDRF study')")
    page.wait_for_url(re.compile(r"/runs/\d+/$"))
    page.wait_for_selector("#charts[data-drawn='true']", timeout=90_000)
    assert (
        page.locator("#summary-table tr[data-key='offline_jobs'] td[data-variant='UDRF']").inner_text()
        == "86"
    )
    graph = page.locator("#udrf-graph")
    assert graph.locator(".js-plotly-plot").count() == 1
    assert graph.locator(".scatterlayer .trace").count() == 3  # the edges and two RDUCs
    assert "RDUC 1 (3 users)" in graph.inner_text()
    bars = page.locator("#udrf-allocation")
    assert bars.locator(".js-plotly-plot .barlayer .trace").count() == 4  # UDRF and DRF, two panels
    assert "UDRF" in bars.inner_text() and "DRF" in bars.inner_text()
    assert page.locator("#udrf-waste .js-plotly-plot").count() == 1
    assert "job1 28, job2 8" in page.locator("#udrf-users-table").inner_text()
    properties = page.locator("#udrf-properties-table").inner_text()
    assert "fails: u1 could run job1 28 times instead of 8" in properties
    assert page.locator("#report-links a[data-format='pdf']").is_visible()
    screenshot("udrf-results")
    no_console_errors(page)


def test_the_online_preset_draws_the_timelines_and_the_cdf(
    live_server: Any, page: Any, operator: Any, runs_in_threads: Any, screenshot: Any,  # noqa: F811
) -> None:
    base = live_server.url
    sign_in(page, base, screenshot)
    page.goto(f"{base}/runs/new/udrf/?preset=004-fig1-online")
    assert page.locator("input[name='online']").is_checked()
    page.click("button:has-text('Start UDRF study')")
    page.wait_for_url(re.compile(r"/runs/\d+/$"))
    page.wait_for_selector("#charts[data-drawn='true']", timeout=90_000)
    for key in ("graph", "shares", "shares:global", "wasted", "waste:online", "cdf", "reduction:classes",
                "reduction:runs"):
        assert page.locator(f"[data-figure='{key}'] .js-plotly-plot").count() == 1, key
    assert "UDRF (5 jobs)" in page.locator("#udrf-cdf").inner_text()
    assert "Global dominant share per user over time" in page.locator("#udrf-shares-global").inner_text()
    assert page.locator("#udrf-online-table tbody tr").count() == 2
    # Per user over the run: u1's job1 waits for hadoop under DRF (44.31 cpu idle on average).
    users = page.locator("#udrf-online-users-table")
    assert users.locator("tbody tr").count() == 4 and "cpu 44.31 cores, mem 61.54 GB" in users.inner_text()
    # 100 runs a job: UDRF finishes u1's job1 sooner, so the mean completion differs
    mean = page.locator("#summary-table tr[data-key='mean_completion_s']")
    udrf, drf = (mean.locator(f"td[data-variant='{v}']").inner_text() for v in ("UDRF", "DRF"))
    assert udrf != drf
    screenshot("udrf-online-results")
    no_console_errors(page)


def test_rows_added_in_the_page_are_read(
    live_server: Any, page: Any, operator: Any, runs_in_threads: Any, screenshot: Any,  # noqa: F811
) -> None:
    base = live_server.url
    sign_in(page, base, screenshot)
    page.goto(f"{base}/runs/new/udrf/?preset=004-fig1")
    jobs = page.locator("#job-rows tbody tr[data-row]")
    classes = page.locator("#class-rows tbody tr[data-row]")
    n_jobs, n_classes = jobs.count(), classes.count()
    page.click("#add-class-row")
    page.click("#add-job-row")
    assert (jobs.count(), classes.count()) == (n_jobs + 1, n_classes + 1)
    page.fill(f"input[name='m{n_classes}-name']", "gpu")
    page.fill(f"input[name='m{n_classes}-count']", "2")
    page.fill(f"input[name='m{n_classes}-capacity']", "cpu=4, mem=8")
    page.fill(f"input[name='j{n_jobs}-user']", "u5")
    page.fill(f"input[name='j{n_jobs}-id']", "train")
    page.fill(f"textarea[name='j{n_jobs}-tasks']", "gpu: cpu=1, mem=1")
    page.click("button:has-text('Start UDRF study')")
    page.wait_for_url(re.compile(r"/runs/\d+/$"))
    page.wait_for_selector("#charts[data-drawn='true']", timeout=90_000)
    users = page.locator("#udrf-users-table").inner_text()
    assert "u5" in users and "train 8" in users  # alone on 8 cpu of gpu: 8 runs at once
    assert "RDUC 3 (1 user)" in page.locator("#udrf-graph").inner_text()
    no_console_errors(page)
