"""The house move (issue 24): `Site` moves from the chatwidget project package to the sites app.

State only: the tables keep their names (`Meta.db_table`) and their rows; no statement runs
on the database. The content types move in chatwidget.0009."""

import chatwidget.sites.models
import chatwidget.sites.theme
import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    # after the last migration of each app before the move: those create content types and
    # permissions of the moved models, which chatwidget.0009 then moves with them
    dependencies = [
        ("chatwidget", "0008_owner_actions"),
        ("memory", "0007_trace_answer_latency"),
        ("handover", "0006_canned_reply_roles"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Site',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=120, verbose_name='name')),
                        ('key', models.CharField(default=chatwidget.sites.models.new_site_key, editable=False, max_length=64, unique=True, verbose_name='public site key')),
                        ('allowed_origins', models.JSONField(default=list, help_text='Origins allowed to embed the widget, e.g. https://shop.example.com', verbose_name='allowed origins')),
                        ('system_rules', models.TextField(blank=True, default="You are the shop's helpful assistant. Answer briefly and factually. If you do not know, say so and offer a person.", verbose_name='system rules')),
                        ('pinned_conventions', models.TextField(blank=True, help_text='Facts that must always hold, sent with every call.', verbose_name='pinned conventions')),
                        ('greeting', models.CharField(blank=True, default='Hello! How can I help you today?', max_length=300, verbose_name='greeting')),
                        ('default_language', models.CharField(choices=[('en', 'English'), ('de', 'German')], default='en', max_length=2, verbose_name='default language')),
                        ('model_name', models.CharField(blank=True, help_text='Empty: CHAT_MODEL setting.', max_length=100, verbose_name='model name')),
                        ('context_budget', models.PositiveIntegerField(default=8000, validators=[django.core.validators.MinValueValidator(1000), django.core.validators.MaxValueValidator(1000000)], verbose_name='context budget (tokens)')),
                        ('answer_reserve', models.PositiveIntegerField(default=800, validators=[django.core.validators.MinValueValidator(100), django.core.validators.MaxValueValidator(100000)], verbose_name='answer reserve (tokens)')),
                        ('knowledge_share', models.PositiveSmallIntegerField(default=25, help_text="The most of the context budget that excerpts from the shop's knowledge may take. 0 turns retrieval off.", validators=[django.core.validators.MaxValueValidator(60)], verbose_name='knowledge share (% of the budget)')),
                        ('message_max_length', models.PositiveIntegerField(default=4000, validators=[django.core.validators.MinValueValidator(50), django.core.validators.MaxValueValidator(20000)], verbose_name='message length limit (characters)')),
                        ('verbatim_min_exchanges', models.PositiveSmallIntegerField(default=3, validators=[django.core.validators.MinValueValidator(1)], verbose_name='verbatim minimum (exchanges)')),
                        ('condense_after_turns', models.PositiveSmallIntegerField(default=6, help_text='The verbatim window is the newest turns kept word for word.', validators=[django.core.validators.MinValueValidator(1)], verbose_name='condense when this many turns are outside the verbatim window')),
                        ('verbatim_window_turns', models.PositiveSmallIntegerField(default=12, validators=[django.core.validators.MinValueValidator(6)], verbose_name='verbatim window (turns)')),
                        ('staff_hours', models.CharField(blank=True, default='mon-fri 09:00-17:00', help_text="When a person can answer, e.g. 'mon-fri 09:00-17:00; sat 10:00-14:00'. Empty: always.", max_length=200, verbose_name='staff hours')),
                        ('time_zone', models.CharField(default='Europe/Berlin', max_length=64, verbose_name='time zone')),
                        ('theme_primary', models.CharField(default='#1f4fd1', help_text="Launcher, header and the visitor's messages, with white text on it: needs a contrast of at least 4.5:1 with white.", max_length=7, validators=[chatwidget.sites.theme.validate_primary_colour], verbose_name='primary colour')),
                        ('theme_position', models.CharField(choices=[('right', 'Bottom right'), ('left', 'Bottom left')], default='right', max_length=5, verbose_name='position')),
                        ('theme_scheme', models.CharField(choices=[('auto', "Follow the visitor's device (light or dark)"), ('light', 'Always light'), ('dark', 'Always dark')], default='auto', max_length=5, verbose_name='colour scheme')),
                        ('launcher_label', models.CharField(blank=True, help_text="Text next to the chat icon, e.g. 'Questions?'. Empty: the icon only.", max_length=40, verbose_name='launcher label')),
                        ('operator_name', models.CharField(blank=True, help_text='Who runs this chat service; shown on the privacy page.', max_length=200, verbose_name='operator')),
                        ('operator_contact', models.TextField(blank=True, help_text='Postal address and e-mail for privacy questions; shown on the privacy page.', max_length=500, verbose_name='operator contact')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                    ],
                    options={
                        'verbose_name': 'site',
                        'verbose_name_plural': 'sites',
                        'db_table': 'chatwidget_site',
                        'ordering': ['name'],
                    },
                ),
            ],
        ),
    ]
