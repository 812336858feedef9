from django.urls import path

from handover import views

app_name = "handover"
urlpatterns: list = [
    path("sw.js", views.service_worker, name="service-worker"),
]
