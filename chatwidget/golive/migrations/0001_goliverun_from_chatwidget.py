"""The house move (issue 24): the go-live runs move from chatwidget to the golive app.

State only: the tables keep their names (`Meta.db_table`) and their rows; no statement runs
on the database. The content types move in chatwidget.0009."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('sites', '0001_site_from_chatwidget'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='GoliveRun',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('passed', 'Passed'), ('warned', 'Passed with advisory findings'), ('failed', 'Failed'), ('error', 'Could not run')], default='queued', max_length=10, verbose_name='status')),
                        ('source', models.CharField(default='command', max_length=10, verbose_name='started from')),
                        ('model_name', models.CharField(blank=True, max_length=100, verbose_name='model')),
                        ('grader_model', models.CharField(blank=True, max_length=100, verbose_name='grading model')),
                        ('config', models.JSONField(blank=True, default=dict, verbose_name='configuration')),
                        ('progress_done', models.PositiveSmallIntegerField(default=0)),
                        ('progress_total', models.PositiveSmallIntegerField(default=0)),
                        ('current_case', models.CharField(blank=True, max_length=40)),
                        ('report', models.JSONField(blank=True, default=list, verbose_name='report')),
                        ('total_tokens', models.PositiveIntegerField(default=0, verbose_name='total tokens')),
                        ('ttft_median_ms', models.PositiveIntegerField(blank=True, null=True, verbose_name='median time to first token (ms)')),
                        ('conversation_ids', models.JSONField(blank=True, default=list)),
                        ('error', models.TextField(blank=True, verbose_name='error')),
                        ('created_at', models.DateTimeField(auto_now_add=True, db_index=True, verbose_name='requested')),
                        ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started')),
                        ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished')),
                        ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL, verbose_name='requested by')),
                        ('site', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='golive_runs', to='sites.site', verbose_name='site')),
                    ],
                    options={
                        'verbose_name': 'go-live check',
                        'verbose_name_plural': 'go-live checks',
                        'db_table': 'chatwidget_goliverun',
                        'ordering': ['-created_at'],
                    },
                ),
            ],
        ),
    ]
