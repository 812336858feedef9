from django.core.management.base import BaseCommand, CommandError

from chatwidget.sites.identity import identity_secret_get
from chatwidget.sites.models import Site


class Command(BaseCommand):
    help = (
        "Print the site's identity secret, the key the shop's server signs a signed-in "
        "customer with (hello.identity); made on first use. --rotate replaces it."
    )

    def add_arguments(self, parser):
        parser.add_argument("--site", required=True, help="The site's public key.")
        parser.add_argument(
            "--rotate",
            action="store_true",
            help="Replace the secret: identities signed with the old one stop verifying.",
        )

    def handle(self, *args, site: str, rotate: bool, **options) -> None:
        found = Site.objects.filter(key=site).values_list("pk", flat=True).first()
        if found is None:
            raise CommandError(f"No site with the key {site!r}.")
        self.stdout.write(identity_secret_get(site_id=found, rotate=rotate))
