"""What a person reads, in Chromium (issue 22): every glossary term a page uses links to its
entry, and no chart title or table overflows its container, at 1,400 and 1,024 px wide.

One run of every study (a preset of each; the comparison on a small scenario with an exact
and a heuristic placement) is executed in threads of the test process (``runs_in_threads``),
then each run page is read at both widths. Fixtures of ``test_browser.py`` (skipped without
``/usr/bin/chromium`` unless ``PLANNER_REQUIRE_BROWSER=1``; console errors fail the test).
"""

from __future__ import annotations

import time
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

WIDTHS = (1400, 1024)

#: The presets read (kind, preset key, parameters changed to keep the test quick).
PRESETS = [
    ("allocation", "000-table-1", {"trials": 10}),
    ("sharing", "001-v-b-greedy", {}),
    ("mrsu", "002-fig-2", {}),
    ("udrf", "004-fig1", {}),
]

SMALL = {
    "name": "small",
    "vm_types": [
        {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 3},
        {"name": "large", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.5, "count": 2},
    ],
    "frameworks": [{"name": "etl", "weight": 1}, {"name": "analytics", "weight": 1}],
    "jobs": [
        {"id": f"j{i}", "framework": ("etl", "analytics")[i % 2], "arrival_s": 120 * i,
         "executors": 1 + i % 3, "executor": {"cpu": 2, "mem": 4 + 2 * (i % 2)}, "duration_s": 600 + 60 * i,
         "deadline_s": 900 if i % 3 == 0 else 4000}
        for i in range(8)
    ],
}

#: Links of glossary terms left undone, and titles and tables wider than their containers.
READING = """
() => {
  const data = JSON.parse(document.getElementById("glossary-terms").textContent);
  const written = data.terms.flatMap((t) => t.written).sort((a, b) => b.length - a.length);
  const escaped = written.map((w) => w.replace(/[.*+?^${}()|[\\]\\\\]/g, "\\\\$&"));
  const pattern = new RegExp("(?<![\\\\w-])(" + escaped.join("|") + ")(?![\\\\w-])");
  const skip = "a, button, select, option, textarea, input, label, script, style, svg, summary, " +
    ".js-plotly-plot, [data-no-glossary]";
  const content = document.querySelector("main.content");
  const unlinked = [];
  const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.parentElement || node.parentElement.closest(skip)) continue;
    const match = node.nodeValue.match(pattern);
    if (match) unlinked.push(match[0] + " in: " + node.nodeValue.trim().slice(0, 80));
  }
  const overflowing = [];
  for (const plot of document.querySelectorAll(".js-plotly-plot")) {
    const box = plot.getBoundingClientRect();
    for (const title of plot.querySelectorAll(".gtitle, .g-gtitle text, .annotation-text")) {
      if (!title.textContent.trim() || title.closest(".legend")) continue;
      const r = title.getBoundingClientRect();
      if (r.width && (r.left < box.left - 1 || r.right > box.right + 1)) {
        overflowing.push(`chart title (${Math.round(r.left)}-${Math.round(r.right)} in ` +
          `${Math.round(box.left)}-${Math.round(box.right)}): ${title.textContent.slice(0, 60)}`);
      }
    }
  }
  for (const table of content.querySelectorAll("table")) {
    if (!table.offsetParent) continue;
    const holder = table.parentElement;
    const scrolls = getComputedStyle(holder).overflowX;
    const box = holder.getBoundingClientRect();
    const r = table.getBoundingClientRect();
    if ((scrolls === "visible" && r.right > box.right + 1) ||
        (scrolls === "hidden" && table.scrollWidth > holder.clientWidth + 1)) {
      overflowing.push("table: " + (table.id || table.className || table.rows[0].textContent.slice(0, 40)));
    }
  }
  return {unlinked: unlinked, overflowing: overflowing,
          linked: content.querySelectorAll("a.term").length};
}
"""


def _wait_for_runs(runs: list[Any], threads: list[Any]) -> None:
    from planner.runs.models import Run

    for thread in threads:
        thread.join(timeout=300)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        states = set(Run.objects.filter(pk__in=[r.pk for r in runs]).values_list("status", flat=True))
        if states == {"succeeded"}:
            return
        time.sleep(0.5)
    raise AssertionError(f"runs did not finish: {states}")


def test_terms_are_linked_and_nothing_overflows(
    live_server: Any, page: Any, operator: Any, runs_in_threads: Any, screenshot: Any,  # noqa: F811
) -> None:
    from planner.runs.kinds import get_kind
    from planner.runs.services import run_start
    from planner.teams.models import Team

    team = Team.objects.get(name="Data platform")
    runs = []
    starts = [("compare", SMALL, {"schedulers": ["fifo-spread", "morpheus", "edf-bfd", "edf-ilp"],
                                  "baseline": "fifo-spread"}, "small comparison")]
    for kind, key, changes in PRESETS:
        preset = next(p for p in get_kind(kind).presets() if p.key == key)
        starts.append((kind, preset.scenario, {**preset.params, **changes}, f"{kind} {key}"))
    # One run at a time: the in-memory test database refuses concurrent writers.
    for kind, scenario, params, name in starts:
        runs.append(run_start(user=operator, team=team, scenario=scenario, kind=kind, name=name,
                              params=params))
        _wait_for_runs(runs, runs_in_threads)

    base = live_server.url
    sign_in(page, base, screenshot)
    problems: list[str] = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for run in runs:
            page.goto(f"{base}/runs/{run.pk}/")
            page.wait_for_selector("#charts[data-drawn='true']", timeout=90_000)
            page.wait_for_timeout(300)  # the linker runs on the next frame after a table is drawn
            found = page.evaluate(READING)
            problems += [f"{width}px {run.name}: unlinked {u}" for u in found["unlinked"]]
            problems += [f"{width}px {run.name}: overflows: {o}" for o in found["overflowing"]]
            assert found["linked"] > 0, f"{run.name}: no glossary term linked"
            # Every view of the charts (full detail, small multiples: the panels).
            views = page.locator("#charts .seg")
            for k in range(views.count()):
                views.nth(k).click()
                page.wait_for_timeout(1500)  # drawn, then fitted
                view = views.nth(k).inner_text()
                found = page.evaluate(READING)
                problems += [f"{width}px {run.name} ({view}): overflows: {o}" for o in found["overflowing"]]
        no_console_errors(page)
    assert problems == [], "\n".join(problems)

    # A term's link leads to its entry on the glossary page.
    page.goto(f"{base}/runs/{runs[1].pk}/")
    page.wait_for_selector("#charts[data-drawn='true']", timeout=90_000)
    link = page.locator("a.term", has_text="DRF").first
    href = link.get_attribute("href")
    assert href == "/glossary/#drf"
    link.click()
    page.wait_for_url(f"{base}/glossary/#drf")
    assert page.locator("dt#drf").is_visible()
    no_console_errors(page)
