"""Every cache key the product writes, in one module (as Zulip's `zerver/lib/cache.py`).

A key's format is a contract between the code that writes it and the code that clears it
(the retention purge clears a conversation's keys; an erased conversation must leave no
lock or rate-limit bucket behind): both ask this module, so neither can drift. Keys are
short ASCII; Django's cache adds its own prefix and version.
"""

from __future__ import annotations

# --- rate limits (chatwidget.platform.ratelimit) ------------------------------------------------


def rate_bucket(key: str, window_index: int) -> str:
    """One fixed window of a rate limit: `key` names what is counted, `window_index` is
    `int(now // window)`."""
    return f"rl:{key}:{window_index}"


def rate_address(address_key: str) -> str:
    """What one client address (an IPv6 /64) sends."""
    return f"addr:{address_key}"


def rate_upload(session_key: str) -> str:
    """A session's photos and files (issue 33), counted besides its messages; before a
    conversation exists, the address's."""
    return f"upl:{session_key}"


def rate_session(session: str | int) -> str:
    """What one session sends: the conversation's id once it has one, before that the
    socket's own id."""
    return f"sess:{session}"


def rate_action_address(address_key: str) -> str:
    """Shop lookups from one client address (an IPv6 /64), whatever the conversation or
    site."""
    return f"act:addr:{address_key}"


def rate_action_site(site_id: int) -> str:
    """Shop lookups of one site, from every address."""
    return f"act:site:{site_id}"


def rate_resend(session: str | int, client_id: str) -> str:
    """A resend of this stored message was not counted (ratelimit's refund): the next one
    is. Holds ids only; lives one session window."""
    return f"resend:{session}:{client_id}"


# --- memory ---------------------------------------------------------------------------------


def condense_lock(conversation_id: int) -> str:
    """One condensation per conversation at a time."""
    return f"condense:lock:{conversation_id}"


def condense_queued(conversation_id: int) -> str:
    """A condensation of the conversation is queued already: no second enqueue."""
    return f"condense:queued:{conversation_id}"


def conversation_keys(*, conversation_id: int, session_windows: list[int]) -> list[str]:
    """Every key written for one conversation that must go with it (erasure, the purge):
    the condensation lock and marker and its session rate-limit buckets in `session_windows`
    (the caller knows the window length)."""
    session = rate_session(conversation_id)
    return [
        condense_lock(conversation_id),
        condense_queued(conversation_id),
        session,
        *(rate_bucket(session, index) for index in session_windows),
    ]


# --- the assistant ------------------------------------------------------------------------


def answer_lease(conversation_id: int, request_seq: int) -> str:
    """ "This visitor turn is being answered" (one answer per turn across processes)."""
    return f"answering:{conversation_id}:{request_seq}"


# --- presence (chatwidget.platform.presence) ------------------------------------------------


def visitor_presence(conversation_id: int) -> str:
    return f"visitor.presence.{conversation_id}"


def staff_presence(user_id: int) -> str:
    return f"staff.presence.{user_id}"


# --- handover -------------------------------------------------------------------------------


def transcript_email_interval(conversation_id: int) -> str:
    """A transcript e-mail of this conversation went out lately (one per interval)."""
    return f"transcript.email.{conversation_id}"


def transcript_confirm_address(address_hash: str) -> str:
    """A confirmation went to this address (its keyed hash) lately: one per interval."""
    return f"transcript.confirm.{address_hash}"


def transcript_email_address(address_hash: str) -> str:
    """The rate-limit key of e-mails to one address (its keyed hash), any site."""
    return f"transcript.address.{address_hash}"


def transcript_email_site(site_id: int) -> str:
    """The rate-limit key of transcript and confirmation e-mails of one site."""
    return f"transcript.site.{site_id}"


# --- cached hints: "does this site have ...?" without a query per turn ------------------------


def site_info(site_key: str) -> str:
    """What a socket and the widget's requests need of a site, by its widget key
    (chatwidget.sites.selectors.site_info_by_key); dropped when the site is saved."""
    return f"site:info:{site_key}:v1"


def webhook_events(site_id: int) -> str:
    return f"webhooks:events:{site_id}"


def site_actions(site_id: int) -> str:
    return f"actions:site:{site_id}:v2"  # v2: with the second factor and answer fields


def knowledge_import_lock(source_id: int) -> str:
    """One import of a knowledge source at a time (chatwidget/shop/tasks.py)."""
    return f"knowledge:import:lock:{source_id}"


def knowledge_available(site_id: int) -> str:
    return f"knowledge:site:{site_id}:has-chunks"


def knowledge_version(site_id: int) -> str:
    """A token that changes whenever the site's chunks or their vectors change: the
    per-process matrix of the site's vectors (chatwidget/shop/knowledge/vectors.py) is kept
    while it stays the same."""
    return f"knowledge:site:{site_id}:version"


def knowledge_embed_lock(site_id: int) -> str:
    """One background embedding run per site at a time (chatwidget/shop/tasks.py)."""
    return f"knowledge:embed:lock:{site_id}"


KNOWLEDGE_PG_COMMON_LEXEMES = "knowledge:pg:common-lexemes"
KNOWLEDGE_SQLITE_CHUNKS = "knowledge:sqlite:chunks"


# --- health ---------------------------------------------------------------------------------


def readiness_probe(token: str) -> str:
    return f"readyz:{token}"


# --- shop platforms (chatwidget.shop.connect) -------------------------------------------------


def shop_sync_lock(site_id: int) -> str:
    """One catalogue sync per site at a time (the command, the schedule, a retry)."""
    return f"shopsync:lock:{site_id}"


def inbound_imap_lock() -> str:
    """One IMAP poll of the replies mailbox at a time (handover.tasks.inbound_imap_poll)."""
    return "lock:inbound-imap"
