"""Clusters, workloads, CSV, generation, and the scenario document they make (services)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from planner.catalogue.models import VMType
from planner.core.errors import InputError
from planner.scenarios import services
from planner.scenarios.models import Cluster, ClusterEntry, Workload
from planner.teams.models import Team
from scheduling import ScenarioError, parse_scenario, parse_workload
from scheduling.importers import IMPORTERS

pytestmark = pytest.mark.django_db

DEMO_CSV = Path(__file__).resolve().parents[3] / "planner" / "demo_data" / "workload_jobs_low_load.csv"


def paths(exc: InputError | ScenarioError) -> dict[str, str]:
    return {e.path: e.message for e in exc.errors}


# --------------------------------------------------------------------------- clusters


def test_cluster_entries_by_name_or_id_keep_their_order(team: Team, owner: Any) -> None:
    big = VMType.objects.get(team=team, name="m2.xlarge")
    cluster = services.cluster_create(
        team=team,
        user=owner,
        name="c",
        entries=[{"vm_type": big.pk, "count": 2}, {"vm_type": "m1.large", "count": 4}],
    )
    assert [(e.vm_type.name, e.count) for e in cluster.entries.order_by("position")] == [
        ("m2.xlarge", 2),
        ("m1.large", 4),
    ]


@pytest.mark.parametrize(
    "entries, path",
    [
        ([], "entries"),
        ([{"vm_type": "nope", "count": 1}], "entries[0].vm_type"),
        ([{"vm_type": "m1.large", "count": 0}], "entries[0].count"),
        ([{"vm_type": "m1.large", "count": 1.5}], "entries[0].count"),
        ([{"vm_type": "m1.large", "count": 1}, {"vm_type": "m1.large", "count": 2}], "entries[1].vm_type"),
        ([{"vm_type": "m1.large"}], "entries[0].count"),
        ([{"vm_type": "m1.large", "count": 1, "colour": "red"}], "entries[0].colour"),
        ("m1.large", "entries"),
    ],
)
def test_cluster_entry_errors(team: Team, owner: Any, entries: Any, path: str) -> None:
    with pytest.raises(InputError) as exc:
        services.cluster_create(team=team, user=owner, name="c", entries=entries)
    assert path in paths(exc.value), exc.value.errors
    assert not Cluster.objects.filter(team=team).exists()


def test_a_vm_type_of_another_team_is_unknown(team: Team, other_team: Team, owner: Any) -> None:
    foreign = VMType.objects.get(team=other_team, name="m1.large")
    with pytest.raises(InputError) as exc:
        services.cluster_create(
            team=team, user=owner, name="c", entries=[{"vm_type": foreign.pk, "count": 1}]
        )
    assert "entries[0].vm_type" in paths(exc.value)


def test_cluster_resources_must_be_in_every_vm_type(team: Team, owner: Any) -> None:
    with pytest.raises(InputError) as exc:
        services.cluster_create(
            team=team,
            user=owner,
            name="c",
            resources=["cpu", "mem", "gpu"],
            entries=[{"vm_type": "m1.large", "count": 1}],
        )
    assert paths(exc.value) == {"entries[0].vm_type": "VM type 'm1.large': capacity.gpu: is required"}


def test_cluster_options_are_checked_by_the_library(team: Team, owner: Any) -> None:
    with pytest.raises(InputError) as exc:
        services.cluster_create(
            team=team,
            user=owner,
            name="c",
            options={"rut": {"cpu": 0.5}},
            entries=[{"vm_type": "m1.large", "count": 1}],
        )
    assert "options.rut" in paths(exc.value)


def test_cluster_update_replaces_entries_atomically(cluster: Cluster, owner: Any) -> None:
    before = list(ClusterEntry.objects.filter(cluster=cluster).values_list("vm_type__name", "count"))
    with pytest.raises(InputError):
        services.cluster_update(
            cluster=cluster,
            user=owner,
            entries=[{"vm_type": "m1.large", "count": 2}, {"vm_type": "ghost", "count": 1}],
        )
    assert list(ClusterEntry.objects.filter(cluster=cluster).values_list("vm_type__name", "count")) == before
    services.cluster_update(cluster=cluster, user=owner, entries=[{"vm_type": "type-1", "count": 9}])
    assert list(ClusterEntry.objects.filter(cluster=cluster).values_list("vm_type__name", "count")) == [
        ("type-1", 9)
    ]


def test_members_cannot_change_the_owners_cluster(cluster: Cluster, member: Any) -> None:
    with pytest.raises(PermissionDenied):
        services.cluster_update(cluster=cluster, user=member, name="mine now")
    with pytest.raises(PermissionDenied):
        services.cluster_delete(cluster=cluster, user=member)


# --------------------------------------------------------------------------- workloads


def test_workload_jobs_are_checked_with_document_paths(
    team: Team, owner: Any, scenario_doc: dict[str, Any]
) -> None:
    jobs = copy.deepcopy(scenario_doc["jobs"])
    jobs[3]["executor"]["cpu"] = -1
    jobs[5]["framework"] = "unknown-fw"
    with pytest.raises(InputError) as exc:
        services.workload_create(
            team=team, user=owner, name="w", frameworks=scenario_doc["frameworks"], jobs=jobs
        )
    errors = paths(exc.value)
    assert errors["jobs[3].executor.cpu"] == "must be >= 0"
    assert errors["jobs[5].framework"] == "unknown framework 'unknown-fw'"
    assert not any(p.startswith("vm_types") for p in errors)
    assert not Workload.objects.exists()


def test_workload_accepts_allowed_vm_types_of_any_name(team: Team, owner: Any) -> None:
    frameworks = [{"name": "gpu-team", "allowed_vm_types": ["g4dn.xlarge"]}]
    jobs = [
        {
            "id": "a",
            "framework": "gpu-team",
            "arrival_s": 0,
            "executors": 2,
            "executor": {"cpu": 1, "mem": 1},
            "duration_s": 5,
        }
    ]
    w = services.workload_create(team=team, user=owner, name="w", frameworks=frameworks, jobs=jobs)
    assert (w.job_count, w.resources) == (1, ["cpu", "mem"])


def test_workload_update_failure_changes_nothing(workload: Workload, owner: Any) -> None:
    with pytest.raises(InputError):
        services.workload_update(workload=workload, user=owner, jobs=[{"id": "x"}])
    fresh = Workload.objects.get(pk=workload.pk)
    assert fresh.jobs == workload.jobs and fresh.job_count == 30


def test_csv_import_adds_frameworks_and_validates(workload: Workload, owner: Any) -> None:
    text = (
        "id,framework,arrival_s,executors,cpu,mem,duration_s\nj1,new-fw,0,1,1,1,10\nj2,analytics,5,1,1,1,10\n"
    )
    w = services.workload_import_csv(workload=workload, user=owner, text=text)
    assert w.job_count == 2
    assert [f["name"] for f in w.frameworks] == ["analytics", "etl", "new-fw"]
    bad = "id,arrival_s,executors,cpu,mem,duration_s\nj1,0,1,1,1,-10\n"
    with pytest.raises(InputError) as exc:
        services.workload_import_csv(workload=w, user=owner, text=bad)
    assert paths(exc.value) == {"line 2 (job j1), duration_s": "must be > 0"}  # the file's line, not jobs[0]
    assert Workload.objects.get(pk=w.pk).job_count == 2


def test_csv_import_can_append(workload: Workload, owner: Any) -> None:
    text = "id,arrival_s,executors,cpu,mem,duration_s\nextra,0,1,1,1,10\n"
    w = services.workload_import_csv(workload=workload, user=owner, text=text, replace=False)
    assert w.job_count == 31


def test_rm_simulator_import_of_the_demo_csv(workload: Workload, owner: Any) -> None:
    w = services.workload_import_csv(
        workload=workload, user=owner, text=DEMO_CSV.read_text(), format="rm-simulator"
    )
    assert w.job_count == 1000
    assert w.jobs[0] == {
        "id": "job-0",
        "arrival_s": 39,
        "executors": 7,
        "executor": {"cpu": 4, "mem": 6},
        "duration_s": 153,
        "deadline_s": 357,
    }


def test_rm_simulator_errors_name_the_line(workload: Workload, owner: Any) -> None:
    with pytest.raises(InputError) as exc:
        services.workload_import_csv(
            workload=workload,
            user=owner,
            text="job-id,C,M,E,T_A,T_est,T_D\njob-0,4,x,7,39,153,396\n",
            format="rm-simulator",
        )
    assert "line 2 (job job-0), M" in paths(exc.value)


def test_generate_is_reproducible_and_adds_frameworks(workload: Workload, owner: Any) -> None:
    spec = {"jobs": 20, "frameworks": ["a", "b"], "executor": {"cpu": [1, 2], "mem": [1, 4]}}
    first = services.workload_generate(workload=workload, user=owner, seed=5, spec=spec).jobs
    again = services.workload_generate(workload=workload, user=owner, seed=5, spec=spec).jobs
    other = services.workload_generate(workload=workload, user=owner, seed=6, spec=spec).jobs
    assert first == again != other
    assert len(first) == 20
    assert {f["name"] for f in Workload.objects.get(pk=workload.pk).frameworks} >= {"a", "b"}


@pytest.mark.parametrize(
    "spec, path",
    [
        ({"jobs": 0}, "jobs"),
        ({"jobs": "many"}, "jobs"),
        ({"executors": [3, 1]}, "executors"),
        ({"executors": [1.5, 3]}, "executors"),
        ({"duration_s": [0, 10]}, "duration_s"),
        ({"executor": {"cpu": [1]}}, "executor.cpu"),
        ({"deadline_fraction": 2}, "deadline_fraction"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_generate_errors(workload: Workload, owner: Any, spec: dict[str, Any], path: str) -> None:
    with pytest.raises(InputError) as exc:
        services.workload_generate(workload=workload, user=owner, seed=1, spec=spec)
    assert path in paths(exc.value), exc.value.errors
    assert Workload.objects.get(pk=workload.pk).job_count == 30


# --------------------------------------------------------------------------- scenario documents


def test_scenario_document_is_valid_and_complete(cluster: Cluster, workload: Workload) -> None:
    doc = services.scenario_document(cluster, workload)
    scenario = parse_scenario(doc)
    assert [t.name for t in scenario.vm_types] == ["m1.large", "m1.xlarge", "m2.xlarge"]
    assert [t.count for t in scenario.vm_types] == [6, 5, 3]
    assert len(scenario.jobs) == 30
    assert doc["name"] == "Tiny on Table 3"


def test_scenario_document_reports_jobs_that_do_not_fit(team: Team, owner: Any, workload: Workload) -> None:
    small = services.cluster_create(
        team=team, user=owner, name="small", entries=[{"vm_type": "type-1", "count": 1}]
    )
    services.workload_update(
        workload=workload,
        user=owner,
        jobs=[
            {"id": "huge", "arrival_s": 0, "executors": 1, "executor": {"cpu": 64, "mem": 1}, "duration_s": 1}
        ],
    )
    with pytest.raises(ScenarioError) as exc:
        services.scenario_document(small, workload)
    assert "jobs[0].executor" in paths(exc.value)


def test_cluster_and_workload_of_different_teams_do_not_mix(
    cluster: Cluster, other_team: Team, outsider: Any, scenario_doc: dict[str, Any]
) -> None:
    foreign = services.workload_create(
        team=other_team,
        user=outsider,
        name="w",
        jobs=scenario_doc["jobs"],
        frameworks=scenario_doc["frameworks"],
    )
    with pytest.raises(InputError):
        services.scenario_document(cluster, foreign)


def test_import_then_export_gives_the_same_scenario(
    team: Team, owner: Any, scenario_doc: dict[str, Any]
) -> None:
    scenario_doc["options"] = {"billing_granularity_s": 60}
    outcome = services.scenario_import(team=team, user=owner, doc=scenario_doc)
    assert outcome.vm_types_created == ["small", "big"]
    exported = services.scenario_document(outcome.cluster, outcome.workload)
    assert parse_scenario(exported) == parse_scenario({**scenario_doc, "name": exported["name"]})


def test_import_reuses_identical_vm_types_and_renames_different_ones(
    team: Team, owner: Any, scenario_doc: dict[str, Any]
) -> None:
    scenario_doc["vm_types"] = [
        {
            "name": "m1.large",
            "capacity": {"cpu": 4, "mem": 16},
            "price_per_hour": 0.24,
            "count": 2,
        },  # the preset
        {
            "name": "m1.xlarge",
            "capacity": {"cpu": 8, "mem": 32},
            "price_per_hour": 0.99,
            "count": 2,
        },  # other price
    ]
    scenario_doc["frameworks"][0]["allowed_vm_types"] = ["m1.xlarge"]
    outcome = services.scenario_import(team=team, user=owner, doc=scenario_doc, name="Imported")
    assert outcome.vm_types_reused == ["m1.large"]
    assert outcome.vm_types_renamed == {"m1.xlarge": "m1.xlarge (2)"}
    assert VMType.objects.get(team=team, name="m1.xlarge").price_per_hour == 0.48  # untouched
    assert outcome.workload.frameworks[0]["allowed_vm_types"] == ["m1.xlarge (2)"]
    again = services.scenario_import(team=team, user=owner, doc=scenario_doc, name="Imported")
    assert again.cluster.name == "Imported (2)"
    assert again.vm_types_reused == ["m1.large", "m1.xlarge (2)"]
    assert again.vm_types_created == []
    assert again.vm_types_renamed == {"m1.xlarge": "m1.xlarge (2)"}
    parse_scenario(services.scenario_document(again.cluster, again.workload))


def test_invalid_import_stores_nothing(team: Team, owner: Any, scenario_doc: dict[str, Any]) -> None:
    scenario_doc["jobs"][3]["executor"]["cpu"] = 0
    scenario_doc["jobs"][3]["executor"]["mem"] = 0
    scenario_doc["vm_types"].append(
        {"name": "new-type", "capacity": {"cpu": 1, "mem": 1}, "price_per_hour": 1}
    )
    counts = (VMType.objects.count(), Cluster.objects.count(), Workload.objects.count())
    with pytest.raises(ScenarioError) as exc:
        services.scenario_import(team=team, user=owner, doc=scenario_doc)
    assert "jobs[3].executor" in paths(exc.value)
    assert (VMType.objects.count(), Cluster.objects.count(), Workload.objects.count()) == counts


# --------------------------------------------------------------------------- warnings, imports, fitting


def test_services_return_warnings_without_blocking(
    team: Team, owner: Any, scenario_doc: dict[str, Any]
) -> None:
    jobs = copy.deepcopy(scenario_doc["jobs"])
    jobs[1]["deadline_s"] = jobs[1]["duration_s"] - 1
    del jobs[2]["framework"]
    w = services.workload_create(
        team=team, user=owner, name="w", frameworks=scenario_doc["frameworks"], jobs=jobs
    )
    assert [x.path for x in w.warnings] == ["jobs[1].deadline_s", "jobs[2].framework"]
    assert Workload.objects.get(pk=w.pk).job_count == 30  # saved all the same
    w = services.workload_update(workload=w, user=owner, jobs=scenario_doc["jobs"])
    assert w.warnings == ()


def test_a_workload_is_checked_by_parse_workload_not_a_stand_in_cluster(
    team: Team, owner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from planner.scenarios.services import workloads

    calls: list[Any] = []
    monkeypatch.setattr(workloads, "parse_workload", lambda doc: calls.append(doc) or parse_workload(doc))
    services.workload_create(team=team, user=owner, name="w", frameworks=[], jobs=[])
    assert calls == [{"frameworks": [], "jobs": []}]  # the workload alone: no vm_types


def test_appended_import_errors_name_the_line_not_the_index(workload: Workload, owner: Any) -> None:
    text = "id,arrival_s,executors,cpu,mem,duration_s\nok,0,1,1,1,10\nbad,0,1,1,1,-10\n"
    with pytest.raises(InputError) as exc:
        services.workload_import(workload=workload, user=owner, text=text, replace=False)
    assert paths(exc.value) == {"line 3 (job bad), duration_s": "must be > 0"}


def test_import_of_a_scenario_document_adds_its_frameworks(
    workload: Workload, owner: Any, scenario_doc: dict[str, Any]
) -> None:
    doc = copy.deepcopy(scenario_doc)
    doc["frameworks"].append({"name": "gpu", "weight": 3})
    doc["jobs"][0]["framework"] = "gpu"
    w = services.workload_import(workload=workload, user=owner, text=json.dumps(doc), format="scenario-json")
    assert {f["name"]: f["weight"] for f in w.frameworks} == {"analytics": 1, "etl": 2, "gpu": 3}
    with pytest.raises(InputError) as exc:
        services.workload_import(workload=workload, user=owner, text="{}", format="parquet")
    assert paths(exc.value) == {"format": f"must be one of {', '.join(IMPORTERS)}"}


def test_a_misfit_export_begins_with_a_summary(workload: Workload, cluster: Cluster, owner: Any) -> None:
    jobs = copy.deepcopy(workload.jobs)
    for job in jobs[:3]:
        job["executor"]["cpu"] = 16
    services.workload_update(workload=workload, user=owner, jobs=jobs)
    with pytest.raises(ScenarioError) as exc:
        services.scenario_document(cluster, workload)
    assert str(exc.value.errors[0]) == (
        "jobs: 3 of 30 jobs need an executor larger than any VM type: "
        "largest executor 16 cpu, largest VM 12 cpu"
    )
    assert [e.path for e in exc.value.errors[1:]] == [
        "jobs[0].executor",
        "jobs[1].executor",
        "jobs[2].executor",
    ]


def test_generate_fits_a_cluster_and_the_frameworks_allowed_types(
    workload: Workload, owner: Any, team: Team
) -> None:
    mixed = services.cluster_create(
        team=team,
        user=owner,
        name="mixed",
        entries=[{"vm_type": "m1.large", "count": 2}, {"vm_type": "m2.xlarge", "count": 1}],
    )
    frameworks = [{"name": "small-only", "allowed_vm_types": ["m1.large"]}, {"name": "any"}]
    services.workload_update(workload=workload, user=owner, frameworks=frameworks, jobs=[])
    spec = {
        "jobs": 200,
        "frameworks": ["small-only", "any"],
        "executors": [1, 12],
        "executor": {"cpu": [1, 16], "mem": [1, 64]},
    }
    w = services.workload_generate(workload=workload, user=owner, seed=4, spec=spec, cluster=mixed)
    assert max(j["executor"]["cpu"] for j in w.jobs if j["framework"] == "small-only") <= 4
    assert max(j["executor"]["cpu"] for j in w.jobs if j["framework"] == "any") == 12
    services.scenario_document(mixed, w)  # every job fits: no error


def test_import_of_complex_jobs_follows_renamed_vm_types(
    team: Team, owner: Any, scenario_doc: dict[str, Any]
) -> None:
    """Version 3: an unlabelled VM type is a class of its own, named after it (UDRF, paper 004)."""
    scenario_doc["vm_types"] = [{"name": "m1.xlarge", "capacity": {"cpu": 8, "mem": 32},
                                 "price_per_hour": 0.99, "count": 2}]
    scenario_doc["frameworks"] = [{"name": "u1", "complex_jobs": [
        {"id": "a", "runs": 3, "tasks": [{"machine_class": "m1.xlarge", "demand": {"cpu": 2, "mem": 4}}]}]}]
    scenario_doc.update(jobs=[], version=3)
    outcome = services.scenario_import(team=team, user=owner, doc=scenario_doc, name="UDRF")
    assert outcome.vm_types_renamed == {"m1.xlarge": "m1.xlarge (2)"}
    task = outcome.workload.frameworks[0]["complex_jobs"][0]["tasks"][0]
    assert task["machine_class"] == "m1.xlarge (2)"
    assert outcome.cluster.entries.get().machine_class is None
    exported = services.scenario_document(outcome.cluster, outcome.workload)
    assert exported["version"] == 3
    assert parse_scenario(exported).frameworks[0].complex_jobs[0].runs == 3


def test_import_keeps_machine_class_labels_and_the_export_writes_them(
    team: Team, owner: Any, scenario_doc: dict[str, Any]
) -> None:
    scenario_doc["vm_types"] = [
        {"name": "m1.xlarge", "machine_class": "big", "capacity": {"cpu": 8, "mem": 32},
         "price_per_hour": 0.99, "count": 2},  # renamed: its class is still "big"
        {"name": "m2.xlarge", "machine_class": "big", "capacity": {"cpu": 12, "mem": 48},
         "price_per_hour": 0.72, "count": 1},  # the catalogue's own
        {"name": "m1.large", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 3},
    ]
    scenario_doc["frameworks"] = [{"name": "u1", "complex_jobs": [
        {"id": "a", "tasks": [{"machine_class": "big", "demand": {"cpu": 2, "mem": 4}},
                              {"machine_class": "m1.large", "demand": {"cpu": 1, "mem": 1}}]}]}]
    scenario_doc.update(jobs=[], version=3)
    outcome = services.scenario_import(team=team, user=owner, doc=scenario_doc, name="classes")
    assert outcome.vm_types_renamed == {"m1.xlarge": "m1.xlarge (2)"}
    assert [(e.vm_type.name, e.machine_class) for e in outcome.cluster.entries.order_by("position")] == [
        ("m1.xlarge (2)", "big"), ("m2.xlarge", "big"), ("m1.large", None)
    ]
    tasks = outcome.workload.frameworks[0]["complex_jobs"][0]["tasks"]
    assert [t["machine_class"] for t in tasks] == ["big", "m1.large"]
    exported = services.scenario_document(outcome.cluster, outcome.workload)
    assert exported["version"] == 3
    assert [v.get("machine_class") for v in exported["vm_types"]] == ["big", "big", None]
    parsed = parse_scenario(exported)
    assert {c: [t.name for t in ts] for c, ts in parsed.machine_classes().items()} == {
        "big": ["m1.xlarge (2)", "m2.xlarge"], "m1.large": ["m1.large"]
    }


@pytest.mark.parametrize("label", ["m1.xlarge", "m1.xlarge (2)"])
def test_a_renamed_unlabelled_vm_type_keeps_a_class_it_shares_or_would_join(
    team: Team, owner: Any, scenario_doc: dict[str, Any], label: str
) -> None:
    """Renaming m1.xlarge must neither split the class m1.xlarge nor merge it with another."""
    scenario_doc["vm_types"] = [
        {"name": "m1.xlarge", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.99, "count": 2},
        {"name": "other", "machine_class": label, "capacity": {"cpu": 2, "mem": 2}, "price_per_hour": 0,
         "count": 1},
    ]
    scenario_doc["frameworks"] = [{"name": "u1", "complex_jobs": [
        {"id": "a", "tasks": [{"machine_class": c, "demand": {"cpu": 1, "mem": 1}}
                              for c in dict.fromkeys(["m1.xlarge", label])]}]}]
    scenario_doc.update(jobs=[], version=3)
    before = parse_scenario(scenario_doc).machine_classes()
    outcome = services.scenario_import(team=team, user=owner, doc=scenario_doc)
    assert outcome.vm_types_renamed == {"m1.xlarge": "m1.xlarge (2)"}
    assert outcome.cluster.entries.order_by("position")[0].machine_class == "m1.xlarge"
    after = parse_scenario(services.scenario_document(outcome.cluster, outcome.workload)).machine_classes()
    assert {c: len(ts) for c, ts in after.items()} == {c: len(ts) for c, ts in before.items()}


def test_cluster_entries_keep_their_machine_class(team: Team, owner: Any, workload: Workload) -> None:
    cluster = services.cluster_create(team=team, user=owner, name="c", entries=[
        {"vm_type": "m1.large", "count": 2, "machine_class": "public-ip"},
        {"vm_type": "m1.xlarge", "count": 1, "machine_class": None},
        {"vm_type": "m2.xlarge", "count": 1},
    ])
    assert [e.machine_class for e in cluster.entries.order_by("position")] == ["public-ip", None, None]
    doc = services.scenario_document(cluster, workload)
    assert doc["version"] == 3 and doc["vm_types"][0]["machine_class"] == "public-ip"
    assert "machine_class" not in doc["vm_types"][1]
    # a change that does not give the entries keeps their labels
    services.cluster_update(cluster=cluster, user=owner, name="renamed")
    assert cluster.entries.order_by("position")[0].machine_class == "public-ip"
    # without labels, the document is the lowest version it can be again
    services.cluster_update(cluster=cluster, user=owner, entries=[{"vm_type": "m1.large", "count": 6}])
    assert services.scenario_document(cluster, workload)["version"] == 1


def test_the_same_vm_type_may_be_labelled_differently_in_two_clusters(team: Team, owner: Any) -> None:
    a = services.cluster_create(team=team, user=owner, name="a",
                                entries=[{"vm_type": "m1.large", "count": 1, "machine_class": "gpu"}])
    b = services.cluster_create(team=team, user=owner, name="b",
                                entries=[{"vm_type": "m1.large", "count": 1, "machine_class": "public-ip"}])
    assert (a.entries.get().machine_class, b.entries.get().machine_class) == ("gpu", "public-ip")
    assert a.entries.get().vm_type_id == b.entries.get().vm_type_id


@pytest.mark.parametrize("label, message", [
    ("", "must not be empty"),
    ("   ", "must not be empty"),
    (3, "must be a string"),
    ("x" * 101, "must be at most 100 characters"),
    ("a\nb", "must not contain control or format characters (U+000A at character 2)"),
])
def test_a_bad_machine_class_is_refused_on_its_entry_by_the_librarys_rule(
    team: Team, owner: Any, label: Any, message: str
) -> None:
    with pytest.raises(InputError) as info:
        services.cluster_create(team=team, user=owner, name="c", entries=[
            {"vm_type": "m1.large", "count": 1},
            {"vm_type": "m1.xlarge", "count": 1, "machine_class": label},
        ])
    assert paths(info.value) == {"entries[1].machine_class": message}
    assert not Cluster.objects.filter(name="c").exists()
