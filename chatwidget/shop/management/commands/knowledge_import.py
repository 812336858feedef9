"""`manage.py knowledge_import --site KEY SOURCE [SOURCE ...]` (contract in DESIGN.md)."""

from django.core.management.base import BaseCommand, CommandError

from chatwidget.shop.knowledge.embedding_queue import (
    knowledge_embed_remaining,
    knowledge_embed_schedule,
)
from chatwidget.shop.knowledge.embeddings import embedding_model
from chatwidget.shop.knowledge.selectors import knowledge_totals
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
from chatwidget.sites.models import Site


class Command(BaseCommand):
    help = (
        "Import shop knowledge for a site: JSON Lines feeds, Markdown/HTML files or "
        "folders, http(s) pages or sitemaps. Re-running replaces changed documents and "
        "deletes removed ones."
    )

    def add_arguments(self, parser):
        parser.add_argument("--site", required=True, help="the site's public key")
        parser.add_argument("sources", nargs="+", metavar="SOURCE")

    def handle(self, *args, site: str, sources: list[str], **options) -> None:
        site_obj = Site.objects.filter(key=site).first()
        if site_obj is None:
            raise CommandError(f"No site with the key {site!r}.")
        failed = False
        for location in sources:
            source = knowledge_source_ensure(site=site_obj, location=location)
            self.stdout.write(f"{source.location}: importing …")
            result = knowledge_import(
                source=source,
                progress=lambda n: (
                    self.stdout.write(f"  {n} documents read") if n % 1000 == 0 else None
                ),
            )
            for problem in result.problems:
                self.stderr.write(f"  {problem}")
            if result.failed:
                self.stderr.write(f"  failed: {result.failed}")
                failed = True
                continue
            failed = failed or bool(result.problems)
            self.stdout.write(
                f"  {result.read} read: {result.created} new, {result.updated} changed, "
                f"{result.unchanged} unchanged, {result.deleted} removed"
                + (
                    f", {len(result.problems)} problems (nothing removed)"
                    if result.problems
                    else ""
                )
            )
        totals = knowledge_totals(site=site_obj)
        self.stdout.write(
            f"{site_obj.name}: {totals.documents} documents, {totals.chunks} "
            f"chunks, {totals.tokens} tokens."
        )
        if embedding_model() and knowledge_embed_remaining(site_id=site_obj.pk):
            # also for an unchanged re-run: chunks an earlier run left without a vector
            knowledge_embed_schedule(site_obj.pk)
            self.stdout.write("Embeddings follow on the worker (searchable by full text now).")
        if failed:
            raise CommandError("Not every document was imported (see above).", returncode=1)
