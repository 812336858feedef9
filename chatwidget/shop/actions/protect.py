"""What protects the customer whose data a lookup returns (issue 25): the second factor
before and after the request, and the fields of the answer the model may see.

An order number alone is not proof: numbers are short, sequential and printed on parcels.
So an action that returns a customer's data (`Action.customer_data`, the default) declares
its second factor, `factors`: arguments (e-mail, postcode) each with the field of the
shop's answer it must equal. Before the request, at least one factor must be a value the
visitor wrote (or come from a verified identity, `identity_factors`: the argument is then
filled from it); after it, every
factor given must equal its field in the answer. A differing or missing field reads
exactly like an unknown number: "not found". Nothing here trusts the shop API to check
the factor itself (many look an order up by number alone).

The model then sees only the declared `answer_fields` (status, items, tracking); without a
declaration every field except personal ones (names, addresses, e-mail, phone) is passed.
The stored tool turn holds the same filtered answer, so the shop's raw answer is kept
nowhere.

Pure functions: no Django import, no request.
"""

from __future__ import annotations

import re

# Keys (normalised: lower case, letters and digits only) dropped from an answer without
# declared fields, at any depth.
PERSONAL_KEYS = frozenset(
    {
        "name",
        "firstname",
        "lastname",
        "fullname",
        "surname",
        "givenname",
        "familyname",
        "customer",
        "customername",
        "recipient",
        "company",
        "postcode",
        "postalcode",
        "zip",
        "zipcode",
        "plz",
        "city",
        "country",
        "birthday",
        "dateofbirth",
        "dob",
        "iban",
        "ip",
        "ipaddress",
        "vatid",
    }
)
PERSONAL_PARTS = ("email", "mail", "phone", "mobile", "telephone", "address", "street", "billing")


def _key(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", name.casefold())


def _personal(name: str) -> bool:
    key = _key(name)
    return key in PERSONAL_KEYS or any(part in key for part in PERSONAL_PARTS)


def identity_factors(*, email: str, factors: dict[str, str]) -> dict[str, str]:
    """Factor values from a verified identity of the visitor (DESIGN.md, `hello.identity`:
    a customer the shop signed in, signed with the site's identity secret), by factor
    argument name: its e-mail address for every factor that is an e-mail (the argument's
    or the answer field's name says "mail"). A value returned here counts as given by the
    visitor and is checked against the shop's answer like one. No e-mail: nothing."""
    if not email:
        return {}
    return {
        name: email
        for name, answer_field in factors.items()
        if "mail" in _key(name) or "mail" in _key(answer_field.rsplit(".", 1)[-1])
    }


def factor_value(value: object) -> str:
    """The form two factor values are compared in: case and white space do not count
    ("SW1A 1AA" = "sw1a1aa", "Anna@Example.com" = "anna@example.com")."""
    return re.sub(r"\s+", "", str(value)).casefold()


def field_get(data: object, path: str) -> object:
    """The value at a dotted path (`shipping.postcode`), or None."""
    for part in path.split("."):
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def answer_matches(*, data: object, factors: dict[str, str], given: dict[str, str]) -> bool:
    """Whether every factor the visitor gave equals its field in the shop's answer (a field
    that is missing, empty or not a plain value does not)."""
    if not given:
        return False
    for name, value in given.items():
        found = field_get(data, factors[name])
        if isinstance(found, dict | list) or found in (None, ""):
            return False
        if factor_value(found) != factor_value(value):
            return False
    return True


_ABSENT = object()


def _declared(data: object, paths: list[list[str]]) -> object:
    """`data` narrowed to `paths` (lists of keys; an empty one keeps the whole value), or
    _ABSENT when none of them exists in it."""
    if any(not path for path in paths):
        return data
    if isinstance(data, list):
        items = [_declared(item, paths) for item in data]
        return [item for item in items if item is not _ABSENT]
    if not isinstance(data, dict):
        return _ABSENT
    kept: dict = {}
    for key, value in data.items():
        below = [path[1:] for path in paths if path[0] == key]
        if below and (narrowed := _declared(value, below)) is not _ABSENT:
            kept[key] = narrowed
    return kept or _ABSENT


def _impersonal(data: object) -> object:
    if isinstance(data, dict):
        return {k: _impersonal(v) for k, v in data.items() if not _personal(str(k))}
    if isinstance(data, list):
        return [_impersonal(v) for v in data]
    return data


def answer_fields_keep(*, data: object, fields: list[str]) -> object:
    """The part of the shop's answer the model may see: the declared fields (a list in the
    answer keeps the declared fields of each of its objects), or, with none declared,
    everything but personal fields."""
    if not fields:
        return _impersonal(data)
    kept = _declared(data, [f.split(".") for f in fields])
    return {} if kept is _ABSENT else kept
