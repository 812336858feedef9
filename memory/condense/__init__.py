"""Condensation of the turns that left the verbatim window into the condensed core.

- `model`: the model call from sync code;
- `service`: condensing a conversation (lock, chunks, verification, storing versions, then
  the recognition profile folds the new core);
- `scheduling`: when condensation runs (after a turn, the periodic catch-up).

The core itself (its form, the extractive condenser, verification, provenance, rendering,
versions) lives in `memory.core`. This package has no re-exports: import from the module,
so the import graph stays visible.
"""
