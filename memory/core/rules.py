"""What never goes into a core: redaction placeholders, pleasantries, guesses about the
person, third parties' details, payment data and credentials, health and contact details."""

import re

from memory.core.inputs import CONTACT_KINDS
from memory.redaction import PLACEHOLDERS_BY_LANGUAGE, redact

PLACEHOLDER = re.compile(
    r"\[[^\]\n]{0,40}\b(?:removed|entfernt|omitted|ausgelassen)\]"
    + "|"
    + "|".join(re.escape(p) for d in PLACEHOLDERS_BY_LANGUAGE.values() for p in d.values()),
    re.IGNORECASE,
)
PLEASANTRY = re.compile(
    r"^(?:the )?(?:visitor |customer |user )?(?:hi|hello|hey|hallo|moin|servus|greeted\b.*"
    r"|said (?:hello|hi|thanks|thank you|goodbye)\b.*|good (?:morning|afternoon|evening)"
    r"|guten (?:tag|morgen|abend)|thanks?(?: you)?(?: (?:a lot|so much|very much))?|danke"
    r"(?: sch(?:ö|oe)n| sehr)?|vielen dank|bye|goodbye|tsch(?:ü|ue)ss|ok(?:ay)?|great|super"
    r"|perfect|perfekt|prima|you'?re welcome|gern(?:e|geschehen)?)[\s,.!]*$",
    re.IGNORECASE,
)
_GUESS = re.compile(
    r"\b(?:seems|appears|sounds|looks|wirkt|scheint)\b[^.;]{0,30}\b(?:angry|annoyed|frustrated|"
    r"upset|impatient|rude|nervous|stressed|confused|rich|wealthy|poor|broke|suspicious|"
    r"verärgert|genervt|wütend|ungeduldig|unhöflich|nervös|gestresst|reich|arm|pleite|"
    r"verdächtig)\b"
    r"|\b(?:visitor|customer|user|person|kunde|kundin|besucher(?:in)?|he|she|er|sie)\b[^.;]{0,20}"
    r"\b(?:is|ist|probably|likely|wahrscheinlich|vermutlich)\b[^.;]{0,20}\b(?:angry|annoyed|"
    r"frustrated|upset|impatient|rude|rich|wealthy|poor|broke|can'?t afford|cannot afford|"
    r"lying|suspicious|a fraud|verärgert|genervt|wütend|ungeduldig|unhöflich|reich|arm|pleite|"
    r"lügt|verdächtig)\b"
    r"|\b(?:can'?t|cannot) afford\b|\b(?:low|poor|bad) (?:credit|solvency)\b|\bzahlungsunfähig",
    re.IGNORECASE,
)
_THIRD_PARTY = re.compile(
    # "my wife Anna", "our neighbour Tom's": a relation word directly followed by a name
    r"(?i:\b(?:my|his|her|our|their)\s(?:wife|husband|partner|neighbou?r|friend|colleague|boss|"
    r"mother|father|mum|mom|dad|sister|brother|son|daughter|aunt|uncle|grandma|grandpa)"
    r"(?:'s)?\s)(?!(?:Size|Order|Article)\b)[A-Z][a-z]{2,}"
    # "Mrs Miller", "Herr Schmidt" (not "meine Frau Größe ...")
    r"|\b(?:Mr|Mrs|Ms|Miss|Dr|Herrn?)\.?\s[A-ZÄÖÜ][a-zäöüß]{2,}"
    r"|(?<!meine )(?<!seine )(?<!ihre )(?<!eine )(?<!unsere )(?<!Meine )(?<!Ihre )\bFrau\s"
    r"(?:Dr\.\s)?[A-ZÄÖÜ][a-zäöüß]{2,}(?=[\s,.;!?]|$)(?!\s(?:[A-Z]{1,3}|\d))"
)


def core_value_forbidden(text: str) -> str | None:
    """Why `text` may not be a core value, or None when it may."""
    if PLACEHOLDER.search(text):
        return "placeholder"
    if PLEASANTRY.match(text.strip()):
        return "pleasantry"
    if _GUESS.search(text):
        return "guess"
    if _THIRD_PARTY.search(text):
        return "third_party"
    found = redact(text)
    if found.removed:
        return "payment_or_credential"
    if found.findings.get("health"):
        return "health"
    if any(kind in found.findings for kind in CONTACT_KINDS):
        return "contact"
    return None
