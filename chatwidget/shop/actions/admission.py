"""Whether a call may be made at all, decided before any request (no request is made for a
refused call; the model is told why, like a failure).

- The visitor's words: every argument the Owner marked as the visitor's, and every second
  factor the model passes, must occur in what the visitor wrote in this conversation (the
  assistant never looks anything up with a value it made up or took from elsewhere).
- The second factor (chatwidget.shop.actions.protect): a lookup of a customer's data needs
  at least one, from the visitor's words or a verified identity.
- Limits: the conversation's hourly calls (ActionPolicy, counted in the database), then the
  client address's and the site's (settings ACTION_CALLS_PER_ADDRESS and
  ACTION_CALLS_PER_SITE, counted in the shared cache), so that fresh conversations do not
  reset the count: one address cannot walk through order numbers by opening a new chat
  for each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from chatwidget.platform import cache_keys
from chatwidget.platform.client_address import address_key
from chatwidget.platform.ratelimit import rate_limits_hit_fail_open
from chatwidget.shop.actions.protect import factor_value, identity_factors
from chatwidget.shop.models.actions import ActionCall
from memory.customers import customer_for_conversation
from memory.models import Turn, TurnRole

Outcome = ActionCall.Outcome
VISITOR_TURNS_CHECKED = 200
# Refusals made no request, so they do not count against the conversation's calls.
NOT_COUNTED = (
    Outcome.MISSING_ARGS,
    Outcome.INVALID_ARGS,
    Outcome.RATE_LIMITED,
    Outcome.ADDRESS_LIMITED,
    Outcome.NOT_CONFIGURED,
)


@dataclass(frozen=True)
class Admission:
    refused: str | None = None  # the outcome of a refused call
    missing: list[str] = field(default_factory=list)  # argument names, never values
    missing_factor: tuple[str, ...] = ()  # one of these second factors is missing
    factors: dict[str, str] = field(default_factory=dict)  # second factors given: name -> value
    # arguments taken from the verified identity (the model did not pass them): name -> value
    filled: dict[str, str] = field(default_factory=dict)


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^0-9a-zäöüß]+", " ", str(text).casefold()).split())


def value_given_by_visitor(value, visitor_texts: list[str]) -> bool:
    """Whether the value occurs, as whole words, in what the visitor wrote ("10452" in
    "where is my order 10452?"; "LS-1002" also as "ls 1002" or "LS1002"; never "1045" in
    "10452")."""
    joined = _norm(value).replace(" ", "")
    if not joined:
        return False
    for text in visitor_texts:
        tokens = _norm(text).split()
        for i in range(len(tokens)):
            run = ""
            for token in tokens[i:]:
                run += token
                if len(run) >= len(joined):
                    break
            if run == joined:
                return True
    return False


def _visitor_texts(conversation_id: int) -> list[str]:
    return list(
        Turn.objects.filter(conversation_id=conversation_id, role=TurnRole.VISITOR)
        .order_by("-seq")
        .values_list("text", flat=True)[:VISITOR_TURNS_CHECKED]
    )


def _written_as_is(value, texts: list[str]) -> bool:
    """A second factor must occur as the visitor wrote it, punctuation included (only case
    and spaces aside): the model may not turn "annaberg@example.com" into the order's
    "anna.berg@example.com"."""
    compact = factor_value(value)
    return any(compact in factor_value(text) for text in texts)


def _from_identity(conversation_id: int, factors: dict[str, str]) -> dict[str, str]:
    """Second factors from the conversation's verified customer (memory.customers): they
    count as given by the visitor. An unverified e-mail never gets here: a conversation is
    linked to a customer only after the signature checked."""
    if not factors:
        return {}
    customer = customer_for_conversation(conversation_id=conversation_id)
    if customer is None:
        return {}
    return identity_factors(email=customer.email, factors=factors)


def _words_check(conversation_id: int, config: dict, arguments: dict) -> Admission:
    """The visitor's arguments and the second factor, from the visitor's words or the
    verified identity (whose values fill the arguments the model left out)."""
    factors: dict[str, str] = config.get("factors") or {}
    visitor_args = list(config.get("visitor_args") or [])
    passed = [name for name in factors if name in arguments and name not in visitor_args]
    if not (visitor_args or passed or factors):
        return Admission()
    verified = _from_identity(conversation_id, factors)
    texts = _visitor_texts(conversation_id)
    missing = [
        name
        for name in [*visitor_args, *passed]
        if not _verified_value(name, arguments, verified)
        and (
            not value_given_by_visitor(arguments.get(name, ""), texts)
            or (name in factors and not _written_as_is(arguments[name], texts))
        )
    ]
    if missing:
        return Admission(refused=Outcome.MISSING_ARGS, missing=missing)
    filled = {name: value for name, value in verified.items() if name not in arguments}
    given = {name: str(arguments[name]) for name in factors if name in arguments}
    given.update(filled)
    if config.get("customer_data", True) and not given:
        return Admission(refused=Outcome.MISSING_ARGS, missing_factor=tuple(sorted(factors)))
    return Admission(factors=given, filled=filled)


def _verified_value(name: str, arguments: dict, verified: dict[str, str]) -> bool:
    """The model passed the verified identity's own value (case and spaces aside)."""
    return name in verified and factor_value(arguments.get(name, "")) == factor_value(
        verified[name]
    )


def call_admit(
    *,
    site_id: int,
    conversation_id: int,
    address: str | None,
    config: dict,
    arguments: dict,
    calls_per_hour: int,
) -> Admission:
    """Whether the call may be made (blocking: two queries and one cache round trip at
    most): configuration, the visitor's words, the conversation's hourly calls, then the
    client address's and the site's."""
    if config.get("customer_data", True) and not config.get("factors"):
        return Admission(refused=Outcome.NOT_CONFIGURED)  # admin refuses this; an old row
    admission = _words_check(conversation_id, config, arguments)
    if admission.refused:
        return admission
    since = timezone.now() - timedelta(hours=1)
    made = (
        ActionCall.objects.filter(conversation_id=conversation_id, created_at__gte=since)
        .exclude(outcome__in=NOT_COUNTED)
        .count()
    )
    if made >= calls_per_hour:
        return Admission(refused=Outcome.RATE_LIMITED)
    if calls_limited(site_id=site_id, address=address):
        return Admission(refused=Outcome.ADDRESS_LIMITED)
    return admission


def calls_limited(*, site_id: int, address: str | None) -> bool:
    """Count one call against the client address and the site; True when either is over
    its limit. Counted only for calls that would make a request. A cache outage counts
    nothing (the conversation's own limit, in the database, still holds)."""
    hits = [(cache_keys.rate_action_site(site_id), settings.ACTION_CALLS_PER_SITE)]
    if address:
        key = cache_keys.rate_action_address(address_key(address))
        hits.append((key, settings.ACTION_CALLS_PER_ADDRESS))
    return rate_limits_hit_fail_open(hits=hits)
