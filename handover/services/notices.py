"""What the visitor is told when a case changes state or the conversation goes quiet: system
turns, translated into the conversation's language when they are written."""

from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from chatwidget.platform.times import visitor_time
from chatwidget.sites.availability import Availability
from chatwidget.sites.hours import hours_describe
from chatwidget.sites.models import AwayMessage, Site

NOTICE_WAITING = gettext_noop("A member of the team will reply here.")
# in hours without an e-mail address: the reply follows the visitor by e-mail (issue 32)
NOTICE_WAITING_ASK = gettext_noop(
    "A member of the team will reply here. If you have to leave, write your e-mail address "
    "here: we will send you the answer by e-mail and use the address only for this "
    "conversation."
)
NOTICE_NOBODY_ASK = gettext_noop(
    "Nobody from our team is free right now. If you would like the answer by e-mail, leave "
    "your e-mail address here: we use it only to answer this conversation."
)
NOTICE_NOBODY_KNOWN = gettext_noop(
    "Nobody from our team is free right now. We will get back to you at the contact details "
    "you gave us."
)
NOTICE_CALLBACK_NOTED = gettext_noop(
    "Thank you. We will get back to you during our hours (%(hours)s)."
)
NOTICE_JOINED_NAMED = gettext_noop("%(name)s from the team has joined the conversation.")
NOTICE_JOINED = gettext_noop("A member of the team has joined the conversation.")
NOTICE_RELEASED = gettext_noop(
    "You are chatting with the assistant again. Ask for a person at any time."
)
NOTICE_CLOSED = gettext_noop("The team has closed this conversation. Thank you!")

# The team is away (outside the hours, a public holiday, a closed day): the owner's away
# message in the visitor's language or the standard one, when the team is back, and what
# happens next (`away_notice_text`).
NOTICE_AWAY = gettext_noop("Our team is not available right now (hours: %(hours)s).")
NOTICE_AWAY_NO_HOURS = gettext_noop("Our team is not available right now.")
NOTICE_BACK = gettext_noop("We are back on %(when)s.")
NOTICE_AWAY_KNOWN = gettext_noop("We will get back to you at the contact details you gave us.")
NOTICE_AWAY_ASK = gettext_noop(
    "Leave your e-mail address or phone number here and we will get back to you."
)

# Inactivity (handover.services.inactivity): the one follow-up question, then the close.
NOTICE_FOLLOWUP = gettext_noop("Is there anything else I can help you with?")
NOTICE_FOLLOWUP_TEAM = gettext_noop("Is there anything else we can help you with?")
NOTICE_INACTIVE_CLOSED = gettext_noop(
    "This conversation was closed because there was no reply. Thank you! You can start a new "
    "conversation at any time."
)


def away_notice_text(
    *, site: Site, availability: Availability, language: str, contact_known: bool
) -> str:
    """What a visitor who asks for a person while the team is away reads: the owner's away
    message for `language` (else the standard sentence with the hours), when the team is
    back (the next opening in the site's zone, as the visitor's language writes dates), and
    that the team will answer at the contact details given, or asks for them."""
    own = (
        AwayMessage.objects.filter(site_id=site.pk, language=language)
        .values_list("text", flat=True)
        .first()
    )
    hours = hours_describe(spec=site.staff_hours, language=language, time_zone=site.time_zone)
    with translation.override(language):
        if own:
            parts = [own.strip()]
        elif hours:
            parts = [gettext(NOTICE_AWAY) % {"hours": hours}]
        else:
            parts = [gettext(NOTICE_AWAY_NO_HOURS)]
        if availability.next_open is not None:
            when = visitor_time(availability.next_open, time_zone=site.time_zone, language=language)
            parts.append(gettext(NOTICE_BACK) % {"when": when})
        parts.append(gettext(NOTICE_AWAY_KNOWN if contact_known else NOTICE_AWAY_ASK))
    return " ".join(parts)
