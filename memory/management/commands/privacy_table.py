"""`manage.py privacy_table`: the README's table of cookies and storage places, generated
from `memory.privacy.storage_places` (the same settings the code enforces)."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from chatwidget.sites.models import Site
from memory.privacy import storage_places


def _cell(value) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def privacy_table_markdown(*, site=None, language: str = "en") -> str:
    with translation.override(language):
        head = [_("Name"), _("Where"), _("Content"), _("Lifetime"), _("Purpose")]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for place in storage_places(site=site):
            cells = [
                f"`{_cell(place['name'])}`",
                place["kind"],
                place["content"],
                place["lifetime"],
                place["purpose"],
            ]
            lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


class Command(BaseCommand):
    help = "Print the Markdown table of every cookie and storage place with its lifetime."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--site",
            help="site key: use that site's retention policy (default: the product defaults)",
        )
        parser.add_argument("--lang", default="en", choices=["en", "de"])

    def handle(self, *args, site: str | None, lang: str, **options) -> None:
        obj = None
        if site:
            obj = Site.objects.filter(key=site).first()
            if obj is None:
                raise CommandError(f"no site with key {site!r}")
        self.stdout.write(privacy_table_markdown(site=obj, language=lang), ending="")
