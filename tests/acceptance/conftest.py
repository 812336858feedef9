"""Acceptance fixtures for the memory test cases (conversation-memory article, "Testing the
memory"): a shop site with a small window, condensation that really runs (Celery eager: the
task runs after each commit, through the same scheduling path as in production), and a fake
OpenAI-compatible model that answers from what it was sent."""

import json
import re

import pytest
from channels.db import database_sync_to_async

from chatwidget.celery import app as celery_app
from memory.core.extractive import core_extract
from memory.models import Conversation
from memory.selectors import token_hash
from tests.fakellm import JsonReply, Reply

ARTICLE = re.compile(r"\b[A-Z]{1,5}-\d{2,7}(?:-[A-Z0-9]{1,5})?\b")


class ShopModel:
    """The fake model's behaviour, a function of the request body.

    - Condensation calls (structured output, not streamed) get the core that the
      deterministic condenser makes of the payload they carry, passed through `mutate`
      when a test wants a model that drops or invents something.
    - Answers (streamed) take the next text from `answers`, else `answer(body)`: a tiny
      reader of its context that, asked for "the second one", names the second article of
      the list it was sent, or asks back when it has no list.
    """

    def __init__(self) -> None:
        self.answers: list[str] = []
        self.mutate = None

    def __call__(self, body: dict):
        if not body.get("stream"):
            payload = json.loads(body["messages"][-1]["content"])
            core = core_extract(previous=payload["previous_core"], turns=payload["turns"])
            return JsonReply(self.mutate(core) if self.mutate else core)
        return Reply(self.answers.pop(0) if self.answers else self.answer(body))

    @staticmethod
    def answer(body: dict) -> str:
        messages = body["messages"]
        question = messages[-1]["content"].lower()
        context = " ".join(m["content"] for m in messages[:-1])
        if "second one" in question:
            ids = list(dict.fromkeys(ARTICLE.findall(context)))
            return f"You mean {ids[1]}." if len(ids) > 1 else "Which list do you mean?"
        return (
            "Thank you, noted. Our delivery takes two to three working days within "
            "Germany. Orders placed before noon on a working day leave our warehouse the "
            "same day, and you receive a tracking link by e-mail as soon as the parcel is "
            "on its way to you."
        )


@pytest.fixture
def shop(site, settings):
    """A shop with a small verbatim window, so condensation starts after a few exchanges."""
    site.verbatim_window_turns = 8
    site.condense_after_turns = 2
    site.verbatim_min_exchanges = 3
    site.save()
    settings.RATE_LIMIT_PER_SESSION = "1000/60"
    settings.RATE_LIMIT_PER_ADDRESS = "1000/60"
    return site


@pytest.fixture
def model(fake_llm):
    behaviour = ShopModel()
    default = fake_llm.default
    fake_llm.default = behaviour
    yield behaviour
    fake_llm.default = default


@pytest.fixture
def condensation():
    """Condensation runs for real, synchronously after each commit (task_always_eager), via
    the same `condense_schedule_if_due` -> task path a worker would take."""
    import memory.tasks  # noqa: F401 (registers the task in this process)

    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def sent(fake_llm) -> list[dict]:
    """The answer calls the model received (streamed), oldest first."""
    return [r for r in fake_llm.requests if r.get("stream")]


def text_of(request: dict) -> str:
    return "\n".join(m["content"] for m in request["messages"])


async def exchange(c, text: str, cid: str) -> dict:
    ack = await c.say(text, cid)
    await c.answer()
    return ack


async def conversation_of(ack: dict) -> Conversation:
    return await database_sync_to_async(Conversation.objects.get)(
        token_hash=token_hash(ack["session"])
    )


FILLER = [
    "Is the fabric breathable?",
    "Can I wash it at 40 degrees?",
    "Do you ship to Austria?",
    "How long does delivery take?",
    "Can I pay by invoice?",
    "Is there a gift wrap option?",
    "What is your return period?",
    "Do you have a shop in Hamburg?",
    "Is the packaging plastic free?",
    "Can I change the delivery address later?",
    "Do you offer express shipping?",
    "Are the colours true to the photos?",
    "Is the stitching done by hand?",
    "Do you restock sold out items?",
    "Can I order by phone?",
    "Is there a loyalty programme?",
    "Do you ship on Saturdays?",
    "Can I track the parcel?",
    "Does it shrink when washed?",
    "Is the button made of wood?",
]
