"""Owners configure shop actions and their limits and read the calls; Staff read the calls
(issue 17). Permissions are created here first, as in handover.0003_roles, so the groups are
complete on a fresh database."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

CALLS = [("chatwidget", "actioncall", "view_actioncall")]
OWNER = CALLS + [
    ("chatwidget", model, f"{verb}_{model}")
    for model in ("action", "actionpolicy") for verb in ("view", "add", "change", "delete")
]
ROLES = {"Owner": OWNER, "Staff": CALLS}


def grant(apps, schema_editor):
    config = apps.get_app_config("chatwidget")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, perms in ROLES.items():
        group = Group.objects.filter(name=name).first()
        if group is None:
            continue
        for app_label, model, codename in perms:
            group.permissions.add(Permission.objects.get(
                content_type__app_label=app_label, content_type__model=model,
                codename=codename))


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, perms in ROLES.items():
        group = Group.objects.filter(name=name).first()
        if group is not None:
            group.permissions.remove(*Permission.objects.filter(
                content_type__app_label="chatwidget",
                codename__in=[codename for _, _, codename in perms]))


class Migration(migrations.Migration):
    dependencies = [
        ("chatwidget", "0007_owner_dashboard_webhooks"),
        ("handover", "0003_roles"),  # the groups
    ]

    operations = [migrations.RunPython(grant, revoke)]
