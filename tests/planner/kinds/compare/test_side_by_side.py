"""Two comparisons side by side (run A "before", run B "after"): B − A of the headlines, the
timelines overlaid (the library's), and how their scenarios differ."""

from __future__ import annotations

import pytest
from django.urls import reverse

from planner.scenarios.services import cluster_create

pytestmark = pytest.mark.django_db


def test_compare_two_runs(owner_client, owner, team, workload, start_run, execute_run):
    before = start_run(name="Before", schedulers=["fifo-spread", "edf-bfd"])
    bigger = cluster_create(team=team, user=owner, name="Bigger", entries=[
        {"vm_type": "m1.large", "count": 12}, {"vm_type": "m2.xlarge", "count": 3}])
    from planner.runs.services import run_start

    after = run_start(
        user=owner, cluster=bigger, workload=workload, schedulers=["edf-bfd", "morpheus"], name="After"
    )
    execute_run(after.pk)
    response = owner_client.get(reverse("web:compare-side-by-side"), {"a": before.pk, "b": after.pk})
    assert response.status_code == 200
    deltas = {d["scheduler"]: d for d in response.context["deltas"]}
    assert set(deltas) == {"fifo-spread", "edf-bfd", "morpheus"}
    assert deltas["edf-bfd"]["in_a"] and deltas["edf-bfd"]["in_b"]
    assert not deltas["morpheus"]["in_a"] and not deltas["fifo-spread"]["in_b"]
    cost = deltas["edf-bfd"]["metrics"][0]
    assert cost["key"] == "total_cost" and cost["pct"].endswith("%")
    figures = response.context["figures"]
    names = [t["name"] for t in figures["cumulative_cost"]["data"]]
    assert any(n.startswith("A · edf-bfd") for n in names) and any(n.startswith("B · edf-bfd") for n in names)
    assert set(figures) == {"cumulative_cost", "utilisation", "active_vms"}
    page = response.content.decode()
    assert 'id="compare-figures"' in page and 'id="deltas-table"' in page


def test_compare_defaults_to_the_two_latest_runs(owner_client, start_run):
    first = start_run(name="First")
    second = start_run(name="Second")
    response = owner_client.get(reverse("web:compare-side-by-side"))
    assert response.context["a"].pk == first.pk and response.context["b"].pk == second.pk
    # The same cluster and workload: nothing to warn about.
    assert response.context["differences"] == [] and 'id="same-scenario"' in response.content.decode()


def test_compare_warns_when_the_runs_differ_and_says_how(owner_client, owner, team, start_run, execute_run):
    from planner.runs.services import run_start
    from planner.scenarios.services import cluster_create

    before = start_run(name="Before")
    bigger = cluster_create(
        team=team,
        user=owner,
        name="Bigger",
        entries=[
            {"vm_type": "m1.large", "count": 12},
            {"vm_type": "m1.xlarge", "count": 5},
            {"vm_type": "m2.xlarge", "count": 3},
        ],
    )
    after = run_start(
        user=owner, cluster=bigger, workload=before.workload, schedulers=["edf-bfd"], name="After"
    )
    execute_run(after.pk)
    response = owner_client.get(reverse("web:compare-side-by-side"), {"a": before.pk, "b": after.pk})
    page = response.content.decode()
    assert 'id="run-differences"' in page and "m1.large: 6 → 12 VMs" in page
    assert [d.title for d in response.context["differences"]] == ["Cluster"]


def test_compare_refuses_unfinished_runs(owner_client, succeeded_run, queued_run):
    response = owner_client.get(
        reverse("web:compare-side-by-side"), {"a": succeeded_run.pk, "b": queued_run.pk}
    )
    assert response.status_code == 400
    assert "Run B is not a finished run" in response.content.decode()
