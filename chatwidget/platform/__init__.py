"""What has no domain: the one publisher of websocket events and the outbound frames, the
database thread pool, the model client, rate limits, every cache key, presence, client
addresses, times and formats, starting a task by name, and the guard every outbound request
to an owner-typed address passes (egress). No models; imports no app
(contract `platform-imports-no-app`), so every app may use it."""
