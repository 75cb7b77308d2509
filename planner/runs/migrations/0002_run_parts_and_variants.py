"""Runs made of parts; results keyed by a neutral variant label; per-job detail columnar.

Existing runs stay readable: every run gets one part per scheduler (finished runs get
finished parts, unfinished runs queued parts that the reaper sends to a worker), the
lower bound moves into the run's context, the summaries lose their stored saving (savings
are computed on read against any baseline) and result documents move to the columnar
layout of ``scheduling.cost.document`` (format 2).
"""

import django.db.models.deletion
from django.db import migrations, models

FINISHED = ("succeeded", "failed", "cancelled")


def forwards(apps, schema_editor):
    from scheduling.cost.document import to_columnar

    Run = apps.get_model("runs", "Run")
    RunPart = apps.get_model("runs", "RunPart")
    RunResult = apps.get_model("runs", "RunResult")
    for run in Run.objects.defer("scenario", "figures").iterator(chunk_size=100):
        finished = run.status in FINISHED
        labels = list((run.options or {}).get("schedulers") or [])
        results = {r.variant: r for r in RunResult.objects.filter(run_id=run.pk).defer("result")}
        for label in results:
            if label not in labels:
                labels.append(label)
        for position, label in enumerate(labels):
            if not finished:
                status, error = "queued", ""
            elif label in results:
                status, error = "succeeded", ""
            else:
                status, error = run.status, run.error if run.status == "failed" else ""
            part = RunPart.objects.create(
                run_id=run.pk,
                position=position,
                label=label,
                payload={"scheduler": label},
                status=status,
                progress=1.0 if status == "succeeded" else 0.0,
                attempts=1 if finished else 0,
                error=error,
                started_at=run.started_at if finished else None,
                finished_at=run.finished_at if finished else None,
            )
            if label in results:
                RunResult.objects.filter(pk=results[label].pk).update(part_id=part.pk)
        if not finished:
            Run.objects.filter(pk=run.pk).update(status="queued", started_at=None, progress=0.0)
    for result in RunResult.objects.iterator(chunk_size=20):
        doc = to_columnar(result.result)
        summary = {k: v for k, v in (result.summary or {}).items() if k != "saving_vs_baseline_pct"}
        RunResult.objects.filter(pk=result.pk).update(result=doc, summary=summary)
        bound = doc.get("lower_bound_cost")
        if isinstance(bound, (int, float)):
            Run.objects.filter(pk=result.run_id, context={}).update(context={"lower_bound_cost": bound})


class Migration(migrations.Migration):
    dependencies = [("runs", "0001_initial")]
    # Not one transaction: on PostgreSQL the rows ``forwards`` writes leave deferred foreign-key
    # checks pending, and the indexes Django creates at the migration's end (the new ``part``
    # column's) cannot be built in the transaction that holds them ("pending trigger events").
    # Each operation commits on its own, ``forwards`` in one transaction.
    atomic = False

    operations = [
        migrations.CreateModel(
            name="RunPart",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveIntegerField()),
                ("label", models.CharField(max_length=255)),
                ("payload", models.JSONField(default=dict)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("queued", "Queued"),
                            ("running", "Running"),
                            ("succeeded", "Succeeded"),
                            ("failed", "Failed"),
                            ("cancelled", "Cancelled"),
                        ],
                        default="queued",
                        max_length=20,
                    ),
                ),
                ("progress", models.FloatField(default=0.0)),
                ("attempts", models.PositiveIntegerField(default=0)),
                ("error", models.TextField(blank=True, default="")),
                ("task_id", models.CharField(blank=True, default="", max_length=255)),
                ("sent_at", models.DateTimeField(blank=True, null=True)),
                ("sends", models.PositiveIntegerField(default=0)),
                ("worker", models.CharField(blank=True, default="", max_length=255)),
                ("lease_until", models.DateTimeField(blank=True, null=True)),
                ("started_at", models.DateTimeField(blank=True, null=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                (
                    "run",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="parts", to="runs.run"
                    ),
                ),
            ],
            options={"ordering": ["run_id", "position"]},
        ),
        migrations.AddConstraint(
            model_name="runpart",
            constraint=models.UniqueConstraint(fields=("run", "position"), name="runpart_unique_position"),
        ),
        migrations.AddIndex(
            model_name="runpart",
            index=models.Index(fields=["status", "lease_until"], name="runpart_status_lease_idx"),
        ),
        migrations.AddIndex(
            model_name="runpart",
            index=models.Index(fields=["status", "sent_at"], name="runpart_status_sent_idx"),
        ),
        migrations.RemoveConstraint(model_name="runresult", name="runresult_unique_scheduler_per_run"),
        migrations.RenameField(model_name="runresult", old_name="scheduler", new_name="variant"),
        migrations.AddConstraint(
            model_name="runresult",
            constraint=models.UniqueConstraint(
                fields=("run", "variant"), name="runresult_unique_variant_per_run"
            ),
        ),
        migrations.AddField(
            model_name="runresult",
            name="part",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="results",
                to="runs.runpart",
            ),
        ),
        migrations.AddField(model_name="run", name="context", field=models.JSONField(default=dict)),
        migrations.AlterField(
            model_name="run", name="kind", field=models.CharField(default="compare", max_length=40)
        ),
        migrations.RemoveField(model_name="run", name="task_id"),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
