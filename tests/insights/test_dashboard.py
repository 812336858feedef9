"""The owners' dashboard (issue 18) renders from generated data, and its CSV matches the
counts: conversations and handovers (DailyStat), time to the first staff reply (cases),
ratings, answer latency p50/p95 and tokens per answer (traces), condensations (cores),
"could not answer" (failed answers and handovers the assistant asked for)."""

import csv
import io
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from chatwidget.insights.charts import nice_ceiling
from chatwidget.insights.selectors import percentile
from chatwidget.sites.services import site_create
from handover.models import Case
from handover.services import case_resolve, handover_request, staff_reply
from handover.services.ratings import rating_give
from memory.models import ContextTrace, Core, DailyStat
from tests.factories import ConversationFactory, UserFactory

pytestmark = pytest.mark.django_db

SECRET_TEXT = "my parcel to Lindenstrasse 5 never came"


@pytest.fixture
def data(site):
    """Site A ("Test shop") with handovers, traces, a core and a rating today and traces
    yesterday; site B with a conversation today and an older DailyStat row."""
    other = site_create(name="Second shop", origins=["http://two.test"])
    site.staff_hours = ""  # staff always there: no call-back promise, whatever the hour
    site.save(update_fields=["staff_hours"])
    staff = UserFactory(username="sam", role="Staff", first_name="Sam")
    today = timezone.localdate()
    convs = [ConversationFactory(site=site, texts=[SECRET_TEXT]) for _ in range(3)]
    ConversationFactory(site=other, texts=["hello"])
    DailyStat.objects.create(
        site=other, day=today - timedelta(days=2), conversations=7, handovers=1
    )
    by_model = handover_request(conversation_id=convs[0].pk, trigger=Case.Trigger.MODEL)
    by_visitor = handover_request(conversation_id=convs[1].pk, trigger=Case.Trigger.VISITOR)
    for case in (by_model, by_visitor):
        staff_reply(case_id=case.pk, user=staff, text="Hello, Sam here.")
    for case, seconds in ((by_model, 120), (by_visitor, 300)):
        case.refresh_from_db()
        Case.objects.filter(pk=case.pk).update(
            first_reply_at=case.requested_at + timedelta(seconds=seconds)
        )
    case_resolve(case_id=by_visitor.pk, user=staff, note="Parcel traced.")
    rating_give(conversation_id=convs[1].pk, score=4, comment=SECRET_TEXT)
    latencies = [100, 200, 300, 400, 1000]
    for n, latency in enumerate(latencies):
        ContextTrace.objects.create(
            conversation=convs[2],
            request_seq=n + 1,
            budget=8000,
            reserve=500,
            total_tokens=1000 + 100 * n,
            latency_ms=latency,
            answered=True,
        )
    ContextTrace.objects.create(
        conversation=convs[2],
        request_seq=9,
        budget=8000,
        reserve=500,
        total_tokens=999,
        latency_ms=30000,
        answered=False,
    )
    ContextTrace.objects.create(
        conversation=convs[2], request_seq=10, budget=8000, reserve=500, total_tokens=5
    )  # no answer followed: not counted
    old = ContextTrace.objects.create(
        conversation=convs[2],
        request_seq=11,
        budget=8000,
        reserve=500,
        total_tokens=2000,
        latency_ms=50,
        answered=True,
    )
    ContextTrace.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=1))
    Core.objects.create(
        conversation=convs[2],
        version=1,
        data={},
        covers_through_seq=2,
        source=Core.Source.EXTRACTIVE,
    )
    return {"site": site, "other": other, "today": today}


def _csv(client, **params) -> list[dict]:
    response = client.get(reverse("admin:insights_dashboard_csv"), params)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_csv_matches_the_counts(client, data):
    owner = UserFactory(username="olga", role="Owner")
    client.force_login(owner)
    rows = _csv(client, days=30)
    assert len(rows) == 2 * 30, "one row per site and day, days without data included"
    today = data["today"].isoformat()
    by_key = {(r["site"], r["day"]): r for r in rows}
    a = by_key[("Test shop", today)]
    assert int(a["conversations"]) == 3 and int(a["handovers"]) == 2
    assert int(a["handovers_by_assistant"]) == 1
    assert int(a["answers"]) == 6 and int(a["answers_failed"]) == 1
    assert int(a["could_not_answer"]) == 2  # the failed answer + the model's handover
    assert float(a["could_not_answer_rate"]) == round(2 / 7, 4)
    assert (int(a["latency_p50_ms"]), int(a["latency_p95_ms"])) == (300, 1000)
    assert int(a["tokens_per_answer"]) == 1200  # mean of 1000..1400, failed answers left out
    # the handovers stored an inline core each, plus the one made here
    assert (
        int(a["condensations"]) == Core.objects.filter(conversation__site=data["site"]).count() == 3
    )
    assert (int(a["first_replies"]), int(a["first_reply_p50_s"]), int(a["first_reply_p95_s"])) == (
        2,
        120,
        300,
    )
    assert (int(a["ratings"]), float(a["rating_average"])) == (1, 4.0)
    assert float(a["handover_rate"]) == round(2 / 3, 4)
    yesterday = by_key[("Test shop", (data["today"] - timedelta(days=1)).isoformat())]
    assert (int(yesterday["answers"]), int(yesterday["latency_p50_ms"])) == (1, 50)
    assert yesterday["conversations"] == "0" and yesterday["rating_average"] == ""
    b_old = by_key[("Second shop", (data["today"] - timedelta(days=2)).isoformat())]
    assert (int(b_old["conversations"]), int(b_old["handovers"])) == (7, 1)
    assert int(by_key[("Second shop", today)]["conversations"]) == 1
    # totals over the CSV equal the stored counts
    assert sum(int(r["conversations"]) for r in rows) == sum(
        DailyStat.objects.values_list("conversations", flat=True)
    )
    # one site only
    only_b = _csv(client, site=data["other"].pk, days=7)
    assert {r["site"] for r in only_b} == {"Second shop"} and len(only_b) == 7


def test_page_renders_charts_without_text_or_personal_data(client, data):
    owner = UserFactory(username="olga", role="Owner")
    client.force_login(owner)
    response = client.get(reverse("admin:insights_dashboard_changelist"), {"days": 7})
    assert response.status_code == 200
    page = response.content.decode()
    for key in (
        "conversations",
        "first-reply",
        "latency",
        "tokens",
        "could-not-answer",
        "condensations",
        "ratings",
    ):
        assert f'id="chart-{key}"' in page
    assert page.count('<svg viewBox="0 0 600') == 7, "every chart has data in this period"
    assert "<polyline" in page and "<rect" in page
    # no CDN host (a bare "cdn" can be part of the random CSRF token)
    assert not re.search(r"//[\w.-]*cdn", page.lower()) and '<script src="http' not in page
    summary = response.context["site_totals"]
    assert [(name, row.conversations, row.handovers, row.ratings) for name, row in summary] == [
        ("Second shop", 8, 1, 0),
        ("Test shop", 3, 2, 1),
    ]  # by name; B's older row is in
    for secret in ("Lindenstrasse", "Parcel traced", "Sam here", "sam"):
        assert secret not in page
    csv_page = client.get(reverse("admin:insights_dashboard_csv"), {"days": 90}).content
    assert b"Lindenstrasse" not in csv_page and b"Parcel" not in csv_page
    # the German page keeps SVG numbers unlocalised (a decimal comma breaks the geometry)
    german = client.get(
        reverse("admin:insights_dashboard_changelist"), {"days": 7}, HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert 'lang="de"' in german
    charts = re.findall(r'<svg viewBox="0 0 600.*?</svg>', german, flags=re.S)
    assert len(charts) == 7
    for chart in charts:
        for value in re.findall(r' (?:x|y|x1|x2|y1|y2|cx|cy|width|height)="([^"]*)"', chart):
            float(value)
        for points in re.findall(r'points="([^"]*)"', chart):
            assert re.fullmatch(r"[\d.]+,[\d.]+( [\d.]+,[\d.]+)*", points), points


def test_staff_without_the_owner_role_may_not_see_it(client, data):
    client.force_login(UserFactory(username="sam2", role="Staff"))
    assert client.get(reverse("admin:insights_dashboard_changelist")).status_code == 403
    assert client.get(reverse("admin:insights_dashboard_csv")).status_code == 403


def test_percentile_and_axis_helpers():
    assert percentile([], 50) is None
    assert percentile([5], 95) == 5
    assert percentile(list(range(1, 101)), 95) == 95
    assert [nice_ceiling(v) for v in (0, 0.7, 3, 7, 12, 240, 1001)] == [1, 1, 5, 10, 20, 250, 2000]
