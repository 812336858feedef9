"""Held-out data for the redaction evaluation: templates x separators x values, fixed seed.

Written from how visitors type (shop chats, bank and shop SMS texts, the phrasings in issue
13), not from memory/redaction's patterns: this module imports nothing from it. Every
never-kept case names the value that must not survive; benign cases are ordinary shop
messages that must lose nothing.

``cases(seed=13, scale=1.0)`` returns ``(never_kept, benign)``; ``scale`` shrinks the sample
for the regression test in tests/memory.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from stdnum import luhn


@dataclass(frozen=True)
class Case:
    kind: str  # card, card_expiry, security_code, password, pin, otp, or "benign"
    language: str
    text: str
    values: tuple[str, ...] = ()  # substrings (as typed) that must not survive
    digits: tuple[str, ...] = ()  # digit strings that must not survive in any spelling
    previous: str | None = None  # the message before, for replies


_FULLWIDTH = {str(d): chr(0xFF10 + d) for d in range(10)}
_ARABIC = {str(d): chr(0x0660 + d) for d in range(10)}
_WORDS_EN = "zero one two three four five six seven eight nine".split()
_WORDS_DE = "null eins zwei drei vier fünf sechs sieben acht neun".split()

# How digits are separated when typed: (name, separator between groups).
SEPARATORS = [
    ("space", " "),
    ("none", ""),
    ("dash", "-"),
    ("dot", "."),
    ("slash", "/"),
    ("nbsp", "\u00a0"),
    ("narrow-nbsp", "\u202f"),
    ("zwsp", "\u200b"),
    ("en-dash", "\u2013"),
    ("double-space", "  "),
    ("underscore", "_"),
    ("space-dash-space", " - "),
]


def _card_number(rng: random.Random) -> tuple[str, tuple[int, ...]]:
    brand = rng.choice(["visa", "visa", "mc", "mc2", "amex", "discover", "jcb", "diners"])
    prefix, length, groups = {
        "visa": ("4", 16, (4, 4, 4, 4)),
        "mc": (str(rng.randint(51, 55)), 16, (4, 4, 4, 4)),
        "mc2": (str(rng.randint(2221, 2720)), 16, (4, 4, 4, 4)),
        "amex": (rng.choice(["34", "37"]), 15, (4, 6, 5)),
        "discover": ("6011", 16, (4, 4, 4, 4)),
        "jcb": (str(rng.randint(3528, 3589)), 16, (4, 4, 4, 4)),
        "diners": (rng.choice(["36", "38"]), 14, (4, 6, 4)),
    }[brand]
    body = prefix + "".join(rng.choice("0123456789") for _ in range(length - len(prefix) - 1))
    return body + luhn.calc_check_digit(body), groups


def _group(number: str, sizes: tuple[int, ...], sep: str) -> str:
    parts, at = [], 0
    for size in sizes:
        parts.append(number[at : at + size])
        at += size
    return sep.join(parts)


def _spell(number: str, rng: random.Random, *, language: str, style: str) -> str:
    """One spelling of a digit string: plain, full-width, Arabic-Indic, spoken, spaced."""
    if style == "fullwidth":
        return "".join(_FULLWIDTH[d] for d in number)
    if style == "arabic":
        return "".join(_ARABIC[d] for d in number)
    if style == "spoken":
        words = _WORDS_DE if language == "de" else _WORDS_EN
        return rng.choice([" ", ", ", "-"]).join(words[int(d)] for d in number)
    if style == "spaced":
        return " ".join(number)
    return number


def _short_value(number: str, rng: random.Random, *, language: str) -> str:
    style = rng.choice(["plain", "plain", "plain", "split", "fullwidth", "spaced", "spoken"])
    if style == "split" and len(number) >= 6:
        half = len(number) // 2
        return number[:half] + rng.choice([" ", "-", ".", "\u00a0", "\u2013"]) + number[half:]
    if style == "split":
        style = "plain"
    return _spell(number, rng, language=language, style=style)


CARD_TEMPLATES = {
    "en": [
        "my card number is {v}",
        "card: {v}",
        "here is my credit card {v}",
        "{v}",
        "order {v}",
        "can you charge {v} instead?",
        "please use {v} for the payment",
        "the number on my card is {v}, thanks",
        "I paid with {v} but it failed",
        "{v} is my visa",
        "try this one {v}",
        "number {v}",
    ],
    "de": [
        "meine Kartennummer ist {v}",
        "Kreditkarte: {v}",
        "{v}",
        "Bestellung {v}",
        "bitte buchen Sie von {v} ab",
        "Die Nummer lautet {v}, danke",
        "Zahlung mit {v} ging nicht",
        "hier {v}",
        "Meine Mastercard {v}",
        "Nr. {v}",
        "Können Sie {v} belasten?",
        "{v} ist meine Karte",
    ],
}
EXPIRY_TEMPLATES = {
    "en": ["{v} exp {e}", "{v}, expires {e}", "card {v} valid thru {e}", "{v} {e}"],
    "de": ["{v} gültig bis {e}", "Karte {v}, Ablaufdatum {e}", "{v} läuft ab {e}", "{v} {e}"],
}
SECURITY_TEMPLATES = {
    "en": [
        "CVV {v}",
        "the three digits on the back are {v}",
        "security code is {v}",
        "cvc: {v}",
        "the code on the back of my card is {v}",
        "my CVV is {v}",
        "{v} is the CVV",
        "CVV2 {v}",
        "card verification code {v}",
    ],
    "de": [
        "Prüfziffer {v}",
        "Die Kartenprüfnummer lautet {v}",
        "CVC {v}",
        "die drei Ziffern auf der Rückseite sind {v}",
        "Sicherheitscode: {v}",
        "meine CVV ist {v}",
        "Prüfnummer ist {v}",
        "die Zahl auf der Rückseite der Karte: {v}",
    ],
}
PASSWORD_TEMPLATES = {
    "en": [
        "my password is {v}",
        "my password is now {v}",
        "I changed my password to {v}",
        "the password is still {v}",
        "password: {v}",
        "new password: {v}",
        "login: {u} / {v}",
        "I set the password to {v}",
        "pw: {v}",
        "my password's {v}",
        "credentials: {u} / {v}",
        "the password was {v} before",
    ],
    "de": [
        "mein Passwort ist {v}",
        "Zugangsdaten: {u} / {v}",
        "Passwort: {v}",
        "mein Passwort lautet jetzt {v}",
        "das Passwort ist immer noch {v}",
        "Ich habe mein Passwort auf {v} geändert",
        "Kennwort: {v}",
        "neues Passwort: {v}",
        "Mein Kennwort ist {v}",
        "Login: {u} / {v}",
        "das Passwort war {v}",
    ],
}
PIN_TEMPLATES = {
    "en": ["PIN {v}", "my PIN is {v}", "{v} is my PIN", "PIN code: {v}", "the pin is {v}"],
    "de": [
        "PIN {v}",
        "meine PIN ist {v}",
        "Geheimzahl {v}",
        "PIN-Nummer: {v}",
        "{v} ist meine PIN",
        "meine Geheimzahl lautet {v}",
    ],
}
OTP_TEMPLATES = {
    "en": [
        "the code is {v}",
        "Your code: {v}",
        "one-time code {v}",
        "verification code {v}",
        "I got the code {v}",
        "OTP {v}",
        "2FA code is {v}",
        "the SMS code {v}",
        "code {v}",
        "TAN {v}",
        "{v} is the code",
    ],
    "de": [
        "Der Code lautet {v}",
        "TAN: {v}",
        "Bestätigungscode {v}",
        "mTAN {v}",
        "Hier ist der Code: {v}",
        "der Code aus der SMS ist {v}",
        "Einmalcode {v}",
        "pushTAN {v}",
        "Code {v}",
        "Verifizierungscode: {v}",
        "{v} ist die TAN",
    ],
}
REPLY_PREVIOUS = {
    "en": [
        ("Please enter the code we sent you by SMS.", "otp"),
        ("What is the TAN you received?", "otp"),
        ("I just got a verification code", "otp"),
        ("Which PIN did you set?", "pin"),
    ],
    "de": [
        ("Bitte nennen Sie mir den Code aus der SMS.", "otp"),
        ("Welche TAN haben Sie bekommen?", "otp"),
        ("Ich habe einen Bestätigungscode bekommen", "otp"),
        ("Wie lautet die PIN?", "pin"),
    ],
}


# A second set of phrasings, written after the rules had been fixed on the first set and run
# once as they stand (``--fresh``): an estimate of how the rules generalise.
FRESH = {
    "card": {
        "en": [
            "hi, {v} is the card I used",
            "can u charge my other card pls: {v}",
            "CC# {v}",
            "new card {v}",
            "the long number {v}",
            "{v} <- that one",
        ],
        "de": [
            "Visa-Karte Nummer {v}",
            "Kartennr {v}",
            "bezahlt habe ich mit der {v}",
            "Nummer meiner EC-Karte {v}",
            "neue Karte {v}",
            "Die {v} bitte belasten",
        ],
    },
    "security_code": {
        "en": [
            "CVV is {v}",
            "cvc code {v}",
            "the security number is {v}",
            "3-digit code: {v}",
            "sec code {v}",
            "code on the back: {v}",
        ],
        "de": [
            "Kartenprüfziffer: {v}",
            "die Sicherheitsnummer hinten ist {v}",
            "der 3-stellige Code hinten lautet {v}",
            "CVV-Nummer {v}",
            "Prüfzahl {v}",
        ],
    },
    "password": {
        "en": [
            "pass: {v}",
            "my pass is {v}",
            "Password for my account: {v}",
            "password - {v}",
            "pwd={v}",
            "the new password I chose is {v}",
            "I reset it, password now {v}",
        ],
        "de": [
            "Passwort lautet {v}",
            "mein Login-Passwort: {v}",
            "Kennwort geändert auf {v}",
            "Benutzer {u} Passwort {v}",
            "PW ist {v}",
            "Das Passwort für mein Konto ist {v}",
        ],
    },
    "pin": {
        "en": ["pin number {v}", "my card PIN: {v}", "PIN of my card is {v}", "pin={v}"],
        "de": ["Pin ist {v}", "PIN lautet {v}", "Meine neue PIN: {v}", "die PIN war {v}"],
    },
    "otp": {
        "en": [
            "The TAN is {v}",
            "sms code: {v}",
            "code {v} from the app",
            "got code {v}",
            "authenticator says {v}",
            "the 6-digit code is {v}",
            "passcode {v}",
        ],
        "de": [
            "Bestätigungs-Code {v}",
            "Sicherheitscode aus der SMS {v}",
            "Der Einmal-Code ist {v}",
            "Mein Code: {v}",
            "Code lautet {v}",
            "die TAN aus der App: {v}",
        ],
    },
}


def _password(rng: random.Random) -> str:
    word = rng.choice(
        [
            "Sommer",
            "hunter",
            "Blue",
            "Tulpe",
            "Katze",
            "dragon",
            "Winter",
            "Sonne",
            "monkey",
            "Falke",
            "River",
            "Apfel",
        ]
    )
    tail = rng.choice(["2024!", "22", "#7", "!Sky9", "_x1", "99", "&3", "-2025", "Pw8", "42?!"])
    return word + tail


def never_kept(rng: random.Random, *, scale: float = 1.0, fresh: bool = False) -> list[Case]:
    """Never-kept cases; ``fresh`` swaps in the second set of phrasings (FRESH)."""
    card_t, sec_t, pw_t, pin_t, otp_t = (
        (FRESH[k] for k in ("card", "security_code", "password", "pin", "otp"))
        if fresh
        else (CARD_TEMPLATES, SECURITY_TEMPLATES, PASSWORD_TEMPLATES, PIN_TEMPLATES, OTP_TEMPLATES)
    )
    out: list[Case] = []
    n = max(1, int(60 * scale))
    for language in ("en", "de"):
        for _ in range(n):  # cards: template x separator x brand x spelling
            number, groups = _card_number(rng)
            name, sep = rng.choice(SEPARATORS)
            style = rng.choice(["plain"] * 6 + ["fullwidth", "spoken", "spaced", "arabic"])
            typed = (
                _group(number, groups, sep)
                if style == "plain"
                else _spell(number, rng, language=language, style=style)
            )
            text = rng.choice(card_t[language]).format(v=typed)
            out.append(Case("card", language, text, values=(typed,), digits=(number,)))
        for _ in range(max(1, n // 3)):  # expiry dates next to a card
            number, groups = _card_number(rng)
            typed = _group(number, groups, rng.choice([" ", "-", ""]))
            expiry = f"{rng.randint(1, 12):02d}/{rng.choice(['', '20'])}{rng.randint(26, 31)}"
            text = rng.choice(EXPIRY_TEMPLATES[language]).format(v=typed, e=expiry)
            out.append(
                Case("card_expiry", language, text, values=(typed, expiry), digits=(number,))
            )
        for _ in range(n // 2):
            code = "".join(rng.choice("0123456789") for _ in range(rng.choice([3, 3, 4])))
            typed = _short_value(code, rng, language=language)
            text = rng.choice(sec_t[language]).format(v=typed)
            out.append(Case("security_code", language, text, values=(typed,), digits=(code,)))
        for _ in range(n // 2):
            value = _password(rng)
            user = rng.choice(["max.muster", "jana88", "k.schmidt@example.com", "tom"])
            text = rng.choice(pw_t[language]).format(v=value, u=user)
            out.append(Case("password", language, text, values=(value,)))
        for _ in range(n // 2):
            pin = "".join(rng.choice("0123456789") for _ in range(rng.choice([4, 4, 5, 6])))
            typed = _short_value(pin, rng, language=language)
            text = rng.choice(pin_t[language]).format(v=typed)
            out.append(Case("pin", language, text, values=(typed,), digits=(pin,)))
        for _ in range(n):
            code = "".join(rng.choice("0123456789") for _ in range(rng.choice([6, 6, 5, 8])))
            typed = _short_value(code, rng, language=language)
            text = rng.choice(otp_t[language]).format(v=typed)
            out.append(Case("otp", language, text, values=(typed,), digits=(code,)))
        for _ in range(max(1, n // 4)):  # a bare reply right after a message about a code
            previous, kind = rng.choice(REPLY_PREVIOUS[language])
            code = "".join(rng.choice("0123456789") for _ in range(6 if kind == "otp" else 4))
            typed = rng.choice([code, code[:3] + " " + code[3:], " ".join(code)])
            out.append(
                Case(kind, language, typed, values=(typed,), digits=(code,), previous=previous)
            )
    return out
