"""Token counting (memory/tokens.py): tiktoken in the model's encoding, counted once."""

import os
import subprocess
import sys

import pytest

from memory.services import conversation_start, turn_append
from memory.tokens import MESSAGE_OVERHEAD, count_tokens, encoding_name_for, get_encoding
from tests.conftest import ROOT


def test_current_models_use_o200k_base_and_older_ones_cl100k():
    assert encoding_name_for("gpt-4o-mini") == "o200k_base"
    assert encoding_name_for("gpt-4.1") == "o200k_base"
    assert encoding_name_for("gpt-4") == "cl100k_base"
    assert encoding_name_for("gpt-3.5-turbo") == "cl100k_base"


def test_count_is_the_encodings_count_plus_the_message_overhead():
    text = "Do you have the cotton kurta KU-2291-M in size L?"
    assert count_tokens(text) == len(get_encoding("o200k_base").encode(text)) + MESSAGE_OVERHEAD


@pytest.mark.django_db
def test_a_turn_is_counted_once_when_it_is_written(site):
    conv, _ = conversation_start(site_id=site.pk)
    turn = turn_append(
        conversation_id=conv.pk,
        role="visitor",
        text="My card is 4111 1111 1111 1111, ship KU-2291-M",
    ).turn
    turn.refresh_from_db()
    assert turn.token_count == count_tokens(turn.text), "the stored (redacted) text is counted"


def test_a_missing_encoding_stops_start_up_with_a_clear_error(tmp_path):
    """No cached encoding and no way to download it: `manage.py check` (and so every
    start-up command) fails with what to do, not with a traceback from inside tiktoken."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "chatwidget.settings.test",
        "TIKTOKEN_CACHE_DIR": str(tmp_path),  # empty: nothing cached
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "HTTP_PROXY": "http://127.0.0.1:9",
        "https_proxy": "http://127.0.0.1:9",
        "http_proxy": "http://127.0.0.1:9",
        "NO_PROXY": "",
        "no_proxy": "",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "(memory.E001) tiktoken could not load the 'o200k_base' encoding" in done.stderr
    assert f"Set TIKTOKEN_CACHE_DIR to a folder holding it (currently '{tmp_path}')" in done.stderr
    assert "Traceback" not in done.stderr
