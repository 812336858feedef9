"""Pages' chunks embedded again, with their windows (embedding_queue.passage_texts): a
vector stored before held the whole chunk only. Their `embedding` is emptied, so the beat's
`knowledge_embed_all` (every 10 minutes) embeds them again; they are found by full text
meanwhile. Products (chunks with identifiers) keep their one vector."""

from django.db import migrations

BATCH = 1000


def pages_embed_again(apps, schema_editor):
    chunk = apps.get_model("shop", "KnowledgeChunk")
    pages = [
        pk
        for pk, identifiers in chunk.objects.exclude(embedding=None)
        .values_list("pk", "identifiers")
        .iterator(BATCH)
        if not identifiers
    ]
    for i in range(0, len(pages), BATCH):
        chunk.objects.filter(pk__in=pages[i : i + BATCH]).update(embedding=None)


class Migration(migrations.Migration):
    dependencies = [
        ("shop", "0006_knowledge_resync"),
    ]

    operations = [migrations.RunPython(pages_embed_again, migrations.RunPython.noop)]
