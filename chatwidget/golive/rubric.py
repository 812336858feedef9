"""The rubric: a second model call that grades one answer against one criterion and must
reply with a strict JSON verdict and the quoted evidence.

A grade is advisory. A verdict is only taken when its quote really occurs in the answer
(whitespace and case aside): a grader that invents evidence is reported as `invalid`, not
believed.
"""

import json
import logging
import re
from dataclasses import asdict, dataclass

from django.utils.translation import gettext as _

from chatwidget.platform import llm

log = logging.getLogger(__name__)

VERDICT_SCHEMA = {
    "type": "object",
    "properties": {
        "verdict": {"type": "string", "enum": ["pass", "fail"]},
        "evidence": {"type": "string"},
        "reason": {"type": "string"},
    },
    "required": ["verdict", "evidence", "reason"],
    "additionalProperties": False,
}

GRADER_INSTRUCTIONS = """\
You grade one answer of a web shop's chat assistant against one criterion.
Reply with JSON only: {"verdict": "pass" or "fail", "evidence": "...", "reason": "..."}.
- evidence: an exact quote, copied character for character from the answer, that decides the
  verdict. If the answer contains nothing that meets the criterion, quote the part that shows
  it does not and give "fail".
- reason: one sentence.
Judge only the answer; the conversation is context."""


@dataclass
class Grade:
    verdict: str  # pass | fail | invalid | error | skipped
    evidence: str = ""
    reason: str = ""
    criterion: str = ""
    tokens: int = 0

    def as_dict(self) -> dict:
        return asdict(self)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def grade_messages(*, criterion: str, context: list[str], answer: str) -> list[dict]:
    payload = {"criterion": criterion, "conversation_before": context, "answer": answer}
    return [
        {"role": "system", "content": GRADER_INSTRUCTIONS},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
    ]


async def answer_grade(
    *, criterion: str, context: list[str], answer: str | None, model: str
) -> Grade:
    """Grade `answer`. No answer (the model failed) is a fail without a call."""
    if not answer:
        return Grade("fail", reason=_("There was no answer to grade."), criterion=criterion)
    try:
        response = await llm.get_client().chat.completions.create(
            model=model,
            messages=grade_messages(criterion=criterion, context=context, answer=answer),
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "golive_verdict", "schema": VERDICT_SCHEMA, "strict": True},
            },
        )
    except llm.openai_sdk().APIError as exc:
        log.warning("grading call failed", extra={"error": type(exc).__name__})
        return Grade(
            "error",
            reason=_("The grading call failed (%(error)s).") % {"error": type(exc).__name__},
            criterion=criterion,
        )
    usage = response.usage
    tokens = (
        (getattr(usage, "prompt_tokens", 0) or 0) + (getattr(usage, "completion_tokens", 0) or 0)
        if usage
        else 0
    )
    content = (response.choices[0].message.content or "") if response.choices else ""
    return verdict_parse(content=content, answer=answer, criterion=criterion, tokens=tokens)


def verdict_parse(*, content: str, answer: str, criterion: str, tokens: int = 0) -> Grade:
    """Check the grader's reply against the schema and the answer it quotes."""
    try:
        data = json.loads(content)
    except ValueError:
        return Grade(
            "invalid",
            reason=_("The grader did not reply with JSON."),
            criterion=criterion,
            tokens=tokens,
        )
    if (
        not isinstance(data, dict)
        or data.get("verdict") not in ("pass", "fail")
        or not all(isinstance(data.get(k), str) for k in ("evidence", "reason"))
    ):
        return Grade(
            "invalid",
            reason=_("The grader's JSON does not follow the schema."),
            criterion=criterion,
            tokens=tokens,
        )
    evidence, reason = data["evidence"].strip()[:500], data["reason"].strip()[:500]
    if not evidence or _norm(evidence) not in _norm(answer):
        return Grade(
            "invalid",
            evidence=evidence,
            reason=_("The grader's quote does not occur in the answer."),
            criterion=criterion,
            tokens=tokens,
        )
    return Grade(
        data["verdict"], evidence=evidence, reason=reason, criterion=criterion, tokens=tokens
    )
