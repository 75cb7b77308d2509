"""A workload's jobs move from one JSON list on its row to Parquet chunks (``JobChunk``).

Every stored workload's jobs are copied into chunks, exactly (``jobstore.jobs_decode`` gives
the same list back), before the JSON column is dropped; going back copies them into the
column again. Both directions read one workload at a time.
"""

import django.db.models.deletion
from django.db import migrations, models

from planner.scenarios.jobstore import JOBS_PER_CHUNK, jobs_decode, jobs_encode


def jobs_to_chunks(apps, schema_editor):
    Workload = apps.get_model("scenarios", "Workload")
    JobChunk = apps.get_model("scenarios", "JobChunk")
    for pk in Workload.objects.order_by("pk").values_list("pk", flat=True):
        jobs = Workload.objects.values_list("jobs", flat=True).get(pk=pk) or []
        for position, first in enumerate(range(0, len(jobs), JOBS_PER_CHUNK)):
            group = jobs[first : first + JOBS_PER_CHUNK]
            JobChunk.objects.create(
                workload_id=pk, position=position, first_job=first, job_count=len(group),
                data=jobs_encode(group),
            )
        Workload.objects.filter(pk=pk).update(job_count=len(jobs))


def chunks_to_jobs(apps, schema_editor):
    Workload = apps.get_model("scenarios", "Workload")
    JobChunk = apps.get_model("scenarios", "JobChunk")
    for pk in Workload.objects.order_by("pk").values_list("pk", flat=True):
        jobs = []
        chunks = JobChunk.objects.filter(workload_id=pk).order_by("first_job")
        for data in chunks.values_list("data", flat=True):
            jobs.extend(jobs_decode(bytes(data)))
        Workload.objects.filter(pk=pk).update(jobs=jobs, job_count=len(jobs))


class Migration(migrations.Migration):

    dependencies = [
        ("scenarios", "0003_market_prices"),
    ]

    operations = [
        migrations.CreateModel(
            name="JobChunk",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveIntegerField()),
                ("first_job", models.PositiveIntegerField()),
                ("job_count", models.PositiveIntegerField()),
                ("data", models.BinaryField()),
                (
                    "workload",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="job_chunks",
                        to="scenarios.workload",
                    ),
                ),
            ],
            options={
                "ordering": ["workload_id", "position"],
                "indexes": [models.Index(fields=["workload", "first_job"], name="jobchunk_first_job_idx")],
            },
        ),
        migrations.RunPython(jobs_to_chunks, chunks_to_jobs),
        migrations.RemoveField(model_name="workload", name="jobs"),
    ]
