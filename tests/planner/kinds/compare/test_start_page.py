"""The comparison's start page: the shared start page with the comparison's form (scheduler boxes
and lines of one's own, the declared run options with a RUT weight per resource, baseline, seed);
errors next to the field that caused them; clones of earlier runs."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.urls import reverse

from planner.runs.models import Run

pytestmark = pytest.mark.django_db



def run_post(cluster_, workload_, **values):
    data = {"source": "stored", "cluster": cluster_.pk, "workload": workload_.pk,
            "schedulers": ["fifo-consolidate", "edf-bfd"], "seed": "0"}
    data.update(values)
    return data


def test_new_comparison_queues_a_run(owner_client, cluster, workload, django_capture_on_commit_callbacks):
    with mock.patch("planner.runs.tasks.run_part_execute.apply_async") as enqueue, \
            django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(reverse("web:compare-start"), run_post(
            cluster, workload, custom="edf-bfd:rut.cpu=0.5,rut.mem=0.5", baseline="edf-bfd", seed="3",
            rut_cpu="0.7", rut_mem="0.3", ilp_method="integer", billing_granularity_s="60"))
    assert response.status_code == 302
    run = Run.objects.get()
    assert response["Location"] == reverse("web:run-detail", args=[run.pk])
    assert run.options["schedulers"] == ["fifo-consolidate", "edf-bfd", "edf-bfd:rut.cpu=0.5,rut.mem=0.5"]
    assert run.options["baseline"] == "edf-bfd" and run.options["seed"] == 3
    assert run.options["options"] == {"rut": {"cpu": 0.7, "mem": 0.3}, "ilp_method": "integer",
                                      "billing_granularity_s": 60.0}
    assert enqueue.call_count == 3  # one part per scheduler


def test_new_comparison_edf_backfill_option(
    owner_client, cluster, workload, django_capture_on_commit_callbacks
):
    with (
        mock.patch("planner.runs.tasks.run_part_execute.apply_async"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = owner_client.post(
            reverse("web:compare-start"), run_post(cluster, workload, edf_backfill="on")
        )
    assert response.status_code == 302
    assert Run.objects.get().options["options"] == {"edf_backfill": True}


def test_new_comparison_from_a_pasted_document(owner_client, scenario_doc, team):
    response = owner_client.post(reverse("web:compare-start"), {
        "source": "document", "document": json.dumps(scenario_doc), "schedulers": ["edf-bfd"], "seed": "0"})
    assert response.status_code == 302
    run = Run.objects.get()
    assert run.team_id == team.pk and run.cluster_id is None and run.job_count == len(scenario_doc["jobs"])


@pytest.mark.parametrize(("values", "field", "message"), [
    ({"custom": "fifo-nope"}, "custom", "line 1 (fifo-nope): unknown placement"),
    ({"custom": "edf-bfd:rut.cpu=x"}, "custom", "line 1"),
    ({"schedulers": [], "custom": ""}, "schedulers", "Tick at least one"),
    ({"baseline": "morpheus"}, "baseline", "must be one of the run's schedulers"),
    ({"rut_cpu": "0.9", "rut_mem": "0.3"}, "rut_cpu", "sum to 1"),
    ({"ilp_time_limit_s": "-1"}, "ilp_time_limit_s", "must be a number of seconds in (0, 3600]"),
    ({"boot_time_s": "-1"}, "boot_time_s", "must be a number of seconds from 0 to"),
    ({"seed": "-1"}, "seed", "must be a whole number from 0 to"),
    ({"cluster": ""}, "cluster", "Choose a cluster"),
])
def test_new_comparison_errors_are_next_to_their_field(
    owner_client, cluster, workload, values, field, message
):
    response = owner_client.post(reverse("web:compare-start"), run_post(cluster, workload, **values))
    assert response.status_code == 400
    errors = response.context["form"].errors.get(field, [])
    assert any(message in e for e in errors), response.context["form"].errors
    assert not Run.objects.exists()


def test_new_comparison_document_errors_keep_their_paths(owner_client, scenario_doc):
    scenario_doc["jobs"][2]["executors"] = 0
    response = owner_client.post(reverse("web:compare-start"), {
        "source": "document", "document": json.dumps(scenario_doc), "schedulers": ["edf-bfd"], "seed": "0"})
    assert response.status_code == 400
    assert any("jobs[2].executors" in e for e in response.context["form"].errors["document"])
    assert not Run.objects.exists()


def test_new_comparison_of_a_misfit_workload_blames_the_workload(owner_client, owner, team, workload):
    from planner.scenarios.services import cluster_create

    tiny = cluster_create(
        team=team, user=owner, name="Too small", entries=[{"vm_type": "type-2", "count": 1}]
    )
    response = owner_client.post(reverse("web:compare-start"), run_post(tiny, workload))
    assert response.status_code == 400
    assert response.context["form"].errors["workload"]
    assert not Run.objects.exists()


def test_the_run_form_offers_every_declared_option_and_a_rut_weight_per_resource(
    owner_client, owner, team, scenario_doc, django_capture_on_commit_callbacks
):
    from planner.catalogue.services import vm_type_create
    from scheduling import option_fields

    vm_type_create(
        team=team, user=owner, name="g1", capacity={"cpu": 8, "mem": 32, "gpu": 1}, price_per_hour=2.0
    )
    form = owner_client.get(reverse("web:compare-start")).context["form"]
    expected = [o.name.replace(".", "_") for o in option_fields(("cpu", "mem", "gpu"))]
    assert [f.name for f in form.option_bound_fields()] == expected
    assert "rut_gpu" in expected and form.fields["ilp_time_limit_s"].widget.attrs["placeholder"] == "10"

    doc = {
        **scenario_doc,
        "resources": ["cpu", "mem", "gpu"],
        "vm_types": [
            {"name": "g1", "capacity": {"cpu": 8, "mem": 32, "gpu": 1}, "price_per_hour": 2.0, "count": 4}
        ],
    }
    doc["jobs"] = [{**j, "executor": {**j["executor"], "gpu": 0}} for j in doc["jobs"]]
    with (
        mock.patch("planner.runs.tasks.run_part_execute.apply_async"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = owner_client.post(reverse("web:compare-start"), {
            "source": "document", "document": json.dumps(doc), "schedulers": ["edf-bfd"], "seed": "0",
            "rut_cpu": "0.5", "rut_mem": "0.3", "rut_gpu": "0.2"})
    assert response.status_code == 302, response.context["form"].errors
    assert Run.objects.get().options["options"] == {"rut": {"cpu": 0.5, "mem": 0.3, "gpu": 0.2}}

    response = owner_client.post(reverse("web:compare-start"), {
        "source": "document", "document": json.dumps(doc), "schedulers": ["edf-bfd"], "seed": "0",
        "rut_cpu": "0.5", "rut_gpu": "0.2"})
    assert response.status_code == 400
    assert "sum to 1" in response.context["form"].errors["rut_cpu"][0]


def test_the_new_comparison_page_says_what_each_scheduler_does(owner_client):
    from scheduling import SCHEDULERS

    page = owner_client.get(reverse("web:compare-start")).content.decode()
    assert page.count('class="small muted scheduler-what"') == len(SCHEDULERS)
    assert "best-fit decreasing" in page and "Algorithm 1" in page and "eq. 10" in page
    assert "Spark&#x27;s default spreading" in page or "Spark's default spreading" in page


# --------------------------------------------------------------------------- clones


def test_a_finished_run_is_cloned_into_a_new_form(owner_client, client_for, outsider, start_run, workload):
    from planner.scenarios.models import Workload

    run = start_run(
        schedulers=["fifo-spread", "edf-bfd:rut.cpu=0.5,rut.mem=0.5"],
        baseline="edf-bfd:rut.cpu=0.5,rut.mem=0.5",
        seed=7,
        options={"rut": {"cpu": 0.6, "mem": 0.4}, "edf_backfill": True},
        name="Nightly",
    )
    page = owner_client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    clone_url = f"{reverse('web:compare-start')}?clone={run.pk}"
    assert clone_url in page
    response = owner_client.get(clone_url)
    assert response.status_code == 200
    initial = response.context["form"].initial
    assert (
        initial["source"] == "stored"
        and initial["cluster"] == run.cluster_id
        and initial["workload"] == workload.pk
    )
    assert initial["schedulers"] == ["fifo-spread"] and initial["custom"] == "edf-bfd:rut.cpu=0.5,rut.mem=0.5"
    assert (initial["baseline"], initial["seed"], initial["name"]) == (
        "edf-bfd:rut.cpu=0.5,rut.mem=0.5",
        7,
        "Copy of Nightly",
    )
    assert (initial["rut_cpu"], initial["rut_mem"], initial["edf_backfill"]) == (0.6, 0.4, True)
    assert 'id="cloned-from"' in response.content.decode()

    # Its workload gone: the clone starts from the scenario document the run used.
    Workload.objects.filter(pk=workload.pk).delete()
    initial = owner_client.get(clone_url).context["form"].initial
    assert initial["source"] == "document" and json.loads(initial["document"])["jobs"] == run.scenario["jobs"]

    assert client_for(outsider).get(clone_url).status_code in (302, 404)


def test_a_clone_started_as_it_is_runs_the_same_comparison(owner_client, start_run, execute_run,
                                                           django_capture_on_commit_callbacks):
    from unittest import mock

    from planner.runs.models import Run

    run = start_run(schedulers=["fifo-spread", "edf-bfd"], seed=3, options={"billing_granularity_s": 60})
    form = owner_client.get(f"{reverse('web:compare-start')}?clone={run.pk}").context["form"]
    data = {name: value for name, value in form.initial.items() if value not in (None, "")}
    with (
        mock.patch("planner.runs.tasks.run_part_execute.apply_async"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = owner_client.post(reverse("web:compare-start"), data)
    assert response.status_code == 302, response.context["form"].errors
    copy = Run.objects.exclude(pk=run.pk).get()
    assert (
        copy.options == run.options and copy.scenario == run.scenario and copy.name == f"Copy of {run.name}"
    )


# --------------------------------------------------------------------------- the form, from the declaration


def test_the_forms_fields_are_the_declared_parameters(owner_client):
    from scheduling import SCHEDULERS
    from scheduling.cost.params import COMPARISON_PARAMS, DEFAULT_SCHEDULERS
    from scheduling.params import describe, param_named

    form = owner_client.get(reverse("web:compare-start")).context["form"]
    schedulers = form.fields["schedulers"]
    assert [value for value, _ in schedulers.choices] == list(SCHEDULERS)
    assert schedulers.initial == list(DEFAULT_SCHEDULERS)
    assert schedulers.help_text == describe(param_named(COMPARISON_PARAMS, "schedulers"))
    seed = param_named(COMPARISON_PARAMS, "seed")
    attrs = form.fields["seed"].widget.attrs  # the browser's hints; the declaration checks the bounds
    assert (attrs["min"], attrs["max"]) == (seed.minimum, seed.maximum)
    assert form.fields["baseline"].help_text == describe(param_named(COMPARISON_PARAMS, "baseline"))
    # The run options are the page's own fields (one RUT weight per resource), not an "options" box.
    assert "options" not in form.fields and not any(name.startswith("options_") for name in form.fields)
    assert form.fields["source"].initial == "stored"


def test_a_teams_only_cluster_and_workload_are_chosen(owner_client, cluster, workload):
    form = owner_client.get(reverse("web:compare-start")).context["form"]
    assert (form.initial["cluster"], form.initial["workload"]) == (cluster.pk, workload.pk)
    assert f"{workload.name} · {workload.job_count:,} jobs" in dict(form.fields["workload"].choices).values()


def test_start_a_new_run_on_a_runs_stored_objects(owner_client, owner, team, cluster, workload):
    from planner.scenarios.services import cluster_create

    other = cluster_create(team=team, user=owner, name="Other", entries=[{"vm_type": "m1.large", "count": 2}])
    url = f"{reverse('web:compare-start')}?cluster={other.pk}&workload={workload.pk}"
    initial = owner_client.get(url).context["form"].initial
    assert (initial["source"], initial["cluster"], initial["workload"]) == ("stored", other.pk, workload.pk)


def test_each_bad_line_gets_its_own_error(owner_client, cluster, workload):
    response = owner_client.post(reverse("web:compare-start"), run_post(
        cluster, workload, schedulers=["fifo-consolidate", "edf-bfd"],
        custom="edf-bfd\nfifo-nope\n\nedf-quantum"))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert len(errors["custom"]) == 3 and "schedulers" not in errors
    assert errors["custom"][0] == "line 1 (edf-bfd): 'edf-bfd' is listed twice"
    assert errors["custom"][1].startswith("line 2 (fifo-nope): unknown placement 'nope'")
    assert errors["custom"][2].startswith("line 3 (edf-quantum): unknown placement 'quantum'")


def test_empty_option_fields_keep_the_scenarios_own(owner_client, cluster, workload,
                                                    django_capture_on_commit_callbacks):
    blank = {name: "" for name in ("rut_cpu", "rut_mem", "ilp_time_limit_s", "ilp_method", "boot_time_s",
                                   "min_billed_s", "billing_granularity_s", "scheduling_interval_s")}
    with (
        mock.patch("planner.runs.tasks.run_part_execute.apply_async"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = owner_client.post(reverse("web:compare-start"), run_post(cluster, workload, **blank))
    assert response.status_code == 302
    assert Run.objects.get().options == {"schedulers": ["fifo-consolidate", "edf-bfd"],
                                         "baseline": "fifo-consolidate", "seed": 0, "options": None}


def test_an_option_error_of_a_resource_goes_to_its_weight(owner_client, owner, team, cluster, workload):
    from planner.catalogue.services import vm_type_create

    vm_type_create(
        team=team, user=owner, name="g1", capacity={"cpu": 8, "mem": 32, "gpu": 1}, price_per_hour=2.0
    )
    # The team has a GPU type, this cluster has none: its weight is not one of the scenario's.
    response = owner_client.post(reverse("web:compare-start"), run_post(
        cluster, workload, rut_cpu="0.5", rut_mem="0.3", rut_gpu="0.2"))
    assert response.status_code == 400
    assert response.context["form"].errors["rut_gpu"] == ["unknown resource (resources are cpu, mem)"]
    assert 'id="id_rut_gpu"' in response.content.decode() and "<details open>" in response.content.decode()


def test_the_papers_evaluation_is_a_preset(owner_client, cluster, workload):
    """Paper 003's five schedulers (scheduling.cost.setups) in one click, on the team's cluster."""
    from scheduling.cost.setups import PAPER_SCHEDULERS

    url = reverse("web:compare-start")
    page = owner_client.get(url).content.decode()
    assert 'data-preset="003-evaluation"' in page
    filled = owner_client.get(url + "?preset=003-evaluation")
    form = filled.context["form"]
    assert form["schedulers"].value() == list(PAPER_SCHEDULERS) and form["baseline"].value() == "fifo-spread"
    assert form["cluster"].value() == cluster.pk  # the team's only cluster and workload stay chosen
    response = owner_client.post(url, {
        "source": "stored", "cluster": cluster.pk, "workload": workload.pk,
        "schedulers": list(PAPER_SCHEDULERS), "baseline": "fifo-spread", "seed": "0",
    })
    assert response.status_code == 302
    run = Run.objects.get()
    assert run.options["schedulers"] == list(PAPER_SCHEDULERS) and run.options["baseline"] == "fifo-spread"
