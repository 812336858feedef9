"""Celery beat's schedule: the periodic tasks of every app. Read into base.py; every
variable is in deploy/README.md ("Configuration"). Beat itself runs exactly once."""

from datetime import timedelta

import environ

from .outbound import INBOUND_IMAP_HOST, INBOUND_IMAP_INTERVAL_SECONDS

env = environ.Env()

CELERY_BEAT_SCHEDULE = {
    # CHATWIDGET_PURGE_INTERVAL_SECONDS: how often the retention purge runs (default 300).
    "purge-expired": {
        "task": "chatwidget.tasks.purge_expired",
        "schedule": timedelta(seconds=env.int("CHATWIDGET_PURGE_INTERVAL_SECONDS", default=300)),
    },
    # SHOP_SYNC_INTERVAL_SECONDS: how often connected shop catalogues are synced (default 1 h).
    "shop-knowledge-sync": {
        "task": "chatwidget.shop.tasks.knowledge_sync_all",
        "schedule": timedelta(seconds=env.int("SHOP_SYNC_INTERVAL_SECONDS", default=3600)),
    },
    # KNOWLEDGE_RESYNC_CHECK_SECONDS: how often sources with an owner-set re-sync schedule
    # are checked for being due (default 300; chatwidget/shop/knowledge/sources.py).
    "knowledge-resync-due": {
        "task": "chatwidget.shop.tasks.knowledge_resync_due",
        "schedule": timedelta(seconds=env.int("KNOWLEDGE_RESYNC_CHECK_SECONDS", default=300)),
    },
    # follow-ups and automatic resolution of quiet conversations (handover.services.inactivity)
    "inactivity-scan": {
        "task": "handover.tasks.inactivity_scan",
        "schedule": timedelta(seconds=60),
    },
    # ALERT_PROMISE_INTERVAL_SECONDS: how often due call-back promises alert staff (issue 32).
    "alert-promises-due": {
        "task": "handover.tasks.alert_promises_due",
        "schedule": timedelta(seconds=env.int("ALERT_PROMISE_INTERVAL_SECONDS", default=300)),
    },
    # chunks still without a vector (embeddings switched on, a lost queue message)
    "knowledge-embed-pending": {
        "task": "chatwidget.shop.tasks.knowledge_embed_all",
        "schedule": timedelta(minutes=10),
    },
    "condense-lagging": {
        "task": "memory.tasks.condense_lagging",
        "schedule": timedelta(
            seconds=env.int("MEMORY_CONDENSE_LAGGING_INTERVAL_SECONDS", default=120)
        ),
    },
}

if INBOUND_IMAP_HOST:  # replies by e-mail from a mailbox (issue 32; handover/inbound/imap.py)
    CELERY_BEAT_SCHEDULE["inbound-imap-poll"] = {
        "task": "handover.tasks.inbound_imap_poll",
        "schedule": timedelta(seconds=INBOUND_IMAP_INTERVAL_SECONDS),
    }
