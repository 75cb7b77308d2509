# The result document is stored with its numeric columns packed (planner.core.dbfields). The
# column is the same (JSON, jsonb on PostgreSQL) and rows stored before are read as they are,
# so only the model's state changes: no table is rebuilt.

from django.db import migrations

import planner.core.dbfields


class Migration(migrations.Migration):

    dependencies = [
        ('runs', '0007_part_label_finished_index'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='runresult',
                    name='result',
                    field=planner.core.dbfields.PackedJSONField(),
                ),
            ],
        ),
    ]
