"""The condensed core: the one home of its form, how it is drawn from turns and checked,
how it is shown, and its versions.

The core is a form, not an essay (DESIGN.md): request, objects, constraints, open points,
promises, corrections, settled.
- `form`: its keys, the empty form, how any input is coerced into it, the JSON schema the
  model fills and the labels staff read; `sources`: who said each entry (provenance shape);
- `inputs`: what a condenser sees of a turn; `rules`: what never goes into a core;
  `lookups`: shop lookups as objects; `extractive`: the deterministic condenser (demo
  mode, reference, last fallback, the profile fold); `provenance`: each entry's sources,
  computed from the turns; `verify`: a proposed core checked against its sources;
- `render`: shown to the model and to staff; `versions`: a new version written.
Condensation (memory.condense), recognition profiles (memory.profiles) and handover (a
promise added when a case opens) build on it. The names below are the form's, rendering's
and versions'; import the other modules' names from their module.
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
