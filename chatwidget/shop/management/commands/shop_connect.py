"""`manage.py shop_connect --site KEY --platform shopify|woocommerce|shopware --url URL
[--token-env NAME] [--key-env NAME --secret-env NAME]` (contract in DESIGN.md)."""

from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from chatwidget.shop.connect.services import ConnectError, connection_connect
from chatwidget.shop.models.connections import Connection
from chatwidget.sites.models import Site


class Command(BaseCommand):
    help = (
        "Connect a site to its shop platform. Credentials are NAMES of environment "
        "variables, never values. The connection is checked at once."
    )

    def add_arguments(self, parser):
        parser.add_argument("--site", required=True, help="the site's public key")
        parser.add_argument("--platform", required=True, choices=Connection.Platform.values)
        parser.add_argument("--url", required=True, help="the shop's base URL (https://...)")
        parser.add_argument(
            "--token-env", default="", help="Shopify: the Admin API token's variable"
        )
        parser.add_argument(
            "--key-env", default="", help="WooCommerce consumer key / Shopware client id variable"
        )
        parser.add_argument(
            "--secret-env",
            default="",
            help="WooCommerce consumer secret / Shopware client secret / Shopify webhook secret",
        )

    def handle(self, *args, **o) -> None:
        site = Site.objects.filter(key=o["site"]).first()
        if site is None:
            raise CommandError(f"No site with the key {o['site']!r}.")
        try:
            connection = connection_connect(
                site=site,
                platform=o["platform"],
                base_url=o["url"],
                token_env=o["token_env"],
                key_env=o["key_env"],
                secret_env=o["secret_env"],
            )
        except ConnectError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"{site.name}: connected to {connection} (checked).")
        if connection.platform != Connection.Platform.SHOPWARE:
            path = reverse("shop-webhook", args=[connection.webhook_key])
            self.stdout.write(f"Product webhooks (update/delete): POST to <this server>{path}")
        self.stdout.write(f"Now run: manage.py knowledge_sync --site {site.key}")
