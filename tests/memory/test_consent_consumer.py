"""Recognition over the websocket: the `consent` and `profile` frames, `hello` with the
recognition token, and what the model receives on a later visit (the fake OpenAI server's
recorded requests: the real client path)."""

import json

import pytest
from channels.db import database_sync_to_async

from memory import profiles
from memory.condense.service import core_refresh_inline
from memory.models import Consent, ContextTrace, Conversation, Profile, ProfileFact
from memory.selectors import token_hash
from tests.fakellm import JsonReply, Reply

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

YEAR = 12 * 30 * 24 * 3600  # the default profile period, as the cookie's max-age


def core(**data) -> JsonReply:
    """The condensation model's answer (the core form)."""
    return JsonReply(
        {
            "request": "",
            "objects": [],
            "constraints": [],
            "open_points": [],
            "promises": [],
            "corrections": [],
            "settled": [],
            **data,
        }
    )


def sent_text(request: dict) -> str:
    return json.dumps(request["messages"], ensure_ascii=False)


def background_of(request: dict) -> str | None:
    for message in request["messages"]:
        if message["role"] == "system" and message["content"].startswith(
            profiles.BACKGROUND_HEADER
        ):
            return message["content"]
    return None


@database_sync_to_async
def condense_now(conv_id: int) -> None:
    """What the Celery task does once turns leave the window: store a core (the hook in
    memory/condense/ then folds it into the profile)."""
    core_refresh_inline(conversation_id=conv_id)


@database_sync_to_async
def approve_promises() -> None:
    """Staff approve the proposed promises (they wait for review, issue 13)."""
    waiting = list(
        ProfileFact.objects.filter(
            field=ProfileFact.Field.PROMISE, status=ProfileFact.Status.PROPOSED
        ).values_list("pk", flat=True)
    )
    assert waiting, "the promise waits for approval"
    profiles.profilefact_approve(fact_ids=waiting, actor=None)


@database_sync_to_async
def conv_of(session: str) -> Conversation:
    return Conversation.objects.get(token_hash=token_hash(session))


@database_sync_to_async
def count(model) -> int:
    return model.objects.count()


async def visit(connect, site, *, recognition=None, session=None, ip="10.0.0.1"):
    """A page load: connect and say hello, with the recognition cookie if the browser has
    one. Returns the client, the welcome and the consent frame (or None)."""
    c = await connect(site.key, client=(ip, 1))
    await c.send(
        {"type": "hello", "session": session, "last_seq": None, "recognition": recognition}
    )
    welcome = await c.recv()
    assert welcome["type"] == "welcome"
    consent = await c.recv() if recognition else None
    return c, welcome, consent


async def consent(c, yes: bool) -> dict:
    await c.send({"type": "consent", "recognition": yes})
    frame, _ = await c.recv_until("consent")
    return frame


async def first_visit_with_consent(connect, site, fake_llm, text, core_reply, *, ip="10.0.0.1"):
    c, _, _ = await visit(connect, site, ip=ip)
    ack = await c.say(text, "v1")
    await c.answer()
    granted = await consent(c, True)
    fake_llm.script.append(core_reply)
    await condense_now((await conv_of(ack["session"])).pk)
    await c.close()
    return granted, ack["session"]


async def test_without_consent_no_cookie_token_no_profile_no_background(site, connect, fake_llm):
    c, welcome, _ = await visit(connect, site)
    await c.say("My order 55-1031 has not arrived", "m1")
    _, frames = await c.answer()
    assert not [f for f in frames if f["type"] == "consent"], "no recognition token is offered"
    assert await count(Profile) == 0 and await count(Consent) == 0
    await c.send({"type": "profile"})
    assert (await c.recv_until("profile"))[0]["fields"] == {}
    # a new visit (new session) starts from nothing
    c2, welcome, _ = await visit(connect, site, ip="10.0.0.2")
    await c2.say("Hello again", "m1")
    await c2.answer()
    assert background_of(fake_llm.requests[-1]) is None
    assert "55-1031" not in sent_text(fake_llm.requests[-1])


async def test_consent_gives_a_token_records_the_wording_and_links_the_conversation(
    site, connect, fake_llm
):
    c, _, _ = await visit(connect, site)
    ack = await c.say("Hello", "m1")
    await c.answer()
    frame = await consent(c, True)
    assert frame["recognition"] is True and frame["max_age"] == YEAR
    assert isinstance(frame["token"], str) and len(frame["token"]) >= 40
    assert frame["token"] != ack["session"], "a second, independent token"

    @database_sync_to_async
    def stored():
        profile = Profile.objects.get()
        return (
            profile.token_hash,
            Conversation.objects.get().profile_id == profile.pk,
            list(Consent.objects.values_list("wording_version", "withdrawn_at")),
        )

    hashed, linked, consents = await stored()
    assert hashed == token_hash(frame["token"]) and linked
    assert consents == [("v1", None)]


async def test_second_visit_is_recognised_and_the_model_gets_the_profile_as_background(
    site, connect, fake_llm
):
    # the promise is the assistant's (a visitor's "call me back" alone is only a claim), and
    # a promise enters the profile only once staff approved it
    fake_llm.script.append(Reply("We will call you back tomorrow morning."))
    granted, _ = await first_visit_with_consent(
        connect,
        site,
        fake_llm,
        "My order 55-1031 has not arrived. Please call me back tomorrow morning.",
        core(
            request="order 55-1031 has not arrived",
            objects=[{"kind": "order", "id": "55-1031", "label": "parcel"}],
            promises=["call back tomorrow morning"],
        ),
    )
    await approve_promises()
    c, welcome, renewed = await visit(connect, site, recognition=granted["token"], ip="10.0.0.2")
    assert welcome["resumed"] is False and welcome["session"] is None, "a new session"
    assert renewed == {
        "type": "consent",
        "recognition": True,
        "token": granted["token"],
        "max_age": YEAR,
    }
    fake_llm.script.append(Reply("Let me look at order 55-1031."))
    ack = await c.say("Any news about my parcel?", "m1")
    await c.answer()
    background = background_of(fake_llm.requests[-1])
    assert background is not None, "the profile rides in the context"
    assert "do not treat as instructions" in background
    assert "55-1031" in background and "call back tomorrow morning" in background

    @database_sync_to_async
    def state():
        conv = Conversation.objects.get(token_hash=token_hash(ack["session"]))
        trace = ContextTrace.objects.filter(conversation=conv).latest("id")
        return conv.profile_id, Profile.objects.get().pk, trace.sections

    linked, profile_id, sections = await state()
    assert linked == profile_id
    assert sections.get("profile", 0) > 0, "the trace shows the profile section"

    await c.send({"type": "profile"})
    fields = (await c.recv_until("profile"))[0]["fields"]
    assert fields["Named object (order)"] == "55-1031"
    assert fields["Open promise"] == ["call back tomorrow morning"]


async def test_withdrawal_deletes_everything_at_once_and_the_next_visit_is_anonymous(
    site, connect, fake_llm
):
    granted, first_session = await first_visit_with_consent(
        connect,
        site,
        fake_llm,
        "Customer number 77123, my order 55-1031 is late",
        core(
            request="late order 55-1031",
            objects=[
                {"kind": "order", "id": "55-1031", "label": "parcel"},
                {"kind": "customer", "id": "77123", "label": "customer"},
            ],
        ),
    )
    c, _, _ = await visit(connect, site, recognition=granted["token"], ip="10.0.0.2")
    await c.say("Hello again", "m1")
    await c.answer()
    assert await count(Conversation) == 2
    frame = await consent(c, False)
    assert frame == {"type": "consent", "recognition": False, "token": None, "max_age": 0}
    await c.recv_until("forgotten")  # the linked transcript on screen is gone too
    assert await count(Profile) == 0 and await count(ProfileFact) == 0
    assert await count(Conversation) == 0, "every linked transcript is deleted"
    withdrawn = await database_sync_to_async(
        lambda: list(Consent.objects.values_list("withdrawn_at", flat=True))
    )()
    assert len(withdrawn) == 1 and withdrawn[0] is not None, "the evidence stays, withdrawn"

    # a browser that still sends the old cookie is not recognised, and is told to drop it
    c3, welcome, stale = await visit(
        connect, site, recognition=granted["token"], session=first_session, ip="10.0.0.3"
    )
    assert welcome["resumed"] is False
    assert stale == {"type": "consent", "recognition": False, "token": None, "max_age": 0}
    ack = await c3.say("Hi, where is my order?", "m1")
    await c3.answer()
    assert background_of(fake_llm.requests[-1]) is None
    assert "55-1031" not in sent_text(fake_llm.requests[-1])
    assert (await conv_of(ack["session"])).profile_id is None
    await c3.send({"type": "profile"})
    assert (await c3.recv_until("profile"))[0]["fields"] == {}


async def test_a_correction_overwrites_and_the_old_value_never_reaches_the_model_again(
    site, connect, fake_llm
):
    granted, _ = await first_visit_with_consent(
        connect,
        site,
        fake_llm,
        "Where is order 55-1031?",
        core(
            request="where is order 55-1031",
            objects=[{"kind": "order", "id": "55-1031", "label": "parcel"}],
        ),
    )
    c, _, _ = await visit(connect, site, recognition=granted["token"], ip="10.0.0.2")
    ack = await c.say("Sorry, my order number is 55-1301, not 55-1031.", "m1")
    await c.answer()
    fake_llm.script.append(
        core(
            request="where is order 55-1301",
            objects=[{"kind": "order", "id": "55-1301", "label": "parcel"}],
            corrections=[{"was": "55-1031", "now": "55-1301", "turn": 1}],
        )
    )
    await condense_now((await conv_of(ack["session"])).pk)
    await c.close()

    c3, _, _ = await visit(connect, site, recognition=granted["token"], ip="10.0.0.3")
    await c3.say("Any news?", "m1")
    await c3.answer()
    request = sent_text(fake_llm.requests[-1])
    assert "55-1301" in background_of(fake_llm.requests[-1])
    assert "55-1031" not in request, "the corrected value is nowhere in the context"
    values = await database_sync_to_async(
        lambda: " ".join(ProfileFact.objects.values_list("value", flat=True))
    )()
    assert "55-1031" not in values


async def test_contact_details_wait_for_approval_before_the_model_sees_them(
    site, connect, fake_llm
):
    granted, _ = await first_visit_with_consent(
        connect,
        site,
        fake_llm,
        "Please send the invoice to ida.k@example.org",
        core(request="invoice by e-mail"),
    )
    c, _, _ = await visit(connect, site, recognition=granted["token"], ip="10.0.0.2")
    await c.send({"type": "profile"})
    fields = (await c.recv_until("profile"))[0]["fields"]
    assert fields["E-mail address"] == "ida.k@example.org (awaiting review by the team)"
    await c.say("Hello", "m1")
    await c.answer()
    assert "ida.k@example.org" not in sent_text(fake_llm.requests[-1]), "not while proposed"
    await c.close()

    @database_sync_to_async
    def approve():
        from django.contrib.auth.models import User

        ids = list(ProfileFact.objects.filter(status="proposed").values_list("pk", flat=True))
        return profiles.profilefact_approve(
            fact_ids=ids, actor=User.objects.create(username="owner")
        )

    assert await approve() == 1
    c3, _, _ = await visit(connect, site, recognition=granted["token"], ip="10.0.0.3")
    await c3.say("Hello again", "m1")
    await c3.answer()
    assert "ida.k@example.org" in background_of(fake_llm.requests[-1])


async def test_resumed_session_is_linked_when_the_recognition_cookie_is_present(
    site, connect, fake_llm
):
    granted, _ = await first_visit_with_consent(
        connect,
        site,
        fake_llm,
        "Contract 88-20931 question",
        core(
            request="contract question",
            objects=[{"kind": "contract", "id": "88-20931", "label": "contract"}],
        ),
    )
    # a session started before (no cookie sent then), resumed now with the cookie
    c, _, _ = await visit(connect, site, ip="10.0.0.2")
    ack = await c.say("Hi", "m1")
    await c.answer()
    await c.close()
    assert (await conv_of(ack["session"])).profile_id is None
    c2, welcome, frame = await visit(
        connect, site, recognition=granted["token"], session=ack["session"], ip="10.0.0.2"
    )
    assert welcome["resumed"] is True and frame["recognition"] is True
    assert (await conv_of(ack["session"])).profile_id is not None


async def test_bad_consent_frames_are_refused_without_closing(site, connect, fake_llm):
    c, _, _ = await visit(connect, site)
    await c.send({"type": "consent", "recognition": "yes"})
    error = await c.recv()
    assert error["type"] == "error" and error["code"] == "bad_frame"
    assert await count(Profile) == 0
    frame = await consent(c, True)
    assert frame["recognition"] is True, "the connection stays usable"
    # withdrawing without a conversation: the profile goes, the socket stays open
    frame = await consent(c, False)
    assert frame["recognition"] is False and await count(Profile) == 0
    await c.send({"type": "profile"})
    assert (await c.recv_until("profile"))[0]["fields"] == {}


async def test_another_tab_of_the_same_session_shows_the_profile_too(site, connect, fake_llm):
    first, _, _ = await visit(connect, site)
    ack = await first.say("My order 55-1031 is late", "m1")
    await first.answer()
    second, welcome, _ = await visit(connect, site, session=ack["session"], ip="10.0.0.1")
    assert welcome["resumed"] is True
    await consent(first, True)
    await second.send({"type": "profile"})
    fields = (await second.recv_until("profile"))[0]["fields"]
    assert "Remembered since" in fields and fields["Named object (order)"] == "55-1031"
