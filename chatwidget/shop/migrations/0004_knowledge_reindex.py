"""Knowledge chunks indexed again: both engines now hold the terms of
chatwidget/shop/knowledge/analysis.py (Snowball stems per chunk language), where PostgreSQL
held its own `english`/`german` lexemes and SQLite's FTS5 the folded words. Without this, a
catalogue imported before the upgrade would find nothing until it is imported again."""

from django.db import migrations


def reindex(apps, schema_editor):
    from chatwidget.shop.knowledge.backends import index_rebuild

    index_rebuild(chunks=apps.get_model("shop", "KnowledgeChunk").objects.all())


class Migration(migrations.Migration):
    dependencies = [
        ("shop", "0003_action_second_factor"),
    ]

    operations = [migrations.RunPython(reindex, migrations.RunPython.noop)]
