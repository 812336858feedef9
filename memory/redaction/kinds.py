"""What redaction knows about: kinds, placeholders, visitor hints and the result types.

No Django import: callers translate the hints with gettext.
"""

from __future__ import annotations

from dataclasses import dataclass

CARD = "card"
CARD_EXPIRY = "card_expiry"
SECURITY_CODE = "security_code"
PASSWORD = "password"
PIN = "pin"
OTP = "otp"

IBAN = "iban"
EMAIL = "email"
PHONE = "phone"
ADDRESS = "address"
HEALTH = "health"

#: Never-kept kinds, in order of precedence when two candidates overlap.
REMOVED_KINDS: tuple[str, ...] = (CARD, CARD_EXPIRY, SECURITY_CODE, PIN, OTP, PASSWORD)
#: Kept-but-marked kinds, in order of precedence when two candidates overlap.
MARKED_KINDS: tuple[str, ...] = (IBAN, EMAIL, PHONE, ADDRESS, HEALTH)

#: kind -> the English placeholder that replaces the value in the stored text.
PLACEHOLDERS: dict[str, str] = {
    CARD: "[card number removed]",
    CARD_EXPIRY: "[expiry date removed]",
    SECURITY_CODE: "[security code removed]",
    PASSWORD: "[password removed]",
    PIN: "[PIN removed]",
    OTP: "[one-time code removed]",
}

#: kind -> the German placeholder, for callers that localise what the visitor sees.
PLACEHOLDERS_DE: dict[str, str] = {
    CARD: "[Kartennummer entfernt]",
    CARD_EXPIRY: "[Ablaufdatum entfernt]",
    SECURITY_CODE: "[Sicherheitscode entfernt]",
    PASSWORD: "[Passwort entfernt]",
    PIN: "[PIN entfernt]",
    OTP: "[Einmalcode entfernt]",
}

#: The visitor-only languages (chatwidget.platform.languages), for the same callers.
PLACEHOLDERS_FR: dict[str, str] = {
    CARD: "[numéro de carte supprimé]",
    CARD_EXPIRY: "[date d’expiration supprimée]",
    SECURITY_CODE: "[code de sécurité supprimé]",
    PASSWORD: "[mot de passe supprimé]",
    PIN: "[code PIN supprimé]",
    OTP: "[code à usage unique supprimé]",
}
PLACEHOLDERS_ES: dict[str, str] = {
    CARD: "[número de tarjeta eliminado]",
    CARD_EXPIRY: "[fecha de caducidad eliminada]",
    SECURITY_CODE: "[código de seguridad eliminado]",
    PASSWORD: "[contraseña eliminada]",
    PIN: "[PIN eliminado]",
    OTP: "[código de un solo uso eliminado]",
}
PLACEHOLDERS_IT: dict[str, str] = {
    CARD: "[numero di carta rimosso]",
    CARD_EXPIRY: "[data di scadenza rimossa]",
    SECURITY_CODE: "[codice di sicurezza rimosso]",
    PASSWORD: "[password rimossa]",
    PIN: "[PIN rimosso]",
    OTP: "[codice monouso rimosso]",
}
PLACEHOLDERS_NL: dict[str, str] = {
    CARD: "[kaartnummer verwijderd]",
    CARD_EXPIRY: "[vervaldatum verwijderd]",
    SECURITY_CODE: "[beveiligingscode verwijderd]",
    PASSWORD: "[wachtwoord verwijderd]",
    PIN: "[pincode verwijderd]",
    OTP: "[eenmalige code verwijderd]",
}
PLACEHOLDERS_PL: dict[str, str] = {
    CARD: "[usunięto numer karty]",
    CARD_EXPIRY: "[usunięto datę ważności]",
    SECURITY_CODE: "[usunięto kod zabezpieczający]",
    PASSWORD: "[usunięto hasło]",
    PIN: "[usunięto PIN]",
    OTP: "[usunięto kod jednorazowy]",
}

PLACEHOLDERS_BY_LANGUAGE: dict[str, dict[str, str]] = {
    "en": PLACEHOLDERS,
    "de": PLACEHOLDERS_DE,
    "fr": PLACEHOLDERS_FR,
    "es": PLACEHOLDERS_ES,
    "it": PLACEHOLDERS_IT,
    "nl": PLACEHOLDERS_NL,
    "pl": PLACEHOLDERS_PL,
}


def gettext_noop(message: str) -> str:
    """Marks a string for `makemessages` without importing Django; callers translate."""
    return message


#: kind -> a short hint for the visitor: why the value was removed, where to go instead.
#: Plain English msgids; callers translate with gettext (memory.redacting.removed_hint).
#: An expiry date is only removed next to a card number, whose hint covers it.
HINTS: dict[str, str] = {
    CARD: gettext_noop(
        "For your safety we removed the card number. Please never share card details in "
        "the chat; pay through the shop's checkout instead."
    ),
    SECURITY_CODE: gettext_noop(
        "For your safety we removed the security code. Nobody from the shop will ever ask "
        "for it; enter it only in the shop's checkout."
    ),
    PASSWORD: gettext_noop(
        "For your safety we removed the password. We never need it: if you cannot sign in, "
        'use "Forgot password" on the login page.'
    ),
    PIN: gettext_noop(
        "For your safety we removed the PIN. Never share a PIN with anyone, including us."
    ),
    OTP: gettext_noop(
        "For your safety we removed the code. One-time codes and TANs are only for you: "
        "never share them with anyone, including us."
    ),
}


@dataclass(frozen=True)
class Span:
    """A kept-but-marked value: ``text[start:end]`` of the redacted text."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True)
class RedactionResult:
    """What ``redact`` found. Holds kinds, counts and offsets, never the removed values."""

    text: str
    spans: tuple[Span, ...]
    removed: dict[str, int]
    findings: dict[str, int]
    #: credential families this text leaves open for the next message (memory.redaction.sequence)
    leaves_open: frozenset[str] = frozenset()
    #: never-kept spans ((start, end, kind), offsets into the ``earlier`` text passed to
    #: redact) that only this message revealed: a card number typed over two messages
    earlier: tuple[tuple[int, int, str], ...] = ()

    @property
    def health(self) -> bool:
        """True when the text mentions a health detail (to keep it out of core and profile)."""
        return self.findings.get(HEALTH, 0) > 0

    def spans_json(self) -> list[list[str | int]]:
        """The spans as ``[[kind, start, end], ...]``, ready for a JSONField."""
        return [[span.kind, span.start, span.end] for span in self.spans]
