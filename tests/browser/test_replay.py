"""The replay card in Chromium: the slider, the scheduler picker and a click on a chart.

Playwright drives Debian's Chromium against the live server with the fixtures of
``test_browser.py`` (skipped without ``/usr/bin/chromium`` unless ``PLANNER_REQUIRE_BROWSER=1``;
console errors and uncaught exceptions fail the test). What the page shows is checked against
``scheduling.cost.replay`` on the stored result.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .test_browser import browser, chromium_path, no_console_errors, page  # noqa: F401  (fixtures)

PASSWORD = "replay-test-password"
SCHEDULERS = ["fifo-consolidate", "edf-bfd"]

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def finished_run(transactional_db: Any) -> Any:
    """A finished comparison of two schedulers on a cluster small enough for jobs to queue."""
    from django.contrib.auth import get_user_model

    from planner.runs.execution import part_execute_now
    from planner.runs.models import Run, RunPart
    from planner.runs.services import run_start
    from planner.teams.services import team_create
    from scheduling.generators import synthetic_jobs

    user = get_user_model().objects.create_user(username="operator", password=PASSWORD)
    team = team_create(owner=user, name="Data platform")
    scenario = {
        "version": 1, "name": "queueing", "resources": ["cpu", "mem"],
        "vm_types": [
            {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 2},
            {"name": "big", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.48, "count": 1},
        ],
        "frameworks": [{"name": "analytics", "weight": 1}, {"name": "etl", "weight": 2}],
        "jobs": synthetic_jobs(jobs=40, seed=5, arrival_rate_per_s=0.05, frameworks=["analytics", "etl"],
                               executors=(1, 3), executor={"cpu": (1, 4), "mem": (1, 8)},
                               deadline_fraction=0.6),
    }
    run = run_start(user=user, team=team, scenario=scenario, schedulers=SCHEDULERS)
    for part_id in RunPart.objects.filter(run=run).order_by("position").values_list("id", flat=True):
        part_execute_now(part_id)
    run = Run.objects.get(pk=run.pk)
    assert run.status == "succeeded"
    return run


def stored(run: Any, variant: str) -> dict[str, Any]:
    from planner.runs.models import RunResult

    return RunResult.objects.get(run=run, variant=variant).result  # type: ignore[no-any-return]


def shown(tab: Any) -> dict[str, Any]:
    """What the replay card shows: its instant, VMs with their executors, the queue, the facts."""
    return tab.evaluate("""() => {
        const card = document.getElementById("replay");
        const vms = Array.from(card.querySelectorAll("#replay-vms tbody tr[data-vm]")).map((tr) => ({
            vm: tr.dataset.vm,
            executors: Array.from(tr.querySelectorAll(".replay-exec"))
                .map((e) => [e.dataset.job, Number(e.dataset.count)]),
            used: Array.from(tr.querySelectorAll(".replay-bar .js-used")).map((e) => e.textContent),
        }));
        const queue = Array.from(card.querySelectorAll("#replay-queue tbody tr[data-job]")).map((tr) => ({
            job: tr.dataset.job, missed: tr.classList.contains("missed"),
            overdue: tr.querySelector(".replay-flag.overdue") !== null,
        }));
        const facts = {};
        for (const div of card.querySelectorAll("#replay-facts [data-fact]")) {
            facts[div.dataset.fact] = div.querySelector("dd").textContent;
        }
        return {t: Number(card.dataset.t), variant: card.dataset.variant, vms, queue, facts,
                time: document.getElementById("replay-time").textContent};
    }""")


def click_chart(tab: Any, plot: Any, target: dict[str, float]) -> tuple[dict[str, Any], float]:
    """Click a chart at ``target``'s pixel (hovering first, as Plotly needs); once the card shows
    another instant, what it shows and the seconds per unit of the chart's time axis."""
    before = shown(tab)["t"]
    tab.mouse.move(target["px"] - 2, target["py"], steps=3)
    tab.mouse.move(target["px"], target["py"], steps=2)
    tab.mouse.click(target["px"], target["py"])
    tab.wait_for_function(
        "(t) => { const c = document.getElementById('replay');"
        " return Number(c.dataset.t) !== t && !c.hasAttribute('aria-busy'); }",
        arg=before,
    )
    unit = re.search(r"Time \((s|min|h)\)", plot.inner_text()).group(1)  # type: ignore[union-attr]
    return shown(tab), {"s": 1.0, "min": 60.0, "h": 3600.0}[unit]


def wait_for_instant(tab: Any, variant: str, t: float) -> None:
    tab.wait_for_function(
        "([v, t]) => { const c = document.getElementById('replay');"
        " return c.dataset.variant === v && Math.abs(Number(c.dataset.t) - t) < 1e-6"
        " && !c.hasAttribute('aria-busy'); }",
        arg=[variant, t],
    )


def check_against_library(tab: Any, run: Any, variant: str) -> dict[str, Any]:
    from scheduling.charts import format_money
    from scheduling.cost.replay import replay_snapshot

    view = shown(tab)
    snapshot = replay_snapshot(stored(run, variant), view["t"])
    assert view["variant"] == variant
    assert [v["vm"] for v in view["vms"]] == [v["vm"] for v in snapshot["vms"]]
    for seen, vm in zip(view["vms"], snapshot["vms"], strict=True):
        assert seen["executors"] == [[e["job"], e["count"]] for e in vm["executors"]]
        assert len(seen["used"]) == len(snapshot["resources"])
    assert [q["job"] for q in view["queue"]] == [q["job"] for q in snapshot["queue"]["jobs"]]
    missed = [q["met_deadline"] is False for q in snapshot["queue"]["jobs"]]
    assert [q["missed"] for q in view["queue"]] == missed
    assert [q["overdue"] for q in view["queue"]] == [q["overdue"] for q in snapshot["queue"]["jobs"]]
    assert view["facts"]["queued"] == str(snapshot["jobs"]["queued"])
    assert view["facts"]["cost"].startswith("$" + format_money(snapshot["cost"]["so_far"]) + " of $")
    return snapshot


def sign_in(tab: Any, base: str) -> None:
    tab.goto(base + "/accounts/login/")
    tab.fill("#id_username", "operator")
    tab.fill("#id_password", PASSWORD)
    tab.click("button[type=submit]")
    tab.wait_for_url(base + "/")


def test_the_replay_follows_the_slider_the_picker_and_a_click_on_a_chart(
    live_server: Any, page: Any, finished_run: Any  # noqa: F811
) -> None:
    base = live_server.url
    sign_in(page, base)
    page.goto(f"{base}/runs/{finished_run.pk}/")
    baseline = finished_run.options["baseline"]
    wait_for_instant(page, baseline, 0.0)
    assert page.locator("#replay-slider").is_enabled()

    # The busiest instant of edf-bfd's queue, chosen on the slider.
    page.select_option("#replay-variant", "edf-bfd")
    timeline = stored(finished_run, "edf-bfd")["timeline"]
    k = max(range(len(timeline["t"])), key=lambda i: timeline["queued_jobs"][i])
    busy = timeline["t"][k]
    assert timeline["queued_jobs"][k] >= 2
    page.eval_on_selector(
        "#replay-slider",
        "(el, t) => { el.value = String(t); el.dispatchEvent(new Event('input', {bubbles: true})); }",
        busy,
    )
    wait_for_instant(page, "edf-bfd", busy)
    snapshot = check_against_library(page, finished_run, "edf-bfd")
    assert len(snapshot["queue"]["jobs"]) == timeline["queued_jobs"][k] >= 2 and snapshot["vms"]
    # Shown in the charts' unit, with the clock time.
    time_text = shown(page)["time"]
    assert re.fullmatch(r"[\d,.]+ (s|min|h) \(\d+:\d\d:\d\d(\.\d)?\)", time_text), time_text

    # The other scheduler at the same instant.
    page.select_option("#replay-variant", "fifo-consolidate")
    wait_for_instant(page, "fifo-consolidate", busy)
    check_against_library(page, finished_run, "fifo-consolidate")

    # A step forward moves by 1/200 of the run.
    end = page.evaluate("Number(document.getElementById('replay-slider').max)")
    page.click("#replay-next")
    wait_for_instant(page, "fifo-consolidate", min(end, busy + end / 200))
    check_against_library(page, finished_run, "fifo-consolidate")

    # A click on a point of the utilisation chart (hover is "x unified": the point nearest the
    # pointer in time, within Plotly's hover distance): the slider moves to that point's instant.
    page.wait_for_function(
        "() => document.querySelectorAll('#charts .js-plotly-plot').length >= 5", timeout=60_000
    )
    plot = page.locator("#charts .chart-block[data-figure=utilisation] .js-plotly-plot").first
    plot.scroll_into_view_if_needed()
    target = page.evaluate("""(gd) => {
        const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, box = gd.getBoundingClientRect();
        const xs = gd.data[0].x, mid = (xa.range[0] + xa.range[1]) * 0.55;
        const x = xs.reduce((best, v) => Math.abs(v - mid) < Math.abs(best - mid) ? v : best, xs[0]);
        return {x: x, px: box.left + xa._offset + xa.l2p(x), py: box.top + ya._offset + ya._length / 2};
    }""", plot.element_handle())
    view, divisor = click_chart(page, plot, target)
    assert view["t"] == pytest.approx(target["x"] * divisor, abs=1e-6)
    assert view["variant"] in SCHEDULERS
    check_against_library(page, finished_run, view["variant"])

    # A click on a bar of "Executors on VMs": the instant under the pointer, for the scheduler
    # the chart shows (its picker).
    gantt = page.locator("#charts .chart-block[data-prefix='gantt:'] .js-plotly-plot").first
    gantt.scroll_into_view_if_needed()
    picked = page.eval_on_selector("#charts .chart-block[data-prefix='gantt:'] .js-pick", "(s) => s.value")
    target = page.evaluate("""(gd) => {
        const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, box = gd.getBoundingClientRect();
        const trace = gd.data.find((t) => t.customdata), k = Math.floor(trace.x.length / 2);
        const x = trace.base[k] + trace.x[k] * 0.5;
        return {x: x, px: box.left + xa._offset + xa.l2p(x), py: box.top + ya._offset + ya.d2p(trace.y[k]),
                pixel: (xa.range[1] - xa.range[0]) / xa._length};
    }""", gantt.element_handle())
    view, divisor = click_chart(page, gantt, target)
    assert view["t"] == pytest.approx(target["x"] * divisor, abs=2 * target["pixel"] * divisor)
    assert view["variant"] == picked.removeprefix("gantt:")
    check_against_library(page, finished_run, view["variant"])
    no_console_errors(page)


def test_each_scheduler_s_charts_are_offered_in_the_run_s_order_whatever_the_stored_key_order(
    live_server: Any, page: Any, finished_run: Any  # noqa: F811
) -> None:
    """PostgreSQL's jsonb gives a run's figures back with their keys in its own order: the page
    lists the schedulers of a chart block (its picker) in the run's order all the same."""
    from planner.runs.models import Run

    scrambled = dict(reversed(list(finished_run.figures.items())))
    Run.objects.filter(pk=finished_run.pk).update(figures=scrambled)
    assert [k for k in scrambled if k.startswith("gantt:")] == [f"gantt:{s}" for s in reversed(SCHEDULERS)]
    base = live_server.url
    sign_in(page, base)
    page.goto(f"{base}/runs/{finished_run.pk}/")
    page.wait_for_selector("#charts[data-drawn]")
    for prefix in ("gantt:", "fairness:"):
        options = page.eval_on_selector_all(
            f"#charts .chart-block[data-prefix='{prefix}'] .js-pick option", "(os) => os.map((o) => o.value)"
        )
        assert options == [prefix + s for s in SCHEDULERS], prefix
