"""The assistant: a visitor's turn decided (`turns`), the model's context built within the
token budget (`context`), the answer streamed, stored and recovered (`answers`), the model
rounds with shop lookups (`tools_loop`) and the deltas coalesced (`streaming`).

It puts memory, shop knowledge and actions and handover together, so it sits above them;
no models of its own. Import from the modules, not from here."""
