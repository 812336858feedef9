# Every existing site gets a retention policy with the default periods (new sites get one
# from chatwidget.services.site_create).

from django.db import migrations


def create_defaults(apps, schema_editor):
    Site = apps.get_model("chatwidget", "Site")
    RetentionPolicy = apps.get_model("memory", "RetentionPolicy")
    have = set(RetentionPolicy.objects.values_list("site_id", flat=True))
    RetentionPolicy.objects.bulk_create(
        [RetentionPolicy(site_id=pk) for pk in Site.objects.values_list("pk", flat=True)
         if pk not in have]
    )


class Migration(migrations.Migration):

    dependencies = [
        ("chatwidget", "0001_initial"),
        ("memory", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(create_defaults, migrations.RunPython.noop),
    ]
