"""The report as plain text, for the terminal (admin renders the same data with templates)."""

from django.utils.translation import gettext as _

from chatwidget.golive.models import GoliveRun

ARTICLE_TTFT_MS = 1300  # the article's median time to the first token (64 questions)
MARK = {"pass": "PASS", "warn": "WARN", "fail": "FAIL"}


def _indent(text: str, prefix: str = "      ") -> str:
    return "\n".join(prefix + line for line in text.strip().splitlines())


def case_lines(case: dict, *, verbose: bool = False) -> list[str]:
    lines = [
        f"[{MARK.get(case['status'], case['status'])}] {case['title']}"
        f"  ({case['tokens'].get('total', 0)} tokens)"
    ]
    for check in case["checks"]:
        lines.append(
            f"    {'ok  ' if check['passed'] else 'FAIL'} {check['name']}"
            + (
                f" - {check['detail']}"
                if check["detail"] and (verbose or not check["passed"])
                else ""
            )
        )
    grade = case.get("grade")
    if grade:
        lines.append(f"    {_('rubric (advisory)')}: {grade['verdict']} - {grade['reason']}")
        if grade.get("evidence"):
            lines.append(f'      "{grade["evidence"][:200]}"')
    if case.get("error"):
        lines.append(f"    {_('error')}: {case['error']}")
    if verbose or case["status"] != "pass":
        for name, text in case.get("evidence", {}).items():
            lines.append(f"    {name}:")
            lines.append(_indent(text[:800]))
    if verbose:
        for t in case["turns"]:
            ttft = f"{t['ttft_ms']} ms" if t.get("ttft_ms") is not None else "-"
            lines.append(
                f"    turn {t['seq']}: {t['prompt_tokens']}+{t['answer_tokens']} "
                f"tokens, first token {ttft}"
            )
    return lines


def run_text(run: GoliveRun, *, verbose: bool = False) -> str:
    lines = [
        _("Go-live check of %(site)s with model %(model)s")
        % {"site": run.site.name, "model": run.model_name}
    ]
    for case in run.report:
        lines.extend(case_lines(case, verbose=verbose))
    counts = {s: sum(1 for c in run.report if c["status"] == s) for s in MARK}
    ttft = f"{run.ttft_median_ms} ms" if run.ttft_median_ms is not None else "-"
    lines.append("")
    lines.append(
        _(
            "%(passed)s passed, %(warned)s advisory, %(failed)s failed; %(tokens)s "
            "tokens in all; median time to first token %(ttft)s (the article: "
            "%(article)s ms)"
        )
        % {
            "passed": counts["pass"],
            "warned": counts["warn"],
            "failed": counts["fail"],
            "tokens": run.total_tokens,
            "ttft": ttft,
            "article": ARTICLE_TTFT_MS,
        }
    )
    if run.error:
        lines.append(_("The run stopped: %(error)s") % {"error": run.error})
    lines.append(_("Status: %(status)s") % {"status": run.get_status_display()})
    return "\n".join(lines)
