"""A site's actions as the model sees them (openai tool definitions) and as the caller needs
them (URL, headers with `{env:...}` names, timeout), with the site's limits.

Cached per site for a minute, so an answer of a site without actions costs no query; admin
saves clear the entry (`site_actions_forget`). The entry holds no secret: header values are
templates naming environment variables.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.core.cache import cache

from chatwidget.platform import cache_keys
from chatwidget.platform.memo import ProcessMemo
from chatwidget.shop.actions.orders import DESCRIPTION, PARAMETERS, TOOL_NAME, order_tool_config
from chatwidget.shop.models.actions import Action, ActionPolicy
from chatwidget.shop.models.connections import Connection

CACHE_SECONDS = 60
RESULT_MAX_TOKENS = ActionPolicy._meta.get_field("result_max_tokens").default
CALLS_PER_HOUR = ActionPolicy._meta.get_field("calls_per_hour").default
# Model rounds with tool calls in one answer; the last round offers no action tools, so
# the model has to answer with what it has.
ROUNDS = 2


@dataclass(frozen=True)
class SiteActions:
    tools: list[dict] = field(default_factory=list)  # openai tool definitions
    config: dict[str, dict] = field(default_factory=dict)  # name -> how to call it
    result_max_tokens: int = RESULT_MAX_TOKENS
    calls_per_hour: int = CALLS_PER_HOUR

    @property
    def tools_json(self) -> str:
        """The definitions as sent, for counting their tokens."""
        return json.dumps(self.tools, ensure_ascii=False) if self.tools else ""

    @property
    def result_room(self) -> int:
        """Tokens kept free in the context for the results of one answer's calls."""
        return self.result_max_tokens * ROUNDS if self.tools else 0


def _definition(name: str, description: str, parameters: dict) -> dict:
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


def tool_definition(action: Action) -> dict:
    return _definition(
        action.name,
        action.description,
        action.parameters or {"type": "object", "properties": {}},
    )


def action_config(a: Action) -> dict:
    """How to call one action (what the cache holds per name)."""
    return {
        "id": a.pk,
        "method": a.method,
        "url": a.url_template,
        "headers": a.headers,
        "timeout": a.timeout_seconds,
        "visitor_args": list(a.visitor_args or []),
        "customer_data": a.customer_data,
        "factors": dict(a.factors or {}),
        "answer_fields": list(a.answer_fields or []),
        "parameters": a.parameters or {},
        "properties": list((a.parameters or {}).get("properties", {})),
    }


KEPT = ProcessMemo[SiteActions]()


def site_actions(*, site_id: int) -> SiteActions:
    """The site's enabled actions as the context and the tool loop use them: cached in the
    shared cache, and a second in the process (platform.memo)."""
    return KEPT.get(site_id, lambda: _site_actions(site_id))


def _site_actions(site_id: int) -> SiteActions:
    cached = cache.get(cache_keys.site_actions(site_id))
    if cached is None:
        actions = list(Action.objects.filter(site_id=site_id, enabled=True).order_by("name"))
        policy = ActionPolicy.objects.filter(site_id=site_id).first()
        tools = [tool_definition(a) for a in actions]
        config = {a.name: action_config(a) for a in actions}
        connection = Connection.objects.filter(site_id=site_id, enabled=True).first()
        if connection is not None:  # the connection's order lookup; an Owner's name wins
            name = TOOL_NAME if TOOL_NAME not in config else f"shop_{TOOL_NAME}"
            tools.append(_definition(name, DESCRIPTION, PARAMETERS))
            config[name] = order_tool_config(connection)
        cached = {
            "tools": tools,
            "config": config,
            "result_max_tokens": policy.result_max_tokens if policy else RESULT_MAX_TOKENS,
            "calls_per_hour": policy.calls_per_hour if policy else CALLS_PER_HOUR,
        }
        cache.set(cache_keys.site_actions(site_id), cached, CACHE_SECONDS)
    return SiteActions(**cached)


def site_actions_forget(*, site_id: int) -> None:
    cache.delete(cache_keys.site_actions(site_id))
    KEPT.forget(site_id)
