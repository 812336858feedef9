"""The house move (issue 24): the models leave the project package for their apps.

State only for the models: the tables keep their names (`Meta.db_table`) and their rows.
The content types move with their models, so permissions granted to groups (the Owner and
Staff roles) and admin log entries keep pointing at them."""

from django.db import migrations

# (old app label, new app label, model): every model that moved
MOVED = [
    ("chatwidget", "sites", "site"),
    ("chatwidget", "shop", "action"),
    ("chatwidget", "shop", "actionpolicy"),
    ("chatwidget", "shop", "actioncall"),
    ("chatwidget", "golive", "goliverun"),
    ("chatwidget", "integrations", "webhook"),
    ("chatwidget", "integrations", "webhookdelivery"),
    ("chatwidget", "insights", "dashboard"),
    ("memory", "shop", "knowledgesource"),
    ("memory", "shop", "knowledgedocument"),
    ("memory", "shop", "knowledgechunk"),
    ("memory", "shop", "knowledgetrace"),
]


def _relabel(apps, moves):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for old, new, model in moves:
        moving = ContentType.objects.filter(app_label=old, model=model)
        if not moving.exists():
            continue  # a fresh database: post_migrate creates the new one
        # a content type already made under the new label (none in a normal upgrade) would
        # block the move: the old one, with its permissions and log entries, wins
        ContentType.objects.filter(app_label=new, model=model).delete()
        moving.update(app_label=new)


def content_types_forward(apps, schema_editor):
    _relabel(apps, MOVED)


def content_types_backward(apps, schema_editor):
    _relabel(apps, [(new, old, model) for old, new, model in MOVED])


class Migration(migrations.Migration):

    dependencies = [
        ("chatwidget", "0008_owner_actions"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("handover", "0007_site_to_sites"),
        ("memory", "0008_knowledge_to_shop_site_to_sites"),
        ("sites", "0001_site_from_chatwidget"),
        ("shop", "0001_knowledge_and_actions_moved"),
        ("golive", "0001_goliverun_from_chatwidget"),
        ("integrations", "0001_webhooks_from_chatwidget"),
        ("insights", "0001_dashboard_from_chatwidget"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='action',
                    name='site',
                ),
                migrations.RemoveField(
                    model_name='actioncall',
                    name='action',
                ),
                migrations.RemoveField(
                    model_name='actioncall',
                    name='conversation',
                ),
                migrations.RemoveField(
                    model_name='actionpolicy',
                    name='site',
                ),
                migrations.RemoveField(
                    model_name='goliverun',
                    name='requested_by',
                ),
                migrations.RemoveField(
                    model_name='goliverun',
                    name='site',
                ),
                migrations.RemoveField(
                    model_name='webhook',
                    name='site',
                ),
                migrations.RemoveField(
                    model_name='webhookdelivery',
                    name='hook',
                ),
                migrations.DeleteModel(
                    name='Dashboard',
                ),
                migrations.DeleteModel(
                    name='Action',
                ),
                migrations.DeleteModel(
                    name='ActionCall',
                ),
                migrations.DeleteModel(
                    name='ActionPolicy',
                ),
                migrations.DeleteModel(
                    name='GoliveRun',
                ),
                migrations.DeleteModel(
                    name='Site',
                ),
                migrations.DeleteModel(
                    name='Webhook',
                ),
                migrations.DeleteModel(
                    name='WebhookDelivery',
                ),
            ],
        ),
        migrations.RunPython(content_types_forward, content_types_backward),
    ]
