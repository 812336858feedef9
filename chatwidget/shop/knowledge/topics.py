"""The shop's service topics a visitor asks about in everyday words (issue 26): a thesaurus.

A visitor asks "can I spread it over a few months?" or "kann ich das abstottern?"; the
shop's page says "instalments" and "Ratenzahlung". Neither the full-text search nor the
small embedded model (multilingual-e5-small) links the two reliably: the held-out sets'
misses were such service questions. Help-centre search (Zendesk's and Algolia's synonym
sets) answers this with a thesaurus; this is one for the topics every web shop's service
pages cover, in English and German, written from what visitors say, not from a shop's
pages: each topic has the phrasings that ask for it (`_Topic.asks`, regular expressions
over the folded message: `analysis.fold`, "zurück" -> "zuruck") and the words a shop's page
on it uses (`_Topic.words`, both languages: a German question may find an English page and
the other way round). They are data, in `topics.toml` (read once per process); the staff's
label of each topic is here, where it is translated.

`topic_words(message)` is what query.py adds to the message's own words (weighed below
them) and what selectors._topic_blend makes a vector of, blended into the message's. Pure.
"""

import functools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from chatwidget.shop.knowledge.analysis import fold

MAX_TOPICS = 2  # the first ones: TOPICS runs from the specific to the general
DATA = Path(__file__).with_name("topics.toml")
# What of a message is read: the phrasings are scanned from every position, about 8 µs a
# character; a 20,000-character message (a site's longest allowed) took 150 ms of CPU.
SCAN_CHARS = 600

LABELS: dict[str, str | Promise] = {  # for staff: the trace in admin
    "returns": _("returns and refunds"),
    "exchange": _("exchanges"),
    "warranty": _("defects and warranty"),
    "instalments": _("instalments and paying later"),
    "customs": _("delivery abroad and customs"),
    "missing_parcel": _("a parcel that has not arrived"),
    "change_cancel": _("changing or cancelling an order"),
    "furniture_delivery": _("furniture delivery"),
    "holidays": _("delivery before holidays"),
    "express": _("express delivery"),
    "collect": _("stores and collection"),
    "vouchers": _("gift cards and discount codes"),
    "gift_wrap": _("gift wrapping"),
    "account": _("the customer account"),
    "privacy": _("personal data"),
    "newsletter": _("the newsletter"),
    "sustainability": _("sustainability"),
    "imprint": _("the shop's legal details"),
    "terms": _("terms and conditions"),
    "contact": _("contacting the shop"),
    "care": _("care and washing"),
    "size": _("sizes and fit"),
    "shipping": _("delivery times and costs"),
    "payment": _("payment methods"),
}


@dataclass(frozen=True)
class _Topic:
    name: str
    asks: re.Pattern
    words: str
    of_product: bool  # a product's own text answers it too (topics.toml)


def _load(path: Path = DATA) -> tuple[_Topic, ...]:
    with path.open("rb") as fh:
        rows = tomllib.load(fh)["topic"]
    return tuple(
        _Topic(
            name=row["name"],
            asks=re.compile(r"\b(?:" + "|".join(row["asks"]) + r")", re.IGNORECASE),
            words=row["words"],
            of_product=row.get("of_product", False),
        )
        for row in rows
    )


TOPICS = _load()
_WORDS = {t.name: t.words for t in TOPICS}
_SERVICE = {t.name for t in TOPICS if not t.of_product}


@functools.lru_cache(maxsize=4096)
def topics_of(message: str) -> tuple[str, ...]:
    """The service topics a message asks about, the MAX_TOPICS most specific (TOPICS'
    order: "send back" before "delivery", "instalments" before "pay")."""
    folded = fold(message or "")
    if len(folded) > 2 * SCAN_CHARS:  # a long message: its opening and its question
        folded = f"{folded[:SCAN_CHARS]} … {folded[-SCAN_CHARS:]}"
    return tuple(t.name for t in TOPICS if t.asks.search(folded))[:MAX_TOPICS]


def topic_words(message: str) -> str:
    """The words a shop's pages on the message's topics use (empty: none asked)."""
    return words_of(topics_of(message))


def service_topics_of(text: str) -> tuple[str, ...]:
    """The shop's service topics a text asks about (the core's request: "the visitor reports
    that a rain jacket lets water in" -> warranty), those a product's text answers aside."""
    return tuple(name for name in topics_of(text) if name in _SERVICE)


def words_of(topics: tuple[str, ...]) -> str:
    """The words a shop's pages on these topics use."""
    return " ".join(_WORDS[name] for name in topics if name in _WORDS)


def asks_service(topics: tuple[str, ...]) -> bool:
    """Whether any of the topics is the shop's service (returns, delivery, payment...), not
    something a product's own text answers (its care, its sizes: `of_product`)."""
    return bool(_SERVICE.intersection(topics))


def topic_labels(names: list[str]) -> list[str]:
    """The topics as staff read them (a name no longer known: as it was stored)."""
    return [str(LABELS.get(name, name)) for name in names]
