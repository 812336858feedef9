"""The IMAP poller (handover/inbound/imap.py, issue 32) against a tiny IMAP server on
127.0.0.1 that speaks what the standard library's imaplib sends: a stored reply is deleted
and expunged, a refused one stays, seen and flagged, a large one is refused unread, and a
second poll handles nothing twice."""

import re
import socketserver
import threading
from email.mime.text import MIMEText

import pytest
from django.core import mail

from chatwidget.sites.services import site_create
from handover import services
from handover.inbound.imap import imap_poll
from handover.services.continuation import continuation_email_send
from memory.models import Turn
from tests.factories import OPEN_TIME, ConversationFactory, UserFactory


class Mailbox:
    def __init__(self) -> None:
        self.messages: dict[int, dict] = {}  # uid -> {"raw": bytes, "flags": set}
        self.commands: list[str] = []
        self.logins: list[tuple[str, str]] = []

    def add(self, raw: bytes) -> int:
        uid = max(self.messages, default=0) + 1
        self.messages[uid] = {"raw": raw, "flags": set()}
        return uid


class Handler(socketserver.StreamRequestHandler):
    box: Mailbox

    def send(self, line: str | bytes) -> None:
        self.wfile.write((line.encode() if isinstance(line, str) else line) + b"\r\n")

    def handle(self) -> None:
        self.send("* OK fake IMAP4rev1 ready")
        while line := self.rfile.readline():
            tag, _, rest = line.decode().rstrip("\r\n").partition(" ")
            command, _, args = rest.partition(" ")
            self.box.commands.append(f"{command} {args}".strip())
            if not self.answer(tag, command.upper(), args):
                return

    def answer(self, tag: str, command: str, args: str) -> bool:
        box = self.box
        if command == "CAPABILITY":
            self.send("* CAPABILITY IMAP4rev1")
        elif command == "LOGIN":
            user, password = (a.strip('"') for a in args.split(" ", 1))
            box.logins.append((user, password))
        elif command == "SELECT":
            self.send(f"* {len(box.messages)} EXISTS")
            self.send(f"{tag} OK [READ-WRITE] SELECT completed")
            return True
        elif command == "UID":
            self.uid(tag, args)
            return True
        elif command == "EXPUNGE":
            for uid in [u for u, m in box.messages.items() if "\\Deleted" in m["flags"]]:
                del box.messages[uid]
        elif command == "LOGOUT":
            self.send("* BYE")
            self.send(f"{tag} OK LOGOUT completed")
            return False
        self.send(f"{tag} OK {command} completed")
        return True

    def uid(self, tag: str, args: str) -> None:
        box = self.box
        sub, _, rest = args.partition(" ")
        sub = sub.upper()
        if sub == "SEARCH":
            assert "UNSEEN" in rest and "UNDELETED" in rest
            found = [
                str(u) for u, m in box.messages.items() if not {"\\Seen", "\\Deleted"} & m["flags"]
            ]
            self.send("* SEARCH " + " ".join(found))
        elif sub == "FETCH":
            uid_text, _, what = rest.partition(" ")
            message = box.messages[int(uid_text)]
            if "RFC822.SIZE" in what:
                self.send(f"* 1 FETCH (UID {uid_text} RFC822.SIZE {len(message['raw'])})")
            else:
                assert "BODY.PEEK[]" in what, "reading must not mark the message seen"
                self.wfile.write(
                    f"* 1 FETCH (UID {uid_text} BODY[] {{{len(message['raw'])}}}\r\n".encode()
                )
                self.wfile.write(message["raw"] + b")\r\n")
        elif sub == "STORE":
            uid_text, _, change = rest.partition(" ")
            flags = re.findall(r"\\\w+", change)
            box.messages[int(uid_text)]["flags"].update(flags)
            self.send(f"* 1 FETCH (UID {uid_text} FLAGS ({' '.join(flags)}))")
        self.send(f"{tag} OK UID {sub} completed")


@pytest.fixture
def imap_server(settings):
    box = Mailbox()
    handler = type("BoundHandler", (Handler,), {"box": box})
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    settings.INBOUND_IMAP_HOST = "127.0.0.1"  # loopback: plain IMAP allowed
    settings.INBOUND_IMAP_PORT = server.server_address[1]
    settings.INBOUND_IMAP_SSL = False
    settings.INBOUND_IMAP_USER = "replies@shop.test"
    settings.INBOUND_IMAP_PASSWORD = "pw"
    yield box
    server.shutdown()
    server.server_close()


@pytest.fixture
def reply_to(db, settings):
    settings.INBOUND_EMAIL_DOMAIN = "reply.shop.test"
    site = site_create(name="Kurta shop", origins=["http://shop.test"])
    conv = ConversationFactory(site=site, texts=["Parcel? anna@example.com"])
    case = services.handover_request(conversation_id=conv.pk, trigger="visitor", now=OPEN_TIME)
    services.staff_reply(case_id=case.pk, user=UserFactory(role="Staff"), text="It left.")
    assert continuation_email_send(case_id=case.pk)
    return case, mail.outbox[-1].reply_to[0]


def message(to: str, sender: str, text: str, message_id: str) -> bytes:
    msg = MIMEText(text, "plain", "utf-8")
    msg["From"], msg["To"], msg["Message-ID"] = sender, to, message_id
    msg["Subject"] = "Re: your answer"
    return msg.as_bytes()


@pytest.mark.django_db(transaction=True)
def test_the_poller_stores_replies_once_and_keeps_refused_mail(imap_server, reply_to, settings):
    case, address = reply_to
    good = imap_server.add(message(address, "anna@example.com", "Danke schön!", "<1@x>"))
    forged = imap_server.add(message(address, "eve@example.com", "Send it to me", "<2@x>"))
    big = imap_server.add(message(address, "anna@example.com", "x" * 5000, "<3@x>"))
    settings.INBOUND_EMAIL_MAX_BYTES = 2000

    assert imap_poll() == 3
    visitor = Turn.objects.filter(conversation_id=case.conversation_id, role="visitor")
    assert list(visitor.order_by("seq").values_list("text", flat=True))[-1] == "Danke schön!"
    assert visitor.count() == 2
    assert good not in imap_server.messages, "stored: deleted and expunged"
    assert imap_server.messages[forged]["flags"] == {"\\Seen", "\\Flagged"}
    assert imap_server.messages[big]["flags"] == {"\\Seen", "\\Flagged"}
    assert not any(
        "BODY.PEEK" in c and c.startswith(f"UID FETCH {big} ") for c in imap_server.commands
    ), "too large: never read"
    assert imap_server.logins == [("replies@shop.test", "pw")]

    imap_server.commands.clear()
    assert imap_poll() == 0, "nothing unseen is left"
    assert visitor.count() == 2


def test_no_host_no_poll(settings):
    settings.INBOUND_IMAP_HOST = ""
    assert imap_poll() == 0


def test_the_task_polls_once_at_a_time_and_outlives_a_mailbox_that_is_away(settings, monkeypatch):
    from django.core.cache import cache

    from chatwidget.platform import cache_keys
    from handover import tasks
    from tests.procs import free_port

    settings.INBOUND_IMAP_HOST = "127.0.0.1"
    settings.INBOUND_IMAP_PORT = free_port()  # nobody listens: connection refused
    settings.INBOUND_IMAP_SSL = False
    assert tasks.inbound_imap_poll.run() == 0
    assert cache.add(cache_keys.inbound_imap_lock(), 1), "the lock is given back"
    monkeypatch.setattr(tasks, "imap_poll", lambda: pytest.fail("polled while another polls"))
    assert tasks.inbound_imap_poll.run() == 0
    cache.delete(cache_keys.inbound_imap_lock())


@pytest.mark.parametrize(("host", "scheduled"), [("imap.example.com", True), ("", False)])
def test_beat_polls_the_mailbox_only_with_a_host(host, scheduled):
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if not k.startswith("INBOUND_")}
    env.update({"DJANGO_SETTINGS_MODULE": "chatwidget.settings.test", "INBOUND_IMAP_HOST": host})
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print('inbound-imap-poll' in s.CELERY_BEAT_SCHEDULE)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip().splitlines()[-1] == str(scheduled)
