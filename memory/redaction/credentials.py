"""PINs, one-time codes and passwords: found by what the words around them mean.

English and German phrasings: "PIN 1234", "the code is 482913", "Der Code lautet 482 913",
"one-time code 4 8 2 9 1 3", "my password is now X", "I changed my password to X",
"Zugangsdaten: name / X", and a digits-only reply right after a message that asked for or
mentioned a code, TAN or PIN (the caller passes that previous message).
"""

from __future__ import annotations

import re

from memory.redaction.common import (
    IGNORE,
    JOIN,
    NOT_PLACEHOLDER,
    Found,
    digit_value,
    finditer,
    gate,
)
from memory.redaction.kinds import OTP, PASSWORD, PIN, SECURITY_CODE
from memory.redaction.payment import SECURITY_WORD

_PIN_WORD = r"\b(?:pin(?:[- ]?(?:nummer|code|nr|number))?|geheimzahl)\b"
_PIN = gate(
    re.compile(_PIN_WORD + JOIN + NOT_PLACEHOLDER + digit_value(4, 8), IGNORE),
    ("pin", "geheimzahl"),
)

_OTP_WORD = (
    r"\b(?:otp"
    r"|one[- ]time[- ](?:code|password|passcode|pin)|einmal-?(?:code|passwort|kennwort)"
    r"|2fa(?:[- ]code)?|two[- ]factor(?:[- ]authentication)?[- ]code"
    r"|zwei-?faktor-?code|verification[- ]code|verifi(?:zierungs|kations)-?code"
    r"|best\u00e4tigungs-?code|login[- ]code|anmelde-?code|auth(?:entication)?[- ]code"
    r"|authentifizierungs-?code|authenticator(?:[- ](?:code|app))?|sms[- ]code|sicherheitscode"
    r"|security[- ]code|access[- ]code|zugangs-?code|passcode|confirmation[- ]code"
    r"|code (?:aus|from|in) (?:der|the|my|meiner|your)? ?(?:sms|e-?mail|mail|text|app))\b"
)
_OTP = gate(
    re.compile(_OTP_WORD + JOIN + NOT_PLACEHOLDER + digit_value(4, 8), IGNORE),
    ("otp", "code", "one-time", "one time", "einmal", "2fa", "authenticator"),
)
# "TAN" is also a colour ("tan, 2024 model"): a TAN value has at least five digits.
_TAN_WORD = r"\b(?:m|sms|push|chip|photo|i)?-?tan(?:[- ]?(?:nummer|code|nr))?\b"
_TAN = gate(re.compile(_TAN_WORD + JOIN + NOT_PLACEHOLDER + digit_value(5, 8), IGNORE), ("tan",))

# A bare "code" and four to eight digits: "the code is 482913", "Your code: 482 913".
_BARE_CODE = gate(
    re.compile(r"(?<![\w-])codes?\b" + JOIN + NOT_PLACEHOLDER + digit_value(4, 8), IGNORE),
    ("code",),
)
# ... unless the word before says which other code it is.
_CODE_QUALIFIERS = frozenset(
    """
    discount voucher coupon promo promotion promotional gift error fehler postal post zip
    area country product article item tracking customer colour color reference order
    status http response iso sort swift bic bank branch dial qr bar barcode hs tax vat
    rabatt gutschein aktions farb artikel produkt bestell kunden referenz sendungs
    rechnungs invoice style model modell size shipping versand ean postleit source
    """.split()
)
_WORD_BEFORE = re.compile(r"([^\W\d_]+)[\s-]*$")

# "583920 ist meine TAN", "1234 is my PIN": value first, then the word.
_VALUE_FIRST = gate(
    re.compile(
        digit_value(3, 8)
        + r"\s+(?:is|was|ist|war)\s+(?:my|mein|meine|the|die|der|your|ihre|deine)\s+"
        r"(?:(?P<pin>"
        + _PIN_WORD
        + r")|(?P<otp>"
        + _OTP_WORD
        + r"|"
        + _TAN_WORD
        + r"|code\b)|(?P<sec>"
        + SECURITY_WORD
        + r"))",
        IGNORE,
    ),
    (
        "cvv",
        "cvc",
        "cvn",
        "cav2",
        "csc",
        "cid",
        "pr\u00fcf",
        "sicherheit",
        "security",
        "pin",
        "geheimzahl",
        "otp",
        "code",
        "one-time",
        "one time",
        "einmal",
        "2fa",
        "tan",
        "back",
        "r\u00fcckseite",
        "reverse",
        "rear",
        "hinterseite",
        "signature",
        "unterschrift",
    ),
)

_ADVERBS = (
    r"(?:(?:now|still|currently|again|actually|just|simply|jetzt|nun|noch|immer|wieder"
    r"|aktuell|mittlerweile|inzwischen|weiterhin|einfach|neu|new)\s+){0,3}"
)
# Between the word and "is"/":": "password for my account is", "Passwort für mein Konto:".
_MIDDLE = (
    r"(?:\s+(?:for|of|on|to|I|we|that|which|f\u00fcr|von|vom|bei|zu|zum|ich|das|den)"
    r"(?:\s+[^\W\d_]{1,15}){0,3}?(?=\s*[:=]|\s+(?:is|was|ist|war|lautet|lautete)\b))?"
)
_PASSWORD = gate(
    re.compile(
        r"\b(?P<word>passwor[dt]s?|kennwort|pass-?phrase|pwd?"
        # a bare "pass" only as "my pass" or at the start: a season pass is not one
        r"|(?:(?<![\w ])|(?<=\bmy )|(?<=\bmein ))pass)\b"
        + _MIDDLE
        + r"(?P<join>\s*[:=]\s*|\s+(?:is|was|ist|war|lautet|lautete|are|sind)\b\s*:?\s*|'s\s+"
        r"|\s+-\s+|\s+(?=(?:now|jetzt|nun)\s)"
        r"|\s+(?:(?:now\s+|jetzt\s+)?(?:changed|set|updated|reset|ge\u00e4ndert|gesetzt)\s+)?"
        r"(?P<to>to|auf|in|zu|into)\s+)"
        + _ADVERBS
        + NOT_PLACEHOLDER
        + r"(?P<value>\"[^\"\n]{1,100}\"|'[^'\n]{1,100}'|\u201e[^\u201c\n]{1,100}\u201c"
        r"|[^\s:=]\S{0,99})",
        IGNORE,
    ),
    ("pass", "pw", "kennwort"),
)
_CHANGE_VERB = re.compile(
    r"\b(?:chang\w*|set|updat\w*|reset|\u00e4nder\w*|ge\u00e4ndert|gesetzt|setz\w*"
    r"|umgestellt|stellte|switched|made)\b",
    IGNORE,
)
# After "password is/ist ..." these words describe the password, they are not one.
NOT_A_PASSWORD = frozenset(
    """
    wrong incorrect not invalid expired right correct case-sensitive required missing
    forgotten locked blocked reset changed gone secure safe strong weak empty valid
    accepted rejected unknown broken mandatory fine ok okay now also too very just still
    already being definitely probably apparently somehow suddenly no never always
    the a an my your his her our their this that it in at on for with and or but
    falsch nicht abgelaufen ungültig korrekt richtig zu erforderlich vergessen gesperrt
    zurückgesetzt geändert weg sicher stark schwach leer gültig akzeptiert unbekannt
    kaputt pflicht jetzt auch doch so sehr nur noch immer schon leider irgendwie plötzlich
    kein keine nie der die das ein eine mein meine dein deine ihr ihre unser bei im in
    für mit und oder aber ja nein
    stored saved encrypted hashed needed used sent shown visible only known private
    personal important different same long longer short shorter here there what how
    which where why when something anything nothing like because if should must can will
    has have had been set created given only
    gespeichert verschlüsselt benötigt verwendet gesendet angezeigt sichtbar bekannt
    privat persönlich wichtig anders gleich lang länger kurz kürzer hier da was wie
    welches wo warum wann etwas nichts weil ob wenn sollte muss kann wird hat habe
    gewesen gesetzt vergeben erstellt
    log login sign access enter get be make use work works working functioning
    funktioniert geht ging falsches neues altes anmelden einloggen ändern
    """.split()
)
DESCRIPTIVE_ENDING = re.compile(r"^[a-z\u00e4\u00f6\u00fc\u00df]+(?:ing|ed|lich|ig|bar|iert)$")

# "Benutzer jana88 Passwort X", "user: max, password X": the user name announces it.
_USER_THEN_PASSWORD = gate(
    re.compile(
        r"\b(?:benutzer(?:name)?|user(?:name)?|login|e-?mail|konto|account|kundennummer)"
        r"\s*:?\s*[^\s,;/|]{1,100}\s*[,;]?\s+(?:passwor[dt]|kennwort|pwd?|pass)\s*:?\s+"
        + NOT_PLACEHOLDER
        + r"(?P<value>[^\s:=]\S{0,99})",
        IGNORE,
    ),
    ("pass", "pw", "kennwort"),
)

_LOGIN = gate(
    re.compile(
        r"\b(?:zugangsdaten|anmeldedaten|login(?:daten|[- ]?(?:details|data|info))?|log-?in"
        r"|credentials|benutzerdaten|account details|user(?:name)?\s?/\s?pass(?:word)?"
        r"|benutzer(?:name)?\s?/\s?passwort)\b\s*(?:(?:sind|are|is|lauten)\s*)?[:=]?\s*"
        r"(?P<user>[^\s/|,;]{1,100}) ?[/|] ?" + NOT_PLACEHOLDER + r"(?P<value>[^\s/|]\S{0,99})",
        IGNORE,
    ),
    (
        "zugangsdaten",
        "anmeldedaten",
        "login",
        "log-in",
        "credentials",
        "benutzer",
        "account",
        "user",
    ),
)

# A digits-only reply ("482 913", "it's 4711") and a previous message that mentions a code.
_REPLY = re.compile(
    r"^\W{0,3}(?:(?:it'?s|it is|that'?s|here(?: it is)?|hier|das ist|ist|sure|ok(?:ay)?|yes"
    r"|ja|klar|gerne|code|tan|pin)\W{1,3}){0,3}" + digit_value(3, 8) + r"\W{0,3}$",
    IGNORE,
)
_MENTION = re.compile(
    r"(?P<pin>\bpin(?:[- ]?(?:nummer|code|nr|number))?\b|geheimzahl)"
    r"|(?P<sec>cvv|cvc|pr\u00fcf(?:ziffer|nummer|zahl|code)|sicherheitscode|security code"
    r"|\b(?:digits|ziffern) (?:on|auf) (?:the |der )?(?:back|r\u00fcckseite))"
    r"|(?P<otp>\b(?:m|sms|push|chip|photo|i)?-?tan(?:[- ]?(?:nummer|code|nr))?\b|\botp\b"
    r"|einmal-?(?:code|passwort|kennwort)|passcode|(?P<codeword>\b[^\W\d_]*?)-?codes?\b)",
    IGNORE,
)


def _qualified(text: str, start: int, *, compound: str = "") -> bool:
    """True when "code" is another kind of code: "discount code", "Postleitzahl-Code"."""
    if compound and compound.lower().rstrip("-") in _CODE_QUALIFIERS:
        return True
    if compound:
        return False
    before = _WORD_BEFORE.search(text, max(0, start - 25), start)
    return bool(before and before.group(1).lower() in _CODE_QUALIFIERS)


def find_keyed(*, text: str, lower: str) -> list[Found]:
    """PINs, one-time codes and TANs announced by a word before or after the value."""
    found: list[Found] = []
    for pattern, kind in ((_PIN, PIN), (_OTP, OTP), (_TAN, OTP)):
        for match in finditer(pattern, text=text, lower=lower):
            found.append((match.start("value"), match.end("value"), kind))
    for match in finditer(_BARE_CODE, text=text, lower=lower):
        if not _qualified(text, match.start()):
            found.append((match.start("value"), match.end("value"), OTP))
    for match in finditer(_VALUE_FIRST, text=text, lower=lower):
        kind = SECURITY_CODE if match.group("sec") else PIN if match.group("pin") else OTP
        found.append((match.start("value"), match.end("value"), kind))
    return found


def find_passwords(*, text: str, lower: str) -> list[Found]:
    """Passwords after a password word, and the secret half of "login: name / secret"."""
    found: list[Found] = []
    for match in finditer(_PASSWORD, text=text, lower=lower):
        join, value = match.group("join", "value")
        bare = value.strip(".,;!\"'").lower()
        if match.group("to"):
            window = text[max(0, match.start() - 40) : match.end("value") + 30]
            if not _CHANGE_VERB.search(window) or bare in NOT_A_PASSWORD:
                continue
        elif (
            ":" not in join
            and "=" not in join
            and (value.endswith("?") or bare in NOT_A_PASSWORD or DESCRIPTIVE_ENDING.match(bare))
        ):
            continue
        found.append((match.start("value"), match.end("value"), PASSWORD))
    for pattern in (_LOGIN, _USER_THEN_PASSWORD):
        for match in finditer(pattern, text=text, lower=lower):
            found.append((match.start("value"), match.end("value"), PASSWORD))
    return found


def reply_needs_previous(text: str) -> bool:
    """True when ``text`` (normalised) is a bare number whose meaning depends on the
    previous message: then the caller should pass that message to ``redact``."""
    return _REPLY.search(text) is not None


def find_reply_code(*, text: str, previous: str) -> list[Found]:
    """A digits-only reply right after a message that asked for or mentioned a code."""
    reply = _REPLY.search(text)
    if reply is None:
        return []
    kinds: set[str] = set()
    for match in _MENTION.finditer(previous):
        if match.group("codeword") is not None and _qualified(
            previous, match.start(), compound=match.group("codeword")
        ):
            continue
        kinds.add(next(k for k in ("pin", "sec", "otp") if match.group(k)))
    size = len([ch for ch in reply.group("value") if ch.isdigit()])
    if "pin" in kinds and size >= 4:
        kind = PIN
    elif "sec" in kinds and size <= 4:
        kind = SECURITY_CODE
    elif kinds and size >= 4:
        kind = OTP
    else:
        return []
    return [(reply.start("value"), reply.end("value"), kind)]
