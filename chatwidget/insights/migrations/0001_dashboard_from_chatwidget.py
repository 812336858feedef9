"""The house move (issue 24): the dashboard (a proxy of memory's DailyStat) moves from chatwidget to insights.

State only: the tables keep their names (`Meta.db_table`) and their rows; no statement runs
on the database. The content types move in chatwidget.0009."""

from django.db import migrations


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('memory', '0008_knowledge_to_shop_site_to_sites'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Dashboard',
                    fields=[
                    ],
                    options={
                        'verbose_name': 'dashboard',
                        'verbose_name_plural': 'dashboard',
                        'proxy': True,
                        'indexes': [],
                        'constraints': [],
                    },
                    bases=('memory.dailystat',),
                ),
            ],
        ),
    ]
