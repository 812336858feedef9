"""The service topics a message asked about (knowledge/topics.py), kept with its retrieval's
trace for staff to read why a service page came up."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("shop", "0007_knowledge_page_windows"),
    ]

    operations = [
        migrations.AddField(
            model_name="knowledgetrace",
            name="topics",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
