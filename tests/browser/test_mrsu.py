"""MRSU sizing in Chromium: the paper's sweep preset in one click, started, its charts drawn.

Fixtures of ``test_browser.py`` (skipped without ``/usr/bin/chromium`` unless
``PLANNER_REQUIRE_BROWSER=1``; console errors fail the test). The parts run in threads of
the test process, calling the real library: the example input at every composition and mode,
and the sweep one part per load point (the preset's sizes made small here to keep it quick).
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


def test_the_sweep_preset_starts_and_shows_the_mrsu_charts(
    live_server: Any, page: Any, operator: Any, runs_in_threads: Any, screenshot: Any,  # noqa: F811
) -> None:
    base = live_server.url
    sign_in(page, base, screenshot)
    page.click("nav a:has-text('New MRSU sizing')")
    page.wait_for_url(re.compile(r"/runs/new/mrsu/"))
    page.click("a[data-preset='002-figs-3-5']")
    page.wait_for_load_state()
    assert page.locator("#preset-note").is_visible()
    assert '"capacity"' in page.locator("#id_input").input_value()
    assert page.locator("input[name='sweep']").is_checked()
    assert page.locator("input[name='sweep_seeds']").input_value() == "100"
    page.fill("input[name='sweep_seeds']", "3")
    page.fill("input[name='sweep_loads']", "20 60 100 125")
    screenshot("mrsu-new")
    no_console_errors(page)

    page.click("button:has-text('Start MRSU sizing')")
    page.wait_for_url(re.compile(r"/runs/\d+/$"))
    page.wait_for_selector("#charts[data-drawn='true']", timeout=90_000)
    assert page.locator("#mrsu-units-table tr[data-variant='gcd-ft']").is_visible()
    assert page.locator("#mrsu-allocation .chart-cell").count() == 4
    assert page.locator("#mrsu-allocation .js-plotly-plot .heatmaplayer").count() == 4
    assert page.locator("#mrsu-snapshot .js-plotly-plot").count() == 4
    for key in ("fig3-under", "fig4-under", "fig5"):
        assert page.locator(f"[data-figure='{key}'] .js-plotly-plot").count() == 1
    fig5 = page.locator("[data-figure='fig5']").inner_text()
    assert "MRSU-FT" in fig5 and "VM-static" in fig5
    assert page.locator("#report-links a[data-format='pdf']").is_visible()
    screenshot("mrsu-results")
    no_console_errors(page)
