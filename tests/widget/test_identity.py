"""A signed-in customer (DESIGN.md, `hello.identity`), through the real consumer: a valid
signature links the conversation to the customer and staff see it on the case page; a
forged or tampered one is answered `identity_invalid` and the chat goes on anonymously;
`logout` (a hello without the identity) starts a new conversation and the old one stays
the customer's; a verified customer resumes a recognition profile only where consent was
given."""

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from chatwidget.sites.identity import identity_secret_get, identity_signature
from chatwidget.sites.models import Site
from chatwidget.sites.services import site_create
from handover.services import handover_request
from memory.models import AuditEvent, Conversation, Customer
from memory.profiles import consent_grant
from memory.selectors import token_hash
from tests.conftest import SHOP
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ANNA = {"id": "cust-4711", "email": "anna.meyer@example.com", "name": "Anna Meyer"}


def signed(secret: str, *, id: str = ANNA["id"], email: str = ANNA["email"], **extra) -> dict:
    identity = {"id": id, "email": email, "name": ANNA["name"], **extra}
    identity["signature"] = identity_signature(secret=secret, customer_id=id, email=email)
    return identity


@pytest.fixture
def secret(site) -> str:
    return identity_secret_get(site_id=site.pk)


async def hello(c, *, identity=None, session=None) -> list[dict]:
    """The hello and what the server answers at once (welcome, and an error if any)."""
    await c.send({"type": "hello", "session": session, "last_seq": None, "identity": identity})
    frames = [await c.recv()]
    while not await c.nothing(0.3):
        frames.append(await c.recv())
    return frames


async def chat(connect, site, *, identity=None, session=None, text="Hello", cid="m1"):
    c = await connect(site.key)
    frames = await hello(c, identity=identity, session=session)
    ack = await c.say(text, cid)
    return c, frames, ack


@database_sync_to_async
def customer_of(token: str) -> Customer | None:
    conv = Conversation.objects.select_related("customer").get(token_hash=token_hash(token))
    return conv.customer


@database_sync_to_async
def conversations() -> list[tuple[int, int | None]]:
    return list(Conversation.objects.order_by("pk").values_list("pk", "customer_id"))


async def test_a_valid_identity_links_the_conversation(site, connect, secret):
    _c, frames, ack = await chat(connect, site, identity=signed(secret))
    assert [f["type"] for f in frames] == ["welcome"], "no error for a valid signature"
    customer = await customer_of(ack["session"])
    assert customer is not None
    assert (customer.external_id, customer.email, customer.name) == (
        ANNA["id"],
        ANNA["email"],
        ANNA["name"],
    )


@pytest.mark.parametrize(
    "tamper",
    ["email", "id", "other_site", "no_signature", "not_an_object", "no_secret_yet"],
)
async def test_a_forged_identity_is_refused_and_the_chat_goes_on(site, connect, secret, tamper):
    if tamper == "email":  # signed for Anna, e-mail changed
        identity = {**signed(secret), "email": "mallory@example.com"}
    elif tamper == "id":
        identity = {**signed(secret), "id": "cust-1"}
    elif tamper == "other_site":
        other = await database_sync_to_async(site_create)(name="Other", origins=[SHOP])
        identity = signed(await database_sync_to_async(identity_secret_get)(site_id=other.pk))
    elif tamper == "no_signature":
        identity = {k: v for k, v in signed(secret).items() if k != "signature"}
    elif tamper == "not_an_object":
        identity = "cust-4711"
    else:  # signed with a secret the site no longer has (none made yet, as the migration left it)
        await database_sync_to_async(Site.objects.filter(pk=site.pk).update)(identity_secret="")
        identity = signed(secret)
    c, frames, ack = await chat(connect, site, identity=identity)
    assert frames[0]["type"] == "welcome"
    assert [f.get("code") for f in frames[1:]] == ["identity_invalid"]
    assert ack["session"], "the conversation went on"
    await c.answer()
    assert await customer_of(ack["session"]) is None
    assert await database_sync_to_async(Customer.objects.count)() == 0


async def test_logout_starts_a_new_anonymous_conversation(site, connect, secret):
    """`logout` in the widget forgets the identity and the session: its next hello has
    neither. A hello that still carries the old session without the identity (a device
    that changed hands) does not resume the customer's conversation either."""
    first, _frames, ack = await chat(connect, site, identity=signed(secret))
    await first.answer()
    token = ack["session"]
    await first.close()
    c = await connect(site.key)
    [welcome] = await hello(c, session=token)  # identity gone, the old cookie still there
    assert welcome["resumed"] is False and welcome["turns"] == []
    ack2 = await c.say("A new question", "m2")
    assert ack2["session"] != token
    (old_pk, old_customer), (new_pk, new_customer) = await conversations()
    assert old_customer is not None, "the old conversation stays the customer's"
    assert new_customer is None


async def test_the_customer_resumes_their_conversation_and_another_does_not(site, connect, secret):
    first, _f, ack = await chat(connect, site, identity=signed(secret))
    await first.answer()
    token = ack["session"]
    c = await connect(site.key)
    [welcome] = await hello(c, session=token, identity=signed(secret))
    assert welcome["resumed"] is True and welcome["turns"]
    other = await connect(site.key)
    [welcome] = await hello(
        other, session=token, identity=signed(secret, id="cust-9", email="b@x.de")
    )
    assert welcome["resumed"] is False


async def test_identify_after_an_anonymous_start_links_the_conversation(site, connect, secret):
    first, _f, ack = await chat(connect, site)
    await first.answer()
    assert await customer_of(ack["session"]) is None
    c = await connect(site.key)
    [welcome] = await hello(c, session=ack["session"], identity=signed(secret))
    assert welcome["resumed"] is True
    assert (await customer_of(ack["session"])).external_id == ANNA["id"]


async def test_the_case_page_shows_the_customer_masked_and_earlier_cases(
    site, connect, secret, client
):
    ids = []
    for n in range(2):
        c, _f, ack = await chat(connect, site, identity=signed(secret), cid=f"m{n}")
        await c.answer()
        await c.close()
        conv = await database_sync_to_async(
            lambda t=ack["session"]: Conversation.objects.get(token_hash=token_hash(t))
        )()
        case = await database_sync_to_async(handover_request)(
            conversation_id=conv.pk, trigger="visitor", reason=f"question {n}"
        )
        ids.append(case.pk)

    def page(user, **post):
        client.force_login(user)
        if post:
            url = reverse("admin:handover_case_reveal", args=[ids[1]])
            return client.post(url, post).content.decode()
        return client.get(reverse("admin:handover_case_change", args=[ids[1]])).content.decode()

    staff = await database_sync_to_async(UserFactory)(username="sam", role="Staff")
    html = await database_sync_to_async(page)(staff)
    assert 'id="case-customer"' in html and ANNA["id"] in html and ANNA["name"] in html
    assert ANNA["email"] not in html, "the e-mail is masked"
    assert "a\u2022\u2022\u2022@e\u2022\u2022\u2022.com" in html
    earlier = reverse("admin:handover_case_change", args=[ids[0]])
    assert f'href="{earlier}"' in html, "the customer's earlier case is listed"
    assert 'value="customer"' not in html, "staff cannot reveal"

    owner = await database_sync_to_async(UserFactory)(username="olga", role="Owner")
    html = await database_sync_to_async(page)(owner, target="customer", reason="customer called")
    assert ANNA["email"] in html
    event = await database_sync_to_async(lambda: AuditEvent.objects.filter(action="reveal").get())()
    assert event.reason == "customer called" and event.details["field"] == "customer email"


async def test_a_verified_customer_resumes_the_profile_they_consented_to(site, connect, secret):
    """Device A: signed in, recognition consented. Device B: signed in, no recognition
    cookie: the new conversation joins the same profile. Without consent, no profile."""
    a, _f, ack = await chat(connect, site, identity=signed(secret))
    await a.answer()
    conv_a = await database_sync_to_async(lambda: Conversation.objects.get())()
    # no consent yet: device B finds nothing
    b, _f, _ack = await chat(connect, site, identity=signed(secret), cid="b1")
    await b.answer()
    assert await database_sync_to_async(
        lambda: list(Conversation.objects.values_list("profile_id", flat=True))
    )() == [None, None]
    granted = await database_sync_to_async(consent_grant)(
        site_id=site.pk, conversation_id=conv_a.pk
    )
    c, _f, _ack = await chat(connect, site, identity=signed(secret), cid="c1")
    await c.answer()
    newest = await database_sync_to_async(lambda: Conversation.objects.order_by("-pk").first())()
    assert newest.profile_id == granted.profile_id
    # another customer on device C does not get it
    d, _f, _ack = await chat(
        connect, site, identity=signed(secret, id="cust-9", email="b@example.com"), cid="d1"
    )
    await d.answer()
    newest = await database_sync_to_async(lambda: Conversation.objects.order_by("-pk").first())()
    assert newest.profile_id is None
