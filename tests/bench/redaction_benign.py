"""Benign shop messages for the redaction evaluation: nothing in them may be removed.

Order and article numbers, EANs, prices, dates, postcodes, phone numbers, tracking numbers
(DHL, UPS, Hermes, DPD, GLS), discount codes, sizes and quantities, and the words "code",
"PIN", "TAN", "password" used without a secret. Like tests/bench/redaction_data.py, written
without looking at memory/redaction's patterns.
"""

from __future__ import annotations

import random

from stdnum import ean

from tests.bench.redaction_data import Case


def _digits(rng: random.Random, n: int, *, first: str = "123456789") -> str:
    return rng.choice(first) + "".join(rng.choice("0123456789") for _ in range(n - 1))


def _ean13(rng: random.Random) -> str:
    body = rng.choice(["400", "401", "402", "404", "405", "406", "426", "590", "761"]) + _digits(
        rng, 9, first="0123456789"
    )
    return body + ean.calc_check_digit(body)


def _value(rng: random.Random, slot: str) -> str:
    if slot == "order":
        return rng.choice(
            [
                _digits(rng, rng.randint(5, 10)),
                f"{_digits(rng, 2)}-{_digits(rng, 4)}",
                f"AB-{_digits(rng, 4)}-X",
                f"{_digits(rng, 3, first='0123')}-{_digits(rng, 7)}-{_digits(rng, 7)}",
                f"#{_digits(rng, 6)}",
                f"2024-{_digits(rng, 6)}",
                f"DE{_digits(rng, 9)}",
            ]
        )
    if slot == "article":
        return rng.choice(
            [
                _digits(rng, rng.randint(5, 9)),
                f"KU-{_digits(rng, 4)}-M",
                f"{_digits(rng, 3)}.{_digits(rng, 3)}.{_digits(rng, 2)}",
                _ean13(rng),
            ]
        )
    if slot == "price":
        euros = rng.randint(1, 2500)
        return rng.choice(
            [
                f"{euros},{rng.randint(0, 99):02d} €",
                f"{euros:,}.99 EUR".replace(",", "."),
                f"${euros}.{rng.randint(0, 99):02d}",
                f"{euros} Euro",
            ]
        )
    if slot == "date":
        d, m, y = rng.randint(1, 28), rng.randint(1, 12), rng.randint(2023, 2026)
        return rng.choice(
            [
                f"{d:02d}.{m:02d}.{y}",
                f"{y}-{m:02d}-{d:02d}",
                f"{d}.{m}.",
                f"{m}/{d}/{y}",
                f"{d:02d}/{m:02d}/{y}",
            ]
        )
    if slot == "postcode":
        return rng.choice([_digits(rng, 5, first="0123456789"), f"{_digits(rng, 4)}"])
    if slot == "phone":
        return rng.choice(
            [
                f"030 {_digits(rng, 7)}",
                f"+49 151 {_digits(rng, 8)}",
                f"0176-{_digits(rng, 8)}",
                f"089 / {_digits(rng, 3)} {_digits(rng, 3)}",
                f"+44 20 7946 {_digits(rng, 4)}",
                f"(212) 555-{_digits(rng, 4)}",
            ]
        )
    if slot == "tracking":
        return rng.choice(
            [
                "00340434" + _digits(rng, 12, first="0123456789"),  # DHL parcel, 20 digits
                "JJD" + _digits(rng, 18, first="0"),
                "1Z" + "".join(rng.choice("0123456789ABCDEF") for _ in range(16)),  # UPS
                "H" + _digits(rng, 19),  # Hermes
                _digits(rng, 14, first="0"),  # DPD
                _digits(rng, 11),  # GLS
                " ".join(_digits(rng, 4, first="0") for _ in range(3)),
            ]
        )
    if slot == "discount":
        return rng.choice(
            [
                "SOMMER24",
                "WELCOME10",
                f"SALE{_digits(rng, 2)}",
                "BLACKFRIDAY",
                f"NEU-{_digits(rng, 4)}",
                "XMAS2025",
                f"{_digits(rng, 4)}OFF",
            ]
        )
    raise ValueError(slot)


TEMPLATES = {
    "en": [
        ("Where is my order {order}?", ("order",)),
        ("Order {order} arrived damaged", ("order",)),
        ("I want to return article {article}, size M", ("article",)),
        ("Is {article} available in blue?", ("article",)),
        ("The jacket costs {price}, right?", ("price",)),
        ("I paid {price} on {date} for order {order}", ("price", "date", "order")),
        ("Delivery was promised for {date}", ("date",)),
        ("Do you ship to postcode {postcode}?", ("postcode",)),
        ("Call me back on {phone} please", ("phone",)),
        ("Tracking number {tracking} shows no movement", ("tracking",)),
        ("My parcel {tracking} is stuck since {date}", ("tracking", "date")),
        ("The discount code {discount} does not work", ("discount",)),
        ("Can I use code {discount} on sale items?", ("discount",)),
        ("I forgot my password, how do I reset it?", ()),
        ("Where do I enter the PIN for my gift card?", ()),
        ("I need 2 pairs in size 42, order {order}", ("order",)),
        ("Invoice {order} from {date}, total {price}", ("order", "date", "price")),
        ("Your error code 4031 appeared at checkout", ()),
        ("I never got the verification e-mail for order {order}", ("order",)),
        ("The zip code is {postcode}, is shipping free?", ("postcode",)),
    ],
    "de": [
        ("Wo bleibt meine Bestellung {order}?", ("order",)),
        ("Bestellung {order} kam beschädigt an", ("order",)),
        ("Ich möchte Artikel {article} zurückschicken", ("article",)),
        ("Gibt es {article} auch in Größe 38?", ("article",)),
        ("Kostet die Jacke wirklich {price}?", ("price",)),
        ("Ich habe am {date} {price} bezahlt, Bestellnummer {order}", ("date", "price", "order")),
        ("Die Lieferung war für den {date} angekündigt", ("date",)),
        ("Liefern Sie auch nach {postcode} Leipzig?", ("postcode",)),
        ("Rufen Sie mich bitte unter {phone} zurück", ("phone",)),
        ("Sendungsnummer {tracking} bewegt sich nicht", ("tracking",)),
        ("Paket {tracking} hängt seit dem {date} fest", ("tracking", "date")),
        ("Der Gutscheincode {discount} funktioniert nicht", ("discount",)),
        ("Gilt der Rabattcode {discount} auch für Sale-Artikel?", ("discount",)),
        ("Ich habe mein Passwort vergessen", ()),
        ("Wo gebe ich die TAN ein?", ()),
        ("Ich brauche 3 Stück in Größe 40, Auftrag {order}", ("order",)),
        ("Rechnung {order} vom {date} über {price}", ("order", "date", "price")),
        ("Beim Bezahlen kam Fehlercode 4031", ()),
        ("Meine PLZ ist {postcode}, kostet der Versand extra?", ("postcode",)),
        ("Die Rücksendung für {order} ist unterwegs, Sendung {tracking}", ("order", "tracking")),
    ],
}


def benign(rng: random.Random, *, scale: float = 1.0) -> list[Case]:
    out: list[Case] = []
    n = max(1, int(220 * scale))
    for language in ("en", "de"):
        for _ in range(n):
            template, slots = rng.choice(TEMPLATES[language])
            values = {slot: _value(rng, slot) for slot in slots}
            out.append(Case("benign", language, template.format(**values)))
    return out
