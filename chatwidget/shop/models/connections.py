"""A site's connection to its shop platform (issue 29): Shopify, WooCommerce or Shopware 6.

Only the NAMES of the environment variables holding the credentials are stored (an access
token; a consumer key and secret; an integration's client id and secret), never their
values: the database and its backups hold no key. The variables are read at each use.

The catalogue sync stages what it reads in `SyncItem` rows (one per product or page, with
the text the knowledge document will get and its content hash) and records where it stands
in `Connection.sync_state`, so an interrupted sync resumes where it stopped; the knowledge
documents change only when the whole catalogue has been read (chatwidget/shop/connect/).
"""

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _


def _webhook_key() -> str:
    return secrets.token_urlsafe(18)


class Connection(models.Model):
    class Platform(models.TextChoices):
        SHOPIFY = "shopify", "Shopify"
        WOOCOMMERCE = "woocommerce", "WooCommerce"
        SHOPWARE = "shopware", "Shopware 6"

    class SyncStatus(models.TextChoices):
        NEVER = "never", _("Not synced yet")
        RUNNING = "running", _("Syncing")
        OK = "ok", _("Synced")
        FAILED = "failed", _("Failed")

    site = models.OneToOneField(
        "sites.Site",
        on_delete=models.CASCADE,
        related_name="shop_connection",
        verbose_name=_("site"),
    )
    platform = models.CharField(_("platform"), max_length=12, choices=Platform.choices)
    base_url = models.CharField(_("shop URL"), max_length=500)
    token_env = models.CharField(_("access token variable"), max_length=100, blank=True)
    key_env = models.CharField(_("key / client id variable"), max_length=100, blank=True)
    secret_env = models.CharField(_("secret variable"), max_length=100, blank=True)
    webhook_key = models.CharField(max_length=40, unique=True, default=_webhook_key)
    enabled = models.BooleanField(_("enabled"), default=True)
    sync_status = models.CharField(
        _("sync status"), max_length=8, choices=SyncStatus.choices, default=SyncStatus.NEVER
    )
    last_sync_at = models.DateTimeField(_("last sync"), null=True, blank=True)
    last_error = models.TextField(_("last error"), blank=True)
    product_count = models.PositiveIntegerField(_("products"), default=0)
    page_count = models.PositiveIntegerField(_("pages"), default=0)
    last_summary = models.JSONField(_("last sync's figures"), default=dict, blank=True)
    sync_state = models.JSONField(default=dict, blank=True)  # phase and cursor of a sync
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("shop connection")
        verbose_name_plural = _("shop connections")
        ordering = ["site"]

    def __str__(self) -> str:
        return f"{self.get_platform_display()} {self.base_url}"


class SyncItem(models.Model):
    """One product or page read by the running sync, waiting for the swap."""

    connection = models.ForeignKey(Connection, on_delete=models.CASCADE, related_name="staged")
    external_id = models.CharField(max_length=200)
    title = models.CharField(max_length=500)
    text = models.TextField()
    url = models.CharField(max_length=1000, blank=True)
    identifiers = models.JSONField(default=list, blank=True)
    digest = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["connection", "external_id"], name="sync_item_unique_id"
            )
        ]

    def __str__(self) -> str:
        return self.external_id
