"""Settings of what leaves the server: e-mail to visitors and staff, webhooks, and the
requests an owner configures (shop actions, knowledge URLs) with the egress guard. Read into
base.py; every variable is documented in README.md ("Configuration")."""

import environ

env = environ.Env()

# --- e-mail ---------------------------------------------------------------------------------
# E-mail continuation: how long the link in the e-mail works (once).
CONTINUATION_LINK_MAX_AGE = env.int("CONTINUATION_LINK_MAX_AGE", default=7 * 24 * 3600)
# "E-mail me the conversation" (issue 25; handover.services.transcript_email): a transcript
# goes only to a confirmed address. How long the confirmation link works (once); one
# confirmation per address per interval (any site); e-mails of either kind per address (any
# site) and per site ("count/seconds"); one transcript per conversation per interval; how
# long request rows (address hashes only) are kept for the caps.
TRANSCRIPT_CONFIRM_MAX_AGE = env.int("TRANSCRIPT_CONFIRM_MAX_AGE", default=24 * 3600)
TRANSCRIPT_EMAIL_ADDRESS_INTERVAL = env.int("TRANSCRIPT_EMAIL_ADDRESS_INTERVAL", default=3600)
TRANSCRIPT_EMAIL_PER_ADDRESS = env("TRANSCRIPT_EMAIL_PER_ADDRESS", default="3/86400")
TRANSCRIPT_EMAIL_PER_SITE = env("TRANSCRIPT_EMAIL_PER_SITE", default="30/3600")
TRANSCRIPT_EMAIL_INTERVAL = env.int("TRANSCRIPT_EMAIL_INTERVAL", default=600)
TRANSCRIPT_REQUEST_KEEP_DAYS = env.int("TRANSCRIPT_REQUEST_KEEP_DAYS", default=7)
# E-mail continuation for every handover (issue 32): staff replies made while the visitor is
# away are gathered this many seconds after the first of them and sent as one e-mail.
CONTINUATION_BATCH_SECONDS = env.int("CONTINUATION_BATCH_SECONDS", default=120)
# Replies by e-mail (issue 32; handover/inbound/): each continuation e-mail's Reply-To is
# reply+<signed case token>@INBOUND_EMAIL_DOMAIN (unset: no Reply-To, the link only). Mail to
# it reaches the service by POST to /inbound/email with `Authorization: Bearer
# INBOUND_EMAIL_SECRET` (unset: the endpoint answers 404), or by IMAP polling of a mailbox
# (INBOUND_IMAP_HOST unset: no polling). Messages larger than INBOUND_EMAIL_MAX_BYTES are
# refused.
INBOUND_EMAIL_DOMAIN = env("INBOUND_EMAIL_DOMAIN", default="")
INBOUND_EMAIL_SECRET = env("INBOUND_EMAIL_SECRET", default="")
INBOUND_EMAIL_MAX_BYTES = env.int("INBOUND_EMAIL_MAX_BYTES", default=10_000_000)
INBOUND_IMAP_HOST = env("INBOUND_IMAP_HOST", default="")
INBOUND_IMAP_PORT = env.int("INBOUND_IMAP_PORT", default=993)
INBOUND_IMAP_SSL = env.bool("INBOUND_IMAP_SSL", default=True)  # off: STARTTLS is required
INBOUND_IMAP_USER = env("INBOUND_IMAP_USER", default="")
INBOUND_IMAP_PASSWORD = env("INBOUND_IMAP_PASSWORD", default="")
INBOUND_IMAP_FOLDER = env("INBOUND_IMAP_FOLDER", default="INBOX")
INBOUND_IMAP_INTERVAL_SECONDS = env.int("INBOUND_IMAP_INTERVAL_SECONDS", default=60)
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="chat@localhost")

# --- webhooks (issue 18; chatwidget/webhooks/) --------------------------------------------------
# Attempts per delivery (the first and the retries), backoff base * 2^n with jitter, capped.
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=6)
WEBHOOK_RETRY_BASE_SECONDS = env.float("WEBHOOK_RETRY_BASE_SECONDS", default=30.0)
WEBHOOK_RETRY_MAX_SECONDS = env.float("WEBHOOK_RETRY_MAX_SECONDS", default=3600.0)
WEBHOOK_TIMEOUT_SECONDS = env.float("WEBHOOK_TIMEOUT_SECONDS", default=10.0)
# How long "which events has this site subscribed to" is cached (admin edits clear it).
WEBHOOK_HINT_SECONDS = env.int("WEBHOOK_HINT_SECONDS", default=300)
# Days a delivery stays in the log (then the retention purge deletes it); the message text
# in it goes earlier, with the conversation it quotes (erasure, the session purge).
WEBHOOK_DELIVERY_RETENTION_DAYS = env.int("WEBHOOK_DELIVERY_RETENTION_DAYS", default=30)
# --- outbound requests (issue 25; chatwidget/platform/egress.py) ------------------------------
# Shop actions, webhooks and knowledge URLs never reach loopback, private, link-local,
# multicast, reserved or cloud metadata addresses (checked at connect time and after every
# redirect), except hosts listed here: `shop.internal`, `*.corp.example`, `10.0.0.5:8443`.
EGRESS_ALLOW_HOSTS = env.list("EGRESS_ALLOW_HOSTS", default=[])
# Environment variables a shop action may send (`{env:NAME}` in its headers or URL). The
# platform's own secrets (SECRET_KEY, database, Redis, model, e-mail) are refused even if listed.
SHOP_ACTION_ENV_ALLOW = env.list("SHOP_ACTION_ENV_ALLOW", default=[])
# Knowledge import from a URL (a page or a sitemap): what one import may fetch.
KNOWLEDGE_CRAWL_MAX_PAGES = env.int("KNOWLEDGE_CRAWL_MAX_PAGES", default=5000)
KNOWLEDGE_CRAWL_MAX_DEPTH = env.int("KNOWLEDGE_CRAWL_MAX_DEPTH", default=3)  # nested indexes
KNOWLEDGE_CRAWL_MAX_SECONDS = env.int("KNOWLEDGE_CRAWL_MAX_SECONDS", default=1800)
KNOWLEDGE_CRAWL_MAX_BYTES = env.int("KNOWLEDGE_CRAWL_MAX_BYTES", default=500_000_000)
KNOWLEDGE_FETCH_MAX_BYTES = env.int("KNOWLEDGE_FETCH_MAX_BYTES", default=5_000_000)
# One fetch, all of it (connect, every read): a page that drips a byte at a time fails then.
KNOWLEDGE_FETCH_TIMEOUT_SECONDS = env.float("KNOWLEDGE_FETCH_TIMEOUT_SECONDS", default=20.0)

# --- shop platforms -------------------------------------------------------------------------
# Shop platforms (issue 29): one catalogue sync per site at a time (the lock outlives the
# task's hard limit), an interrupted sync resumes within SHOP_SYNC_RESUME_HOURS, a platform's
# "wait" (429 Retry-After, Shopify's throttle) is honoured up to SHOP_PLATFORM_MAX_WAIT_SECONDS.
SHOP_SYNC_LOCK_SECONDS = env.int("SHOP_SYNC_LOCK_SECONDS", default=3900)
SHOP_SYNC_RESUME_HOURS = env.int("SHOP_SYNC_RESUME_HOURS", default=24)
SHOP_PLATFORM_TIMEOUT_SECONDS = env.float("SHOP_PLATFORM_TIMEOUT_SECONDS", default=20.0)
SHOP_PLATFORM_MAX_WAIT_SECONDS = env.float("SHOP_PLATFORM_MAX_WAIT_SECONDS", default=30.0)

# --- staff alerts (issue 32; handover.services.alerts) -----------------------------------------
# Web Push: the VAPID key pair that signs every push (`manage.py vapid_keys` makes one, shown
# once): the public key (base64url, the browser subscribes with it) and the private key
# (base64url of the raw 32-byte key), and the subject push services may contact
# (`mailto:ops@example.com` or an https URL). Both keys empty: push is off, e-mail alerts work.
VAPID_PUBLIC_KEY = env("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env("VAPID_SUBJECT", default="")
# E-mail alerts wait this long, so that alerts meanwhile go in the same e-mail.
ALERT_EMAIL_DELAY_SECONDS = env.int("ALERT_EMAIL_DELAY_SECONDS", default=180)
# The same event on the same case alerts a user at most once in this interval.
ALERT_REPEAT_SECONDS = env.int("ALERT_REPEAT_SECONDS", default=300)
# How long a push waits at the push service for an offline device (seconds).
ALERT_PUSH_TTL_SECONDS = env.int("ALERT_PUSH_TTL_SECONDS", default=3600)
