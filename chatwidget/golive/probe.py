"""One case's workbench: visitors over the websocket, reads through `observe`, checks,
evidence and the rubric grade, collected into a `CaseResult`."""

import math
import statistics
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from channels.db import database_sync_to_async
from django.utils.translation import gettext as _

from chatwidget.golive import observe
from chatwidget.golive.driver import Exchange, Visitor
from chatwidget.golive.rubric import Grade, answer_grade
from chatwidget.sites.models import Site

EVIDENCE_CHARS = 600


@dataclass
class CaseResult:
    key: str
    title: str
    checks: list[dict] = field(default_factory=list)  # {name, passed, detail}
    grade: Grade | None = None
    evidence: dict = field(default_factory=dict)  # request / core / answer slices
    turns: list[dict] = field(default_factory=list)  # per exchange: tokens, time to 1st token
    tokens: dict = field(default_factory=dict)
    error: str = ""

    @property
    def status(self) -> str:
        """fail: a pipeline guarantee broke (or the case could not run); warn: the pipeline
        held but the model's answer did not pass its rubric (advisory); pass: both held."""
        if self.error or not self.checks or not all(c["passed"] for c in self.checks):
            return "fail"
        if self.grade is not None and self.grade.verdict not in ("pass", "skipped"):
            return "warn"
        return "pass"

    def as_dict(self) -> dict:
        return {
            "key": self.key,
            "title": self.title,
            "status": self.status,
            "checks": self.checks,
            "grade": self.grade.as_dict() if self.grade else None,
            "evidence": self.evidence,
            "turns": self.turns,
            "tokens": self.tokens,
            "error": self.error,
        }


def slice_around(text: str, needles: list[str], width: int = EVIDENCE_CHARS) -> str:
    """The part of `text` around the first needle found (the whole text if short)."""
    if len(text) <= width:
        return text
    hits = [text.find(n) for n in needles if n and n in text]
    at = min(hits) if hits else len(text) - width
    start = max(0, min(at - width // 3, len(text) - width))
    return (
        ("…" if start else "")
        + text[start : start + width]
        + ("…" if start + width < len(text) else "")
    )


class Probe:
    """The tools a case uses. Conversations it creates are reported to `on_conversation` at
    once (so a crash cannot leave one behind unnoticed)."""

    def __init__(
        self,
        *,
        site: Site,
        application,
        origin: str,
        grader_model: str,
        quiet_s: float,
        answer_timeout_s: float,
        on_conversation: Callable[[int], Awaitable[None]],
    ) -> None:
        self.site = site
        self.application = application
        self.origin = origin
        self.grader_model = grader_model
        self.quiet_s = quiet_s
        self.answer_timeout_s = answer_timeout_s
        self.on_conversation = on_conversation
        self.conversations: list[int] = []
        self.exchanges: list[tuple[int, Exchange]] = []  # (conversation id, exchange)
        self.result: CaseResult | None = None

    # --- driving ----------------------------------------------------------------------------

    async def visitor(
        self, *, session: str | None = None, last_seq: int | None = None
    ) -> tuple[Visitor, dict]:
        v = Visitor(
            application=self.application,
            site_key=self.site.key,
            origin=self.origin,
            answer_timeout_s=self.answer_timeout_s,
        )
        welcome = await v.open(session=session, last_seq=last_seq)
        return v, welcome

    async def say(self, v: Visitor, text: str, *, expect_answer: bool = True) -> Exchange:
        ex = await v.say(text, expect_answer=expect_answer, quiet_s=self.quiet_s)
        conv_id = await self.conversation_of(v)
        if expect_answer:
            self.check_exchange(ex)
        if conv_id is not None:
            self.exchanges.append((conv_id, ex))
        return ex

    async def conversation_of(self, v: Visitor) -> int | None:
        if not v.session:
            return None
        conv_id = await self.read(observe.conversation_id_for, session=v.session)
        if conv_id is not None and conv_id not in self.conversations:
            self.conversations.append(conv_id)
            await self.on_conversation(conv_id)
        return conv_id

    def filler_count(self, *, turns_so_far: int, keep_seq: int) -> int:
        """Exchanges needed to carry the conversation past the site's condensation threshold
        (window + condense_after_turns turns) with turn `keep_seq` outside the window."""
        window = max(self.site.verbatim_window_turns, 2 * self.site.verbatim_min_exchanges + 1)
        target = window + max(self.site.condense_after_turns, keep_seq)
        return max(0, math.ceil((target - turns_so_far) / 2))

    # --- reading and judging ------------------------------------------------------------------

    async def read(self, fn, **kwargs):
        return await database_sync_to_async(fn)(**kwargs)

    async def request_of(self, conversation_id: int, seq: int | None) -> tuple[str, object]:
        """The rebuilt request for the visitor turn `seq`, and its trace (None: no call)."""
        traces = await self.read(observe.traces_of, conversation_id=conversation_id)
        trace = next((t for t in reversed(traces) if t.request_seq == seq), None)
        if trace is None:
            return "", None
        text = await self.read(observe.request_rebuild, trace=trace, site=self.site)
        return text, trace

    def check(self, name: str, passed: bool, detail: str = "") -> bool:
        self.result.checks.append({"name": name, "passed": bool(passed), "detail": detail})
        return bool(passed)

    def check_exchange(self, ex: Exchange) -> None:
        if ex.error:
            self.check(
                _("the message '%(text)s' was answered") % {"text": ex.text[:40]},
                False,
                _("error: %(code)s") % {"code": ex.error},
            )

    def evidence(self, **slices: str) -> None:
        self.result.evidence.update({k: v for k, v in slices.items() if v})

    async def grade(self, *, criterion: str, ex: Exchange, context: list[str]) -> None:
        self.result.grade = await answer_grade(
            criterion=criterion, context=context, answer=ex.answer, model=self.grader_model
        )

    # --- figures ------------------------------------------------------------------------------

    async def figures(self) -> None:
        """Tokens and time to first token per exchange; totals for the case."""
        answers = condensation = 0
        for conv_id in self.conversations:
            condensation += await self.read(observe.condensation_tokens, conversation_id=conv_id)
        cache: dict[int, tuple] = {}
        for conv_id, ex in self.exchanges:
            if conv_id not in cache:
                cache[conv_id] = (
                    {
                        t.request_seq: t
                        for t in await self.read(observe.traces_of, conversation_id=conv_id)
                    },
                    {t.seq: t for t in await self.read(observe.turns_of, conversation_id=conv_id)},
                )
            traces, turns = cache[conv_id]
            trace = traces.get(ex.seq)
            stored = turns.get(ex.seq)
            prompt = trace.total_tokens if trace else 0
            answer = turns[ex.answer_seq].tokens if ex.answer_seq in turns else 0
            answers += prompt + answer
            self.result.turns.append(
                {
                    "seq": ex.seq,
                    "text": stored.text if stored else "",
                    "prompt_tokens": prompt,
                    "answer_tokens": answer,
                    "ttft_ms": ex.ttft_ms,
                    "model_called": trace is not None,
                    "error": ex.error or "",
                }
            )
        rubric = self.result.grade.tokens if self.result.grade else 0
        self.result.tokens = {
            "answers": answers,
            "condensation": condensation,
            "grading": rubric,
            "total": answers + condensation + rubric,
        }


def ttft_median(cases: list[dict]) -> int | None:
    values = [t["ttft_ms"] for c in cases for t in c["turns"] if t.get("ttft_ms") is not None]
    return int(statistics.median(values)) if values else None
