"""What the visitor is told when a case changes state: system turns, translated into the
conversation's language when they are written."""

from django.utils.translation import gettext_noop

NOTICE_WAITING = gettext_noop("A member of the team will reply here.")
# in hours without an e-mail address: the reply follows the visitor by e-mail (issue 32)
NOTICE_WAITING_ASK = gettext_noop(
    "A member of the team will reply here. If you have to leave, write your e-mail address "
    "here: we will send you the answer by e-mail and use the address only for this "
    "conversation."
)
NOTICE_OUTSIDE_HOURS_KNOWN = gettext_noop(
    "Our team is not available right now (hours: %(hours)s). We will get back to you at the "
    "contact details you gave us."
)
NOTICE_OUTSIDE_HOURS_ASK = gettext_noop(
    "Our team is not available right now (hours: %(hours)s). Leave your e-mail address or "
    "phone number here and we will get back to you."
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
