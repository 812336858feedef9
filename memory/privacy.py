"""Every place the product stores something, with its lifetime and purpose.

The privacy page, the README's cookie table (`manage.py privacy_table`) and the widget's
cookie attributes are all generated from here, from the same settings the code enforces.
"""

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from memory.models import RetentionPolicy
from memory.selectors import profile_period, retention_for_site

#: The version of the consent wording the widget shows; a consent record stores it. The
#: widget configuration (chatwidget.widget.config) sends the same constant.
CONSENT_WORDING_VERSION = "v1"


def cookie_lifetimes(*, site_id: int | None) -> dict[str, int]:
    policy = retention_for_site(site_id=site_id) if site_id else None
    session_hours = policy.session_hours if policy else 24
    months = policy.profile_months if policy else 12
    return {
        "session_seconds": session_hours * 3600,
        "recognition_months": months,
        "recognition_seconds": int(profile_period(months=months).total_seconds()),
    }


def storage_places(*, site=None) -> list[dict]:
    """What the chat keeps where, for how long and why: the privacy page's table, in the
    browser first, then on the server."""
    policy = retention_for_site(site_id=site.pk) if site else RetentionPolicy()
    life = cookie_lifetimes(site_id=site.pk if site else None)
    return _in_the_browser(policy, life) + _on_the_server(policy, life)


def _in_the_browser(policy: RetentionPolicy, life: dict) -> list[dict]:
    return [
        {
            "name": settings.SESSION_COOKIE_NAME_WIDGET,
            "kind": _("Cookie on the shop's domain (first-party)"),
            "content": _("A random session token (256 bits); says nothing about you."),
            "lifetime": _("%(h)s hours after your last message") % {"h": policy.session_hours},
            "purpose": _(
                "Holds your conversation together across page changes. Created "
                "when you first write, not on page load. Strictly necessary."
            ),
            "seconds": life["session_seconds"],
        },
        {
            "name": settings.RECOGNITION_COOKIE_NAME,
            "kind": _("Cookie on the shop's domain (first-party), only with your consent"),
            "content": _("A second random token; only its hash is stored on the server."),
            "lifetime": _("%(m)s months after your last visit, or until you withdraw")
            % {"m": policy.profile_months},
            "purpose": _(
                "Recognises you on a later visit so you need not explain your case again."
            ),
            "seconds": life["recognition_seconds"],
        },
        {
            "name": "cw_open",
            "kind": _("Session storage in your browser tab"),
            "content": _("Whether the chat panel was open (1), nothing else."),
            "lifetime": _("Until the tab is closed"),
            "purpose": _("Reopens the panel after a page change."),
            "seconds": None,
        },
    ]


def _on_the_server(policy: RetentionPolicy, life: dict) -> list[dict]:
    # transcript e-mail requests; continuation links are purged a day after they expire
    mail_days = max(
        int(getattr(settings, "TRANSCRIPT_REQUEST_KEEP_DAYS", 7)),
        int(getattr(settings, "CONTINUATION_LINK_MAX_AGE", 7 * 86400)) // 86400 + 1,
    )
    return [
        {
            "name": _("Session transcript"),
            "kind": _("Server"),
            "content": _(
                "Your messages and the answers; card numbers, passwords and codes "
                "are removed before storage."
            ),
            "lifetime": _("%(h)s hours after the last message") % {"h": policy.session_hours},
            "purpose": _("Continuing the conversation."),
            "seconds": policy.session_hours * 3600,
        },
        {
            "name": _("Case transcript and case note"),
            "kind": _("Server"),
            "content": _("When a person takes over: the transcript and a short case note."),
            "lifetime": _("Transcript: %(d)s days after the case is resolved; the case note stays.")
            % {"d": policy.case_days},
            "purpose": _("Handling your request and follow-up questions."),
            "seconds": policy.case_days * 86400,
        },
        {
            "name": _("Recognition profile"),
            "kind": _("Server, only with your consent"),
            "content": _(
                "Preferred language, contact preference, order and customer "
                "numbers you gave, past cases, open promises."
            ),
            "lifetime": _("%(m)s months after your last visit") % {"m": policy.profile_months},
            "purpose": _("Recognising you on a later visit."),
            "seconds": life["recognition_seconds"],
        },
        {
            "name": _("Signed-in customer"),
            "kind": _("Server, only when the shop signs you in to the chat"),
            "content": _(
                "The customer number, e-mail address and name the shop confirmed, and which "
                "conversations are yours."
            ),
            "lifetime": _("As long as one of your conversations is kept"),
            "purpose": _(
                "The team sees whose request it is; order lookups need no e-mail typed; "
                "your conversation is shown only to you."
            ),
            "seconds": None,
        },
        {
            "name": _("E-mail links"),
            "kind": _("Server, only when you ask for an e-mail"),
            "content": _(
                "A keyed hash of the e-mail address a link was sent to (not the address), "
                "and whether the link was used."
            ),
            "lifetime": _("%(d)s days") % {"d": mail_days},
            "purpose": _(
                "Links that continue a conversation or send you its copy work once, only "
                "for that address; nobody can flood an address with e-mails from this chat."
            ),
            "seconds": mail_days * 86400,
        },
        {
            "name": _("Audit log"),
            "kind": _("Server"),
            "content": _("Who revealed, exported or erased what, and why. No message text."),
            "lifetime": _("%(d)s days") % {"d": policy.audit_days},
            "purpose": _("Accountability for staff access."),
            "seconds": policy.audit_days * 86400,
        },
    ]
