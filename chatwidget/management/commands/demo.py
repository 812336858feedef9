"""Run everything on embedded defaults: Daphne, the demo shop, a Celery worker with beat."""

import os
import secrets
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand

from chatwidget.models import Site
from chatwidget.services import site_create


class Command(BaseCommand):
    help = "Run the product with a demo shop: http://127.0.0.1:8001 (shop), :8000 (widget, admin)."

    def add_arguments(self, parser):  # noqa: ANN001
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--shop-port", type=int, default=8001)
        parser.add_argument("--no-worker", action="store_true")

    def handle(self, *args, port: int, shop_port: int, no_worker: bool, **options) -> None:
        settings.RUN_DIR.mkdir(exist_ok=True)
        call_command("migrate", interactive=False, verbosity=0)
        shop_origins = [f"http://127.0.0.1:{shop_port}", f"http://localhost:{shop_port}"]
        site = Site.objects.filter(name="Demo shop").first() or site_create(
            name="Demo shop", origins=shop_origins
        )
        user_model = get_user_model()
        if not user_model.objects.filter(username="admin").exists():
            password = secrets.token_urlsafe(9)
            user = user_model.objects.create_superuser("admin", "admin@localhost", password)
            from django.contrib.auth.models import Group

            user.groups.set(Group.objects.filter(name__in=["Owner", "Staff"]))
            (settings.RUN_DIR / "admin-password.txt").write_text(password + "\n")
        password = (settings.RUN_DIR / "admin-password.txt").read_text().strip()
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        py = sys.executable
        procs = [
            subprocess.Popen([py, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                              "chatwidget.asgi:application"], env=env),
            subprocess.Popen([py, "manage.py", "demoshop", "--port", str(shop_port),
                              "--widget-url", f"http://127.0.0.1:{port}", "--site-key",
                              site.key], env=env),
        ]
        if not no_worker:
            for sub in ("out", "processed", "control"):
                (settings.RUN_DIR / "broker" / sub).mkdir(parents=True, exist_ok=True)
            procs.append(subprocess.Popen(
                [py, "-m", "celery", "-A", "chatwidget", "worker", "-B", "-l", "warning",
                 "--concurrency", "2", "--schedule", settings.CELERY_BEAT_SCHEDULE_FILENAME],
                env=env,
            ))
        mode = "DEMO MODE (no OPENAI_API_KEY: replies show what the model would be sent)" \
            if settings.DEMO_MODE else f"model {settings.CHAT_MODEL}"
        self.stdout.write(self.style.SUCCESS(
            f"\n  Demo shop:  http://127.0.0.1:{shop_port}/\n"
            f"  Admin:      http://127.0.0.1:{port}/admin/  (admin / {password})\n"
            f"  Mode:       {mode}\n  Stop with Ctrl-C.\n"
        ))
        try:
            while all(p.poll() is None for p in procs):
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass
        finally:
            for p in procs:
                if p.poll() is None:
                    p.send_signal(signal.SIGTERM)
            for p in procs:
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
