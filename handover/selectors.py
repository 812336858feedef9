"""Reads for handover: the case page, the waiting count, the staff socket's masked turns."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Case as SqlCase
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.encoding import iri_to_uri

from chatwidget.platform.times import site_time
from handover.models import CannedReply, Case
from memory.core import core_display
from memory.models import Conversation, ConversationState, Customer, Turn, TurnRole
from memory.pages import url_is_web
from memory.redaction import mask, never_kept_scrub
from memory.selectors import transcript_copy_is_expired


def case_transcript_is_expired(*, case: Case, now: datetime | None = None) -> bool:
    """True when a case's raw copies (core, contact, transcript) may no longer be shown: the
    run-off after resolution (or release) is over, the purge has run, or the conversation has
    expired."""
    ended = (
        (case.resolved_at or case.requested_at)
        if case.status in (Case.Status.RESOLVED, Case.Status.RELEASED)
        else None
    )
    return transcript_copy_is_expired(
        site_id=case.site_id,
        conversation_id=case.conversation_id,
        ended_at=ended,
        purged_at=case.transcript_purged_at,
        now=now,
    )


def case_waiting_count(*, site_ids: frozenset[int] | None = None) -> int:
    """Cases waiting for a person, on the sites `site_ids` (None: every site; a Staff user
    limited to sites counts theirs: chatwidget.sites.access.staff_site_ids)."""
    cases = Case.objects.filter(status=Case.Status.WAITING)
    if site_ids is not None:
        cases = cases.filter(site_id__in=site_ids)
    return cases.count()


def case_waiting_by_site() -> dict[int, int]:
    """Cases waiting for a person, per site (sites without any left out)."""
    rows = (
        Case.objects.filter(status=Case.Status.WAITING)
        .order_by()
        .values("site_id")
        .annotate(n=Count("id"))
        .values_list("site_id", "n")
    )
    return dict(rows)


def case_list_queryset() -> QuerySet[Case]:
    """Waiting cases first, then cases with a person, then the rest; oldest first."""
    return Case.objects.select_related("site", "claimed_by").annotate(
        status_rank=SqlCase(
            When(status=Case.Status.WAITING, then=Value(0)),
            When(status=Case.Status.HUMAN, then=Value(1)),
            default=Value(2),
            output_field=IntegerField(),
        )
    )


def page_masked(page: dict | None) -> dict | None:
    """The page a visitor's turn came from, as staff see it: URL and title masked like the
    turn's text; `href` only for an http(s) URL with nothing masked in it (a masked URL is
    no address, and a link never runs script), else "" and the URL shows as text."""
    if not page or not page.get("url"):
        return None
    url = never_kept_scrub(mask(page["url"], page.get("url_spans") or []))
    title = never_kept_scrub(mask(page.get("title") or "", page.get("title_spans") or []))
    linkable = url == page["url"] and not page.get("url_spans") and url_is_web(url)
    return {"url": url, "title": title, "href": iri_to_uri(url) if linkable else ""}


def turn_masked(turn: Turn) -> dict:
    """A turn as staff see it: e-mail, phone, IBAN, address and health details masked."""
    return {
        "page": page_masked(turn.page),
        "seq": turn.seq,
        "role": turn.role,
        # masked, and what today's never-kept rules find is not shown (the second gate)
        "text": never_kept_scrub(mask(turn.text, turn.spans or [])),
        "at": turn.created_at.isoformat(),
        "author": turn.author.get_short_name() or turn.author.get_username()
        if turn.author_id and turn.author
        else "",
        # a visitor's photos and files (issue 33): served by the case's attachment view
        "attachments": [{**a, "index": i} for i, a in enumerate(turn.attachments or [])],
    }


def turn_masked_by_seq(*, conversation_id: int, seq: int) -> dict | None:
    turn = (
        Turn.objects.select_related("author")
        .filter(conversation_id=conversation_id, seq=seq)
        .first()
    )
    return turn_masked(turn) if turn else None


def contact_masked(item: dict) -> str:
    value = item.get("value", "")
    return mask(value, [[item.get("kind", ""), 0, len(value)]])


@dataclass
class CasePage:
    case: Case
    state: str | None
    core: dict  # section -> list of display strings ("request": one string)
    core_empty: bool
    contacts: list[dict]  # {"index", "kind", "masked"}
    turns: list[dict]  # masked
    transcript_gone: bool
    last_seq: int
    # the signed-in customer (memory.Customer): {"id", "name", "masked"} with the e-mail
    # masked like any contact detail; and the customer's other cases, newest first
    customer: dict | None = None
    earlier_cases: list[dict] = field(default_factory=list)


def case_page(*, case_id: int) -> CasePage:
    """Everything the case page shows, masked. Two queries for the transcript, whatever its
    length (case, turns with authors)."""
    case = Case.objects.select_related(
        "site", "claimed_by", "conversation", "conversation__customer"
    ).get(pk=case_id)
    core = core_display(case.core or {})
    gone = case_transcript_is_expired(case=case)
    conv = None if gone else case.conversation
    if gone:  # the run-off is over: only reason and note remain, even before the purge
        core = core_display({})
    turns: list[dict] = []
    if conv is not None:
        turns = [
            turn_masked(t)
            for t in Turn.objects.filter(conversation=conv).select_related("author").order_by("seq")
        ]
    customer = conv.customer if conv is not None and conv.customer_id else None
    return CasePage(
        customer=_customer_masked(customer),
        earlier_cases=_customer_cases(customer, exclude=case.pk),
        case=case,
        state=conv.state if conv else (case.conversation.state if case.conversation else None),
        core=core,
        core_empty=not any(core.values()),
        contacts=[
            {
                "index": i,
                "kind": c.get("kind", ""),
                "masked": contact_masked(c),
                "seq": c.get("seq"),
            }
            for i, c in enumerate([] if gone else case.contact or [])
        ],
        turns=turns,
        transcript_gone=conv is None,
        last_seq=turns[-1]["seq"] if turns else 0,
    )


EARLIER_CASES = 20


def _customer_masked(customer: Customer | None) -> dict | None:
    if customer is None:
        return None
    email = {"kind": "email", "value": customer.email}
    return {
        "id": customer.external_id,
        "name": customer.name,
        "masked": contact_masked(email) if customer.email else "",
    }


def _customer_cases(customer: Customer | None, *, exclude: int) -> list[dict]:
    """The customer's other cases (their conversations' cases; a case whose transcript was
    purged lost the link, as it lost the transcript), newest first."""
    if customer is None:
        return []
    cases = (
        Case.objects.filter(conversation__customer=customer)
        .exclude(pk=exclude)
        .select_related("site")
        .order_by("-requested_at")[:EARLIER_CASES]
    )
    return [
        {
            "id": c.pk,
            "status": c.get_status_display(),
            "requested": site_time(c.requested_at, time_zone=c.site.time_zone),
            "reason": c.reason,
        }
        for c in cases
    ]


def staff_assignable() -> list:
    """Active staff users who may take cases (the Staff or Owner role, or superusers)."""
    user_model = get_user_model()
    perm = Permission.objects.filter(content_type__app_label="handover", codename="change_case")
    return list(
        user_model.objects.filter(is_active=True, is_staff=True)
        .filter(
            Q(is_superuser=True) | Q(groups__permissions__in=perm) | Q(user_permissions__in=perm)
        )
        .distinct()
        .order_by("username")
    )


@dataclass(frozen=True)
class LiveConversation:
    id: int
    site: str
    started: datetime
    last_activity: datetime
    turns: int


def takeover_candidates(
    *, within_minutes: int = 30, limit: int = 100, site_ids: frozenset[int] | None = None
) -> list[LiveConversation]:
    """Conversations with the bot that were active lately: candidates for a take-over.
    `site_ids`: only these sites' (a Staff user limited to sites; None: every site)."""
    since = timezone.now() - timedelta(minutes=within_minutes)
    rows = Conversation.objects.filter(state=ConversationState.BOT, last_activity_at__gte=since)
    if site_ids is not None:
        rows = rows.filter(site_id__in=site_ids)
    rows = (
        rows.select_related("site").annotate(n=Count("turns")).order_by("-last_activity_at")[:limit]
    )
    return [
        LiveConversation(
            id=c.pk,
            site=c.site.name,
            started=c.created_at,
            last_activity=c.last_activity_at,
            turns=c.n,
        )
        for c in rows
    ]


# --- the live inbox (issue 18) ---------------------------------------------------------------

INBOX_LIMIT = 200


def _inbox_queryset() -> QuerySet[Case]:
    """Open cases with their unread count: visitor turns after the last answer (the
    assistant's or staff's), so a visitor waiting since the handover counts in full and a
    staff reply sets it back to 0. Two subqueries, one query for the whole inbox."""
    answered = (
        Turn.objects.filter(
            conversation_id=OuterRef("conversation_id"),
            role__in=(TurnRole.ASSISTANT, TurnRole.STAFF),
        )
        .order_by("-seq")
        .values("seq")[:1]
    )
    unread = (
        Turn.objects.filter(
            conversation_id=OuterRef("conversation_id"),
            role=TurnRole.VISITOR,
            seq__gt=OuterRef("last_answer"),
        )
        .order_by()
        .values("conversation_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return (
        Case.objects.filter(status__in=(Case.Status.WAITING, Case.Status.HUMAN))
        .select_related("site", "claimed_by")
        .annotate(last_answer=Coalesce(Subquery(answered), 0))
        .annotate(unread=Coalesce(Subquery(unread), 0))
        .order_by("requested_at", "pk")
    )


def _inbox_row(case: Case) -> dict:
    request = (case.core or {}).get("request") or ""
    user = case.claimed_by
    return {
        "id": case.pk,
        "site": case.site_id,
        "site_name": case.site.name,
        "status": case.status,
        "status_label": str(case.get_status_display()),
        "requested_at": case.requested_at.isoformat(),
        # in the site's zone and the one format, as the case page shows it
        "requested_label": site_time(case.requested_at, time_zone=case.site.time_zone),
        "assignee": (user.get_full_name() or user.get_username()) if user else "",
        "assignee_id": case.claimed_by_id,
        "unread": int(case.unread),
        "request": str(request)[:240],
        "callback": case.callback_requested,
    }


INBOX_SHOW = ("all", "mine", "unassigned")


def inbox_rows(
    *, site_ids: frozenset[int] | None, show: str = "all", user_id: int | None = None
) -> list[dict]:
    """Waiting and active cases of the sites a staff user may see (None: every site); `show`
    "mine": those assigned to `user_id`, "unassigned": those assigned to nobody."""
    cases = _inbox_queryset()
    if site_ids is not None:
        cases = cases.filter(site_id__in=site_ids)
    if show == "mine":
        cases = cases.filter(claimed_by_id=user_id)
    elif show == "unassigned":
        cases = cases.filter(claimed_by__isnull=True)
    return [_inbox_row(c) for c in cases[:INBOX_LIMIT]]


def inbox_row(*, case_id: int) -> dict | None:
    """One case's inbox row, or None when it is no longer open (it leaves the inbox)."""
    case = _inbox_queryset().filter(pk=case_id).first()
    return _inbox_row(case) if case else None


def canned_replies_for_site(*, site_id: int) -> list[dict]:
    """The canned replies offered on a case of this site (its own and the shared ones)."""
    rows = CannedReply.objects.filter(Q(site_id=site_id) | Q(site__isnull=True))
    return [{"title": r.title, "shortcut": r.shortcut, "text": r.text} for r in rows]
