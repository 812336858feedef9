"""The condensed core: the one home of its form, labels, rendering and versions.

The core is a form, not an essay (DESIGN.md): request, objects, constraints, open points,
promises, corrections, settled. `form` knows its keys, the empty form, how any input is
coerced into it, the JSON schema the model fills and the labels staff read; `render` shows it
to the model and to staff; `versions` writes a new version. Condensation (memory.condense)
and handover (a promise added when a case opens) both write through here.
"""

from memory.core.form import (
    CORE_KEYS,
    CORE_LABELS,
    CORE_LIMITS,
    CORE_SCHEMA,
    MAX_TEXT,
    TEXT_SECTIONS,
    core_coerce,
    core_empty,
    core_strings,
    text_clean,
)
from memory.core.render import (
    CoreSection,
    core_display,
    core_render,
    core_render_within,
    core_sections,
)
from memory.core.versions import core_latest, core_promise_add, core_version_write

__all__ = [
    "CORE_KEYS",
    "CORE_LABELS",
    "CORE_LIMITS",
    "CORE_SCHEMA",
    "MAX_TEXT",
    "TEXT_SECTIONS",
    "CoreSection",
    "core_coerce",
    "core_display",
    "core_empty",
    "core_latest",
    "core_promise_add",
    "core_render",
    "core_render_within",
    "core_sections",
    "core_strings",
    "core_version_write",
    "text_clean",
]
