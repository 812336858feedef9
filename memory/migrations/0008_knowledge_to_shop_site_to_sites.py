"""The house move (issue 24): the knowledge models leave memory for the shop app; site foreign keys point at sites.Site.

State only: the tables keep their names (`Meta.db_table`) and their rows; no statement runs
on the database. The content types move in chatwidget.0009."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('memory', '0007_trace_answer_latency'),
        ('sites', '0001_site_from_chatwidget'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='knowledgedocument',
                    name='site',
                ),
                migrations.RemoveField(
                    model_name='knowledgedocument',
                    name='source',
                ),
                migrations.RemoveField(
                    model_name='knowledgesource',
                    name='site',
                ),
                migrations.RemoveField(
                    model_name='knowledgetrace',
                    name='trace',
                ),
                migrations.AlterField(
                    model_name='auditevent',
                    name='site',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, to='sites.site'),
                ),
                migrations.AlterField(
                    model_name='consent',
                    name='site',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to='sites.site'),
                ),
                migrations.AlterField(
                    model_name='conversation',
                    name='site',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='conversations', to='sites.site'),
                ),
                migrations.AlterField(
                    model_name='dailystat',
                    name='site',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to='sites.site'),
                ),
                migrations.AlterField(
                    model_name='profile',
                    name='site',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='profiles', to='sites.site'),
                ),
                migrations.AlterField(
                    model_name='retentionpolicy',
                    name='site',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='retention', to='sites.site'),
                ),
                migrations.DeleteModel(
                    name='KnowledgeChunk',
                ),
                migrations.DeleteModel(
                    name='KnowledgeDocument',
                ),
                migrations.DeleteModel(
                    name='KnowledgeSource',
                ),
                migrations.DeleteModel(
                    name='KnowledgeTrace',
                ),
            ],
        ),
    ]
