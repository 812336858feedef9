"""The go-live check: the conversation-memory article's seven test cases, run by the owner
against their own site and model (issue 19).

The runner drives the real pipeline as a visitor would, over the websocket protocol, in
throw-away conversations that are deleted afterwards; each case is checked twice: what the
pipeline guarantees (deterministic) and what the model did with it (a rubric graded by a
second model call, advisory). Runs are kept per site as `GoliveRun` rows.
"""
