"""Shop actions (issue 17): calls to the shop's own API that the model may make through the
openai tools interface, configured per site by the Owner in admin.

- models.py    Action (one call), ActionPolicy (per-site limits), ActionCall (the trace of
               each call: outcome, latency, size, cut)
- tools.py     the site's tool definitions and limits, cached (no query per answer)
- arguments.py the arguments checked against the Owner's schema
- admission.py before a request: the visitor's words, the second factor, the limits per
               conversation, client address and site
- http.py      the HTTP request to the shop (httpx), secrets from environment variables
- answer.py    the shop's answer read as JSON of bounded depth (deeper is malformed)
- protect.py   after it: the second factor against the answer, the declared answer fields
- services.py  one call: admitted, requested, checked, result cut, stored as a turn of
               role `tool` and in the trace
- loop.py      the answer's model rounds with tool calls; demo mode's deterministic lookup
- demo.py      the demo shop's two actions, configured by `make demo`
"""
