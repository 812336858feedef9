"""Replies by e-mail from a mailbox (issue 32), for owners whose mail provider cannot forward a
message to an HTTP endpoint: Celery beat polls INBOUND_IMAP_FOLDER every
INBOUND_IMAP_INTERVAL_SECONDS (off while INBOUND_IMAP_HOST is unset).

The standard library's imaplib, by UID: unseen, undeleted messages are read with
BODY.PEEK[] (reading marks nothing), each handed to `inbound_mail_receive`; a stored one (or
one stored before) is then flagged \\Deleted and expunged, a refused one \\Seen and \\Flagged,
so it stays in the mailbox for the owner and is not read again. A message larger than
INBOUND_EMAIL_MAX_BYTES is refused unread. A database error leaves the message unseen for
the next poll. TLS: IMAPS (INBOUND_IMAP_SSL, port 993) or STARTTLS; plain text only to a mail
server on the loopback interface. One poll at a time (a cache lock); at most POLL_MAX
messages a poll.
"""

from __future__ import annotations

import imaplib
import logging
import re
import ssl

from django.conf import settings

from handover.inbound.receive import inbound_mail_receive

log = logging.getLogger(__name__)

POLL_MAX = 200
TIMEOUT_SECONDS = 30
LOOPBACK = ("127.0.0.1", "::1", "localhost")
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


class ImapError(Exception):
    """The mailbox answered NO or BAD (wrong folder, wrong password)."""


def _ok(answer: tuple, what: str) -> list:
    status, data = answer
    if status != "OK":
        raise ImapError(what)
    return data


def _connect() -> imaplib.IMAP4:
    host, port = settings.INBOUND_IMAP_HOST, settings.INBOUND_IMAP_PORT
    context = ssl.create_default_context()
    if settings.INBOUND_IMAP_SSL:
        return imaplib.IMAP4_SSL(host, port, ssl_context=context, timeout=TIMEOUT_SECONDS)
    conn = imaplib.IMAP4(host, port, timeout=TIMEOUT_SECONDS)
    if "STARTTLS" in conn.capabilities:
        conn.starttls(ssl_context=context)
    elif host not in LOOPBACK:
        conn.shutdown()
        raise ImapError("the server offers no STARTTLS")
    return conn


def _raw(data: list) -> bytes | None:
    for item in data:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
            return item[1]
    return None


def _handle(conn: imaplib.IMAP4, uid: str) -> bool:
    """One message: True when it was stored (now or before)."""
    size_data = _ok(conn.uid("FETCH", uid, "(RFC822.SIZE)"), "fetch size")
    size = _SIZE.search(b" ".join(d for d in size_data if isinstance(d, bytes)))
    raw = None
    if size is not None and int(size.group(1)) <= settings.INBOUND_EMAIL_MAX_BYTES:
        raw = _raw(_ok(conn.uid("FETCH", uid, "(BODY.PEEK[])"), "fetch"))
    if raw is None or len(raw) > settings.INBOUND_EMAIL_MAX_BYTES:
        log.info("inbound e-mail refused", extra={"reason": "too_large"})
        stored = False
    else:
        stored = inbound_mail_receive(raw=raw).stored
    flags = "(\\Deleted)" if stored else "(\\Seen \\Flagged)"
    _ok(conn.uid("STORE", uid, "+FLAGS", flags), "store")
    return stored


def imap_poll() -> int:
    """Read the mailbox once; the number of messages handled. Nothing without a host."""
    if not settings.INBOUND_IMAP_HOST:
        return 0
    conn = _connect()
    handled = 0
    try:
        _ok(conn.login(settings.INBOUND_IMAP_USER, settings.INBOUND_IMAP_PASSWORD), "login")
        _ok(conn.select(settings.INBOUND_IMAP_FOLDER), "select")
        found = _ok(conn.uid("SEARCH", "UNSEEN", "UNDELETED"), "search")
        uids = [u.decode() for u in (found[0] or b"").split()[:POLL_MAX]]
        deleted = 0
        try:
            for uid in uids:
                deleted += _handle(conn, uid)
                handled += 1
        finally:
            if deleted:
                conn.expunge()
    finally:
        try:
            conn.logout()
        except (imaplib.IMAP4.error, OSError):
            pass  # the connection is gone already; nothing to close
    log.info("inbound mailbox polled", extra={"handled": handled})
    return handled
