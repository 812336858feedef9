from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from chatwidget.sites.services import embed_snippet, site_create


class Command(BaseCommand):
    help = "Create a Site and print its key and the script tag to paste into the shop's pages."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True)
        parser.add_argument(
            "--origin",
            action="append",
            required=True,
            help="An origin allowed to embed the widget; repeat for more.",
        )
        parser.add_argument(
            "--base-url",
            default="",
            help="Public URL of this service (default: PUBLIC_URL or http://127.0.0.1:8000).",
        )

    def handle(self, *args, name: str, origin: list[str], base_url: str, **options) -> None:
        try:
            site = site_create(name=name, origins=origin)
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        base = base_url or settings.PUBLIC_URL or "http://127.0.0.1:8000"
        self.stdout.write(f"Site key: {site.key}")
        self.stdout.write("Paste this into every page of the shop, before </body>:")
        self.stdout.write(embed_snippet(site=site, base_url=base))
