"""An operator's afternoon, in Chromium: catalogue, cluster, workload, comparison, reports, compare.

Playwright drives Debian's Chromium against pytest-django's live server. The test is
skipped when ``/usr/bin/chromium`` is missing, unless ``PLANNER_REQUIRE_BROWSER=1`` (CI),
where a missing browser is a failure. Every page is checked for console errors and
uncaught exceptions. With ``PLANNER_SCREENSHOTS=1`` the main pages are written to
``docs/screenshots/``.

(The fixtures live in this module rather than a ``conftest.py``: with doctest collection
on, a second ``conftest`` module name in a sibling test folder clashes on import.)
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("PLANNER_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SCREENSHOT_DIR = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
VIEWPORT = {"width": 1400, "height": 900}


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    if not CHROMIUM.exists():
        reason = f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set PLANNER_CHROMIUM)"
        if os.environ.get("PLANNER_REQUIRE_BROWSER") == "1":
            pytest.fail(reason + "; PLANNER_REQUIRE_BROWSER=1 makes this a failure")
        pytest.skip(reason)
    return CHROMIUM


# Per module: test_replay.py uses these fixtures too, and one thread runs one Playwright at a time.
@pytest.fixture(scope="module")
def browser(chromium_path: Path) -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - playwright is a dev dependency
        if os.environ.get("PLANNER_REQUIRE_BROWSER") == "1":
            pytest.fail("playwright is not installed")
        pytest.skip("playwright is not installed")
    # Playwright's sync API runs an asyncio loop in this thread, so Django's ORM in the same
    # thread (fixtures, the test database's setup) would refuse to run. The ORM calls here
    # are ordinary synchronous ones that never touch that loop, which is what this allows.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


class ConsoleErrors:
    """Console errors and uncaught exceptions of a page, with the URL they happened on."""

    def __init__(self, page: Any):
        self.items: list[str] = []
        page.on("console", lambda m: self.items.append(f"{page.url}: console.{m.type}: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: self.items.append(f"{page.url}: uncaught: {e}"))

    def take(self) -> list[str]:
        out, self.items = self.items, []
        return out


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.console_errors = ConsoleErrors(page)
    yield page
    context.close()
    live_server_requests_finished()


def live_server_requests_finished() -> None:
    """Wait for the live server's request threads that are still answering the closed page.

    They share the test's in-memory SQLite connection, so the database flush after the test
    fails ("couldn't be flushed") if it runs while one of them is still in a query; and the
    next test then finds the last one's user. Each request runs in a thread of
    ``socketserver.ThreadingMixIn`` named after its target.
    """
    for thread in threading.enumerate():
        if thread.name.endswith("(process_request_thread)") and thread is not threading.current_thread():
            thread.join()


@pytest.fixture
def screenshot(page: Any):
    """``screenshot(name)`` writes docs/screenshots/<name>.png when PLANNER_SCREENSHOTS=1."""
    enabled = os.environ.get("PLANNER_SCREENSHOTS") == "1"

    def take(name: str) -> None:
        if not enabled:
            return
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        page.wait_for_load_state("networkidle")
        page.evaluate("window.scrollTo(0, 0)")  # sticky bars are drawn where the viewport is
        page.screenshot(path=str(SCREENSHOT_DIR / f"{name}.png"), full_page=True)

    return take


@pytest.fixture
def runs_in_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[threading.Thread]]:
    """Execute each queued part in a thread of this process instead of sending it to Celery.

    Why not a real worker: pytest-django's live server uses the test database, an
    in-memory SQLite database that another process cannot open. So ``parts_send`` (called
    by ``run_start`` once the transaction commits, exactly as in production) starts a
    thread that runs the task's own code for each part, ``part_execute_now``: claim, simulate
    with progress reports, store results, and the last part closes the run and builds its
    figures. The path through a real worker and broker is covered by the end-to-end tests.
    The runner waits a moment before it claims a part, and the simulation is slowed a
    little at each progress report, so that the page's polling sees the run queued, then
    running, then done.
    """
    from django.db import connection

    from planner.kinds.compare import kind as compare_kind
    from planner.runs import execution, services

    threads: list[threading.Thread] = []

    real_simulate = compare_kind.simulate

    def slow_simulate(*args: Any, progress: Any = None, **kwargs: Any) -> Any:
        def slowed(fraction: float) -> None:
            time.sleep(0.01)
            if progress is not None:
                progress(fraction)

        return real_simulate(*args, progress=slowed, **kwargs)

    def work(part_ids: list[int]) -> None:
        # One after the other: the shared in-memory database answers "table is locked" to
        # concurrent writers instead of waiting (the parallel path is tests/e2e's).
        try:
            time.sleep(1.5)
            for part_id in part_ids:
                execution.part_execute_now(part_id)
        finally:
            connection.close()

    def send(parts: Any, *, first: bool = False) -> int:
        part_ids = [part_id for part_id, _ in parts]
        thread = threading.Thread(target=work, args=(part_ids,), name=f"parts-{part_ids[0]}", daemon=True)
        threads.append(thread)
        thread.start()
        return len(part_ids)

    monkeypatch.setattr(services, "parts_send", send)
    monkeypatch.setattr(compare_kind, "simulate", slow_simulate)
    yield threads
    for thread in threads:
        thread.join(timeout=120)


pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "browser-test-password"
CSV_ROWS = """id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s
urgent-1,etl,30,2,2,4,240,400
urgent-2,etl,90,3,1,2,180,
report-1,analytics,600,4,2,8,900,2400
"""


@pytest.fixture
def operator(transactional_db: Any) -> Any:
    from django.contrib.auth import get_user_model

    from planner.teams.services import team_create

    user = get_user_model().objects.create_user(username="operator", password=PASSWORD)
    team_create(owner=user, name="Data platform")  # seeded with the papers' VM types
    return user


def no_console_errors(page: Any, *, expected_400s: int = 0) -> None:
    """No console errors, except the ``expected_400s`` that a deliberately bad input causes.

    Chromium logs every 400 response, a page's or a fetch's, as "Failed to load resource";
    the pages answer bad input with 400 on purpose (the form or the grid shows why).
    """
    errors = page.console_errors.take()
    bad_input = [e for e in errors if "status of 400" in e]
    assert len(bad_input) == expected_400s, "\n".join(errors)
    others = [e for e in errors if "status of 400" not in e]
    assert others == [], "\n".join(others)


def sign_in(page: Any, base: str, screenshot: Any) -> None:
    page.goto(base + "/")
    assert "/accounts/login/" in page.url  # every page needs a signed-in user
    screenshot("sign-in")
    page.fill("#id_username", "operator")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(base + "/")
    assert page.locator("h1").inner_text() == "Dashboard"


def add_vm_type(page: Any, base: str, screenshot: Any) -> None:
    page.goto(base + "/catalogue/")
    page.fill("#id_new-name", "c5.2xlarge")
    page.fill("#id_new-cap_cpu", "8")
    page.fill("#id_new-cap_mem", "16")
    page.fill("#id_new-price_per_hour", "0.34")
    page.click("#vm-form-new button[type=submit]")
    page.wait_for_load_state()
    assert "Added VM type" in page.locator(".messages").inner_text()
    screenshot("catalogue")
    # A bad edit shows its error on the row and changes nothing.
    row = page.locator("tr", has=page.locator("input[value='c5.2xlarge']"))
    row.locator("input[name$='-cap_cpu']").fill("-2")
    row.locator("button:has-text('Save')").click()
    page.wait_for_load_state()
    assert page.locator("tr.row-error .field-error").first.is_visible()
    no_console_errors(page, expected_400s=1)


def create_cluster(page: Any, base: str, name: str, rows: list[tuple[str, int]]) -> str:
    page.goto(base + "/clusters/new/")
    page.fill("#id_name", name)
    # The new-cluster form starts with one empty row; add the others.
    for i, (vm_type, count) in enumerate(rows):
        if i:
            page.click("#add-entry")
        row = page.locator("#entry-rows tr.entry-row").nth(i)
        row.locator("select").select_option(label=vm_type)
        row.locator("input.js-count").fill(str(count))
    machines = sum(c for _, c in rows)
    assert page.locator(".js-total-vms").inner_text() == str(machines)  # live totals
    page.click("button:has-text('Create cluster')")
    page.wait_for_load_state()
    assert "Created cluster" in page.locator(".messages").inner_text()
    no_console_errors(page)
    return page.url


def create_workload(page: Any, base: str) -> str:
    page.goto(base + "/workloads/new/")
    page.fill("#id_name", "Analytics + ETL")
    page.fill("#id_description", "Nightly ETL and ad-hoc analytics")
    page.click("button:has-text('Create workload')")
    page.wait_for_load_state()
    editor_url = page.url
    assert re.search(r"/workloads/\d+/$", editor_url)

    # The generator replaces the jobs...
    page.click("#panel-generator summary")
    page.fill("#id_jobs", "40")
    page.fill("#id_frameworks", "etl, analytics")
    page.fill("#id_executors_max", "4")
    page.fill("#id_res_cpu_max", "4")
    page.fill("#id_res_mem_max", "8")
    page.fill("#id_seed", "11")
    page.click("#generator-form button[type=submit]")
    page.wait_for_load_state()
    assert "Generated 40 jobs" in page.locator(".messages").inner_text()

    # ... and pasted CSV rows are added to them.
    page.click("#panel-csv summary")
    page.fill("#id_csv", CSV_ROWS)
    page.check("input[name=mode][value=append]")
    page.click("#csv-form button[type=submit]")
    page.wait_for_load_state()
    assert "now has 43" in page.locator(".messages").inner_text()

    # The grid loads the 43 jobs from the API; a bad cell is highlighted after saving.
    page.wait_for_selector("#jobs-table tbody input[data-key='id']")
    assert page.locator("#jobs-table tbody tr").count() == 43
    cell = page.locator("#jobs-table tbody input[data-row='3'][data-key='r:cpu']")
    cell.fill("-1")
    page.click("#save-workload")
    page.wait_for_selector("#jobs-table td.cell-error")
    assert "job 4 (id job-3): executor.cpu: must be >= 0" in page.locator("#save-errors").inner_text()
    page.locator("#jobs-table tbody input[data-row='3'][data-key='r:cpu']").fill("2")
    page.click("#add-job")  # a new row, then a valid save
    page.click("#save-workload")
    page.wait_for_function("() => document.getElementById('save-status').textContent.startsWith('Saved')")
    assert page.locator("#save-errors").is_hidden()
    assert "44 jobs" in page.locator("#workload-stats").inner_text()

    # Each framework's task demand (an input per resource) and sharing settings; a bad value is
    # named on its row with the library's path, then fixed and saved.
    row = "#fw-table tbody"
    page.locator(f"{row} input[data-fw='0'][data-key='td:cpu']").fill("-1")
    page.locator(f"{row} input[data-fw='0'][data-key='td:mem']").fill("2")
    page.locator(f"{row} select[data-fw='0'][data-key='offer_policy']").select_option("first-fit")
    page.locator(f"{row} input[data-fw='0'][data-key='refuse_s']").fill("1")
    page.click("#save-workload")
    page.wait_for_selector("#fw-table tr.fw-errors")
    errors = page.locator("#fw-table tr.fw-errors").inner_text()
    assert "frameworks[0].task_demand.cpu: must be >= 0" in errors
    page.locator(f"{row} input[data-fw='0'][data-key='td:cpu']").fill("1")
    page.locator(f"{row} input[data-fw='1'][data-key='td:cpu']").fill("2")
    page.locator(f"{row} input[data-fw='1'][data-key='td:mem']").fill("1")
    page.click("#save-workload")
    page.wait_for_function("() => document.getElementById('save-status').textContent.startsWith('Saved')")
    assert page.locator("#fw-table tr.fw-errors").count() == 0
    saved = page.evaluate(f"fetch('{editor_url.replace(base, '')}'.replace('/workloads/', '/api/workloads/'))"
                          ".then((r) => r.json()).then((w) => w.frameworks)")
    assert saved[0]["task_demand"] == {"cpu": 1, "mem": 2} and saved[1]["task_demand"] == {"cpu": 2, "mem": 1}
    assert saved[0]["offer_policy"] == "first-fit" and saved[0]["refuse_s"] == 1
    no_console_errors(page, expected_400s=2)  # the saves with the bad cell and the bad task demand
    return editor_url


def start_comparison(
    page: Any, base: str, cluster: str, schedulers: list[str], screenshot: Any = None
) -> None:
    page.goto(base + "/runs/new/")
    page.select_option("#id_cluster", label=cluster)
    page.select_option("#id_workload", label="Analytics + ETL · 44 jobs")
    for box in page.locator("input[name=schedulers]").all():
        box.set_checked(box.get_attribute("value") in schedulers)
    page.select_option("#id_baseline", schedulers[0])
    page.fill("#id_name", f"{cluster}: {len(schedulers)} schedulers")
    if screenshot:
        screenshot("new-comparison")
    page.click("button:has-text('Start comparison')")
    page.wait_for_url(re.compile(r"/runs/\d+/$"))
    no_console_errors(page)


def record_progress(page: Any) -> list[dict[str, Any]]:
    """Every answer of the progress endpoint the run page polls, in order."""
    answers: list[dict[str, Any]] = []

    def handle(route: Any) -> None:
        response = route.fetch()
        answers.append(response.json())
        route.fulfill(response=response)

    page.route(re.compile(r"/api/runs/\d+/progress/$"), handle)
    return answers


def watch_run_finish(page: Any, answers: list[dict[str, Any]]) -> None:
    """The page polls while the run is queued or running, then reloads with the results."""
    assert page.locator("#progress[role=progressbar]").count() == 1
    page.wait_for_selector("#summary-table", timeout=120_000)
    assert answers, "the page never polled the progress"
    assert answers[-1]["finished"] and answers[-1]["status"] == "succeeded" and answers[-1]["progress"] == 1.0
    assert all(not a["finished"] for a in answers[:-1])  # it stopped polling once finished
    # What a poll happens to see first depends on the machine's load: only the order is fixed.
    rank = {"queued": 0, "running": 1, "succeeded": 2}
    statuses = [rank[a["status"]] for a in answers]
    assert statuses == sorted(statuses), answers  # queued, then running, then done: never back
    running = [a["progress"] for a in answers if a["status"] == "running"]
    assert running == sorted(running), answers  # the bar only moves forward
    # The badge's words as written (the stylesheet shows them in lower case): ``inner_text``
    # would give the styled text, or the unstyled one while a loaded machine is still applying
    # the stylesheet to the reloaded page.
    badge = page.locator("#status-badge .badge")
    assert badge.get_attribute("class").split() == ["badge", "badge-succeeded"]
    assert badge.text_content().strip() == "Succeeded"
    assert page.locator("#progress").count() == 0


def test_an_operator_plans_a_cluster(live_server: Any, page: Any, operator: Any, runs_in_threads: Any,
                                     screenshot: Any, tmp_path: Path) -> None:
    base = live_server.url
    sign_in(page, base, screenshot)
    add_vm_type(page, base, screenshot)

    create_cluster(page, base, "Nectar (Table 3)", [("m1.large", 6), ("m1.xlarge", 5), ("m2.xlarge", 3)])
    screenshot("cluster-editor")
    workload_url = create_workload(page, base)

    answers = record_progress(page)
    start_comparison(page, base, "Nectar (Table 3)", ["fifo-spread", "morpheus", "edf-bfd"], screenshot)
    run_url = page.url
    watch_run_finish(page, answers)

    # Charts: drawn from the run's cached figures, without console errors.
    page.wait_for_function(
        "() => document.querySelectorAll('#charts .js-plotly-plot').length >= 7", timeout=60_000
    )
    assert page.locator("#summary-table thead th").count() == 4  # metric + 3 schedulers
    # The Gantt chart gives each executor running at the same time on a VM its own lane: no two
    # bars drawn at the same height overlap in time (and some VM does run several at once).
    lanes = page.evaluate("""() => {
        const gd = document.querySelector('#charts [data-prefix="gantt:"] .js-plotly-plot');
        const bars = [];
        for (const t of gd.data) {
            if (!t.customdata) continue;
            t.y.forEach((y, k) => bars.push([y, t.base[k], t.base[k] + t.x[k]]));
        }
        let overlaps = 0, shared = 0;
        for (let i = 0; i < bars.length; i++) for (let j = i + 1; j < bars.length; j++) {
            const [a, b] = [bars[i], bars[j]];
            const concurrent = a[1] < b[2] - 1e-9 && b[1] < a[2] - 1e-9;
            if (concurrent && a[0] === b[0]) overlaps += 1;
            if (concurrent && Math.abs(a[0] - b[0]) < 1) shared += 1;
        }
        return {bars: bars.length, overlaps: overlaps, shared: shared};
    }""")
    assert lanes["bars"] > 0 and lanes["overlaps"] == 0 and lanes["shared"] > 0, lanes
    # The baseline selector asks the server for the table against the chosen baseline, keeps
    # it in the URL and points the downloads at it.
    page.select_option("#baseline-select", "edf-bfd")
    page.wait_for_function(
        "() => document.querySelector('#summary-table tr[data-key=saving_pct] td[data-variant=\"edf-bfd\"]')"
        ".textContent.trim() === 'baseline'"
    )
    saving = page.locator("#summary-table tr[data-key=saving_pct]")
    assert "Saving vs edf-bfd" in saving.inner_text()
    assert "baseline=edf-bfd" in page.url
    assert "baseline=edf-bfd" in (
        page.locator("#report-links a[data-format=csv]").get_attribute("href") or ""
    )
    page.reload()
    assert page.locator("#baseline-select").input_value() == "edf-bfd"
    page.wait_for_function(
        "() => document.querySelectorAll('#charts .js-plotly-plot').length >= 7", timeout=60_000
    )
    page.select_option("#baseline-select", "fifo-spread")
    page.wait_for_function(
        "() => document.querySelector("
        "'#summary-table tr[data-key=saving_pct] td[data-variant=\"fifo-spread\"]')"
        ".textContent.trim() === 'baseline'"
    )
    # The chart views are the library's figures: readable (means over windows), full detail, small
    # multiples (one panel per scheduler).
    def utilisation_title() -> str:
        return str(page.evaluate("document.querySelector('#charts [data-figure=utilisation] .js-plotly-plot')"
                                 ".layout.title.text"))

    readable = utilisation_title()
    page.click("button[data-view=raw]")
    page.wait_for_function("() => document.querySelector('#charts [data-figure=utilisation] .js-plotly-plot')"
                           f".layout.title.text !== {json.dumps(readable)}")
    page.click("button[data-view=multiples]")
    page.wait_for_selector("#charts .chart-grid .js-plotly-plot")
    page.click("button[data-view=readable]")
    page.wait_for_function("() => !document.querySelector('#charts .chart-grid')")
    assert utilisation_title() == readable
    no_console_errors(page)
    screenshot("run")

    # The cost reports download as files.
    for fmt, magic in (("CSV", None), ("XLSX", b"PK"), ("PDF", b"%PDF")):
        with page.expect_download() as info:
            page.click(f".btn-group a:has-text('{fmt}')")
        download = info.value
        assert download.suggested_filename.endswith("." + fmt.lower())
        assert download.suggested_filename.startswith("run-")
        target = tmp_path / download.suggested_filename
        download.save_as(target)
        body = target.read_bytes()
        assert len(body) > 100
        if magic:
            assert body.startswith(magic)

    # After: a bigger cluster, the same workload and settings: the first run cloned, its cluster
    # changed, started, then compared with the first run.
    create_cluster(page, base, "Nectar + 4 large", [("m1.large", 10), ("m1.xlarge", 5), ("m2.xlarge", 3)])
    page.goto(run_url)
    page.click("a:has-text('Clone…')")
    page.wait_for_selector("#cloned-from")
    ticked = sorted(b.get_attribute("value") for b in page.locator("input[name=schedulers]:checked").all())
    assert ticked == ["edf-bfd", "fifo-spread", "morpheus"]
    assert page.input_value("#id_name").startswith("Copy of ")
    assert page.input_value("#id_baseline") == "fifo-spread"
    page.select_option("#id_cluster", label="Nectar + 4 large")
    page.fill("#id_name", "Nectar + 4 large: 3 schedulers")
    answers.clear()
    page.click("button:has-text('Start comparison')")
    page.wait_for_url(re.compile(r"/runs/\d+/$"))
    watch_run_finish(page, answers)
    page.goto(base + "/runs/compare/")
    assert page.locator("#deltas-table").count() == 1  # the two latest runs by default
    page.wait_for_function(
        "() => document.querySelectorAll('#charts .js-plotly-plot').length >= 3", timeout=60_000
    )
    assert "A · edf-bfd" in page.locator("#charts").inner_text()
    no_console_errors(page)
    screenshot("compare")

    # The remaining pages for the screenshots, each free of console errors.
    page.goto(workload_url)
    page.wait_for_selector("#jobs-table tbody input[data-key='id']")
    page.click("#panel-generator summary")  # show the generator's settings too
    screenshot("workload-editor")
    page.goto(run_url)
    page.wait_for_function(
        "() => document.querySelectorAll('#charts .js-plotly-plot').length >= 7", timeout=60_000
    )
    page.goto(base + "/")
    assert page.locator("table .badge-succeeded").count() == 2
    screenshot("dashboard")
    page.goto(base + "/clusters/")
    page.goto(base + "/workloads/")
    page.goto(base + "/runs/")
    no_console_errors(page)

    # Signing out ends the session.
    page.click("button:has-text('Sign out')")
    page.goto(base + "/runs/")
    assert "/accounts/login/" in page.url


def member_names(page: Any) -> list[str]:
    return page.locator("#members-table tbody tr[data-user]").evaluate_all(
        "rows => rows.map(r => r.dataset.user)"
    )


def test_an_owner_manages_the_teams_members(live_server: Any, page: Any, browser: Any, operator: Any,
                                            screenshot: Any) -> None:
    from django.contrib.auth import get_user_model

    from planner.teams.models import Membership

    get_user_model().objects.create_user(username="analyst", password=PASSWORD)
    base = live_server.url
    sign_in(page, base, screenshot)
    page.click("nav a:has-text('Members')")
    page.wait_for_url(re.compile(r"/teams/\d+/members/$"))
    members_url = page.url
    assert member_names(page) == ["operator"]
    assert "the only owner" in page.locator("tr[data-user='operator']").inner_text()

    # The only owner cannot step down: the row says why, and nothing changes.
    own_row = page.locator("tr[data-user='operator']")
    own_row.locator("select").select_option("member")
    own_row.locator("button:has-text('Change role')").click()
    page.wait_for_load_state()
    assert "a team needs at least one owner" in page.locator("#members-table .field-error").inner_text()
    # An existing member is an error on the field; whether a username exists is not said.
    page.fill("#id_username", "operator")
    page.click("#add-member-form button[type=submit]")
    page.wait_for_load_state()
    assert "'operator' is already a member" in page.locator("#add-member-form .field-error").inner_text()
    no_console_errors(page, expected_400s=2)

    page.fill("#id_username", "analyst")
    page.select_option("#id_role", "member")
    page.click("#add-member-form button[type=submit]")
    page.wait_for_url(members_url)
    assert "Invited analyst as member: they join when they accept." in page.locator(".messages").inner_text()
    assert member_names(page) == ["operator"]  # not before they accept
    assert page.locator("#invitations-table tr[data-invited='analyst']").count() == 1
    screenshot("team-members")

    # The new member sees the list, and no controls but leaving.
    context = browser.new_context(viewport=VIEWPORT)
    other = context.new_page()
    other.console_errors = ConsoleErrors(other)
    other.goto(base + "/accounts/login/")
    other.fill("#id_username", "analyst")
    other.fill("#id_password", PASSWORD)
    other.click("button[type=submit]")
    other.wait_for_url(base + "/teams/new/")  # no team yet: the invitation waits there
    other.locator("#my-invitations tr[data-invitation='Data platform'] button:has-text('Accept')").click()
    other.wait_for_url(base + "/")
    assert "You joined “Data platform” as member." in other.locator(".messages").inner_text()
    other.click("nav a:has-text('Members')")
    other.wait_for_url(members_url)
    assert member_names(other) == ["operator", "analyst"]
    assert other.locator("#add-member-form").count() == 0
    assert other.locator("button:has-text('Change role')").count() == 0
    assert other.locator("tr[data-user='analyst'] button").inner_text() == "Leave team"
    no_console_errors(other)
    context.close()

    # The owner makes them an owner, then removes them (after confirming).
    page.reload()  # they have joined since the owner's page was drawn
    row = page.locator("tr[data-user='analyst']")
    row.locator("select").select_option("owner")
    row.locator("button:has-text('Change role')").click()
    page.wait_for_url(members_url)
    assert "analyst is now owner." in page.locator(".messages").inner_text()
    assert Membership.objects.get(user__username="analyst").role == "owner"
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("tr[data-user='analyst'] button:has-text('Remove')").click()
    page.wait_for_url(members_url)
    assert "Removed analyst from the team." in page.locator(".messages").inner_text()
    assert member_names(page) == ["operator"]
    page.reload()  # the invitation was used up
    assert page.locator("#invitations-table").count() == 0
    no_console_errors(page)
