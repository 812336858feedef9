import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chatwidget.settings.local")

app = Celery("chatwidget")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
