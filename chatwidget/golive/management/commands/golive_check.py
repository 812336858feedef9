"""`manage.py golive_check --site KEY`: the go-live check against the site's own model."""

from channels.routing import get_default_application
from django.core.management.base import BaseCommand, CommandError

from chatwidget.golive.cases import CASES
from chatwidget.golive.models import GoliveRun
from chatwidget.golive.report import case_lines, run_text
from chatwidget.golive.services import GoliveRefused, golive_run_create, golive_run_execute
from chatwidget.sites.models import Site


class Command(BaseCommand):
    help = (
        "Run the conversation-memory test cases (back-reference, page change, "
        "condensation threshold, contradiction, change of subject, forgetting, handover) "
        "against the site's configured model, in throw-away conversations that are "
        "deleted afterwards. Exit status 1 when a pipeline check fails (with --strict "
        "also when an advisory rubric fails)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--site", required=True, help="the site's public key")
        parser.add_argument(
            "--case",
            action="append",
            choices=[c.key for c in CASES],
            help="run only this case (repeatable)",
        )
        parser.add_argument(
            "--grader-model",
            default="",
            help="model for the rubric grades (default: the site's model)",
        )
        parser.add_argument(
            "--strict", action="store_true", help="advisory findings fail the check too"
        )
        parser.add_argument(
            "--quiet-seconds",
            type=float,
            default=3.0,
            help="how long to listen for an answer that must not come",
        )

    def handle(self, *args, **options) -> None:
        site = Site.objects.filter(key=options["site"]).first()
        if site is None:
            raise CommandError(f"No site with the key {options['site']!r}.")
        try:
            run = golive_run_create(site=site, grader_model=options["grader_model"])
        except GoliveRefused as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            f"Go-live check {run.pk} of {site.name} (model {run.model_name}); "
            "throw-away conversations are deleted afterwards."
        )

        def progress(current: GoliveRun, case: dict | None) -> None:
            if case is None:
                self.stdout.write(
                    f"[{current.progress_done + 1}/{current.progress_total}] "
                    f"{current.current_case} …"
                )
            else:
                self.stdout.write(case_lines(case)[0])

        run = golive_run_execute(
            run_id=run.pk,
            application=get_default_application(),
            only=options["case"],
            progress=progress,
            quiet_s=options["quiet_seconds"],
        )
        self.stdout.write("")
        self.stdout.write(run_text(run, verbose=options["verbosity"] > 1))
        bad = {GoliveRun.Status.FAILED, GoliveRun.Status.ERROR}
        if options["strict"]:
            bad.add(GoliveRun.Status.WARNED)
        if run.status in bad:
            raise CommandError(f"The go-live check did not pass ({run.get_status_display()}).")
