"""Owners see the dashboard, manage webhooks and read their delivery log (issue 18). Staff
see a case's rating on the case page (the case's own permission). Permissions are created
here first, as in handover.0003_roles, so the groups are complete on a fresh database."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

OWNER = [
    ("chatwidget", "dashboard", "view_dashboard"),
    ("chatwidget", "webhook", "view_webhook"),
    ("chatwidget", "webhook", "add_webhook"),
    ("chatwidget", "webhook", "change_webhook"),
    ("chatwidget", "webhook", "delete_webhook"),
    ("chatwidget", "webhookdelivery", "view_webhookdelivery"),
]
ROLES = {"Owner": OWNER}


def grant(apps, schema_editor):
    for app_label in ("chatwidget",):
        config = apps.get_app_config(app_label)
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
                codename__in=[codename for _, _, codename in perms]))


class Migration(migrations.Migration):
    dependencies = [
        ("chatwidget", "0006_webhooks_dashboard"),
        ("handover", "0004_case_rating"),  # after handover's roles and the rating model
    ]

    operations = [migrations.RunPython(grant, revoke)]
