"""A visitor's e-mail, read (issue 32): who sent it, to which reply addresses, and the new text
in it, without the quoted history and the signature. Pure: bytes in, a value out.

The standard library's `email` package (policy.default) decodes the MIME structure, the
transfer encodings (quoted-printable, base64) and the charsets; `text/plain` is preferred,
an HTML-only message becomes text with Beautiful Soup (blockquotes and the quote blocks of
Gmail, Outlook, Apple Mail and Thunderbird dropped first, since HTML quotes carry no `>`);
`email-reply-parser` then cuts the quoted history and the signature of the text. That
library knows the English quote header ("On ... wrote:") and Outlook's English header
block; the headers of the visitor languages' mail programs ("Am ... schrieb ...:",
"-----Ursprüngliche Nachricht-----", "Von: ... Gesendet: ...") are cut here before it.
Attachments are never read.
"""

from __future__ import annotations

import email
import hashlib
import re
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.utils import getaddresses

from bs4 import BeautifulSoup, NavigableString
from email_reply_parser import EmailReplyParser

from handover.services.reply_address import reply_addresses_in

RECIPIENT_HEADERS = (
    "To",
    "Cc",
    "Delivered-To",
    "X-Original-To",
    "X-Forwarded-To",
    "Envelope-To",
    "X-Envelope-To",
)
# HTML quote containers of common mail programs: the text after the reply, quoted
HTML_QUOTES = (
    "blockquote",
    "div.gmail_quote",
    "div.gmail_extra",
    "div#divRplyFwdMsg",
    "div#appendonsend",
    "div.moz-cite-prefix",
    "div.yahoo_quoted",
    "div#mail-editor-reference-message-container",
)
HTML_DROP = ("script", "style", "head", "title", "template")
HTML_BLOCKS = (
    "p",
    "div",
    "tr",
    "li",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "table",
    "ul",
    "ol",
    "pre",
    "hr",
)
# a quote header in the visitor languages' mail programs, or a forwarded/original separator
_QUOTE_HEADER = re.compile(
    r"^\s*(?:"
    r"(?:am|le|el|il|op|w dniu|on)\b.{0,200}?\b"
    r"(?:schrieb|a écrit|escribió|ha scritto|schreef|napisał|wrote)\b.{0,120}:"
    r"|-{2,}\s*(?:original message|ursprüngliche nachricht|message d'origine|mensaje original"
    r"|messaggio originale|oorspronkelijk bericht|wiadomość oryginalna)\s*-{2,}"
    r")\s*$",
    re.IGNORECASE,
)
_HEADER_FROM = re.compile(r"^\s*\*?(?:from|von|de|da|van|od)\s*:\*?\s+\S", re.IGNORECASE)
_HEADER_NEXT = re.compile(
    r"^\s*\*?(?:sent|date|to|subject|gesendet|datum|an|betreff|envoyé|enviado|inviato|"
    r"verzonden|wysłano|data|à|para|a|aan|do|objet|asunto|oggetto|onderwerp|temat)\s*:\*?",
    re.IGNORECASE,
)


class MailUnreadable(ValueError):
    """Not a message this service can read (no sender, no text part that decodes)."""


@dataclass(frozen=True)
class InboundMail:
    sender: str  # the one address of From
    reply_addresses: list[str] = field(default_factory=list)  # reply+...@ found, unverified
    text: str = ""  # the new text: no quoted history, no signature
    message_key: str = ""  # stands for the message (its Message-ID, else its bytes)
    automatic: bool = False  # an auto-reply, a bounce, a list: never a visitor's answer


def _automatic(msg: EmailMessage, sender: str) -> bool:
    """An out-of-office answer or a bounce (RFC 3834, RFC 3464, the usual non-standard
    headers): storing it would answer a machine, and could loop."""
    auto = str(msg.get("Auto-Submitted", "no")).strip().lower()
    precedence = str(msg.get("Precedence", "")).strip().lower()
    local = sender.partition("@")[0].lower()
    return (
        auto not in ("", "no")
        or precedence in ("bulk", "junk", "list", "auto_reply")
        or any(h in msg for h in ("X-Autoreply", "X-Autorespond", "List-Id"))
        or msg.get_content_type() == "multipart/report"
        or local in ("mailer-daemon", "postmaster")
    )


def _decoded(part: EmailMessage) -> str:
    try:
        content = part.get_content()
    except (LookupError, UnicodeError, AssertionError):  # an unknown or lying charset
        payload = part.get_payload(decode=True) or b""
        content = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
    return content if isinstance(content, str) else ""


def html_text(html: str) -> str:
    """An HTML mail body as plain text: quotes and non-content dropped, blocks and line
    breaks as new lines, runs of spaces as one."""
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.select(", ".join(HTML_DROP + HTML_QUOTES)):
        tag.decompose()
    for node in soup.find_all(string=True):
        if node.find_parent("pre") is None:
            node.replace_with(NavigableString(re.sub(r"\s+", " ", str(node))))
    for br in soup.find_all("br"):
        br.replace_with(NavigableString("\n"))
    for tag in soup.find_all(HTML_BLOCKS):
        tag.insert_before(NavigableString("\n"))
        tag.insert_after(NavigableString("\n"))
    lines = [line.strip() for line in soup.get_text().splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _quote_cut(text: str) -> str:
    """The text before a localised quote header or an original-message header block."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        after = lines[i + 1] if i + 1 < len(lines) else ""
        wrapped = bool(after) and not _QUOTE_HEADER.match(after)  # one header over two lines
        if _QUOTE_HEADER.match(line) or (wrapped and _QUOTE_HEADER.match(f"{line} {after}")):
            return "\n".join(lines[:i])
        if _HEADER_FROM.match(line) and any(_HEADER_NEXT.match(n) for n in lines[i + 1 : i + 4]):
            return "\n".join(lines[:i])
    return text


def reply_text(body: str) -> str:
    """The visitor's new text in a reply's body: quoted history and signature removed."""
    body = body.replace("\r\n", "\n")
    text = EmailReplyParser.parse_reply(_quote_cut(body))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def mail_parse(raw: bytes) -> InboundMail:
    """Read one RFC 822 message. Raises MailUnreadable without exactly one sender address."""
    msg = email.message_from_bytes(raw, policy=policy.default)
    if not isinstance(msg, EmailMessage):
        raise MailUnreadable("not a message")
    senders = [a for _name, a in getaddresses([str(v) for v in msg.get_all("From", [])]) if a]
    if len(senders) != 1 or "@" not in senders[0]:
        raise MailUnreadable("no single sender")
    sender = senders[0]
    recipients = []
    for header in RECIPIENT_HEADERS:
        for value in msg.get_all(header, []):
            recipients += reply_addresses_in(str(value))
    message_id = str(msg.get("Message-ID", "")).strip()
    key_source = message_id.encode() if message_id else raw
    body = msg.get_body(preferencelist=("plain", "html"))
    text = ""
    if body is not None:
        content = _decoded(body)  # type: ignore[arg-type]
        text = html_text(content) if body.get_content_type() == "text/html" else content
    return InboundMail(
        sender=sender,
        reply_addresses=list(dict.fromkeys(recipients)),
        text=reply_text(text),
        message_key=hashlib.sha256(key_source).hexdigest()[:40],
        automatic=_automatic(msg, sender),
    )
