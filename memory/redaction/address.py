"""Kept but marked: postal addresses and health details (flagged, never removed).

German streets by their street word ("Hauptstraße 5", "Karl-Marx-Str. 17a"), any street
followed by a postcode and a town ("Unter den Linden 77, 10117 Berlin"), English streets,
US state + ZIP and UK postcodes.
"""

from __future__ import annotations

import re

from memory.redaction.common import IGNORE, Found, finditer, gate, merge_same_kind
from memory.redaction.kinds import ADDRESS, HEALTH

_I = IGNORE

_DE_SUFFIX = r"(?:stra(?:\u00df|ss)e|str\.|weg|platz|allee|gasse|ring|damm)"
_DE_SUFFIX_WORD = r"(?:Stra(?:\u00df|ss)e|Str\.|Weg|Platz|Allee|Gasse|Ring|Damm)"
# A house number must not be a quantity: "Ehering 18 Karat", "Rückweg 3 Tage".
_NOT_A_QUANTITY = (
    r"(?!\s*(?i:karat|kt\b|mm\b|cm\b|m\b|g\b|gramm|kg\b|km\b|meter|euro|eur\b|\u20ac|%"
    r"|st\u00fcck|stk\b|x\b|mal\b|tage?n?\b|wochen?\b|monate?n?\b|jahre?n?\b|minuten?\b"
    r"|stunden?\b|uhr\b|days?\b|weeks?\b|months?\b|years?\b|hours?\b|minutes?\b|min\b"
    r"|h\b|gr\u00f6\u00dfe|size|pieces?|pcs\b))"
)
_DE_PLACE = (
    r"(?:,?\s*(?:(?:D|A|CH)-)?\d{4,5}\s+[A-Z\u00c4\u00d6\u00dc][\w\u00df-]+"
    r"(?:\s(?:am|an der|im|in der|ob der|bei)\s[A-Z\u00c4\u00d6\u00dc][\w\u00df-]+)?)?"
)
_DE_STREET = re.compile(
    r"(?<![\w-])(?:"
    # compound: Hauptstraße, Karl-Marx-Str., bahnhofstrasse, Lindenweg
    r"(?:(?:[^\W\d_]+-)+|[^\W\d_]{2,}?)(?i:" + _DE_SUFFIX + r")"
    # separate word: Berliner Straße, Alte Gasse (not "Der Ring")
    r"|(?!(?:Der|Die|Das|Den|Dem|Des|Ein|Eine|Einen|Mein|Meine|Dein|Deine|Ihr|Ihre|Unser"
    r"|Unsere|Welcher|Welche|Dieser|Diese|Jeder|Jede)\s)"
    r"[A-Z\u00c4\u00d6\u00dc][^\W\d_]+\s" + _DE_SUFFIX_WORD + r")"
    r"\s?\d{1,4}(?:\s?[a-zA-Z]\b)?(?:\s?[-/\u2013]\s?\d{1,4}[a-zA-Z]?)?(?![\d\w])"
    + _NOT_A_QUANTITY
    + _DE_PLACE
)

_US_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV"
    "|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY"
)
_UK_POSTCODE = r"[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2}"
_EN_STREET = re.compile(
    r"(?<![\w-])\d{1,5}[A-Za-z]?,?\s+(?:(?:\d{1,3}(?:st|nd|rd|th)|[A-Z][a-z'\u2019]+)\.?\s+){1,3}"
    r"(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Boulevard|Blvd|Way|Court|Ct|Place"
    r"|Terrace|Close|Crescent|Square|Parkway|Pkwy|Highway|Hwy|Loop|Circle|Cir|Trail|Mews)"
    r"\b\.?"
    r"(?:\s(?:N|S|E|W|NE|NW|SE|SW)\b)?"
    r"(?:,?\s(?:Apt|Suite|Unit|Flat)\.?\s?#?\w{1,6})?"
    r"(?:,\s?[A-Z][a-z]+(?:\s[A-Z][a-z]+){0,2})?"
    r"(?:,?\s(?:(?:" + _US_STATES + r")\s\d{5}(?:-\d{4})?|" + _UK_POSTCODE + r"))?(?![\w-])"
)
# These two start with letters and check what precedes them afterwards, so that the regex
# engine can skip ahead to the candidate letters quickly.
_US_STATE_ZIP = re.compile(r"(?:" + _US_STATES + r")(?<![\w-]..)\s\d{5}(?:-\d{4})?(?![\w-])")
_UK_POSTCODE_ALONE = re.compile(r"(?=[A-Z])(?<![\w-])" + _UK_POSTCODE + r"(?![\w-])")

# Anchors: an address pattern runs over the text only where its anchor occurs.
_DE_STREET_ANCHOR = re.compile(
    r"(?:stra(?:\u00df|ss)e|str\.|weg|platz|allee|gasse|ring|damm|Stra(?:\u00df|ss)e|Str\.|Weg"
    r"|Platz|Allee|Gasse|Ring|Damm|STRA(?:\u00df|SS)E|STR\.|WEG|PLATZ|ALLEE|GASSE|RING|DAMM)"
    r"\s?\d"
)
_EN_STREET_ANCHOR = re.compile(
    r"(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Boulevard|Blvd|Way|Court|Ct|Place"
    r"|Terrace|Close|Crescent|Square|Parkway|Pkwy|Highway|Hwy|Loop|Circle|Cir|Trail|Mews)\b"
)
# Jewellery, not a street: "Goldring 585", "Silberring 925" (hallmarks).
_HALLMARK = re.compile(r"ring\s?(?:333|375|585|750|900|916|925|999)\b", _I)

_HEALTH = re.compile(
    r"\b(?:diagnos(?:e|en|is|ed|tiziert)|diabet\w*|allerg(?![\w-]*(?:freundlich|friendly|frei"
    r"|free|arm))\w*|\w+allergie\w*|pregnan\w*|schwanger\w*|depressi(?:on|onen|v|ve|ver|ven)"
    r"|krankheit\w*|erkrank\w*|krank(?:e|er|en)?|medikament\w*|medications?|prescriptions?"
    r"|rezept(?:e|pflichtig\w*)?(?!\s+(?:f\u00fcr|for)\b)|krankenh(?:a|\u00e4)us\w*|hospital\w*"
    r"|asthma\w*|epilep\w*|insulin|chemo\w*|migr\u00e4ne|migraine|z\u00f6liakie|coeliac"
    r"|celiac|laktoseintoleran\w*|lactose[- ]intoleran\w*|arthritis|neurodermitis"
    r"|bluthochdruck|krebserkrank\w*|tumou?re?n?|wheelchair|rollstuhl\w*|schwerbehindert\w*"
    r"|disabilit(?:y|ies)|behinderung\w*)\b",
    _I,
)


# Any street name, a house number, then a postcode and a town: "Unter den Linden 77, 10117
# Berlin", "Am Markt 3, 12345 Hinterdorf". The postcode and the town make it an address.
_UPPER = "A-Z\u00c4\u00d6\u00dc"
_CAP = r"[" + _UPPER + r"][\w\u00df.'-]*"
_STREET_PLACE = re.compile(
    r"(?<![\w-])(?:(?:Am|An|Auf|Im|In|Unter|Zum|Zur|Vor|Hinter|Bei|\u00dcber|Alte[rn]?"
    r"|Neue[rn]?|Gro\u00dfe[rn]?|Kleine[rn]?)(?:\s(?:der|den|dem|des|die|das))?\s"
    + _CAP
    + r"|"
    + _CAP
    + r"(?:\s"
    + _CAP
    + r")?)"
    r"\s\d{1,4}\s?[a-zA-Z]?(?:\s?[-/]\s?\d{1,4}[a-zA-Z]?)?,?\s+(?:(?:D|A|CH)-)?\d{4,5}"
    r"\s+["
    + _UPPER
    + r"][\w\u00df-]+(?:\s(?:am|an der|im|in der|ob der|bei)\s["
    + _UPPER
    + r"][\w\u00df-]+)?"
)
_STREET_PLACE_ANCHOR = re.compile(r"\d\s?[a-zA-Z]?,?\s+(?:(?:D|A|CH)-)?\d{4,5}\s+[" + _UPPER + "]")
# Words that start a sentence, not a street: "Bestellung 12, 10115 Berlin" is not one.
_NOT_A_STREET = re.compile(
    r"^(?:Bestellung|Bestellnummer|Auftrag|Rechnung|Artikel|Order|Invoice|Item|Article"
    r"|Paket|Sendung|Größe|Size|Menge|Nr|No|Ticket|Kunde|Kundennummer|Preis|Price)\b",
    IGNORE,
)

gate(_DE_STREET, _DE_STREET_ANCHOR)
gate(_EN_STREET, _EN_STREET_ANCHOR)
gate(_US_STATE_ZIP, re.compile(r"\d{5}"))
gate(_STREET_PLACE, _STREET_PLACE_ANCHOR)
gate(
    _HEALTH,
    (
        "diagnos",
        "diabet",
        "allerg",
        "pregnan",
        "schwanger",
        "depressi",
        "krank",
        "medikament",
        "medication",
        "prescription",
        "rezept",
        "hospital",
        "asthma",
        "epilep",
        "insulin",
        "chemo",
        "migr\u00e4ne",
        "migraine",
        "z\u00f6liakie",
        "coeliac",
        "celiac",
        "intoleran",
        "arthritis",
        "neurodermitis",
        "bluthochdruck",
        "tumo",
        "wheelchair",
        "rollstuhl",
        "behindert",
        "disabilit",
        "behinderung",
    ),
)


def find_addresses(*, text: str) -> list[Found]:
    """Street addresses, with postcode and town where they follow."""
    found: list[Found] = []
    for pattern in (_DE_STREET, _EN_STREET, _US_STATE_ZIP, _UK_POSTCODE_ALONE):
        for match in finditer(pattern, text=text):
            if pattern is _DE_STREET and _HALLMARK.search(match.group()):
                continue
            found.append((match.start(), match.end(), ADDRESS))
    # A street without a street word only where no other pattern found this address.
    for match in finditer(_STREET_PLACE, text=text):
        start, end = match.span()
        if _NOT_A_STREET.match(match.group()) or any(s < end and start < e for s, e, _ in found):
            continue
        found.append((start, end, ADDRESS))
    return merge_same_kind(found)


def find_health(*, text: str, lower: str) -> list[Found]:
    """Health details, flagged so that they stay out of the core and the profile."""
    return [(m.start(), m.end(), HEALTH) for m in finditer(_HEALTH, text=text, lower=lower)]
