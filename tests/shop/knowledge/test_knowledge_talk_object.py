"""The talk's object keeps a place (issue 26): a follow-up that names no product of its own
finds the product talked about among the first three excerpts, even when its words match a
service page or another product better ("tumble dryer ok?" after a jumper named by name,
no article number, no core); a question on the shop's service, or one naming another
product, is ranked as a new subject."""

import pytest

from chatwidget.shop.knowledge.query import knowledge_query_build
from chatwidget.shop.knowledge.scoring import OBJECT_PLACE, Candidate, _kept
from chatwidget.shop.knowledge.selectors import knowledge_search
from chatwidget.shop.models.knowledge import KnowledgeChunk

JUMPER_TALK = [  # newest first, as the context builder passes them
    ("assistant", "The merino wool jumper in navy is in stock in M, a fine-knit crew neck."),
    ("visitor", "I'd like the merino wool jumper in navy for my dad, he's a medium."),
]


def top(site, message: str, recent=JUMPER_TALK) -> list[str]:
    doc_of = dict(KnowledgeChunk.objects.values_list("pk", "document__external_id"))
    query = knowledge_query_build(message=message, recent=recent)
    return [doc_of[c.chunk_id] for c in knowledge_search(site=site, query=query, limit=3)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "message",
    # the first three missed it before (the care page, other products, first)
    ["tumble dryer ok?", "tumble dry?", "stains easily?", "and how do I wash it?", "M da?"],
)
def test_a_follow_up_keeps_the_product_named_by_name(demo_site, message):
    assert "WJ-3310-N" in top(demo_site, message)


STRICKJACKE_TALK = [
    ("assistant", "Die rote Strickjacke ist in M vorrätig, ein lockerer Grobstrick."),
    ("visitor", "Ich suche die Strickjacke in Rot für meine Mutter."),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("message", ["Trockner ok?", "Wäschetrockner geht?", "noch in L da?"])
def test_a_german_follow_up_keeps_it_too(demo_site, message):
    assert "SJ-2020-R" in top(demo_site, message, recent=STRICKJACKE_TALK)


@pytest.mark.django_db(transaction=True)
def test_a_question_on_the_shops_service_is_a_new_subject(demo_site):
    found = top(demo_site, "How long does shipping to Austria take?")
    assert found[0] == "shipping.md"
    assert "WJ-3310-N" not in found


@pytest.mark.django_db(transaction=True)
def test_a_message_naming_another_product_is_ranked_for_it(demo_site):
    assert top(demo_site, "and the leather belt, how wide is that?")[0] == "BE-1403-B"


@pytest.mark.django_db(transaction=True)
def test_a_first_message_keeps_no_place_for_anything(demo_site):
    assert "WJ-3310-N" not in top(demo_site, "tumble dryer ok?", recent=[])


def _candidate(pk: int, ids: list[str]) -> Candidate:
    return Candidate(pk, f"t{pk}", f"http://shop.test/{pk}", ids, "text", 10, score=1 - pk / 10)


def _of(*keys: str):
    return lambda c: bool(set(keys) & {i.lower().replace("-", "") for i in c.identifiers})


def test_the_object_moves_up_to_the_last_kept_place_and_nothing_above_it_moves():
    ranked = [_candidate(i, [f"P-{i}"] if i in (1, 5) else []) for i in range(6)]
    _kept(ranked, _of("p5"))
    assert [c.chunk_id for c in ranked] == [0, 1, 5, 2, 3, 4]
    assert ranked[2].kept and OBJECT_PLACE == 3


def test_an_object_already_among_the_first_places_stays_where_it_is():
    ranked = [_candidate(i, ["P-1"] if i == 1 else []) for i in range(5)]
    _kept(ranked, _of("p1"))
    assert [c.chunk_id for c in ranked] == [0, 1, 2, 3, 4]
    assert ranked[1].kept


@pytest.mark.django_db(transaction=True)
def test_the_talks_topic_page_is_kept_rather_than_its_object(demo_site):
    """After a core that reports a return of the jumper: the returns page, not the jumper,
    takes the kept place (the request says what the talk is about)."""
    section = _select_core(demo_site, "ok, what do you need from me?", RETURN_CORE)
    kept = [r["chunk"] for r in section.retrieved if r.get("kept")]
    assert len(kept) == 1
    assert KnowledgeChunk.objects.get(pk=kept[0]).identifiers == []


RETURNS_TALK = [
    ("assistant", "You can send it back within 30 days; the return label is in the parcel."),
    ("visitor", "How do returns work if I'm not happy with it?"),
]


def _select(site, message: str, recent):
    from chatwidget.shop.knowledge.window import knowledge_select

    return knowledge_select(
        site=site, model="gpt-4o-mini", message=message, core=None, recent=recent, room=2000
    )


@pytest.mark.django_db(transaction=True)
def test_the_kept_object_is_sent_and_the_trace_says_why(demo_site):
    section = _select(demo_site, "tumble dryer ok?", JUMPER_TALK)
    kept = [r for r in section.retrieved if r.get("kept")]
    assert len(kept) == 1 and kept[0]["sent"]
    assert "WJ-3310-N" in KnowledgeChunk.objects.get(pk=kept[0]["chunk"]).identifiers


SHIPPING_TALK = [
    ("assistant", "Standard delivery to Austria takes 3 to 6 working days and costs 4.90 EUR."),
    ("visitor", "How long does delivery to Austria take?"),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("talk", [RETURNS_TALK, SHIPPING_TALK])
@pytest.mark.parametrize("message", ["ok and what does that cost?", "thanks, and on weekends?"])
def test_a_talk_about_the_shops_service_has_no_product_to_keep(demo_site, talk, message):
    """The product whose words the talk's match best (the jumper, the scarf: a word or
    two) is no object of it: the talk's words match a service page better."""
    assert not [r for r in _select(demo_site, message, talk).retrieved if r.get("kept")]


RETURN_CORE = {  # a condensed talk about sending the jumper back
    "request": "The visitor wants to send the merino jumper back because it is too big.",
    "objects": [{"kind": "article", "id": "WJ-3310-N", "label": "Merino wool jumper, navy"}],
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "message", ["ok, what do you need from me?", "wie mach ich das am besten?"]
)
def test_the_condensed_talks_service_topic_keeps_its_page(demo_site, message):
    """A message that asks no topic of its own, after a core whose request is a return:
    the returns page among the first three."""
    section = _select_core(demo_site, message, RETURN_CORE)
    docs = [KnowledgeChunk.objects.get(pk=c.chunk_id).document.external_id for c in section.sent]
    assert {"returns.md", "rueckgabe.md"} & set(docs[:3])


@pytest.mark.django_db(transaction=True)
def test_a_message_with_a_topic_of_its_own_asks_that_instead(demo_site):
    section = _select_core(demo_site, "how long does shipping to Austria take?", RETURN_CORE)
    docs = [KnowledgeChunk.objects.get(pk=c.chunk_id).document.external_id for c in section.sent]
    assert docs[0] == "shipping.md"
    assert not [r for r in section.retrieved if r.get("kept")]  # neither page nor jumper


def _select_core(site, message: str, core: dict):
    from chatwidget.shop.knowledge.window import knowledge_select

    return knowledge_select(
        site=site, model="gpt-4o-mini", message=message, core=core, recent=[], room=2000
    )


@pytest.mark.django_db(transaction=True)
def test_a_topic_page_the_message_found_too_is_still_the_talks(demo_site, monkeypatch):
    """The page on the talk's topic may come from the message's own search as well, ranked
    differently there: it is the talk's page all the same, and keeps its place."""
    from dataclasses import replace

    from chatwidget.shop.knowledge import backends, selectors

    page = KnowledgeChunk.objects.filter(document__external_id="returns.md").first()
    found = backends.search(
        site_id=demo_site.pk, terms=["send", "back", "returns"], language="en", limit=5
    )
    hit = next(h for h in found if h.chunk_id == page.pk)
    monkeypatch.setattr(
        selectors, "_talk_topic_pages", lambda site, query: [replace(hit, rank=0.5)]
    )
    query = knowledge_query_build(message="so I send it back?", core=RETURN_CORE)
    ranked = knowledge_search(site=demo_site, query=query, limit=5)
    assert [c.talk_topic for c in ranked if c.chunk_id == page.pk] == [True]
