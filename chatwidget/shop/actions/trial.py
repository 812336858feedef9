"""'Try it' in admin: one request of an action with arguments the Owner types, shown as
staff may see it (issue 27).

The request goes the way a visitor's would (the schema check, the egress guard, the
timeout), but no conversation, turn or call record is written and the visitor's-words and
second-factor checks do not apply: the Owner is testing their own API. Secrets never show:
`{env:NAME}` values are replaced by dots in the URL and headers. The answer is shown as the
model would get it (the declared answer fields, personal fields dropped otherwise), never the
raw body with a customer's data.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from asgiref.sync import async_to_sync

from chatwidget.shop.actions.arguments import arguments_check
from chatwidget.shop.actions.http import action_request, request_build
from chatwidget.shop.actions.protect import answer_fields_keep
from chatwidget.shop.actions.tools import action_config
from chatwidget.shop.models.action_request import ENV_RE
from chatwidget.shop.models.actions import Action

MASK = "•••"
SHOWN_CHARS = 4000


@dataclass
class Trial:
    method: str
    url: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # arguments that do not fit the schema
    outcome: str = ""
    status_code: int | None = None
    latency_ms: int = 0
    answer: str = ""  # as the model would get it, pretty JSON, cut


def _masked(template: str) -> str:
    return ENV_RE.sub(MASK, template)


def action_try(*, action: Action, arguments: dict) -> Trial:
    config = action_config(action)
    checked = arguments_check(schema=action.parameters or {}, arguments=arguments)
    trial = Trial(
        method=action.method,
        headers={name: _masked(value) for name, value in (action.headers or {}).items()},
        problems=list(checked.problems),
    )
    if trial.problems:
        return trial
    shown = {**config, "url": _masked(config["url"])}
    url, params, body = request_build(config=shown, arguments=checked.arguments)
    query = "&".join(f"{k}={v}" for k, v in params.items())
    trial.url = url + (f"?{query}" if query else "")
    if body:
        trial.url += "  " + json.dumps(body, ensure_ascii=False)
    result = async_to_sync(action_request)(config=config, arguments=checked.arguments)
    trial.outcome, trial.status_code = str(result.outcome), result.status_code
    trial.latency_ms = result.latency_ms
    if result.data is not None:
        kept = answer_fields_keep(data=result.data, fields=list(action.answer_fields or []))
        text = json.dumps(kept, ensure_ascii=False, indent=2)
        trial.answer = text[:SHOWN_CHARS] + ("\n…" if len(text) > SHOWN_CHARS else "")
    return trial
