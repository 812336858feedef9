"""What a case holds: the visitor's contact details, the cleaned reason, the core stored with
it, and the visitor's notices. Helpers of the transitions (handover.services.transitions)."""

import logging

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext

from chatwidget.platform.events import STAFF_ALL_GROUP, publish_on_commit
from chatwidget.platform.frames import cases_changed_event, inbox_changed_event
from chatwidget.platform.languages import staff_language
from chatwidget.sites.hours import hours_describe
from chatwidget.sites.models import Site
from handover.models import Case
from handover.selectors import case_waiting_by_site
from memory.condense.service import core_refresh_inline
from memory.core import core_latest, core_promise_add
from memory.models import Conversation, Core, Turn, TurnRole
from memory.redaction import mask, redact
from memory.services import turn_append

log = logging.getLogger(__name__)

OPEN_STATUSES = (Case.Status.WAITING, Case.Status.HUMAN)
CONTACT_KINDS = ("email", "phone", "address")
MAX_CONTACTS = 10


def notice_send(conv: Conversation, message: str, **params: str) -> None:
    """A system turn for the visitor, in the conversation's language (published on commit)."""
    with translation.override(conv.language):
        text = gettext(message) % params if params else gettext(message)
    turn_append(conversation_id=conv.pk, role=TurnRole.SYSTEM, text=text)


def notice_text_send(conv: Conversation, text: str) -> None:
    """A system turn for the visitor whose text is composed already (in their language)."""
    turn_append(conversation_id=conv.pk, role=TurnRole.SYSTEM, text=text)


def waiting_count_publish() -> None:
    """The live badge in admin: how many cases wait per site, sent to every staff socket,
    which counts the sites its user may see."""
    publish_on_commit(STAFF_ALL_GROUP, cases_changed_event(waiting_by_site=case_waiting_by_site()))


def inbox_publish(*, case_id: int, site_id: int) -> None:
    """Tell every staff socket that a case changed (new, visitor message, claim, release,
    resolve, reply). Only ids travel: each socket re-reads the row for its user and drops
    cases of sites the user may not see."""
    publish_on_commit(STAFF_ALL_GROUP, inbox_changed_event(case_id=case_id, site_id=site_id))


def contact_from_turns(
    *, conversation_id: int, after_seq: int = 0, kinds: tuple[str, ...] = CONTACT_KINDS
) -> list[dict]:
    """Contact details the visitor gave: values cut from the visitor's turns by their spans
    (e-mail, phone, postal address). Newest last, without repeats."""
    found: list[dict] = []
    seen: set[tuple[str, str]] = set()
    turns = (
        Turn.objects.filter(
            conversation_id=conversation_id, role=TurnRole.VISITOR, seq__gt=after_seq
        )
        .order_by("seq")
        .only("seq", "text", "spans")
    )
    for turn in turns:
        for kind, start, end in turn.spans or []:
            if kind not in kinds:
                continue
            value = turn.text[int(start) : int(end)].strip()
            key = (kind, value.lower())
            if value and key not in seen:
                seen.add(key)
                found.append({"kind": kind, "value": value, "seq": turn.seq})
    return found[-MAX_CONTACTS:]


def contact_merge(existing: list[dict], new: list[dict]) -> list[dict]:
    seen = {(c["kind"], c["value"].lower()) for c in existing}
    merged = list(existing)
    for item in new:
        if (item["kind"], item["value"].lower()) not in seen:
            seen.add((item["kind"], item["value"].lower()))
            merged.append(item)
    return merged[-MAX_CONTACTS:]


def reason_clean(reason: str) -> str:
    """The reason comes from the widget or the model: never-kept values are removed and
    contact details masked, like everything else staff see."""
    result = redact((reason or "")[:500])
    return mask(result.text, result.spans_json())[:500]


def text_masked(text: str) -> str:
    """Text for receivers outside the admin (a webhook's `note`): never-kept values removed
    and contact details (an IBAN, an address) masked, as staff views show them."""
    result = redact(text or "")
    return mask(result.text, result.spans_json())


def _fresh_core(conversation_id: int) -> Core | None:
    """A core that covers the conversation now: condensed inline where needed (memory's
    job), else the latest one stored. Never fails the handover."""
    try:
        core = core_refresh_inline(conversation_id=conversation_id)
    except Exception as exc:  # noqa: BLE001 - a failed refresh never fails the handover: the stored core is used
        log.warning(
            "inline core refresh failed",
            extra={"conversation": conversation_id, "error": type(exc).__name__},
        )
    else:
        if core is not None:
            return core
    return core_latest(conversation_id=conversation_id)


def callback_promise(site: Site) -> str:
    # Internal (the core is read by staff and the model), so in the site's language when
    # staff read it (English or German), else in English.
    language = staff_language(site.default_language)
    hours = hours_describe(spec=site.staff_hours, language=language, time_zone=site.time_zone)
    with translation.override(language):
        return gettext(
            "Call back during staff hours (%(hours)s) using the contact details the visitor left."
        ) % {"hours": hours}


def case_core_store(*, case: Case, site: Site, add_promise: bool) -> None:
    """The case keeps the core as it was at handover (staff read it on the case page)."""
    core = _fresh_core(case.conversation_id)
    if add_promise:
        core = core_promise_add(conversation_id=case.conversation_id, text=callback_promise(site))
    if core is not None:
        Case.objects.filter(pk=case.pk).update(core=core.data, core_version=core.version)
        case.core, case.core_version = core.data, core.version


def case_note_update(*, case_id: int, user, note: str) -> Case:
    with transaction.atomic():
        case = Case.objects.select_for_update().get(pk=case_id)
        case.note = (note or "").strip()
        case.save(update_fields=["note"])
    log.info("case note updated", extra={"case": case_id, "user": user.pk})
    return case
