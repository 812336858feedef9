"""chatwidget/platform/memo.py: per-site values every turn reads, kept a second per process."""

import pytest

from chatwidget.platform import memo as memo_module
from chatwidget.platform.memo import ProcessMemo


@pytest.fixture
def clock(monkeypatch):
    at = {"t": 1000.0}  # frozen until a test moves it
    monkeypatch.setattr(memo_module.time, "monotonic", lambda: at["t"])
    return at


def test_a_value_is_loaded_once_a_second(settings, clock):
    settings.LOCAL_MEMO_SECONDS = 1.0
    memo, loads = ProcessMemo[int](), []
    load = lambda: loads.append(1) or len(loads)  # noqa: E731
    assert memo.get(7, load) == 1
    clock["t"] += 0.9
    assert memo.get(7, load) == 1, "kept within the second"
    assert memo.get(8, load) == 2, "per key"
    clock["t"] += 0.2
    assert memo.get(7, load) == 3, "loaded again once the second is over"


def test_a_change_in_this_process_is_seen_at_once(settings, clock):
    settings.LOCAL_MEMO_SECONDS = 1.0
    memo, value = ProcessMemo[str](), {"v": "old"}
    assert memo.get(1, lambda: value["v"]) == "old"
    value["v"] = "new"
    memo.forget(1)
    assert memo.get(1, lambda: value["v"]) == "new"


def test_zero_seconds_turns_the_memo_off(settings):
    settings.LOCAL_MEMO_SECONDS = 0
    memo, loads = ProcessMemo[int](), []
    for _ in range(3):
        memo.get(1, lambda: loads.append(1) or 0)
    assert len(loads) == 3


@pytest.mark.django_db
def test_the_turns_site_reads_reach_the_shared_cache_once_a_second(site, settings, clock):
    """Shop actions: an owner's save in this process is seen at once; a change another
    process made to the shared cache, once the second is over."""
    from django.core.cache import cache

    from chatwidget.platform import cache_keys
    from chatwidget.shop.actions.tools import site_actions, site_actions_forget
    from chatwidget.shop.knowledge.selectors import knowledge_available

    settings.LOCAL_MEMO_SECONDS = 1.0
    first = site_actions(site_id=site.pk)
    assert site_actions(site_id=site.pk) is first, "no round trip within the second"
    site_actions_forget(site_id=site.pk)
    assert site_actions(site_id=site.pk) is not first, "this process's save: at once"

    assert knowledge_available(site_id=site.pk) is False
    cache.set(cache_keys.knowledge_available(site.pk), True)  # another process's import
    assert knowledge_available(site_id=site.pk) is False
    clock["t"] += 1.01
    assert knowledge_available(site_id=site.pk) is True
