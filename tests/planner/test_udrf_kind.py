"""The UDRF study run kind (paper 004) with the real offline library and a stand-in online one.

What is checked: the kind is registered and linked; the API starts a run on the paper's Fig. 1
scenario (one offline part; with ``online``, one part per policy) that runs through the task
path (``part_execute_now``), and the run page shows the comparison table per policy, the
library's tables and the chart blocks; the figures and the CSV, XLSX and PDF reports are built;
bad parameters and scenarios are refused with their paths; the start page puts the library's
errors on the rows and fields that caused them (never a 500), starts the preset and clones.

The online simulation (``scheduling.udrf.online``) is written in parallel: these tests put a
stand-in module in its place that returns the hand-made fixture ``tests/fixtures/udrf-online.json``
for the policies asked, so the kind's online path is exercised before the real one lands.
"""

from __future__ import annotations

import csv
import importlib.machinery
import io
import json
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from planner.runs import kinds
from planner.runs.kinds import udrf as udrf_kind
from planner.runs.models import Run, RunPart

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = json.loads((ROOT / "examples" / "paper004-fig1.json").read_text())
ONLINE = json.loads((ROOT / "tests" / "fixtures" / "udrf-online.json").read_text())


@pytest.fixture
def online_library(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The real ``scheduling.udrf.online.online_document``, spied on: the calls it received."""
    from scheduling.udrf import online

    calls: list[dict[str, Any]] = []
    real = online.online_document

    def spy(scenario: Any, **options: Any) -> dict[str, Any]:
        calls.append({"scenario": scenario.name, **options})
        return real(scenario, **options)

    monkeypatch.setattr(online, "online_document", spy)
    return calls


@pytest.fixture
def fixture_library(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in online library that returns the hand-made fixture, cut to the policies asked
    (jobs that run long enough for UDRF to finish sooner, as in the paper's Fig. 10)."""
    module = types.ModuleType(udrf_kind.ONLINE_MODULE)
    module.__spec__ = importlib.machinery.ModuleSpec(udrf_kind.ONLINE_MODULE, None)

    def online_document(scenario: Any, *, policies: Any = ("udrf", "drf"), **options: Any) -> dict[str, Any]:
        doc = {k: v for k, v in ONLINE.items() if k != "comparison"}
        doc["policies"] = {p: ONLINE["policies"][p] for p in policies}
        return doc

    module.online_document = online_document  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, udrf_kind.ONLINE_MODULE, module)


def _start(api: Any, owner: Any, **params: Any) -> Any:
    return api(owner).post("/api/runs/", {"kind": "udrf", **params}, format="json")


@pytest.fixture
def offline_run(api: Any, owner: Any, team: Any, execute_run: Callable[[int], str]) -> Run:
    response = _start(api, owner, scenario=EXAMPLE)
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert list(RunPart.objects.filter(run=run).values_list("label", flat=True)) == ["offline"]
    assert execute_run(run.pk) == "succeeded"
    run.refresh_from_db()
    return run


@pytest.fixture
def online_run(
    api: Any, owner: Any, team: Any, execute_run: Callable[[int], str], online_library: list[dict[str, Any]]
) -> Run:
    response = _start(api, owner, scenario=EXAMPLE, online=True, interval_s=2, queue_capacity=50, seed=7)
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    labels = list(RunPart.objects.filter(run=run).order_by("position").values_list("label", flat=True))
    assert labels == ["offline", "online udrf", "online drf"]
    assert execute_run(run.pk) == "succeeded"
    # one policy per part, the run's options passed through
    assert [c["policies"] for c in online_library] == [("udrf",), ("drf",)]
    assert online_library[0]["interval_s"] == 2.0 and online_library[0]["queue_capacity"] == 50
    assert online_library[0]["seed"] == 7 and online_library[0]["horizon_s"] is None
    run.refresh_from_db()
    return run


def test_the_kind_is_registered_and_linked(client: Any, owner: Any, team: Any) -> None:
    kind = kinds.get_kind("udrf")
    assert kind.label == "UDRF study" and kind.new_run_url == "web:udrf-new"
    client.force_login(owner)
    url = reverse("web:udrf-new")
    for page in ("web:dashboard", "web:runs"):
        assert f'href="{url}"' in client.get(reverse(page)).content.decode()


def test_an_offline_run_shows_the_graph_bars_and_tables(
    offline_run: Run, api: Any, owner: Any, client: Any
) -> None:
    figures = api(owner).get(f"/api/runs/{offline_run.pk}/figures/").json()["figures"]
    assert list(figures) == ["graph", "allocation", "waste"]
    rducs = [t["name"] for t in figures["graph"]["data"][1:]]
    assert rducs == ["RDUC 1 (3 users)", "RDUC 2 (1 user)"]
    drf_jobs = next(t for t in figures["allocation"]["data"] if t["name"] == "DRF" and t.get("yaxis") == "y2")
    assert drf_jobs["y"] == [16.0, 8.0, 10.0, 32.0]
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[offline_run.pk])).content.decode()
    assert 'id="summary-table"' in page and 'data-figure="graph"' in page and 'data-figure="waste"' in page
    assert "Jobs allocated at once (offline)" in page and "+30.3%" in page
    assert 'id="udrf-users-table"' in page and "job1 28, job2 8" in page and "job1 8, job2 8" in page
    assert 'id="udrf-classes-table"' in page and 'id="udrf-rducs-table"' in page
    assert 'data-figure="cdf"' not in page  # offline only
    listing = client.get(reverse("web:runs")).content.decode()
    assert "more jobs than DRF" in listing


def test_an_online_run_joins_its_policies(online_run: Run, api: Any, owner: Any, client: Any) -> None:
    figures = api(owner).get(f"/api/runs/{online_run.pk}/figures/").json()["figures"]
    assert {"graph", "shares", "wasted", "cdf", "reduction:classes", "reduction:runs"} <= set(figures)
    assert [t["name"] for t in figures["cdf"]["data"]] == ["UDRF (5 jobs)", "DRF (5 jobs)"]
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[online_run.pk])).content.decode()
    assert 'id="udrf-online-table"' in page and 'data-figure="cdf"' in page
    assert "Completion time reduced vs DRF" in page
    listing = client.get(reverse("web:runs")).content.decode()
    assert "shorter mean completion than DRF" in listing


def test_an_online_run_shows_each_user_over_time(
    api: Any, owner: Any, team: Any, execute_run: Callable[[int], str], online_library: list[dict[str, Any]],
    client: Any,
) -> None:
    # Fig. 1 with every job run 100 times (60 s a run): both policies end at 780 s. u1 holds 100
    # runs x 60 s of each job under either (1 + 1 cpu, 1 + 2 memory: 15.38 cpu, 23.08 memory on
    # average); DRF leaves hadoop idle that u1's waiting job1 wants, UDRF does not.
    scenario = json.loads(json.dumps(EXAMPLE))
    for user in scenario["frameworks"]:
        for job in user["complex_jobs"]:
            job["runs"] = 100
    response = _start(api, owner, scenario=scenario, online=True)
    run = Run.objects.get(pk=response.json()["id"])
    assert execute_run(run.pk) == "succeeded"
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert 'id="udrf-online-users-table"' in page
    assert "Mean global dominant share (UDRF)" in page and "Mean wasted, its part (DRF)" in page
    table = page[page.index('id="udrf-online-users-table"'):]
    u1 = table[table.index(">u1<"):table.index("</tr>", table.index(">u1<"))]
    for shown in ("54.1%", "48.1%", "12.0%", "cpu 15.38, mem 23.08", "cpu 0, mem 10.46",
                  "cpu 44.31, mem 61.54", "7 min 30 s", "2 / 2"):
        assert shown in u1, shown
    figures = api(owner).get(f"/api/runs/{run.pk}/figures/").json()["figures"]
    assert "shares:global" in figures and 'data-figure="shares:global"' in page
    csv_text = api(owner).get(f"/api/runs/{run.pk}/report/csv/").content.decode("utf-8-sig")
    assert "Mean global dominant share (UDRF)" in csv_text and "cpu 44.31, mem 61.54" in csv_text


def test_the_parts_reduction_is_the_online_modules(
    api: Any, owner: Any, team: Any, execute_run: Callable[[int], str], fixture_library: None, client: Any
) -> None:
    response = _start(api, owner, scenario=EXAMPLE, online=True)
    run = Run.objects.get(pk=response.json()["id"])
    assert execute_run(run.pk) == "succeeded"
    figures = api(owner).get(f"/api/runs/{run.pk}/figures/").json()["figures"]
    assert figures["reduction:runs"]["data"][0]["x"] == ["1", "2-5"]
    assert figures["reduction:classes"]["data"][0]["y"] == pytest.approx([33.333, 33.333], abs=1e-3)
    client.force_login(owner)
    page = client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert "+33.3%" in page  # the mean completion time, UDRF against DRF


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "pdf"])
def test_reports_download(online_run: Run, api: Callable[[Any], Any], owner: Any, fmt: str) -> None:
    response = api(owner).get(f"/api/runs/{online_run.pk}/report/{fmt}/")
    assert response.status_code == 200 and len(response.content) > 1000
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
        text = "\n".join(",".join(r) for r in rows)
        assert "Policy" in text and "UDRF" in text and "Jobs per job (UDRF)" in text
        assert "job1 28, job2 8" in text and "Machine class" in text and "Reduction (%)" in text


def test_bad_parameters_and_scenarios_are_refused_with_their_paths(api: Any, owner: Any, team: Any) -> None:
    response = _start(
        api,
        owner,
        scenario=EXAMPLE,
        online="yes",
        interval_s=0,
        queue_capacity=0,
        horizon_s=-1,
        seed=-3,
        baseline="FIFO",
        colour="red",
    )
    assert response.status_code == 400
    paths = {e["path"] for e in response.json()["errors"]}
    assert paths == {"online", "interval_s", "queue_capacity", "horizon_s", "seed", "baseline", "colour"}
    no_jobs = {**EXAMPLE, "frameworks": [{"name": "u1", "task_demand": {"cpu": 1, "mem": 1}}], "jobs": []}
    response = _start(api, owner, scenario=no_jobs)
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["frameworks"]
    bad_task = json.loads(json.dumps(EXAMPLE))
    bad_task["frameworks"][0]["complex_jobs"][0]["tasks"][0]["machine_class"] = "gpu"
    response = _start(api, owner, scenario=bad_task)
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == [
        "frameworks[0].complex_jobs[0].tasks[0].machine_class"
    ]
    assert not Run.objects.exists()


def _rows(form_data: dict[str, Any]) -> dict[str, Any]:
    """The start page's POST for the paper's Fig. 1, entered as rows."""
    classes = [
        ("hadoop", 8, "cpu=7, mem=8"),
        ("standard", 4, "cpu=4, mem=10"),
        ("public-ip", 3, "cpu=8, mem=16"),
        ("high-memory", 4, "cpu=8, mem=256"),
    ]
    jobs = [
        ("u1", "job1", "hadoop: cpu=1, mem=1"),
        ("u1", "job2", "standard: cpu=1, mem=2"),
        ("u2", "job", "standard: cpu=1, mem=1\npublic-ip: cpu=1, mem=1"),
        ("u3", "job", "public-ip: cpu=1, mem=4"),
        ("u4", "job", "high-memory: cpu=1, mem=25"),
    ]
    data = {
        "source": "forms",
        "scenario_name": "Fig. 1 by hand",
        "resources": "cpu, mem",
        "compare_drf": "on",
        "interval_s": "1",
        "queue_capacity": "100",
        "seed": "0",
    }
    for k, (name, count, cap) in enumerate(classes):
        data.update({f"m{k}-name": name, f"m{k}-count": str(count), f"m{k}-capacity": cap})
    for k, (user, job, tasks) in enumerate(jobs):
        data.update({f"j{k}-user": user, f"j{k}-id": job, f"j{k}-tasks": tasks})
    data.update(form_data)
    return data


def test_the_start_page_fills_the_preset_and_starts_a_study(
    client: Any, owner: Any, team: Any, execute_run: Callable[[int], str]
) -> None:
    client.force_login(owner)
    url = reverse("web:udrf-new")
    page = client.get(url).content.decode()
    assert 'data-preset="004-fig1"' in page and 'id="class-rows"' in page
    filled = client.get(url + "?preset=004-fig1")
    form = filled.context["form"]
    assert filled.status_code == 200 and form.initial["source"] == "forms"
    assert [r.initial.get("name") for r in form.class_rows[:4]] == [
        "hadoop",
        "standard",
        "public-ip",
        "high-memory",
    ]
    assert form.job_rows[2].initial["tasks"] == "standard: cpu=1, mem=1\npublic-ip: cpu=1, mem=1"
    assert json.loads(form.initial["document"]) == EXAMPLE
    response = client.post(url, _rows({}))
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert run.kind == "udrf" and run.options["policies"] == ["udrf", "drf"]
    assert [v["machine_class"] for v in run.scenario["vm_types"]] == [
        "hadoop",
        "standard",
        "public-ip",
        "high-memory",
    ]
    assert execute_run(run.pk) == "succeeded"
    doc = run.results.get(variant="offline").result
    assert doc["policies"]["udrf"]["users"][0]["jobs"] == {"job1": 28.0, "job2": 8.0}
    clone = client.get(url + f"?clone={run.pk}")
    assert clone.status_code == 200 and clone.context["form"].job_rows[0].initial["id"] == "job1"


def test_the_start_page_puts_the_librarys_errors_on_rows_and_fields(
    client: Any, owner: Any, team: Any
) -> None:
    client.force_login(owner)
    url = reverse("web:udrf-new")
    # the library's errors: a negative capacity and a bad option in one response ...
    bad = client.post(url, _rows({"m2-capacity": "cpu=-8, mem=16", "interval_s": "0"}))
    assert bad.status_code == 400
    form = bad.context["form"]
    assert form.class_rows[2].errors["capacity"] == ["cpu: must be >= 0"]
    assert form.errors["interval_s"]
    # ... then, on a valid cluster, an unknown class in a job's second task
    bad = client.post(url, _rows({"j1-tasks": "standard: cpu=1, mem=2\ngpu: cpu=1, mem=1"}))
    assert bad.status_code == 400
    errors = bad.context["form"].job_rows[1].errors["tasks"]
    assert any(e.startswith("task 2 machine_class: unknown machine class 'gpu'") for e in errors)
    page = bad.content.decode()
    assert "unknown machine class" in page and 'class="row-error"' in page
    # the form's own parsing: text that is no task, no capacity
    bad = client.post(url, _rows({"j0-tasks": "hadoop cpu 1", "m0-capacity": "cpu: 7"}))
    assert bad.status_code == 400
    assert (
        bad.context["form"].job_rows[0].errors["tasks"]
        and bad.context["form"].class_rows[0].errors["capacity"]
    )
    # a job that needs more of a class than it has: on the job's tasks
    bad = client.post(url, _rows({"j0-tasks": "hadoop: cpu=7, mem=8 x9"}))
    assert bad.status_code == 400 and "more of class 'hadoop'" in " ".join(
        bad.context["form"].job_rows[0].errors["tasks"]
    )
    # a document: its errors on the document, with the library's paths
    no_jobs = {**EXAMPLE, "frameworks": []}
    bad = client.post(
        url,
        {
            "source": "document",
            "document": json.dumps(no_jobs),
            "resources": "cpu",
            "interval_s": "1",
            "queue_capacity": "100",
            "seed": "0",
        },
    )
    assert bad.status_code == 400 and bad.context["form"].errors["document"] == [
        "jobs: is required, or task queues (version 2) or complex jobs (version 3) on a framework"]
    bad = client.post(
        url,
        {
            "source": "document",
            "document": "{not json",
            "resources": "cpu",
            "interval_s": "1",
            "queue_capacity": "100",
            "seed": "0",
        },
    )
    assert bad.status_code == 400 and bad.context["form"].errors["document"]
    # nothing entered, and garbage: field errors, never a 500
    assert client.post(url, {"source": "forms"}).status_code == 400
    garbage = {
        "source": "forms",
        "m0-count": "many",
        "j0-runs": "-1",
        "j7-user": "x",
        "j499-tasks": "a: b=c",
        "resources": "",
        "seed": "-1",
        "queue_capacity": "1e99",
        "interval_s": "nan",
    }
    assert client.post(url, garbage).status_code == 400
    assert not Run.objects.exists()


def test_the_synthetic_preset_fills_every_row_and_runs_online(
    client: Any, api: Any, owner: Any, team: Any, execute_run: Callable[[int], str]
) -> None:
    client.force_login(owner)
    filled = client.get(reverse("web:udrf-new") + "?preset=004-synthetic-online")
    assert filled.status_code == 200
    form = filled.context["form"]
    document = json.loads(form.initial["document"])
    assert len([r for r in form.class_rows if r.initial.get("name")]) == len(document["vm_types"]) == 60
    assert len([r for r in form.job_rows if r.initial.get("id")]) == 200
    assert form.initial["online"] is True
    response = _start(api, owner, scenario=document, online=True)
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert execute_run(run.pk) == "succeeded"
    online = run.results.get(variant="online udrf").result
    assert online["policies"]["udrf"]["summary"]["completed"] == 200


def _stored_fig1() -> dict[str, Any]:
    """Fig. 1 as a stored cluster can hold it: each VM type its own class, named after it."""
    doc = json.loads(json.dumps(EXAMPLE))
    names = {v["machine_class"]: v["name"] for v in doc["vm_types"]}
    for v in doc["vm_types"]:
        del v["machine_class"]
    for f in doc["frameworks"]:
        for job in f["complex_jobs"]:
            for task in job["tasks"]:
                task["machine_class"] = names[task["machine_class"]]
    return doc


def test_the_start_page_takes_a_stored_cluster_and_workload(
    client: Any, owner: Any, team: Any, execute_run: Callable[[int], str]
) -> None:
    from planner.scenarios.services import scenario_import

    made = scenario_import(team=team, user=owner, doc=_stored_fig1(), name="Fig. 1 stored")
    client.force_login(owner)
    url = reverse("web:udrf-new")
    page = client.get(url).content.decode()
    assert 'value="stored"' in page and f'<option value="{made.cluster.pk}">' in page
    again = client.get(url + f"?cluster={made.cluster.pk}&workload={made.workload.pk}")
    assert again.context["form"].initial["source"] == "stored"
    response = client.post(url, {"source": "stored", "cluster": made.cluster.pk, "workload": made.workload.pk,
                                 "compare_drf": "on", "interval_s": 1, "queue_capacity": 100, "seed": 0,
                                 "resources": "cpu, mem"})
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert (run.cluster_id, run.workload_id) == (made.cluster.pk, made.workload.pk)
    assert execute_run(run.pk) == "succeeded"
    doc = run.results.get(variant="offline").result
    # the paper's §III-B numbers, every VM type a class of its own
    assert doc["policies"]["udrf"]["users"][0]["jobs"] == {"job1": 28.0, "job2": 8.0}
    assert doc["policies"]["drf"]["users"][0]["jobs"] == {"job1": 8.0, "job2": 8.0}


def test_the_start_page_takes_the_papers_labelled_cluster_as_stored(
    client: Any, owner: Any, team: Any, execute_run: Callable[[int], str]
) -> None:
    """examples/paper004-fig1.json imported as it is: its machine_class labels are kept on the
    cluster, and the study from the stored cluster and workload gives the paper's numbers."""
    from planner.scenarios.services import scenario_import

    made = scenario_import(team=team, user=owner, doc=EXAMPLE)
    assert [e.machine_class for e in made.cluster.entries.order_by("position")] == [
        "hadoop", "standard", "public-ip", "high-memory"]
    def task_classes(frameworks: Any) -> list[str]:
        return [t["machine_class"] for f in frameworks for j in f["complex_jobs"] for t in j["tasks"]]

    assert task_classes(made.workload.frameworks) == task_classes(EXAMPLE["frameworks"])  # the labels
    client.force_login(owner)
    editor = client.get(reverse("web:cluster-edit", args=[made.cluster.pk])).content.decode()
    assert 'name="entry_machine_class"' in editor and 'value="public-ip"' in editor
    response = client.post(reverse("web:udrf-new"), {
        "source": "stored", "cluster": made.cluster.pk, "workload": made.workload.pk, "compare_drf": "on",
        "interval_s": 1, "queue_capacity": 100, "seed": 0, "resources": "cpu, mem"})
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert [v["machine_class"] for v in run.scenario["vm_types"]] == [
        "hadoop", "standard", "public-ip", "high-memory"]
    assert execute_run(run.pk) == "succeeded"
    doc = run.results.get(variant="offline").result
    # the paper's §III-B numbers (Fig. 1)
    assert doc["policies"]["udrf"]["users"][0]["jobs"] == {"job1": 28.0, "job2": 8.0}
    assert doc["policies"]["drf"]["users"][0]["jobs"] == {"job1": 8.0, "job2": 8.0}


def test_a_stored_workload_without_complex_jobs_is_refused_on_its_field(
    client: Any, owner: Any, team: Any
) -> None:
    from planner.scenarios.services import scenario_import

    doc = _stored_fig1()
    for f in doc["frameworks"]:
        f.pop("complex_jobs")
        f["task_demand"] = {"cpu": 1, "mem": 1}
    doc["jobs"] = []
    made = scenario_import(team=team, user=owner, doc=doc, name="no jobs")
    client.force_login(owner)
    response = client.post(reverse("web:udrf-new"), {
        "source": "stored", "cluster": made.cluster.pk, "workload": made.workload.pk, "interval_s": 1,
        "queue_capacity": 100, "seed": 0, "resources": "cpu, mem"})
    assert response.status_code == 400
    form = response.context["form"]
    assert form.errors["workload"][0].startswith("does not fit the study: frameworks")
    edit = reverse("web:workload-edit", args=[made.workload.pk])
    assert 'id="edit-workload"' in response.content.decode() and f'href="{edit}"' in response.content.decode()
    assert not Run.objects.exists()
    missing = client.post(reverse("web:udrf-new"), {
        "source": "stored", "interval_s": 1, "queue_capacity": 100, "seed": 0, "resources": "cpu, mem"})
    assert missing.status_code == 400
    assert missing.context["form"].errors["cluster"] == ["Choose a cluster."]
