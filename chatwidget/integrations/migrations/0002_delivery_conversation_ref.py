"""Issue 25: a delivery records the conversation it is about, so that erasure and the purge
take its message text out of the delivery log. Existing rows get it from their body."""

import json

from django.db import migrations, models


def conversation_refs_fill(apps, schema_editor):
    WebhookDelivery = apps.get_model("integrations", "WebhookDelivery")
    for delivery in WebhookDelivery.objects.only("pk", "body").iterator(chunk_size=500):
        try:
            ref = json.loads(delivery.body).get("data", {}).get("conversation")
        except (ValueError, AttributeError):
            continue
        if isinstance(ref, int):
            WebhookDelivery.objects.filter(pk=delivery.pk).update(conversation_ref=ref)


class Migration(migrations.Migration):
    dependencies = [
        ("integrations", "0001_webhooks_from_chatwidget"),
    ]

    operations = [
        migrations.AddField(
            model_name="webhookdelivery",
            name="conversation_ref",
            field=models.BigIntegerField(blank=True, db_index=True, editable=False, null=True),
        ),
        migrations.RunPython(conversation_refs_fill, migrations.RunPython.noop, elidable=True),
    ]
