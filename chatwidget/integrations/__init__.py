"""Webhooks (issue 18): per-site hooks for case waiting, case resolved, conversation started
and rating given, signed with HMAC-SHA256, delivered by Celery with retries and backoff.

- models: the hooks (edited by owners in admin) and the delivery log
- emit: `webhook_emit`, the one way services announce an event (delivery rows in the
  caller's transaction, the delivery task queued by name after commit)
- delivery: one signed attempt (`webhook_attempt`) and the signature (`webhook_signature`)
- retention: the quoted text leaves the log with its conversation (erasure, the purge), the
  rows after WEBHOOK_DELIVERY_RETENTION_DAYS
- signing: the secret shown once (when made or rotated), afterwards as a hint
- tasks: the Celery task that owns retries and backoff
- admin: hooks per site and the delivery log
"""
