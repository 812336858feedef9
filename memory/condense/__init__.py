"""Condensation of the turns that left the verbatim window into the condensed core.

- `inputs`: what a condenser sees of a turn, and the model call of one step;
- `rules`: what never goes into a core;
- `verify`: a proposed core checked against its sources;
- `extractive`: the deterministic condenser (demo mode, reference, last fallback);
- `model`: the model call from sync code;
- `service`: condensing a conversation (lock, chunks, storing versions);
- `scheduling`: when condensation runs (after a turn, the periodic catch-up).

The form itself (keys, coercion, rendering, versions) lives in `memory.core`. This package
has no re-exports: import from the module, so the import graph stays visible.
"""
