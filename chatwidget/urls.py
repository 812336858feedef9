from django.contrib import admin
from django.urls import include, path

from chatwidget import health
from chatwidget.landing import landing
from chatwidget.shop import views as shop_views
from chatwidget.widget import views
from handover import views as handover_views

urlpatterns = [
    path("", landing, name="landing"),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("widget/v1/<str:site_key>/config.json", views.widget_config, name="widget-config"),
    path("widget/v1/<str:site_key>/export", views.widget_export, name="widget-export"),
    path("widget/v1/<str:site_key>/upload", views.widget_upload, name="widget-upload"),
    path("widget/v1/<str:site_key>/continue", views.widget_continue, name="widget-continue"),
    path(
        "widget/v1/<str:site_key>/transcript-email",
        views.widget_transcript_email,
        name="widget-transcript-email",
    ),
    # e-mails from before issue 25 carried the code in the path: answered, never exchanged
    path("continue/<str:code>/", handover_views.continuation_old_link, name="continuation-old"),
    path("transcript/confirm/", handover_views.transcript_confirm, name="transcript-confirm"),
    path("inbound/email", handover_views.inbound_email, name="inbound-email"),
    path("privacy/<str:site_key>/", views.privacy, name="privacy"),
    path("shop/webhooks/<str:key>/", shop_views.shop_webhook, name="shop-webhook"),
    path("privacy/", views.privacy, name="privacy-default"),
    path("admin/handover/", include("handover.urls")),
    path("admin/", admin.site.urls),
]
