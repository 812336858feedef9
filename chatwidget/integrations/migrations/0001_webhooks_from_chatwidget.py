"""The house move (issue 24): the webhooks move from chatwidget to the integrations app.

State only: the tables keep their names (`Meta.db_table`) and their rows; no statement runs
on the database. The content types move in chatwidget.0009."""

import chatwidget.integrations.models
import django.db.models.deletion
import uuid
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('sites', '0001_site_from_chatwidget'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Webhook',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('url', models.URLField(help_text='https:// in production. Redirects are not followed.', max_length=500, verbose_name='receiver URL')),
                        ('events', models.JSONField(blank=True, default=list, verbose_name='events')),
                        ('include_text', models.BooleanField(default=False, help_text='Off: events carry ids, counts and scores only.', verbose_name='include message text')),
                        ('secret', models.CharField(default=chatwidget.integrations.models.new_webhook_secret, help_text='The receiver checks the X-Chatwidget-Signature header with it.', max_length=100, verbose_name='signing secret')),
                        ('active', models.BooleanField(default=True, verbose_name='active')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('site', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='webhooks', to='sites.site')),
                    ],
                    options={
                        'verbose_name': 'webhook',
                        'verbose_name_plural': 'webhooks',
                        'db_table': 'chatwidget_webhook',
                        'ordering': ['site', 'pk'],
                    },
                ),
                migrations.CreateModel(
                    name='WebhookDelivery',
                    fields=[
                        ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                        ('event', models.CharField(choices=[('case.waiting', 'Case waiting'), ('case.resolved', 'Case resolved'), ('conversation.started', 'Conversation started'), ('rating.given', 'Rating given')], max_length=40, verbose_name='event')),
                        ('body', models.TextField()),
                        ('status', models.CharField(choices=[('pending', 'Pending'), ('delivered', 'Delivered'), ('failed', 'Failed')], db_index=True, default='pending', max_length=10, verbose_name='status')),
                        ('attempts', models.PositiveSmallIntegerField(default=0, verbose_name='attempts')),
                        ('response_code', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='last HTTP status')),
                        ('error', models.CharField(blank=True, max_length=200, verbose_name='last error')),
                        ('created_at', models.DateTimeField(auto_now_add=True, db_index=True, verbose_name='created')),
                        ('last_attempt_at', models.DateTimeField(blank=True, null=True, verbose_name='last attempt')),
                        ('hook', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='deliveries', to='integrations.webhook')),
                    ],
                    options={
                        'verbose_name': 'webhook delivery',
                        'verbose_name_plural': 'webhook deliveries',
                        'db_table': 'chatwidget_webhookdelivery',
                        'ordering': ['-created_at'],
                    },
                ),
            ],
        ),
    ]
