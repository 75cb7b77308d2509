"""Forms: bad input shows errors next to the field that caused them and changes nothing."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from planner.catalogue.models import VMType
from planner.scenarios.models import Cluster, Workload

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------- catalogue


def new_vm_type(**values):
    data = {"resources": "cpu,mem", "new-name": "c5.large", "new-cap_cpu": "2", "new-cap_mem": "4",
            "new-price_per_hour": "0.085", "new-description": ""}
    data.update({f"new-{k}": v for k, v in values.items()})
    return data


def test_catalogue_add_row(owner_client, team):
    response = owner_client.post(reverse("web:vm-type-add"), new_vm_type())
    assert response.status_code == 302
    created = team.vm_types.get(name="c5.large")
    assert created.capacity == {"cpu": 2, "mem": 4} and created.price_per_hour == pytest.approx(0.085)


@pytest.mark.parametrize(("values", "field", "message"), [
    ({"cap_cpu": "-1"}, "cap_cpu", ">= 0"),
    ({"price_per_hour": "-0.5"}, "price_per_hour", ">= 0"),
    ({"name": ""}, "name", "must not be empty"),
    ({"name": "m1.large"}, "name", "already has a VM type"),
    ({"price_per_hour": "abc"}, "price_per_hour", "number"),
])
def test_catalogue_add_shows_field_errors_and_changes_nothing(owner_client, team, values, field, message):
    before = VMType.objects.count()
    response = owner_client.post(reverse("web:vm-type-add"), new_vm_type(**values))
    assert response.status_code == 400
    form = response.context["new_form"]
    assert any(message in e for e in form.errors.get(field, [])), form.errors
    assert VMType.objects.count() == before
    assert b"field-error" in response.content


def test_catalogue_edit_row(owner_client, team):
    large = team.vm_types.get(name="m1.large")
    data = {
        "resources": "cpu,mem",
        f"vm{large.pk}-name": "m1.large",
        f"vm{large.pk}-cap_cpu": "4",
        f"vm{large.pk}-cap_mem": "15",
        f"vm{large.pk}-price_per_hour": "0.25",
        f"vm{large.pk}-description": "x",
    }
    assert owner_client.post(reverse("web:vm-type-edit", args=[large.pk]), data).status_code == 302
    large.refresh_from_db()
    assert large.capacity == {"cpu": 4, "mem": 15} and large.price_per_hour == 0.25


def test_catalogue_edit_errors_stay_on_the_row(owner_client, team):
    large = team.vm_types.get(name="m1.large")
    data = {"resources": "cpu,mem", f"vm{large.pk}-name": "m1.large", f"vm{large.pk}-cap_cpu": "0",
            f"vm{large.pk}-cap_mem": "0", f"vm{large.pk}-price_per_hour": "0.25"}
    response = owner_client.post(reverse("web:vm-type-edit", args=[large.pk]), data)
    assert response.status_code == 400
    row = next(r for r in response.context["rows"] if r["vm_type"].pk == large.pk)
    assert row["form"].errors
    large.refresh_from_db()
    assert large.capacity == {"cpu": 4, "mem": 16} and large.price_per_hour == 0.24


def test_catalogue_cannot_drop_a_resource_a_cluster_uses(owner_client, cluster, team):
    large = team.vm_types.get(name="m1.large")
    data = {"resources": "cpu,mem", f"vm{large.pk}-name": "m1.large", f"vm{large.pk}-cap_cpu": "4",
            f"vm{large.pk}-cap_mem": "", f"vm{large.pk}-price_per_hour": "0.24"}
    response = owner_client.post(reverse("web:vm-type-edit", args=[large.pk]), data)
    assert response.status_code == 400
    assert "Table 3" in response.content.decode()
    large.refresh_from_db()
    assert large.capacity == {"cpu": 4, "mem": 16}


def test_catalogue_delete_of_a_used_vm_type_is_refused(owner_client, cluster, team):
    large = team.vm_types.get(name="m1.large")
    response = owner_client.post(reverse("web:vm-type-delete", args=[large.pk]), follow=True)
    assert response.status_code == 200
    assert "is used by the clusters" in response.content.decode()
    assert VMType.objects.filter(pk=large.pk).exists()


def test_catalogue_delete_and_presets(owner_client, team):
    type1 = team.vm_types.get(name="type-1")
    assert owner_client.post(reverse("web:vm-type-delete", args=[type1.pk])).status_code == 302
    assert not team.vm_types.filter(name="type-1").exists()
    response = owner_client.post(reverse("web:vm-type-presets"), {"preset": "paper-000"}, follow=True)
    page = response.content.decode()
    assert "Added type-1 from paper-000" in page and "left unchanged: type-2, type-3" in page
    assert team.vm_types.get(name="type-1").capacity == {"cpu": 4, "mem": 14}
    response = owner_client.post(reverse("web:vm-type-presets"), {"preset": "nope"}, follow=True)
    assert "no preset named" in response.content.decode()


# --------------------------------------------------------------------------- clusters


def cluster_post(team, rows, **fields):
    ids = {t.name: str(t.pk) for t in team.vm_types.all()}
    data = {"name": "Bigger", "description": "", "resources": "cpu, mem"}
    data.update(fields)
    data["entry_vm_type"] = [ids.get(name, name) for name, _ in rows]
    data["entry_count"] = [count for _, count in rows]
    return data


def test_cluster_create(owner_client, team):
    response = owner_client.post(reverse("web:cluster-new"), cluster_post(
        team, [("m1.large", "10"), ("m2.xlarge", "2")], billing_granularity_s="3600"))
    assert response.status_code == 302
    cluster = Cluster.objects.get(name="Bigger")
    assert [(e.vm_type.name, e.count) for e in cluster.entries.order_by("position")] == [
        ("m1.large", 10),
        ("m2.xlarge", 2),
    ]
    assert cluster.options == {"billing_granularity_s": 3600.0}


@pytest.mark.parametrize(("rows", "bad_row", "message"), [
    ([("m1.large", "10"), ("m2.xlarge", "-2")], 1, "count"),
    ([("m1.large", "10"), ("m2.xlarge", "2"), ("m1.large", "1")], 2, "already listed"),
    ([("m1.large", "10"), ("", "2")], 1, "vm_type: is required"),
    ([("m1.large", "")], 0, "count: is required"),
])
def test_cluster_row_errors_point_at_the_row(owner_client, team, rows, bad_row, message):
    response = owner_client.post(reverse("web:cluster-new"), cluster_post(team, rows))
    assert response.status_code == 400
    shown = response.context["rows"]
    for i, row in enumerate(shown):
        if i == bad_row:
            assert any(message in e for e in row["errors"]), row
        else:
            assert row["errors"] == []
    assert not Cluster.objects.filter(name="Bigger").exists()
    assert response.content.decode().count('class="entry-row row-error"') == 1


def test_cluster_machine_classes_in_the_editor(owner_client, team):
    data = cluster_post(team, [("m1.large", "2"), ("m1.xlarge", "1"), ("m2.xlarge", "1")])
    data["entry_machine_class"] = [" gpu ", "", "gpu"]
    page = owner_client.get(reverse("web:cluster-new")).content.decode()
    assert "Machine class" in page and "empty: the VM type is its own class" in page
    response = owner_client.post(reverse("web:cluster-new"), data)
    assert response.status_code == 302
    cluster = Cluster.objects.get(name="Bigger")
    assert [e.machine_class for e in cluster.entries.order_by("position")] == ["gpu", None, "gpu"]
    editor = owner_client.get(reverse("web:cluster-edit", args=[cluster.pk]))
    assert [r["machine_class"] for r in editor.context["rows"]] == ["gpu", "", "gpu"]
    # a bad label is told on its row, and what was typed stays
    data["entry_machine_class"] = ["gpu", "x" * 101, ""]
    response = owner_client.post(reverse("web:cluster-edit", args=[cluster.pk]), data)
    assert response.status_code == 400
    rows = response.context["rows"]
    assert rows[1]["errors"] == ["machine_class: must be at most 100 characters"]
    assert rows[1]["machine_class"] == "x" * 101 and rows[0]["errors"] == rows[2]["errors"] == []
    assert [e.machine_class for e in cluster.entries.order_by("position")] == ["gpu", None, "gpu"]


def test_cluster_edit_with_bad_input_changes_nothing(owner_client, cluster, team):
    response = owner_client.post(reverse("web:cluster-edit", args=[cluster.pk]), cluster_post(
        team, [("m1.large", "abc")], name="", boot_time_s="-5"))
    assert response.status_code == 400
    form = response.context["form"]
    assert "must not be empty" in form.errors["name"][0]
    cluster.refresh_from_db()
    assert cluster.name == "Table 3" and cluster.entries.count() == 3


def test_cluster_option_errors_go_to_their_field(owner_client, team):
    response = owner_client.post(
        reverse("web:cluster-new"), cluster_post(team, [("m1.large", "1")], boot_time_s="-5")
    )
    assert response.status_code == 400
    assert response.context["form"].errors["boot_time_s"]


def test_cluster_delete(owner_client, cluster):
    assert owner_client.post(reverse("web:cluster-delete", args=[cluster.pk])).status_code == 302
    assert not Cluster.objects.filter(pk=cluster.pk).exists()


# --------------------------------------------------------------------------- workloads

CSV = (
    "id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s\n"
    "new-1,analytics,10,2,1,2,60,300\nnew-2,,20,1,2,4,30,\n"
)


def test_workload_create_and_name_errors(owner_client, workload):
    response = owner_client.post(reverse("web:workload-new"), {"name": "Tiny"})  # taken
    assert response.status_code == 400
    assert "already has a workload" in response.context["form"].errors["name"][0]
    response = owner_client.post(reverse("web:workload-new"), {"name": "Fresh", "description": "d"})
    assert response.status_code == 302
    assert Workload.objects.get(name="Fresh").job_count == 0


def test_workload_csv_append_and_replace(owner_client, workload):
    before = workload.job_count
    url = reverse("web:workload-csv", args=[workload.pk])
    assert owner_client.post(url, {"csv": CSV, "format": "jobs", "mode": "append"}).status_code == 302
    workload.refresh_from_db()
    assert workload.job_count == before + 2 and workload.jobs[-1]["id"] == "new-2"
    upload = SimpleUploadedFile("jobs.csv", CSV.encode())
    assert owner_client.post(url, {"file": upload, "format": "jobs", "mode": "replace"}).status_code == 302
    workload.refresh_from_db()
    assert workload.job_count == 2


def test_workload_rm_simulator_csv(owner_client, workload):
    rm = "job-id,C,M,E,T_A,T_est,T_D\n1,2,4,3,0,100,300\n2,1,2,1,50,60,200\n"
    url = reverse("web:workload-csv", args=[workload.pk])
    response = owner_client.post(url, {"csv": rm, "format": "rm-simulator", "mode": "replace"})
    assert response.status_code == 302, response.content.decode()[-2000:]
    workload.refresh_from_db()
    assert workload.job_count == 2


def test_workload_csv_errors_name_the_line_and_change_nothing(owner_client, workload):
    jobs_before = list(workload.jobs)
    bad = CSV.replace("new-2,,20,1,2,4", "new-2,,20,1,two,4")
    response = owner_client.post(reverse("web:workload-csv", args=[workload.pk]),
                                 {"csv": bad, "format": "jobs", "mode": "append"})
    assert response.status_code == 400
    errors = response.context["csv_form"].errors["csv"]
    assert any("line 3 (job new-2), cpu" in e and "two" in e for e in errors), errors
    assert response.context["open_panel"] == "csv"
    workload.refresh_from_db()
    assert workload.jobs == jobs_before


def test_workload_csv_needs_text_or_a_file(owner_client, workload):
    url = reverse("web:workload-csv", args=[workload.pk])
    response = owner_client.post(url, {"csv": " ", "format": "jobs", "mode": "append"})
    assert response.status_code == 400
    assert response.context["csv_form"].non_field_errors()


def generator_post(**values):
    data = {"jobs": "25", "arrival_rate_per_s": "0.05", "executors_min": "1", "executors_max": "4",
            "duration_min": "10", "duration_max": "300", "deadline_fraction": "0.5", "slack_min": "1.2",
            "slack_max": "3", "frameworks": "etl, adhoc", "integer_sizes": "on", "seed": "7",
            "res_cpu_min": "1", "res_cpu_max": "4", "res_mem_min": "1", "res_mem_max": "8"}
    data.update(values)
    return data


def test_workload_generator(owner_client, workload):
    url = reverse("web:workload-generate", args=[workload.pk])
    assert owner_client.post(url, generator_post()).status_code == 302
    workload.refresh_from_db()
    assert workload.job_count == 25
    assert {f["name"] for f in workload.frameworks} >= {"etl", "adhoc"}


@pytest.mark.parametrize(("values", "field"), [
    ({"arrival_rate_per_s": "0"}, "arrival_rate_per_s"),
    ({"executors_min": "5", "executors_max": "2"}, "executors_min"),
    ({"res_cpu_min": "-1"}, "res_cpu_min"),
    ({"deadline_fraction": "1.5"}, "deadline_fraction"),
    ({"jobs": "0"}, "jobs"),
    ({"seed": "-3"}, "seed"),
])
def test_workload_generator_errors_go_to_their_field(owner_client, workload, values, field):
    jobs_before = list(workload.jobs)
    url = reverse("web:workload-generate", args=[workload.pk])
    response = owner_client.post(url, generator_post(**values))
    assert response.status_code == 400
    assert response.context["generator_form"].errors.get(field), response.context["generator_form"].errors
    workload.refresh_from_db()
    assert workload.jobs == jobs_before


def test_workload_export_downloads_the_scenario(owner_client, workload, cluster):
    response = owner_client.get(reverse("web:workload-export", args=[workload.pk]), {"cluster": cluster.pk})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="scenario-tiny-on-table-3.json"'
    doc = json.loads(response.content)
    assert doc["version"] == 1 and len(doc["jobs"]) == workload.job_count
    assert [t["name"] for t in doc["vm_types"]] == ["m1.large", "m1.xlarge", "m2.xlarge"]


def test_workload_export_of_a_misfit_says_why(owner_client, owner, team, workload):
    from planner.scenarios.services import cluster_create

    entries = [{"vm_type": "type-2", "count": 1}]
    tiny = cluster_create(team=team, user=owner, name="Too small", entries=entries)
    url = reverse("web:workload-export", args=[workload.pk])
    response = owner_client.get(url, {"cluster": tiny.pk}, follow=True)
    assert response.status_code == 200
    assert "does not fit cluster" in response.content.decode()


def test_scenario_upload_creates_a_cluster_and_a_workload(owner_client, scenario_doc):
    body = {"document": json.dumps(scenario_doc), "name": "Imported"}
    response = owner_client.post(reverse("web:scenario-upload"), body)
    assert response.status_code == 302
    workload = Workload.objects.get(name="Imported")
    assert response["Location"] == reverse("web:workload-edit", args=[workload.pk])
    assert Cluster.objects.filter(name="Imported").exists()
    upload = SimpleUploadedFile("s.json", json.dumps(scenario_doc).encode())
    assert owner_client.post(reverse("web:scenario-upload"), {"file": upload}).status_code == 302


@pytest.mark.parametrize(("document", "message"), [
    ("{not json", "not valid JSON"),
    ('{"vm_types": [], "jobs": [], "x": NaN}', "NaN is not allowed"),
])
def test_scenario_upload_rejects_bad_json(owner_client, document, message):
    before = (Cluster.objects.count(), Workload.objects.count())
    response = owner_client.post(reverse("web:scenario-upload"), {"document": document})
    assert response.status_code == 400
    assert any(message in e for e in response.context["form"].errors["document"])
    assert (Cluster.objects.count(), Workload.objects.count()) == before


def test_scenario_upload_reports_document_paths(owner_client, scenario_doc):
    scenario_doc["jobs"][3]["executor"]["cpu"] = -1
    response = owner_client.post(reverse("web:scenario-upload"), {"document": json.dumps(scenario_doc)})
    assert response.status_code == 400
    assert any("jobs[3].executor.cpu" in e for e in response.context["form"].errors["document"])
    assert not Workload.objects.filter(name="tiny").exists()
