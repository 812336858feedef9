"""E-mail addresses the visitor gave, kept out of new tables: a keyed hash stands for an
address (the continuation link's binding, the transcript e-mail's confirmation and caps),
and the address itself is read again from the conversation when an e-mail goes out."""

from django.utils.crypto import salted_hmac

from handover.models import Case
from handover.services.cases import contact_from_turns


def mail_address_hash(address: str) -> str:
    """A keyed hash (HMAC-SHA256 under SECRET_KEY) of an address, case and spaces ignored:
    equal for the same mailbox, useless to anyone without the key."""
    normalised = address.strip().lower()
    return salted_hmac("handover.mail_address", normalised, algorithm="sha256").hexdigest()


def mail_address_find(*, conversation_id: int, address_hash: str) -> str | None:
    """The address behind `address_hash` as the visitor wrote it in the conversation (or as
    its case holds it), or None when it is gone (erased, expired, never there)."""
    found = contact_from_turns(conversation_id=conversation_id, kinds=("email",))
    candidates = [c["value"] for c in found]
    for case in Case.objects.filter(conversation_id=conversation_id).only("contact"):
        candidates += [c.get("value", "") for c in case.contact or [] if c.get("kind") == "email"]
    for value in reversed(candidates):
        if value and mail_address_hash(value) == address_hash:
            return value
    return None
