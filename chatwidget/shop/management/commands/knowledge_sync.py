"""`manage.py knowledge_sync --site KEY` (contract in DESIGN.md): the same code as the
schedule (chatwidget.shop.connect.sync.knowledge_sync)."""

from django.core.management.base import BaseCommand, CommandError

from chatwidget.shop.connect.sync import SyncBusy, knowledge_sync
from chatwidget.shop.models.connections import Connection


class Command(BaseCommand):
    help = "Sync the connected shop's catalogue (products with variants, prices, stock, pages) now."

    def add_arguments(self, parser):
        parser.add_argument("--site", required=True, help="the site's public key")

    def handle(self, *args, site: str, **options) -> None:
        connection = Connection.objects.select_related("site").filter(site__key=site).first()
        if connection is None:
            raise CommandError(
                f"The site {site!r} has no shop connection (manage.py shop_connect)."
            )
        try:
            result = knowledge_sync(connection=connection)
        except SyncBusy:
            raise CommandError("A sync of this site is running already.") from None
        if result.error:
            raise CommandError(f"Sync failed: {result.error} (it resumes where it stopped).")
        translated = f" (+{result.translations} translated)" if result.translations else ""
        self.stdout.write(
            f"{result.products} products{translated}, {result.pages} pages: "
            f"{result.changed} changed, "
            f"{result.removed} removed, {result.unchanged} unchanged "
            f"({result.requests} requests, {result.seconds} s"
            + (", resumed" if result.resumed else "")
            + ")."
        )
