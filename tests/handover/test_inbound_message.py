"""Reading a visitor's e-mail reply (handover/inbound/message.py) from real messages as mail
programs send them: the new text only, whatever the MIME shape, charset or quoting style."""

from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

import pytest

from handover.inbound.message import MailUnreadable, html_text, mail_parse

REPLY_TO = "reply+12-0123456789abcdef0123456789abcdef@reply.shop.test"


def headers(msg, **extra) -> bytes:
    msg["From"] = extra.pop("sender", "Anna Beispiel <anna@example.com>")
    msg["To"] = extra.pop("to", REPLY_TO)
    msg["Subject"] = "Re: Kurta shop: the team has answered you"
    msg["Message-ID"] = extra.pop("message_id", "<abc123@mail.example.com>")
    for name, value in extra.items():
        msg[name.replace("_", "-")] = value
    return msg.as_bytes()


def test_multipart_alternative_takes_the_plain_part_and_cuts_the_gmail_quote():
    msg = MIMEMultipart("alternative")
    msg.attach(
        MIMEText(
            "Thanks, that helps! Can I still change the size to M?\n\n"
            "On Wed, 2 Dec 2026 at 10:00, Kurta shop <chat@shop.test> wrote:\n"
            "> Hello,\n>\n> Your kurta ships today.\n",
            "plain",
            "utf-8",
        )
    )
    msg.attach(
        MIMEText(
            "<div dir='ltr'>HTML PART Thanks</div><div class='gmail_quote'>quoted</div>",
            "html",
            "utf-8",
        )
    )
    mail = mail_parse(headers(msg))
    assert mail.sender == "anna@example.com"
    assert mail.reply_addresses == [REPLY_TO]
    assert mail.text == "Thanks, that helps! Can I still change the size to M?"
    assert not mail.automatic


def test_an_html_only_message_becomes_text_without_its_quote():
    html = (
        "<html><head><style>p{color:red}</style></head><body>"
        "<div>Hello,<br>the <b>mint</b> kurta&nbsp;please.</div>"
        "<p>Second   paragraph\n spans lines.</p>"
        '<div class="gmail_quote"><div class="gmail_attr">On Wed wrote:</div>'
        "<blockquote>Your kurta ships today.</blockquote></div>"
        "</body></html>"
    )
    msg = MIMEText(html, "html", "utf-8")
    mail = mail_parse(headers(msg))
    assert mail.text == "Hello,\nthe mint kurta please.\n\nSecond paragraph spans lines."
    assert "ships today" not in mail.text and "color" not in mail.text


def test_german_umlauts_in_quoted_printable_and_a_german_quote_header():
    body = (
        "Vielen Dank! Größe L wäre schön, grüne Farbe.\n\n"
        "Am Mi., 2. Dez. 2026 um 10:00 Uhr schrieb Kurta shop <\nchat@shop.test>:\n"
        "> Ihre Kurta wird heute verschickt.\n"
    )
    msg = MIMEText(body, "plain", "iso-8859-1")  # quoted-printable for Latin-1
    raw = headers(msg)
    assert b"Content-Transfer-Encoding: quoted-printable" in raw
    assert b"Gr=F6=DFe" in raw
    mail = mail_parse(raw)
    assert mail.text == "Vielen Dank! Größe L wäre schön, grüne Farbe."


def test_outlook_header_blocks_and_signatures_are_cut():
    english = (
        "Yes, please send it to the office.\n\n"
        "-- \nAnna Beispiel\nSent from my phone\n\n"
        "________________________________\n"
        "From: Kurta shop <chat@shop.test>\nSent: Wednesday, December 2, 2026 10:00\n"
        "To: anna@example.com\nSubject: Kurta shop: the team has answered you\n\n"
        "Your kurta ships today.\n"
    )
    mail = mail_parse(headers(MIMEText(english, "plain", "utf-8")))
    assert mail.text == "Yes, please send it to the office."
    german = (
        "Bitte ins Büro schicken.\n\n"
        "Von: Kurta shop <chat@shop.test>\nGesendet: Mittwoch, 2. Dezember 2026 10:00\n"
        "An: anna@example.com\nBetreff: Kurta shop\n\nIhre Kurta wird heute verschickt.\n"
    )
    mail = mail_parse(headers(MIMEText(german, "plain", "utf-8")))
    assert mail.text == "Bitte ins Büro schicken."
    original = "Ok.\n\n-----Ursprüngliche Nachricht-----\nText\n"
    assert mail_parse(headers(MIMEText(original, "plain", "utf-8"))).text == "Ok."


def test_a_line_that_only_begins_like_a_quote_header_is_kept():
    body = "On Monday I ordered two.\nOn Tue, 1 Dec 2026, Shop <a@b.c> wrote:\n> old\n"
    assert mail_parse(headers(MIMEText(body, "plain", "utf-8"))).text == (
        "On Monday I ordered two."
    )


def test_auto_replies_and_bounces_are_marked():
    msg = MIMEText("I am out of office until Monday.", "plain", "utf-8")
    assert mail_parse(headers(msg, Auto_Submitted="auto-replied")).automatic
    msg = MIMEText("Out of office", "plain", "utf-8")
    assert mail_parse(headers(msg, X_Autoreply="yes")).automatic
    msg = MIMEText("Undeliverable", "plain", "utf-8")
    assert mail_parse(headers(msg, sender="MAILER-DAEMON@mx.example.com")).automatic


def test_reply_addresses_are_found_in_forwarding_headers_and_the_key_is_the_message_id():
    msg = MIMEText("Thanks", "plain", "utf-8")
    raw = headers(msg, to="shop-replies@example.org", Delivered_To=REPLY_TO.upper())
    mail = mail_parse(raw)
    assert mail.reply_addresses == [REPLY_TO.upper()]
    other = mail_parse(headers(MIMEText("Thanks again", "plain", "utf-8")))
    assert mail.message_key == other.message_key, "one Message-ID, one message"


def test_a_message_without_one_sender_is_unreadable():
    msg = EmailMessage()
    msg["To"] = REPLY_TO
    msg.set_content("Hello")
    with pytest.raises(MailUnreadable):
        mail_parse(msg.as_bytes())
    msg["From"] = "a@example.com, b@example.com"
    with pytest.raises(MailUnreadable):
        mail_parse(msg.as_bytes())


def test_html_text_keeps_preformatted_text():
    assert html_text("<pre>a  b\nc</pre><p>d</p>") == "a  b\nc\n\nd"
