"""Credential families: the words that announce a never-kept value, wherever they stand, and
the shapes such values have. Used by the sentence rule (memory.redaction.nearby) and the
conversation rule (memory.redaction.sequence), which do not depend on the words between
the keyword and its value.

Words are matched one token at a time (a token: letters, digits, "-" and "_"), lower case,
against bounded patterns, so the cost is linear in the text. Phrases of several words
("pass word", "on the back", "security question") are matched on the sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.redaction.common import IGNORE
from memory.redaction.kinds import CARD, CARD_EXPIRY, OTP, PASSWORD, PIN, SECURITY_CODE

PASSWORD_F = "password"
LOGIN_F = "login"  # login words: a value must look like a password (mixed characters)
ANSWER_F = "answer"  # a security question's answer
ANNOUNCED_F = "password_next"  # "I'll send you my password": the next message is one
PIN_F = "pin"
CODE_F = "otp"
CHANNEL_F = "channel"  # "by SMS", "texted", "the 6 digits": a code's channel, weaker
SECURITY_F = "security_code"
CARD_F = "card"
CARD_DIGITS_F = "card_digits"  # a message that ends with part of a card number

#: family -> the kind a value of it is stored as
KIND: dict[str, str] = {
    PASSWORD_F: PASSWORD,
    LOGIN_F: PASSWORD,
    ANSWER_F: PASSWORD,
    ANNOUNCED_F: PASSWORD,
    PIN_F: PIN,
    CODE_F: OTP,
    CHANNEL_F: OTP,
    SECURITY_F: SECURITY_CODE,
    CARD_F: CARD,
    CARD_DIGITS_F: CARD,
}
#: a removed kind -> the family the next message may continue
FAMILY_OF_KIND: dict[str, str] = {
    CARD: CARD_F,
    CARD_EXPIRY: CARD_F,
    SECURITY_CODE: SECURITY_F,
    PIN: PIN_F,
    OTP: CODE_F,
    PASSWORD: PASSWORD_F,
}

TOKEN = re.compile(r"[^\W_](?:[\w\-]{0,40}[^\W_])?")

_WORD_PATTERNS: tuple[tuple[str, str], ...] = (
    (
        r"(?:[a-zäöü]{0,20}-?)?pass?(?:w[oö]?r[dt]|wd|phrase|satz)(?:s|es|e|en|er)?"
        r"|passs?atz|passs?word|ps{1,2}wd|pwd?|pword|kennw[oö]rt\w{0,6}|passwörter",
        PASSWORD_F,
    ),
    (
        r"login\w{0,8}|log-?in|anmeld\w{0,8}|einlogg\w{0,6}|zugangsdaten|zugangscode"
        r"|credentials|benutzerdaten|anmeldedaten",
        LOGIN_F,
    ),
    (r"sicherheitsfrage\w{0,3}|sicherheitsantwort\w{0,3}", ANSWER_F),
    (
        r"pins?|pin-?(?:code|nummer|nr|number)s?|pincodes?|[a-zäöü]{2,20}-pins?"
        r"|geheimzahl\w{0,3}",
        PIN_F,
    ),
    (
        r"cvv2?|cvc2?|cvn|csc|prüf(?:ziffer|nummer|zahl|code)\w{0,3}"
        r"|kartenprüf\w{0,10}|sicherheitscode|sicherheitsnummer",
        SECURITY_F,
    ),
    (
        r"codes?|[a-zäöü]{2,30}-?codes?|passcodes?|otps?|2fa|tans?"
        r"|(?:m|mobile|push|sms|chip|photo|i|e|app)-?tans?(?:-?(?:nummer|code|nr))?"
        r"|tan-?(?:nummer|code|nr)|einmal(?:code|passwort|kennwort)\w{0,3}"
        r"|verifi\w{0,15}|bestätigungs\w{0,10}|authenticator|authentifizierung\w{0,5}",
        CODE_F,
    ),
    (r"sms|texted|digits|ziffern|stellige?n?|6-stellige?n?|6-digit", CHANNEL_F),
    (
        r"(?:credit|debit|bank|gift|kredit|ec|giro|geld|visa|master|geschenk)?-?"
        r"(?:cards?|karten?)(?:-?(?:nummer|nr|number))?|visa|mastercard|amex|maestro"
        r"|diners|discover|jcb|unionpay|kreditkarte\w{0,3}",
        CARD_F,
    ),
)
#: Every word pattern in one alternation, in order: a word's family is that of the first
#: alternative that matches it whole (what trying them one by one gave, at one regex call
#: per word instead of up to eight).
_WORDS = re.compile(
    "|".join(f"(?P<w{i}>{pattern})" for i, (pattern, _) in enumerate(_WORD_PATTERNS))
)
_WORD_FAMILY = {f"w{i}": family for i, (_, family) in enumerate(_WORD_PATTERNS)}
_PHRASES: tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...] = (
    (re.compile(r"\bpass\s+(?:word|phrase|satz)\b", IGNORE), PASSWORD_F, ("pass",)),
    # a bare "pass" only as "the pass", "my pass": a season pass is not one
    (
        re.compile(r"\b(?:the|my|mein|das|dein|your)\s+pass\b(?=\s*(?::|=|is\b|ist\b))", IGNORE),
        PASSWORD_F,
        ("pass",),
    ),
    (re.compile(r"\b(?:log|sign)\s+in\b", IGNORE), LOGIN_F, ("log", "sign")),
    (
        re.compile(r"\bsecurity\s+(?:question|answer)\b|\bsecret\s+(?:question|answer)\b", IGNORE),
        ANSWER_F,
        ("security", "secret"),
    ),
    (
        re.compile(
            r"\b(?:on|at|from|auf|an|von)\s+(?:the\s+|der\s+|my\s+|meiner\s+)?(?:back|reverse"
            r"|rear|rückseite|hinterseite)\b|\bsignature\s+(?:strip|panel)\b"
            r"|\bhinten\s+auf\s+der\s+karte\b|\bunterschriftsfeld\b",
            IGNORE,
        ),
        SECURITY_F,
        (
            "back",
            "reverse",
            "rear",
            "signature",
            "hinten",
            "unterschriftsfeld",
            "rückseite",
            "hinterseite",
        ),
    ),
    (
        re.compile(r"\bone[ -]time\b|\btwo[ -]factor\b|\bzwei-?faktor\b", IGNORE),
        CODE_F,
        ("time", "factor", "faktor"),
    ),
    (
        re.compile(
            r"\b(?:i'?ll|let me|soll ich|i can|ich kann|ich)\s+(?:\w+\s+){0,3}"
            r"(?:send|schick\w*|geb\w*|give|tell|sag\w*|type|tipp\w*)\b"
            r"[^.?!\n]{0,40}\b(?:passwor[dt]|kennwort|pw|pass\s?phrase|passsatz|satz"
            r"|sentence)\b"
            r"|\bganze[nr]?\s+satz\b|\b(?:a|one)\s+(?:whole|full)\s+sentence\b",
            IGNORE,
        ),
        ANNOUNCED_F,
        ("passwor", "kennwort", "pw", "pass", "satz", "sentence"),
    ),
)

#: "code" with one of these words before it (or as the first part of a compound) is another
#: kind of code: "discount code", "Rabattcode", "tracking code".
CODE_QUALIFIERS = frozenset(
    """
    discount voucher coupon promo promotion promotional gift error fehler postal post zip
    area country product article item tracking customer colour color reference order
    status http response iso sort swift bic bank branch dial qr bar barcode hs tax vat
    rabatt gutschein gutscheins aktions farb artikel produkt bestell kunden referenz
    sendungs rechnungs invoice style model modell size shipping versand ean postleit
    source rabatt- gutschein- promo- aktion aktions- qr- bar- fehler- error- farb- post-
    zoll customs hs- tarif geschenk geschenkgutschein
    """.split()
)


#: The characters that IGNORECASE matches to a letter of the phrases' words while their
#: lower() is another letter: İ and ı (i), ſ (s). tests/memory/test_redaction_families.py
#: checks every code point against the phrases' words.
FOLDS_APART = "\u0130\u0131\u017f"


@dataclass(frozen=True)
class Mention:
    family: str
    start: int
    end: int


def mentions(text: str) -> list[Mention]:
    """The family words of ``text`` (normalised), with their offsets."""
    found: list[Mention] = []
    previous = ""
    for match in TOKEN.finditer(text):
        word = match.group().lower()
        hit = _WORDS.fullmatch(word)
        family = _WORD_FAMILY[hit.lastgroup] if hit is not None and hit.lastgroup else None
        if family is not None and not (family == CODE_F and _qualified_code(word, previous)):
            found.append(Mention(family, match.start(), match.end()))
            if family == SECURITY_F and word.startswith("sicherheits"):
                # "Sicherheitscode" is also a sign-in code ("aus der SMS")
                found.append(Mention(CODE_F, match.start(), match.end()))
        previous = word
    # a phrase cannot match a text without one of its words (lower case); a text that holds
    # a character IGNORECASE folds onto a word's letter while lower() does not is matched
    # whole
    lower = None if any(ch in text for ch in FOLDS_APART) else text.lower()
    for pattern, family, words in _PHRASES:
        if lower is not None and not any(word in lower for word in words):
            continue
        found.extend(Mention(family, m.start(), m.end()) for m in pattern.finditer(text))
    return found


def _qualified_code(word: str, previous: str) -> bool:
    """A "code" (or TAN) that is another kind of code: "discount code", "Rabattcode"."""
    if word.startswith(("tan", "m", "push", "sms", "chip", "photo")) and "tan" in word:
        return False
    stem = word[: -len("codes")] if word.endswith("codes") else word[: -len("code")]
    if word.endswith(("code", "codes")) and stem and stem.rstrip("-") in CODE_QUALIFIERS:
        return True
    return word in ("code", "codes") and previous in CODE_QUALIFIERS


def families(text: str) -> set[str]:
    return {m.family for m in mentions(text)}


# --- value shapes ---------------------------------------------------------------------------

#: digit groups joined by one space, a dash, or a comma and a space ("481 992", "5521-0937",
#: "2 6 6, 0 1 9"), not glued to a word, a decimal point or a slash (prices, dates)
DIGIT_RUN = re.compile(r"(?<![\w+./:,€$£-])\d+(?:(?: |-|, )\d+){0,7}(?![\w/€$£%°]|[.,:]\d)")
#: a code of letters and digits ("QZ4T8P", "Q8X-4TM", "G-771203")
CODE_TOKEN = re.compile(
    r"(?<![\w@./:-])(?=[\w-]{0,26}\d)(?=[\w-]{0,26}[A-Za-z])"
    r"[A-Za-z0-9]{1,8}(?:-[A-Za-z0-9]{1,8}){0,2}(?![\w@/-]|\.\w)"
)
#: a password-like token: no spaces, at least a letter and a digit or a symbol
SECRET_TOKEN = re.compile(r"(?<![^\s(\"'„“«»:=,;/|])[^\s\"'„“«»()<>]{4,64}")
_SYMBOLS = set("!#$%&*+=?@^_~§.-")
_UNIT_AFTER = re.compile(
    r"\s?(?:€|eur\b|euro|\$|usd|chf|%|x\b|stück|stk|pcs|pieces|km|cm|mm|kg|g\b|ml|l\b|min"
    r"|h\b|std|tage|days|degrees|grad|°|uhr|jahre|years|mal\b|times)",
    IGNORE,
)
_IBAN_BEFORE = re.compile(r"\b[A-Z]{2}\d{2} ?$")
_YEAR_CONTEXT = re.compile(
    r"\b(?:in|im|seit|since|from|von|bis|until|year|jahr|anno|ab)\s+$", IGNORE
)


_PROMO = re.compile(
    r"[A-Za-z]{3,}-?\d{1,4}|(?:[A-Za-z]{2,}-){1,3}\d{1,4}|[A-Za-z]{1,3}-?\d{1,3}|\d{1,4}-?[A-Za-z]{3,}"
)


def code_shaped(token: str) -> bool:
    """A one-time code of letters and digits ("QZ4T8P", "Q8X-4TM", "G-771203"); not a
    voucher ("SUMMER24", "REF-ANNA-2291") or an error code ("E-403")."""
    return digit_count(token) >= 2 and len(token) >= 5 and not _PROMO.fullmatch(token)


def secret_shaped(token: str) -> bool:
    """A password-like token: letters with digits or symbols, not an e-mail address, a URL,
    a price or a date."""
    if "@" in token and "." in token.split("@")[-1] or "://" in token or token.startswith("www."):
        return False
    letters = sum(ch.isalpha() for ch in token)
    digits = sum(ch.isdigit() for ch in token)
    symbols = sum(ch in _SYMBOLS for ch in token)
    if not letters or not (digits or symbols):
        return False
    if symbols and not digits and all(ch in ".-" for ch in token if ch in _SYMBOLS):
        return False  # "e-mail", "Wi-Fi", "z.B.": words with a dash or a dot
    return letters + digits >= 4


#: words that say a value is something else: an order, an article, a voucher, a postcode
BENIGN_LABEL = re.compile(
    r"(?:\b(?:orders?|order[ -]?(?:number|no)|bestell\w*|auftrag\w*|rechnung\w*|invoices?"
    r"|artikel\w*|articles?|items?|sku|art\.?-?nr|tracking\w*|sendung\w*|paket\w*"
    r"|kunden\w*|customer|ticket\w*|referen\w*|vorgang\w*|ean|gtin|isbn|upc|gutschein\w*"
    r"|voucher|coupon|rabatt\w*|promo\w*|post ?codes?|postleitzahl|plz|zip|error|fehler\w*"
    r"|status|http|telefon\w*|phone|tel|fax|mobil\w*|handy\w*|iban|bic|case|fall|seite"
    r"|page|size|gr(?:ö|oe)(?:ß|ss)e|model\w*|version|empfehlung\w*|referral|flyer|contracts?"
    r"|vertrag\w*|vertrags\w*|abo\w*|subscription|membership|mitglied\w*|benutzer\w*"
    r"|user(?:name)?|nutzer\w*|login-?name|anmeldename|ending in|endet auf|endend auf"
    r"|last (?:four|4)|letzten (?:vier|4))\b"
    r"|\b(?:nr|no)(?:\.\s*|\s*:\s*|\s+(?=\d))|#)[^\d\n]{0,20}$",
    IGNORE,
)


def qualified_number(text: str, start: int, end: int, *, after: int = 0) -> bool:
    """True when the value at ``text[start:end]`` is said to be something else (an order,
    an article, a voucher, a postcode), is an amount, or a year after "in", "seit"... A
    label counts only after ``after`` (the end of the credential word nearest before the
    value: "Telefon-PIN fürs Kundenkonto: 28 19" is a PIN)."""
    label = BENIGN_LABEL.search(text, max(after, start - 30), start)
    if label and label.start() >= after:
        return True
    if _IBAN_BEFORE.search(text, max(0, start - 6), start):
        return True  # the digits of an IBAN ("DE89 3704 0044 ...")
    if _UNIT_AFTER.match(text, end):
        return True
    before = text[max(0, start - 2) : start]
    if any(ch in before for ch in "€$£#"):
        return True
    value = text[start:end]
    return bool(
        len(value) == 4
        and value[:2] in ("19", "20")
        and _YEAR_CONTEXT.search(text, max(0, start - 12), start)
    )


def digit_count(value: str) -> int:
    return sum(ch.isdigit() for ch in value)
