"""Which item of the assistant's last list a message points at: "Nummer 2", "the last one",
"the second", "das teurere" (pure functions).

The assistant often answers with a list ("1. Leinenbluse Ida, weiß – 69,00 EUR; 2. Leinenhose
Marie, schwarz – 79,00 EUR"); the visitor's next message names an item by its place or its
price, and no word of it finds the item. `referent` returns the item's text, which the query
then weighs as the message's own words (query.knowledge_query_build).
"""

import re

_NUMBERED = re.compile(r"(?:^|\s)(\d{1,2})[.)]\s+(.+?)(?=\s\d{1,2}[.)]\s|$)", re.S)
_SENTENCE = re.compile(r"(?<=[.;!?])\s+")
_NUMBER = re.compile(r"\b(?:number|nummer|nr\.?|no\.?|#)\s*(\d{1,2})\b", re.I)
_PLACES = {
    "first": 1, "1st": 1, "former": 1, "erste": 1, "ersten": 1, "erster": 1, "erstes": 1,
    "second": 2, "2nd": 2, "zweite": 2, "zweiten": 2, "zweiter": 2, "zweites": 2,
    "third": 3, "3rd": 3, "dritte": 3, "dritten": 3, "dritter": 3, "drittes": 3,
    "last": -1, "latter": -1, "letzte": -1, "letzten": -1, "letzter": -1, "letztes": -1,
}  # fmt: skip
_DEARER = re.compile(r"\b(?:more expensive|pricier|dearer|teurere\w*|teurer)\b", re.I)
_CHEAPER = re.compile(r"\b(?:cheaper|less expensive|g[üu]nstiger\w*|billiger\w*)\b", re.I)
_PRICE = re.compile(r"(\d+(?:[.,]\d{3})*[.,]\d{2})")


def _items(answer: str) -> list[str]:
    numbered = [m.group(2).strip(" ;,") for m in _NUMBERED.finditer(answer)]
    if len(numbered) >= 2:
        return numbered
    return [s for s in _SENTENCE.split(answer.strip()) if s.strip()]


def _price(text: str) -> float | None:
    m = _PRICE.search(text)
    if not m:
        return None
    raw = m.group(1)
    decimal = raw[-3]
    whole = re.sub(r"[.,]", "", raw[:-3])
    return float(f"{whole}.{raw[-2:]}") if decimal in ".," else None


def referent(message: str, answer: str) -> str:
    """The item of `answer` (the assistant's last turn) that `message` points at, or ""."""
    if not answer:
        return ""
    items = _items(answer)
    if len(items) < 2:
        return ""
    m = _NUMBER.search(message)
    place = int(m.group(1)) if m else None
    if place is None:
        for word in re.findall(r"[^\W\d_]+|\d+(?:st|nd|rd)", message.casefold()):
            if word in _PLACES:
                place = _PLACES[word]
                break
    if place is not None:
        if place == -1:
            return items[-1]
        return items[place - 1] if 0 < place <= len(items) else ""
    priced = [(p, item) for item in items if (p := _price(item)) is not None]
    if len(priced) >= 2:
        if _DEARER.search(message):
            return max(priced)[1]
        if _CHEAPER.search(message):
            return min(priced)[1]
    return ""
