"""Owners manage canned replies; Staff read them (the case page lists them for a case's site
to every user who may act on the case). Permissions are created here first, as in
handover.0003_roles, so the groups are complete on a fresh database."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLES = {
    "Owner": ["view_cannedreply", "add_cannedreply", "change_cannedreply",
              "delete_cannedreply"],
    "Staff": ["view_cannedreply"],
}


def grant(apps, schema_editor):
    config = apps.get_app_config("handover")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in ROLES.items():
        group = Group.objects.filter(name=name).first()
        if group is not None:
            group.permissions.add(*Permission.objects.filter(
                content_type__app_label="handover", codename__in=codenames))


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in ROLES.items():
        group = Group.objects.filter(name=name).first()
        if group is not None:
            group.permissions.remove(*Permission.objects.filter(
                content_type__app_label="handover", codename__in=codenames))


class Migration(migrations.Migration):
    dependencies = [("handover", "0005_canned_reply")]

    operations = [migrations.RunPython(grant, revoke)]
