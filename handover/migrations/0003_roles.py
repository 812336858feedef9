"""The two roles as Django groups: Staff and Owner.

Staff: see cases masked, claim, reply, release and resolve.
Owner: all of Staff, plus reveal plaintext (audited), the reveal log, retention policies,
export and erasure, and approval of proposed profile facts.

Permissions are created here first (they are otherwise created only after all migrations
have run), so the groups are complete on a fresh database.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

STAFF = [
    ("handover", "case", "view_case"),
    ("handover", "case", "change_case"),
    ("memory", "conversation", "view_conversation"),
    ("memory", "profile", "view_profile"),
    ("memory", "profilefact", "view_profilefact"),
    ("memory", "profile", "approve_profilefact"),  # "staff approval" of proposed contact facts
]
OWNER = STAFF + [
    ("handover", "case", "reveal_plaintext"),
    ("handover", "revealevent", "view_revealevent"),
    ("memory", "retentionpolicy", "view_retentionpolicy"),
    ("memory", "retentionpolicy", "change_retentionpolicy"),
    ("memory", "conversation", "export_conversation"),
    ("memory", "conversation", "erase_conversation"),
    ("memory", "auditevent", "view_auditevent"),
]
ROLES = {"Staff": STAFF, "Owner": OWNER}


def create_roles(apps, schema_editor):
    for app_label in ("handover", "memory"):
        config = apps.get_app_config(app_label)
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, perms in ROLES.items():
        group, _ = Group.objects.get_or_create(name=name)
        for app_label, model, codename in perms:
            perm = Permission.objects.get(
                content_type__app_label=app_label, content_type__model=model, codename=codename
            )
            group.permissions.add(perm)


def remove_roles(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.filter(name__in=ROLES).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("memory", "0001_initial"),
        ("handover", "0002_reveal_log"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
