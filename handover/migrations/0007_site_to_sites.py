"""The house move (issue 24): site foreign keys point at sites.Site.

State only: the tables keep their names (`Meta.db_table`) and their rows; no statement runs
on the database. The content types move in chatwidget.0009."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('handover', '0006_canned_reply_roles'),
        ('sites', '0001_site_from_chatwidget'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='cannedreply',
                    name='site',
                    field=models.ForeignKey(blank=True, help_text='Leave empty to offer this reply on every site.', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='canned_replies', to='sites.site', verbose_name='site'),
                ),
                migrations.AlterField(
                    model_name='case',
                    name='site',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='cases', to='sites.site'),
                ),
                migrations.AlterField(
                    model_name='rating',
                    name='site',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='sites.site'),
                ),
            ],
        ),
    ]
