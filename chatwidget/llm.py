"""The language-model client: any OpenAI-compatible endpoint through `AsyncOpenAI`.

`stream_reply` yields `Delta` and `ToolCall` events. Retries on 429/5xx/connection errors
are the SDK's own (exponential backoff with jitter, honouring Retry-After, `max_retries`).
A first-token timeout catches a model that accepts the request and then hangs. Without an
API key the service is in demo mode: `demo_reply` describes what would have been sent.
"""

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from functools import lru_cache

import openai
from django.conf import settings

log = logging.getLogger(__name__)

HANDOVER_TOOL = {
    "type": "function",
    "function": {
        "name": "request_handover",
        "description": "Hand the conversation over to a human member of the shop's team when "
        "the visitor asks for a person or the request needs one.",
        "parameters": {
            "type": "object",
            "properties": {"reason": {"type": "string", "description": "Why, in one sentence."}},
            "required": ["reason"],
        },
    },
}


class ModelUnavailable(Exception):
    """The model could not answer (after retries, or it timed out)."""


@dataclass(frozen=True)
class Delta:
    text: str


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict


@lru_cache(maxsize=8)
def _client(base_url: str | None, api_key: str) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(
        api_key=api_key,
        base_url=base_url,
        max_retries=settings.LLM_MAX_RETRIES,
        timeout=openai.Timeout(settings.LLM_TIMEOUT_SECONDS, connect=5.0),
    )


def get_client() -> openai.AsyncOpenAI:
    return _client(settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY or "demo")


async def stream_reply(
    *, messages: list[dict], model: str, tools: list[dict] | None = None
) -> AsyncIterator[Delta | ToolCall]:
    client = get_client()
    try:
        stream = await client.chat.completions.create(
            model=model,
            messages=messages,
            stream=True,
            tools=tools or openai.NOT_GIVEN,
        )
    except openai.APIError as exc:
        log.warning("model request failed", extra={"error": type(exc).__name__})
        raise ModelUnavailable(type(exc).__name__) from None

    calls: dict[int, dict] = {}
    iterator = stream.__aiter__()
    first = True
    try:
        while True:
            timeout = settings.LLM_FIRST_TOKEN_TIMEOUT_SECONDS if first else settings.LLM_TIMEOUT_SECONDS
            try:
                chunk = await asyncio.wait_for(iterator.__anext__(), timeout=timeout)
            except StopAsyncIteration:
                break
            first = False
            if not chunk.choices:
                continue
            delta = chunk.choices[0].delta
            if delta.content:
                yield Delta(delta.content)
            for call in delta.tool_calls or []:
                slot = calls.setdefault(call.index, {"name": "", "arguments": ""})
                if call.function and call.function.name:
                    slot["name"] = call.function.name
                if call.function and call.function.arguments:
                    slot["arguments"] += call.function.arguments
    except (TimeoutError, openai.APIError) as exc:
        log.warning("model stream failed", extra={"error": type(exc).__name__})
        raise ModelUnavailable(type(exc).__name__) from None
    finally:
        await stream.close()
    for slot in calls.values():
        try:
            args = json.loads(slot["arguments"] or "{}")
        except json.JSONDecodeError:
            args = {}
        yield ToolCall(slot["name"], args if isinstance(args, dict) else {})


async def complete_json(*, messages: list[dict], model: str, schema: dict) -> tuple[dict, dict]:
    """One non-streamed call asking for structured output. Returns (data, usage)."""
    client = get_client()
    try:
        response = await client.chat.completions.create(
            model=model,
            messages=messages,
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "condensed_core", "schema": schema, "strict": True},
            },
        )
    except openai.APIError as exc:
        raise ModelUnavailable(type(exc).__name__) from None
    content = response.choices[0].message.content or "{}"
    usage = {
        "prompt": getattr(response.usage, "prompt_tokens", 0) or 0,
        "completion": getattr(response.usage, "completion_tokens", 0) or 0,
    }
    try:
        return json.loads(content), usage
    except json.JSONDecodeError:
        raise ModelUnavailable("invalid JSON from model") from None


def demo_reply(*, sections: dict[str, int], verbatim_turns: int, covered_turns: int,
               core_version: int, budget: int, reserve: int, language: str = "en") -> str:
    """Demo mode: say plainly that no model is connected and show what it would be sent."""
    total = sum(sections.values())
    lines_en = [
        "[Demo mode - no language model is connected.]",
        "This is what the model would have been sent for your message:",
    ]
    lines_de = [
        "[Demo-Modus - es ist kein Sprachmodell angeschlossen.]",
        "Das hätte das Modell zu Ihrer Nachricht erhalten:",
    ]
    lines = lines_de if language == "de" else lines_en
    for name, tokens in sections.items():
        lines.append(f"- {name}: {tokens} tokens")
    lines.append(
        f"- verbatim turns: {verbatim_turns}; turns covered by the condensed core: "
        f"{covered_turns} (core version {core_version})"
    )
    lines.append(f"- total: {total} of {budget} tokens ({reserve} reserved for the answer)")
    return "\n".join(lines)
