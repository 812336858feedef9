"""A URL whose view fails with the visitor's words in the exception (the observability
tests' only route)."""

from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from chatwidget.urls import urlpatterns as project_urlpatterns


@csrf_exempt
def fails(request: HttpRequest) -> HttpResponse:
    raise ValueError(f"could not handle {request.POST.get('message', '')}")


urlpatterns = [path("fails/", fails), *project_urlpatterns]
