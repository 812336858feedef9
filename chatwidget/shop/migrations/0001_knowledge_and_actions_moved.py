"""The house move (issue 24): shop knowledge (from memory) and shop actions (from chatwidget) move to the shop app.

State only: the tables keep their names (`Meta.db_table`) and their rows; no statement runs
on the database. The content types move in chatwidget.0009."""

import chatwidget.shop.models.knowledge
import django.core.validators
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('memory', '0008_knowledge_to_shop_site_to_sites'),
        ('sites', '0001_site_from_chatwidget'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Action',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(help_text='The function name the model sees, e.g. order_status (letters, digits, _).', max_length=64, verbose_name='name')),
                        ('description', models.TextField(help_text='When to use it and what it returns, in one or two sentences.', verbose_name='description for the model')),
                        ('parameters', models.JSONField(default=dict, help_text='An object schema, e.g. {"type": "object", "properties": {"order_number": {"type": "string"}}, "required": ["order_number"]}', verbose_name='arguments (JSON schema)')),
                        ('visitor_args', models.JSONField(blank=True, default=list, help_text='Names of arguments whose values must occur in what the visitor wrote in this conversation (e.g. order number, postcode). Without them no call is made.', verbose_name='arguments the visitor must have given')),
                        ('method', models.CharField(choices=[('GET', 'GET'), ('POST', 'POST')], default='GET', max_length=6, verbose_name='HTTP method')),
                        ('url_template', models.CharField(help_text='e.g. https://shop.example.com/api/orders/{order_number}. Other arguments go in the query string (GET) or the JSON body (POST).', max_length=500, verbose_name='URL template')),
                        ('headers', models.JSONField(blank=True, default=dict, help_text='e.g. {"Authorization": "Bearer {env:SHOP_API_TOKEN}"}: secrets come from environment variables of the server and are never stored here.', verbose_name='headers')),
                        ('timeout_seconds', models.FloatField(default=5.0, validators=[django.core.validators.MinValueValidator(0.2), django.core.validators.MaxValueValidator(30.0)], verbose_name='timeout (seconds)')),
                        ('enabled', models.BooleanField(default=True, verbose_name='enabled')),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('site', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='actions', to='sites.site', verbose_name='site')),
                    ],
                    options={
                        'verbose_name': 'shop action',
                        'verbose_name_plural': 'shop actions',
                        'db_table': 'chatwidget_action',
                        'ordering': ['site', 'name'],
                    },
                ),
                migrations.CreateModel(
                    name='ActionCall',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=64)),
                        ('request_seq', models.PositiveIntegerField()),
                        ('turn_seq', models.PositiveIntegerField(blank=True, null=True)),
                        ('outcome', models.CharField(choices=[('ok', 'Answered'), ('timeout', 'Timed out'), ('http_error', 'Error status'), ('malformed', 'Not JSON'), ('network', 'Not reachable'), ('not_configured', 'Secret not set'), ('missing_args', 'Arguments not given by the visitor'), ('rate_limited', 'Rate limited')], max_length=16)),
                        ('status_code', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('latency_ms', models.PositiveIntegerField(default=0)),
                        ('tokens', models.PositiveIntegerField(default=0)),
                        ('cut', models.BooleanField(default=False)),
                        ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
                        ('action', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to='shop.action')),
                        ('conversation', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='action_calls', to='memory.conversation')),
                    ],
                    options={
                        'verbose_name': 'shop action call',
                        'verbose_name_plural': 'shop action calls',
                        'db_table': 'chatwidget_actioncall',
                        'ordering': ['-created_at'],
                    },
                ),
                migrations.CreateModel(
                    name='ActionPolicy',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('result_max_tokens', models.PositiveIntegerField(default=300, help_text='A result longer than this is cut before the model sees it.', validators=[django.core.validators.MinValueValidator(50), django.core.validators.MaxValueValidator(4000)], verbose_name='result size (tokens)')),
                        ('calls_per_hour', models.PositiveIntegerField(default=10, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(200)], verbose_name='calls per conversation and hour')),
                        ('site', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='action_policy', to='sites.site', verbose_name='site')),
                    ],
                    options={
                        'verbose_name': 'shop action limits',
                        'verbose_name_plural': 'shop action limits',
                        'db_table': 'chatwidget_actionpolicy',
                    },
                ),
                migrations.CreateModel(
                    name='KnowledgeDocument',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('external_id', models.CharField(max_length=500, verbose_name='id')),
                        ('title', models.CharField(max_length=500, verbose_name='title')),
                        ('url', models.CharField(blank=True, max_length=1000, verbose_name='URL')),
                        ('identifiers', models.JSONField(blank=True, default=list, verbose_name='identifiers')),
                        ('content_hash', models.CharField(max_length=64)),
                        ('token_count', models.PositiveIntegerField(default=0, verbose_name='tokens')),
                        ('chunk_count', models.PositiveIntegerField(default=0, verbose_name='chunks')),
                        ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated')),
                        ('site', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='knowledge_documents', to='sites.site')),
                    ],
                    options={
                        'verbose_name': 'knowledge document',
                        'verbose_name_plural': 'knowledge documents',
                        'db_table': 'memory_knowledgedocument',
                        'ordering': ['site', 'title'],
                    },
                ),
                migrations.CreateModel(
                    name='KnowledgeChunk',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('ordinal', models.PositiveIntegerField()),
                        ('title', models.CharField(max_length=500)),
                        ('url', models.CharField(blank=True, max_length=1000)),
                        ('identifiers', models.JSONField(blank=True, default=list)),
                        ('text', models.TextField()),
                        ('token_count', models.PositiveIntegerField(verbose_name='tokens')),
                        ('embedding', models.BinaryField(blank=True, null=True)),
                        ('site', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='sites.site')),
                        ('document', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chunks', to='shop.knowledgedocument')),
                    ],
                    options={
                        'verbose_name': 'knowledge chunk',
                        'verbose_name_plural': 'knowledge chunks',
                        'db_table': 'memory_knowledgechunk',
                        'ordering': ['document', 'ordinal'],
                    },
                ),
                migrations.CreateModel(
                    name='KnowledgeSource',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('path', 'File or folder'), ('url', 'Web page or sitemap'), ('upload', 'Uploaded file')], max_length=10, verbose_name='kind')),
                        ('location', models.CharField(help_text='A path on the server or an http(s) URL.', max_length=1000, verbose_name='location')),
                        ('upload', models.FileField(blank=True, storage=chatwidget.shop.models.knowledge.upload_storage, upload_to='knowledge/', verbose_name='uploaded file')),
                        ('status', models.CharField(choices=[('new', 'Not imported yet'), ('queued', 'Waiting for the worker'), ('running', 'Importing'), ('done', 'Imported'), ('errors', 'Imported with errors'), ('failed', 'Failed')], default='new', max_length=10, verbose_name='status')),
                        ('progress_done', models.PositiveIntegerField(default=0, verbose_name='documents read')),
                        ('errors', models.JSONField(blank=True, default=list, verbose_name='errors')),
                        ('summary', models.JSONField(blank=True, default=dict)),
                        ('imported_at', models.DateTimeField(blank=True, null=True, verbose_name='last import')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('site', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='knowledge_sources', to='sites.site')),
                    ],
                    options={
                        'verbose_name': 'knowledge source',
                        'verbose_name_plural': 'knowledge sources',
                        'db_table': 'memory_knowledgesource',
                        'ordering': ['site', 'location'],
                    },
                ),
                migrations.AddField(
                    model_name='knowledgedocument',
                    name='source',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='documents', to='shop.knowledgesource'),
                ),
                migrations.CreateModel(
                    name='KnowledgeTrace',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('chunks', models.JSONField(default=list)),
                        ('tokens', models.PositiveIntegerField(default=0)),
                        ('room', models.PositiveIntegerField(default=0)),
                        ('trace', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='knowledge', to='memory.contexttrace')),
                    ],
                    options={
                        'verbose_name': 'knowledge retrieval',
                        'verbose_name_plural': 'knowledge retrievals',
                        'db_table': 'memory_knowledgetrace',
                    },
                ),
                migrations.AddConstraint(
                    model_name='action',
                    constraint=models.UniqueConstraint(fields=('site', 'name'), name='action_unique_name'),
                ),
                migrations.AddIndex(
                    model_name='knowledgechunk',
                    index=models.Index(fields=['site'], name='knowledge_chunk_site'),
                ),
                migrations.AddConstraint(
                    model_name='knowledgesource',
                    constraint=models.UniqueConstraint(fields=('site', 'location'), name='knowledge_source_unique_location'),
                ),
                migrations.AddConstraint(
                    model_name='knowledgedocument',
                    constraint=models.UniqueConstraint(fields=('site', 'external_id'), name='knowledge_document_unique_id'),
                ),
            ],
        ),
    ]
