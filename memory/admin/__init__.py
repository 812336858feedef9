"""Admin of the memory app, one module per subject; importing them registers the admins.

Thin: forms parse and authorise, one service call does the work (memory.services,
memory.erasure, memory.retention, memory.profiles). HTML lives in
templates/admin/memory/.

- `conversations`: ConversationAdmin (list, detail, transcript). It keeps
  `ConversationRightsMixin` FIRST in its bases: the mixin adds the data-subject actions
  (export, erase) and hides expired conversations before the purge has run.
- `rights`: ConversationRightsMixin and its forms.
- `retention`: RetentionPolicyAdmin, AuditEventAdmin.
- `profiles`: ProfileAdmin, ProfileFactInline.
- `customers`: CustomerAdmin (signed-in customers: export and erase, owners only).
"""

from memory.admin import (  # noqa: F401 - registers the admins
    conversations,
    customers,
    profiles,
    retention,
)
