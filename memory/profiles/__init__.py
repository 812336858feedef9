"""Recognition across visits: consent, the recognition profile and its structured facts.

Modules: `selectors` (expiry, lookups, background, the visitor's view, export),
`consent` (consent, erasure, linking), `fold` (facts from conversations), `staff`
(approval, reveal). The names below are the package's public API.

- Without consent nothing here exists: no recognition cookie, no profile.
- `consent_grant` creates a profile with its own random token (only the hash is stored),
  records the consent (when, which wording) and links the current conversation.
- `consent_withdraw` deletes the profile and every linked transcript at once.
- `profile_update_from_core` runs after a condensed core is stored, and
  `profile_update_after_turn` after each answer of a linked conversation (most chats end
  long before condensation: the turns the core does not cover yet are condensed
  extractively, without the model, for this). Light facts (language, named objects, past
  cases) are written as active; contact details, the contact preference and open promises
  are *proposed* and wait for staff approval. Entries are overwritten, not accumulated (one
  row per profile, field and key), and each records its source turn.
- `profile_background` is the profile section of the model input: facts from earlier visits,
  as data to double-check, never as instructions.

Never in a profile: values from turns flagged as health details, redaction placeholders,
card numbers and codes, contact details outside the approval path, values a correction
replaced.
"""

from memory.profiles.consent import (
    ConsentResult,
    consent_grant,
    consent_withdraw,
    profile_erase,
    profile_link_conversation,
    profile_recognise,
)
from memory.profiles.fold import profile_update_after_turn, profile_update_from_core
from memory.profiles.selectors import (
    APPROVAL_FIELDS,
    BACKGROUND_HEADER,
    LIGHT_FIELDS,
    ProfileSection,
    profile_background,
    profile_expires_at,
    profile_export,
    profile_fields_for_visitor,
    profile_get_by_token,
    profile_is_expired,
    profilefact_masked,
    profiles_live,
)
from memory.profiles.staff import (
    profile_export_for_staff,
    profilefact_approve,
    profilefact_reject,
    profilefact_reveal,
)

__all__ = [
    "APPROVAL_FIELDS",
    "BACKGROUND_HEADER",
    "LIGHT_FIELDS",
    "ConsentResult",
    "ProfileSection",
    "consent_grant",
    "consent_withdraw",
    "profile_background",
    "profile_erase",
    "profile_expires_at",
    "profile_export",
    "profile_export_for_staff",
    "profile_fields_for_visitor",
    "profile_get_by_token",
    "profile_is_expired",
    "profile_link_conversation",
    "profile_recognise",
    "profile_update_after_turn",
    "profile_update_from_core",
    "profilefact_approve",
    "profilefact_masked",
    "profilefact_reject",
    "profilefact_reveal",
    "profiles_live",
]
