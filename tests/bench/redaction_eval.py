"""Held-out evaluation of memory.redaction: recall per never-kept kind, false-positive rate.

    .venv/bin/python -m tests.bench.redaction_eval            # the full sample, seed 13
    .venv/bin/python -m tests.bench.redaction_eval --show 20  # and up to 20 misses per side

The cases come from tests/bench/redaction_data.py and redaction_benign.py (templates x
separators x values, fixed seed), written apart from the rules. A never-kept case counts as
found when none of its values survives in the stored text, neither as typed nor as a digit
string in any spelling; a benign case is a false positive when anything is removed from it.
Target (issue 13): recall 1.0 on every never-kept kind, false positives <= 1%.
"""

from __future__ import annotations

import argparse
import random
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from memory.redaction import redact
from tests.bench.redaction_benign import benign
from tests.bench.redaction_data import Case, never_kept

SEED = 13


def _digit_projection(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text)
    return "".join(
        str(unicodedata.decimal(ch)) for ch in folded if unicodedata.category(ch) == "Nd"
    )


def leaked(case: Case, stored: str) -> bool:
    """True when a value of ``case`` survives in ``stored`` as typed or as digits."""
    if any(value in stored for value in case.values):
        return True
    projection = _digit_projection(stored)
    return any(d in projection for d in case.digits)


@dataclass
class Report:
    total: Counter = field(default_factory=Counter)
    found: Counter = field(default_factory=Counter)
    right_kind: Counter = field(default_factory=Counter)
    benign_total: Counter = field(default_factory=Counter)
    benign_fp: Counter = field(default_factory=Counter)
    misses: list[tuple[Case, str]] = field(default_factory=list)
    false_positives: list[tuple[Case, str]] = field(default_factory=list)

    def recall(self, kind: str) -> float:
        totals = sum(n for (k, _), n in self.total.items() if k == kind)
        found = sum(n for (k, _), n in self.found.items() if k == kind)
        return found / totals if totals else 1.0

    @property
    def fp_rate(self) -> float:
        total = sum(self.benign_total.values())
        return sum(self.benign_fp.values()) / total if total else 0.0


def evaluate(*, seed: int = SEED, scale: float = 1.0, fresh: bool = False) -> Report:
    rng = random.Random(seed)
    positives = never_kept(rng, scale=scale, fresh=fresh)
    negatives = benign(rng, scale=scale)
    report = Report()
    for case in positives:
        result = redact(case.text, previous=case.previous)
        key = (case.kind, case.language)
        report.total[key] += 1
        if not leaked(case, result.text):
            report.found[key] += 1
        else:
            report.misses.append((case, result.text))
        expected = {"card_expiry": {"card", "card_expiry"}}.get(case.kind, {case.kind})
        if expected <= set(result.removed):
            report.right_kind[key] += 1
    for case in negatives:
        result = redact(case.text)
        report.benign_total[case.language] += 1
        if result.removed:
            report.benign_fp[case.language] += 1
            report.false_positives.append((case, result.text))
    return report


def render(report: Report, *, title: str) -> str:
    lines = [
        f"redaction held-out evaluation ({title})",
        f"{'kind':<15}{'lang':<6}{'cases':>7}{'found':>7}{'recall':>8}{'kind ok':>9}",
    ]
    kinds = sorted(
        {k for k, _ in report.total},
        key=lambda k: list(
            dict.fromkeys(["card", "card_expiry", "security_code", "password", "pin", "otp", k])
        ).index(k),
    )
    for kind in kinds:
        for language in ("en", "de"):
            n = report.total[(kind, language)]
            if not n:
                continue
            found = report.found[(kind, language)]
            lines.append(
                f"{kind:<15}{language:<6}{n:>7}{found:>7}{found / n:>8.3f}"
                f"{report.right_kind[(kind, language)] / n:>9.3f}"
            )
        lines.append(f"{kind:<15}{'all':<6}{'':>7}{'':>7}{report.recall(kind):>8.3f}")
    total = sum(report.total.values())
    found = sum(report.found.values())
    lines.append(f"{'never-kept':<15}{'all':<6}{total:>7}{found:>7}{found / total:>8.3f}")
    lines.append("")
    lines.append(f"{'benign':<15}{'lang':<6}{'cases':>7}{'removed':>9}{'FP rate':>9}")
    for language in ("en", "de"):
        n, fp = report.benign_total[language], report.benign_fp[language]
        lines.append(f"{'benign':<15}{language:<6}{n:>7}{fp:>9}{fp / n:>9.3%}")
    n, fp = sum(report.benign_total.values()), sum(report.benign_fp.values())
    lines.append(f"{'benign':<15}{'all':<6}{n:>7}{fp:>9}{report.fp_rate:>9.3%}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--fresh", action="store_true", help="the second set of phrasings")
    parser.add_argument("--show", type=int, default=0, help="print up to N misses per side")
    args = parser.parse_args()
    report = evaluate(seed=args.seed, scale=args.scale, fresh=args.fresh)
    print(render(report, title=f"seed {args.seed}{', fresh phrasings' if args.fresh else ''}"))
    by_kind: dict[str, int] = defaultdict(int)
    for case, stored in report.misses:
        if by_kind[case.kind] < args.show:
            by_kind[case.kind] += 1
            print(f"MISS {case.kind} {case.language}: {case.text!r} -> {stored!r}")
    for case, stored in report.false_positives[: args.show]:
        print(f"FP {case.language}: {case.text!r} -> {stored!r}")


if __name__ == "__main__":
    main()
