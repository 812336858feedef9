"""`manage.py vapid_keys`: a new VAPID key pair for Web Push alerts (issue 32)."""

from django.core.management.base import BaseCommand

from handover.services.webpush import vapid_keys_generate


class Command(BaseCommand):
    help = (
        "Make a VAPID key pair for Web Push alerts and print it once, as the lines to put in "
        "the environment (VAPID_PUBLIC_KEY in the config, VAPID_PRIVATE_KEY in the secret). "
        "Nothing is stored: run it once per installation. A new pair makes every browser "
        "subscribe again (the old subscriptions stop working)."
    )

    def handle(self, *args, **options) -> None:
        public, private = vapid_keys_generate()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        self.stdout.write(
            "VAPID_SUBJECT=mailto:you@example.com  # an address push services may write to"
        )
