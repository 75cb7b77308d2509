"""The allocation study in Chromium: the Table I preset in one click, started, its heatmaps drawn.

Playwright drives Debian's Chromium against the live server with the fixtures of
``test_browser.py`` (skipped without ``/usr/bin/chromium`` unless ``PLANNER_REQUIRE_BROWSER=1``;
console errors and uncaught exceptions fail the test). The parts run in threads of the
test process (``runs_in_threads``), calling the real library.
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

LABELS = ["DRF (rrr-task)", "TSF (rrr-task)", "PS-DSF (rrr-task)", "rPS-DSF (joint)", "BF-DRF (best-fit-all)",
          "DRF (rrr)"]


def test_the_table_one_preset_starts_and_shows_its_heatmaps(
    live_server: Any, page: Any, operator: Any, runs_in_threads: Any, screenshot: Any,  # noqa: F811
) -> None:
    base = live_server.url
    sign_in(page, base, screenshot)
    page.click("nav a:has-text('New allocation study')")
    page.wait_for_url(re.compile(r"/runs/new/allocation/"))
    page.click("a[data-preset='000-table-1']")
    page.wait_for_load_state()
    assert page.locator("#preset-note").is_visible()
    assert '"c2"' in page.locator("#id_document").input_value()
    assert page.locator("input[name='trials']").input_value() == "200"
    checked = page.locator("input[name='variants']:checked")
    ticked = [checked.nth(i).get_attribute("value") for i in range(checked.count())]
    # The library's registry's Table I: the paper's procedure as read (docs/table-one.md), and the
    # notes' RRR rounds beside it.
    assert {"drf/rrr-task", "tsf/rrr-task", "psdsf/rrr-task", "rpsdsf/joint", "bf-drf/best-fit-all",
            "drf/rrr"} <= set(ticked)
    screenshot("allocation-new")
    no_console_errors(page)

    page.click("button:has-text('Start allocation study')")
    page.wait_for_url(re.compile(r"/runs/\d+/$"))
    # The page polls until the parts are done, then reloads with the results.
    page.wait_for_selector("#charts[data-drawn='true']", timeout=90_000)
    heatmaps = page.locator("#heatmaps .chart-cell")
    assert heatmaps.count() == len(ticked)
    keys = [heatmaps.nth(i).get_attribute("data-key") for i in range(len(ticked))]
    assert {f"heatmap:{x}" for x in LABELS} <= set(keys)
    assert page.locator("#heatmaps .js-plotly-plot .heatmaplayer").count() == len(ticked)
    # rPS-DSF (joint): paper 000's 19 / 2 / 2 / 19, in the table and on the heatmap.
    assert page.locator("td[data-variant='rPS-DSF (joint)']").first.inner_text().startswith("42.0")
    cell_text = page.locator("#heatmaps .chart-cell[data-key='heatmap:rPS-DSF (joint)']").inner_text()
    assert "19" in cell_text
    assert page.locator("#report-links a[data-format='pdf']").is_visible()
    screenshot("allocation-results")
    no_console_errors(page)


def test_a_sharing_preset_starts_and_shows_the_share_timelines(
    live_server: Any, page: Any, operator: Any, runs_in_threads: Any, screenshot: Any,  # noqa: F811
) -> None:
    """Paper 001 §V-B in one click: Marathon (greedy) against Scylla under three settings (and
    Figure 1 with two of the offer cycle's rules turned off), side by side, each with its share
    timeline, the fair line and the shaded unfairness area."""
    base = live_server.url
    sign_in(page, base, screenshot)
    page.click("nav a:has-text('New sharing study')")
    page.wait_for_url(re.compile(r"/runs/new/sharing/"))
    page.click("a[data-preset='001-v-b-greedy']")
    page.wait_for_load_state()
    assert page.locator("#preset-note").is_visible()
    assert "marathon" in page.locator("#id_document").input_value()
    screenshot("sharing-new")
    no_console_errors(page)

    page.click("button:has-text('Start sharing study')")
    page.wait_for_url(re.compile(r"/runs/\d+/$"))
    page.wait_for_selector("#charts[data-drawn='true']", timeout=120_000)
    timelines = page.locator("#share-timelines .js-plotly-plot")
    assert timelines.count() == 5  # one per configuration
    # each panel draws the fair line and fills the unfairness area (a trace with fill)
    assert page.locator("#share-timelines .js-plotly-plot .scatterlayer .js-fill").count() >= 3
    assert page.locator("td[data-variant]").count() > 0
    assert "scylla" in page.locator("#charts").inner_text().lower()
    screenshot("sharing-results")
    no_console_errors(page)
