# The transcript hold as data on the conversation (written by handover's services from now
# on), filled from the cases that exist: an open case holds; a resolved one holds for the
# run-off after its resolution. A resolved case without a resolution time held for ever
# under the old rule, so it counts as open here.

from django.db import migrations, models
from django.db.models import Max, Q


def fill_holds(apps, schema_editor):
    Case = apps.get_model("handover", "Case")
    Conversation = apps.get_model("memory", "Conversation")
    holding = (Case.objects.filter(conversation__isnull=False)
               .filter(Q(status__in=["waiting", "human"])
                       | Q(status="resolved", resolved_at__isnull=True))
               .values_list("conversation_id", flat=True).distinct())
    Conversation.objects.filter(pk__in=list(holding)).update(case_hold=True)
    resolved = (Case.objects.filter(conversation__isnull=False, status="resolved",
                                    resolved_at__isnull=False)
                .values("conversation_id").annotate(last=Max("resolved_at")))
    for row in resolved.iterator():
        Conversation.objects.filter(pk=row["conversation_id"]).update(
            case_resolved_at=row["last"])


class Migration(migrations.Migration):

    dependencies = [
        ("handover", "0001_initial"),
        ("memory", "0002_retention_defaults"),
    ]

    operations = [
        migrations.AddField(
            model_name="conversation",
            name="case_hold",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="conversation",
            name="case_resolved_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(fill_holds, migrations.RunPython.noop),
    ]
