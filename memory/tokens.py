"""Token counting with tiktoken, in the model's encoding.

Counts are taken once, when a turn is written, and stored; building a context never
re-tokenises history.
"""

import functools
import os

import tiktoken
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

# Per-message framing overhead of the chat format (role markers), as OpenAI documents it.
MESSAGE_OVERHEAD = 4
DEFAULT_ENCODING = "o200k_base"
_LEGACY = ("gpt-3.5", "gpt-4-", "gpt-4 ", "text-embedding-ada")


def encoding_name_for(model: str) -> str:
    if model == "gpt-4" or model.startswith(_LEGACY):
        return "cl100k_base"
    return DEFAULT_ENCODING


@functools.lru_cache(maxsize=4)
def get_encoding(name: str = DEFAULT_ENCODING) -> tiktoken.Encoding:
    os.environ.setdefault("TIKTOKEN_CACHE_DIR", settings.TIKTOKEN_CACHE_DIR)
    try:
        return tiktoken.get_encoding(name)
    except Exception as exc:  # noqa: BLE001 - network or file problems: say what to do
        raise ImproperlyConfigured(
            f"tiktoken could not load the {name!r} encoding. Set TIKTOKEN_CACHE_DIR to a folder "
            f"holding it (currently {os.environ.get('TIKTOKEN_CACHE_DIR')!r}); see README.md "
            f"'Token counting'. Cause: {type(exc).__name__}"
        ) from None


def count_tokens(text: str, *, model: str | None = None) -> int:
    enc = get_encoding(encoding_name_for(model or settings.CHAT_MODEL))
    return len(enc.encode(text, disallowed_special=())) + MESSAGE_OVERHEAD


def tokens_truncate(
    text: str, *, max_tokens: int, model: str | None = None, marker: str = " […]"
) -> tuple[str, int]:
    """`text` cut at its end to at most `max_tokens` as `count_tokens` counts them (the
    marker included): (text, tokens). The one place text is cut to a token budget. Decoding
    a cut can re-tokenise differently, so the cut shrinks until it fits."""
    tokens = count_tokens(text, model=model)
    if tokens <= max_tokens:
        return text, tokens
    enc = get_encoding(encoding_name_for(model or settings.CHAT_MODEL))
    ids = enc.encode(text, disallowed_special=())
    keep = max_tokens - MESSAGE_OVERHEAD
    while True:
        cut = enc.decode(ids[: max(keep, 1)]) + marker
        tokens = count_tokens(cut, model=model)
        if tokens <= max_tokens or keep <= 1:
            return cut, tokens
        keep -= tokens - max_tokens


def tokens_split(text: str, *, size: int, model: str | None = None) -> list[str]:
    """`text` in consecutive pieces of at most `size` tokens each (no framing counted)."""
    enc = get_encoding(encoding_name_for(model or settings.CHAT_MODEL))
    ids = enc.encode(text, disallowed_special=())
    return [enc.decode(ids[i : i + size]) for i in range(0, len(ids), size)]


def check_encoding_available() -> None:
    """Called at start-up (system check) so a missing encoding fails early and clearly."""
    get_encoding(encoding_name_for(settings.CHAT_MODEL))
