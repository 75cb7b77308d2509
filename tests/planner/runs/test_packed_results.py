"""Result documents are stored with their numeric columns packed (``PackedJSONField``) and read
back, by every path the planner reads them, as the JSON value that was stored. `.ci/run` runs
this file on PostgreSQL too, where the database extracts keys from ``jsonb``."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from django.db.models import JSONField, TextField, Value
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Cast

from planner.kinds.compare.selectors import REPLAY_KEYS, _replay_document
from planner.runs import selectors, services
from planner.runs.models import Run, RunResult
from planner.teams.models import Team
from scheduling.packed import pack_tree
from tests.planner.conftest import make_scenario_doc

pytestmark = pytest.mark.django_db

N = 200


def document() -> dict[str, Any]:
    """A result-shaped document: long columns of floats (with gaps and -0.0), ints, strings,
    bools, mixed numbers and lists, short columns, nested objects."""
    return {
        "format": "probe/1",
        "scheduler": "edf-bfd",
        "total_cost": 12.5,
        "resources": ["cpu", "mem"],
        "jobs": {
            "id": [f"j{k}" for k in range(N)],
            "arrival_s": [k * 0.1 for k in range(N)],
            "deadline_s": [None if k % 3 else k * 2.5 for k in range(N)],
            "executors": list(range(N)),
            "met_deadline": [k % 2 == 0 for k in range(N)],
            "mixed": [k if k % 2 else k + 0.5 for k in range(N)],
            "placement": [[k, 1] for k in range(N)],
            "executor": {"cpu": [1.0 + k for k in range(N)], "mem": [-0.0] + [2.0] * (N - 1)},
        },
        "vm_intervals": {"machine": list(range(N)), "on_s": [0.0] * N, "off_s": [None] * N},
        "timeline": {"t": [float(k) for k in range(N)], "active_vms": {"small": [k % 4 for k in range(N)]}},
        "machines": [{"name": "small-0"}],
        "short": [1.5, 2.5],
    }


@pytest.fixture
def run(team: Team, owner: Any, scenario_doc: dict[str, Any]) -> Run:
    return services.run_start(user=owner, team=team, scenario=scenario_doc, schedulers=["edf-bfd"])


def stored(run: Run, doc: dict[str, Any], variant: str = "probe") -> RunResult:
    return RunResult.objects.create(run=run, variant=variant, position=7, summary={}, result=doc)


def raw_text(pk: int) -> str:
    return str(RunResult.objects.filter(pk=pk).annotate(text=Cast("result", TextField()))
               .values_list("text", flat=True).get())


def same(a: Any, b: Any) -> bool:
    """Equal as JSON values, type for type (an int is not a float), -0.0 not 0.0."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return type(b) is float and a == b and math.copysign(1, a) == math.copysign(1, b)
    return type(a) is type(b) and a == b


def test_a_stored_document_is_packed_in_the_database(run: Run) -> None:
    doc = document()
    row = stored(run, doc)
    text = raw_text(row.pk)
    assert text.count("$packed") == 10  # the long number columns; not ids, bools, mixes, lists
    assert json.loads(text) == pack_tree(doc)
    assert '"short": [1.5, 2.5]' in text  # a short list stays readable


def test_every_reading_path_gives_back_the_document(run: Run, owner: Any) -> None:
    doc = document()
    row = stored(run, doc)
    assert same(RunResult.objects.get(pk=row.pk).result, doc)
    assert same(RunResult.objects.filter(pk=row.pk).values_list("result", flat=True).get(), doc)
    assert same(selectors.run_result_get(user=owner, run_pk=run.pk, variant="probe").result, doc)
    assert same(selectors.run_results(run=run)["probe"], doc)
    # The text download: written out, never parsed on the way.
    text = selectors.run_result_text(user=owner, run_pk=run.pk, variant="probe")
    assert "$packed" not in text
    assert same(json.loads(text), doc)
    # Keys the database extracts.
    parts = selectors.run_results_parts(run=run, keys=("timeline", "jobs", "short"))["probe"]
    assert same(parts, {k: doc[k] for k in ("timeline", "jobs", "short")})
    lazy = selectors.run_results_lazy(run=run, large=("jobs", "timeline"))["probe"]
    assert same(dict(lazy), doc)
    nested = KeyTransform("t", KeyTransform("timeline", "result"))  # as the replay's time axis reads it
    times = RunResult.objects.filter(pk=row.pk).values_list(nested, flat=True).get()
    assert same(times, doc["timeline"]["t"])
    replay = _replay_document(row.pk)
    assert same(replay, {k: doc[k] for k in REPLAY_KEYS if k in doc})


def test_a_document_stored_before_packing_is_read_as_it_is(run: Run, owner: Any) -> None:
    doc = document()
    row = stored(run, {})
    # Written as a plain JSON value, as the field stored documents before it packed them.
    RunResult.objects.filter(pk=row.pk).update(result=Value(doc, output_field=JSONField()))
    assert "$packed" not in raw_text(row.pk)
    # As equal as a plain JSON value ever came back (PostgreSQL's numeric has no -0.0).
    assert RunResult.objects.get(pk=row.pk).result == doc
    assert json.loads(selectors.run_result_text(user=owner, run_pk=run.pk, variant="probe")) == doc
    assert dict(selectors.run_results_lazy(run=run, large=("jobs",))["probe"]) == doc


def test_a_finished_run_serves_the_documents_its_parts_computed(
    team: Team, owner: Any, api: Any, execute_run: Any
) -> None:
    run = services.run_start(user=owner, team=team, scenario=make_scenario_doc(jobs=120),
                             schedulers=["fifo-spread", "edf-bfd"])
    assert execute_run(run.pk) == "succeeded"
    for row in RunResult.objects.filter(run=run):
        assert "$packed" in raw_text(row.pk)  # 120 jobs: the per-job columns are packed
        response = api(owner).get(f"/api/runs/{run.pk}/results/{row.variant}/")
        assert response.status_code == 200
        served = json.loads(response.getvalue())  # streamed a piece at a time
        assert same(served, row.result)
        assert len(served["jobs"]["id"]) == 120
    report = api(owner).get(f"/api/runs/{run.pk}/report/csv/")
    assert report.status_code == 200
