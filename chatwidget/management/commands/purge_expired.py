"""`manage.py purge_expired`: the retention purge now (the same code as the beat task)."""

from django.core.management.base import BaseCommand

from chatwidget.purge import retention_purge_all


class Command(BaseCommand):
    help = "Purge conversations, case copies, profiles and audit events whose period is over."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--batch-size", type=int, default=500)
        parser.add_argument(
            "--time-budget",
            type=float,
            default=600.0,
            help="seconds; what is left is purged by the next run",
        )

    def handle(self, *args, batch_size: int, time_budget: float, **options) -> None:
        counts = retention_purge_all(batch_size=batch_size, time_budget_s=time_budget)
        for name, value in counts.as_dict().items():
            if name != "finished":
                self.stdout.write(f"{name}: {value}")
        if counts.finished:
            self.stdout.write(self.style.SUCCESS("done"))
        else:
            self.stdout.write(self.style.WARNING("time budget used up; run again to continue"))
