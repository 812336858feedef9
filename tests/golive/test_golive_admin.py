"""The go-live check in admin: the button on the site's page runs it on a worker (Celery,
eager here), the report shows each case with evidence and figures, the history lists runs
per site; the task is found by Celery's autodiscovery."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from chatwidget.celery import app as celery_app
from chatwidget.golive.models import GoliveRun
from memory.models import Conversation
from tests.fakellm import GoLiveShop

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def owner_client(client):
    user = get_user_model().objects.create_superuser("owner", "owner@shop.test", "pw")
    client.force_login(user)
    return client


@pytest.fixture
def eager():
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def test_the_task_is_found_by_autodiscovery():
    celery_app.loader.import_default_modules()
    assert "chatwidget.golive.tasks.golive_check" in celery_app.tasks


def test_the_button_runs_the_check_and_the_report_shows_it(
    site, settings, fake_llm, owner_client, eager
):
    settings.RATE_LIMIT_PER_ADDRESS = "1000/60"
    settings.LLM_FIRST_TOKEN_TIMEOUT_SECONDS, settings.LLM_TIMEOUT_SECONDS = 15.0, 20.0
    fake_llm.default = GoLiveShop(careless=True)
    page = owner_client.get(reverse("admin:sites_site_change", args=[site.pk]))
    assert b"Run go-live check" in page.content and b"Go-live history" in page.content

    response = owner_client.post(reverse("admin:golive_goliverun_start", args=[site.pk]))

    run = GoliveRun.objects.get(site=site)
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:golive_goliverun_change", args=[run.pk])
    assert run.status == GoliveRun.Status.WARNED and run.source == "admin"
    assert run.requested_by.username == "owner"
    report = owner_client.get(response["Location"]).content.decode()
    for title in (
        "Back-reference",
        "Page change",
        "Condensation threshold",
        "Contradiction",
        "Change of subject",
        "Forgetting",
        "Handover",
    ):
        assert title in report
    assert "Which one do you mean?" in report, "the answer quoted as evidence"
    assert "LS-1002" in report, "the slice of the request"
    assert "1300 ms" in report and str(run.total_tokens) in report
    assert 'http-equiv="refresh"' not in report, "a finished run does not reload"
    assert not Conversation.objects.exists()

    history = owner_client.get(
        reverse("admin:golive_goliverun_changelist"), {"site__id__exact": site.pk}
    ).content.decode()
    assert reverse("admin:golive_goliverun_change", args=[run.pk]) in history


def test_the_button_in_demo_mode_says_why_it_cannot_run(site, settings, owner_client):
    settings.DEMO_MODE = True
    response = owner_client.post(
        reverse("admin:golive_goliverun_start", args=[site.pk]), follow=True
    )
    assert b"demo mode" in response.content
    assert not GoliveRun.objects.exists()


def test_a_running_check_shows_its_progress(site, owner_client):
    run = GoliveRun.objects.create(
        site=site,
        status=GoliveRun.Status.RUNNING,
        progress_done=2,
        progress_total=7,
        current_case="condensation_threshold",
    )
    page = owner_client.get(reverse("admin:golive_goliverun_change", args=[run.pk]))
    text = page.content.decode()
    assert "2 of 7 cases done; now: condensation_threshold" in text
    assert 'http-equiv="refresh"' in text


def test_staff_without_permission_cannot_start_a_check(site, client):
    user = get_user_model().objects.create_user("staff", "s@shop.test", "pw", is_staff=True)
    client.force_login(user)
    response = client.post(reverse("admin:golive_goliverun_start", args=[site.pk]))
    assert response.status_code == 403
    assert not GoliveRun.objects.exists()


def test_the_report_says_what_changed_since_the_previous_check(site, owner_client):
    case = {
        "key": "contradiction",
        "title": "Contradiction",
        "checks": [],
        "grade": None,
        "evidence": {},
        "turns": [],
        "tokens": {"total": 0},
        "error": "",
    }
    GoliveRun.objects.create(
        site=site,
        status=GoliveRun.Status.PASSED,
        model_name="m-1",
        config={"context_budget": 8000, "answer_reserve": 800},
        report=[{**case, "status": "pass"}],
    )
    run = GoliveRun.objects.create(
        site=site,
        status=GoliveRun.Status.FAILED,
        model_name="m-2",
        config={"context_budget": 4000, "answer_reserve": 800},
        report=[{**case, "status": "fail"}],
    )
    text = owner_client.get(
        reverse("admin:golive_goliverun_change", args=[run.pk])
    ).content.decode()
    assert "model: m-1 → m-2" in text and "context_budget: 8000 → 4000" in text
    assert "answer_reserve: " not in text, "only what changed is named"
    assert "Contradiction: pass → fail" in text
