"""Shop actions (issue 17): calls to the shop's own API that the model may make through the
openai tools interface, configured per site by the Owner in admin.

- models.py    Action (one call), ActionPolicy (per-site limits), ActionCall (the trace of
               each call: outcome, latency, size, cut)
- tools.py     the site's tool definitions and limits, cached (no query per answer)
- http.py      the HTTP request to the shop (httpx), secrets from environment variables
- answer.py    the shop's answer read as JSON of bounded depth (deeper is malformed)
- services.py  one call: the visitor's arguments checked, rate limit, request, result cut,
               stored as a turn of role `tool` and in the trace
- loop.py      the answer's model rounds with tool calls; demo mode's deterministic lookup
- demo.py      the demo shop's two actions, configured by `make demo`
"""
