"""Reads for the go-live history: what changed between a run and the site's previous one."""

from chatwidget.golive.models import GoliveRun


def golive_run_previous(*, run: GoliveRun) -> GoliveRun | None:
    """The site's run before this one that got as far as a report."""
    return (
        GoliveRun.objects.filter(site_id=run.site_id, created_at__lt=run.created_at)
        .exclude(report=[])
        .order_by("-created_at")
        .first()
    )


def golive_changes(*, previous: GoliveRun, run: GoliveRun) -> dict[str, list[tuple]]:
    """What the owner changed between two runs (model and configuration) and which cases
    changed their outcome: {"config": [(key, before, after)], "cases": [(title, before,
    after)]}."""
    config = (
        [("model", previous.model_name, run.model_name)]
        if (previous.model_name != run.model_name)
        else []
    )
    for key in sorted(set(previous.config) | set(run.config)):
        before, after = previous.config.get(key), run.config.get(key)
        if before != after:
            config.append((key, before, after))
    before_cases = {c["key"]: c["status"] for c in previous.report}
    cases = [
        (c["title"], before_cases[c["key"]], c["status"])
        for c in run.report
        if c["key"] in before_cases and before_cases[c["key"]] != c["status"]
    ]
    return {"config": config, "cases": cases}
