"""Run everything on embedded defaults: Daphne, the demo shop, a Celery worker with beat.

Set-up runs first (SETUP_STEPS, in order), then the three processes start under one
supervisor (chatwidget/supervise.py). The banner comes once every process is ready, so it is
the last thing a newcomer reads before the logs. Ctrl-C or SIGTERM stops all of them; a
process that dies stops the rest with a message saying which and why.
"""

import io
import os
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from chatwidget.demo_shop import API_KEY_ENV, demo_actions_configure, demo_egress_allow
from chatwidget.sites.models import Site
from chatwidget.sites.services import site_create
from chatwidget.supervise import Child, Supervisor, port_holder, port_is_free
from handover.models import CannedReply

READY_TIMEOUT_SECONDS = 90


@dataclass
class DemoContext:
    """What the set-up steps share: the ports, then what earlier steps made."""

    port: int
    shop_port: int
    site: Site | None = None
    password: str = ""


def step_migrate(ctx: DemoContext) -> None:
    call_command("migrate", interactive=False, verbosity=0)


def step_demo_site(ctx: DemoContext) -> None:
    origins = [f"http://127.0.0.1:{ctx.shop_port}", f"http://localhost:{ctx.shop_port}"]
    ctx.site = Site.objects.filter(name="Demo shop").first() or site_create(
        name="Demo shop", origins=origins
    )


def step_admin_user(ctx: DemoContext) -> None:
    """An `admin` superuser in both staff groups; its password is kept in RUN_DIR."""
    password_file = settings.RUN_DIR / "admin-password.txt"
    user_model = get_user_model()
    if not user_model.objects.filter(username="admin").exists():
        password = secrets.token_urlsafe(9)
        user = user_model.objects.create_superuser("admin", "admin@localhost", password)
        user.groups.set(Group.objects.filter(name__in=["Owner", "Staff"]))
        password_file.write_text(password + "\n")
    ctx.password = password_file.read_text().strip() if password_file.exists() else "(unknown)"


def step_knowledge(ctx: DemoContext) -> None:
    """The demo shop's catalogue and pages (chatwidget/demo_data/) as the site's knowledge;
    on later starts unchanged documents are skipped (content hashes)."""
    data = demo_data_at(shop_url=f"http://127.0.0.1:{ctx.shop_port}")
    call_command(
        "knowledge_import",
        f"--site={ctx.site.key}",
        str(data / "catalogue.jsonl"),
        str(data / "pages"),
        stdout=io.StringIO(),
    )


DEMO_DATA_URL = "http://127.0.0.1:8001"  # the shop address written in chatwidget/demo_data/


def demo_data_at(*, shop_url: str) -> Path:
    """The demo data with its links pointing at the demo shop where it runs: the files as
    they are on the default port, else copies in RUN_DIR with the address replaced (so a
    knowledge link never points at a port nothing listens on)."""
    source = settings.BASE_DIR / "chatwidget" / "demo_data"
    if shop_url == DEMO_DATA_URL:
        return source
    target = settings.RUN_DIR / "demo_data"
    for path in [source / "catalogue.jsonl", *sorted((source / "pages").glob("*.md"))]:
        out = target / path.relative_to(source)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(path.read_text().replace(DEMO_DATA_URL, shop_url))
    return target


def step_egress(ctx: DemoContext) -> None:
    """The demo shop runs on this machine: its address and its key's variable are allowed
    for this process (the set-up's checks) and for the processes it starts (their
    environment), as an operator allows a shop API on the private network."""
    for name, value in demo_egress_allow(shop_port=ctx.shop_port).items():
        os.environ[name] = value
        setattr(settings, name, value.split(","))


def step_actions(ctx: DemoContext) -> None:
    """The demo shop's order-status and stock endpoints as shop actions; their key is made
    here for this run and handed to both processes in the environment (never stored)."""
    os.environ.setdefault(API_KEY_ENV, secrets.token_urlsafe(16))
    demo_actions_configure(site=ctx.site, shop_url=f"http://127.0.0.1:{ctx.shop_port}")


DEMO_CANNED = [
    ("Hello", "hi", "Hello, a person from the team here: I have read your conversation."),
    (
        "Order delayed",
        "late",
        "I am sorry your order is late. I have asked the carrier and will write to you "
        "here as soon as I hear back.",
    ),
    (
        "Returns",
        "return",
        "You can return items within 30 days: [how returns work](http://127.0.0.1:8001/returns).",
    ),
]


def step_canned(ctx: DemoContext) -> None:
    """A few canned replies for the demo site, so staff can try /shortcut and Tab; only
    when the site has none (an owner's edits stay)."""
    if CannedReply.objects.filter(site=ctx.site).exists():
        return
    CannedReply.objects.bulk_create(
        CannedReply(
            site=ctx.site,
            title=title,
            shortcut=shortcut,
            text=text.replace("http://127.0.0.1:8001", f"http://127.0.0.1:{ctx.shop_port}"),
        )
        for title, shortcut, text in DEMO_CANNED
    )


# Each step takes the context and may fill it in; later steps see what earlier ones made.
SETUP_STEPS = [
    step_migrate,
    step_demo_site,
    step_knowledge,
    step_egress,
    step_actions,
    step_canned,
    step_admin_user,
]


class Command(BaseCommand):
    help = (
        "Run the product with a demo shop: http://127.0.0.1:8001 (shop), :8000 (widget, "
        "admin). Ports also from DEMO_PORT and DEMO_SHOP_PORT."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=int(os.environ.get("DEMO_PORT", 8000)))
        parser.add_argument(
            "--shop-port", type=int, default=int(os.environ.get("DEMO_SHOP_PORT", 8001))
        )
        parser.add_argument("--no-worker", action="store_true")

    def handle(self, *args, port: int, shop_port: int, no_worker: bool, **options) -> None:
        for p, flag in ((port, "--port"), (shop_port, "--shop-port")):
            if not port_is_free(p):
                raise CommandError(
                    f"Port {p} is already in use by {port_holder(p)}. Stop that process, or "
                    f"choose another port: manage.py demo {flag} N (or DEMO_PORT/DEMO_SHOP_PORT)."
                )
        settings.RUN_DIR.mkdir(parents=True, exist_ok=True)
        ctx = DemoContext(port=port, shop_port=shop_port)
        for step in SETUP_STEPS:
            step(ctx)
        assert ctx.site is not None

        ready_file = settings.RUN_DIR / "worker.ready"
        ready_file.unlink(missing_ok=True)
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "LOG_FORMAT": os.environ.get("LOG_FORMAT", "text"),
            "CHATWIDGET_WORKER_READY_FILE": str(ready_file),
            # Django's checks ran in this command a moment ago: the worker (Celery's Django
            # fixup) and the demo shop (--skip-checks) do not run them again on the banner's
            # critical path (about half a second of CPU each, tiktoken's encoding included).
            "CELERY_SKIP_CHECKS": "1",
        }
        sup = Supervisor(say=lambda text: self.stdout.write(text), env=env)
        sup.handle_signals()
        children, checks = _children(ctx, worker=not no_worker, ready_file=ready_file)
        sup.start(children)
        problem = self._run(sup, checks, ctx)
        ready_file.unlink(missing_ok=True)
        if problem:
            raise CommandError("The demo stopped because a process failed (see above).")
        sup.say("Stopped.")

    def _run(self, sup: Supervisor, checks: dict, ctx: DemoContext) -> str | None:
        """Wait until every child is ready, print the banner, watch until one dies or a
        stop is asked for; stop them all. Returns what went wrong (None: an ordinary stop)."""
        problem = sup.wait_ready(checks, READY_TIMEOUT_SECONDS)
        if problem is None:
            sup.say(self.style.SUCCESS(self._banner(ctx)))
            died = sup.watch()
            problem = sup.death_message(died) if died else None
        if problem and sup.stop_requested.is_set() and not sup.dead():
            problem = None  # Ctrl-C or SIGTERM during start-up: an ordinary stop
        if problem:
            sup.say(self.style.ERROR(problem) + "\nStopping the other processes.")
        else:
            sup.say(f"Stopping ({sup.stop_signal or 'requested'}).")
        sup.stop_all()
        return problem

    def _banner(self, ctx: DemoContext) -> str:
        mode = (
            "demo mode: no OPENAI_API_KEY, replies quote what knowledge and lookups found"
            if settings.DEMO_MODE
            else f"model {settings.CHAT_MODEL}"
        )
        return (
            f"\n  Demo shop:  http://127.0.0.1:{ctx.shop_port}/\n"
            f"  Admin:      http://127.0.0.1:{ctx.port}/admin/   user admin, password "
            f"{ctx.password}\n"
            f"  Model:      {mode}\n"
            f"  Stop with Ctrl-C.\n"
        )


def _children(ctx: DemoContext, *, worker: bool, ready_file: Path) -> tuple[list[Child], dict]:
    """The processes of the demo and how each one shows it is ready."""
    py = sys.executable
    # -v 0: no access log (its own format, a line per static file)
    web = [py, "-m", "daphne", "-v", "0", "-b", "127.0.0.1", "-p", str(ctx.port)]
    children = [
        Child("web", "Daphne: widget, websocket and admin", [*web, "chatwidget.asgi:application"]),
        Child(
            "shop",
            "the demo shop",
            [
                *(py, "manage.py", "demoshop", "--skip-checks", "--port", str(ctx.shop_port)),
                *("--widget-url", f"http://127.0.0.1:{ctx.port}"),
                f"--site-key={ctx.site.key}",  # =: a key may start with "-"
                *("-v", "0"),
            ],
        ),
    ]
    checks = {
        "web": lambda: not port_is_free(ctx.port),
        "shop": lambda: not port_is_free(ctx.shop_port),
    }
    if worker:
        beat = ["--schedule", settings.CELERY_BEAT_SCHEDULE_FILENAME]
        command = [py, "-m", "celery", "-A", "chatwidget", "--quiet", "worker", "-B"]
        children.append(
            Child("worker", "Celery worker with beat", [*command, "--concurrency", "2", *beat])
        )
        checks["worker"] = ready_file.exists
    return children, checks
