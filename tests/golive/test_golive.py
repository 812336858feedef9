"""The go-live check (issue 19), run as the owner runs it: `manage.py golive_check --site KEY`
against a fake OpenAI-compatible model in modes that make each case pass and fail, with
nothing of its throw-away conversations left afterwards."""

import io

import pytest
from django.core.management import CommandError, call_command

from chatwidget.golive.models import GoliveRun
from handover.models import Case
from memory.models import ContextTrace, Conversation, Core, DailyStat, Turn
from memory.services import visitor_message_receive
from tests.fakellm import GoLiveShop

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def shop(site, settings, fake_llm):
    """The test site; generous model timeouts, since a loaded CI machine must not turn a
    slow fake answer into a failed case (timeouts have their own tests)."""
    settings.RATE_LIMIT_PER_ADDRESS = "1000/60"
    settings.LLM_FIRST_TOKEN_TIMEOUT_SECONDS = 15.0
    settings.LLM_TIMEOUT_SECONDS = 20.0
    return site


@pytest.fixture
def model(fake_llm):
    """Install a GoLiveShop as the fake's behaviour; returns a setter for its mode."""
    default = fake_llm.default

    def use(**mode) -> GoLiveShop:
        fake_llm.default = GoLiveShop(**mode)
        return fake_llm.default

    use()
    yield use
    fake_llm.default = default


def run_check(site, *args: str) -> tuple[GoliveRun, str, CommandError | None]:
    out = io.StringIO()
    error = None
    try:
        call_command(
            "golive_check", f"--site={site.key}", "--quiet-seconds", "0.3", *args, stdout=out
        )
    except CommandError as exc:
        error = exc
    run = GoliveRun.objects.filter(site=site).order_by("-created_at").first()
    assert run is not None, f"no run was created: {error!r}; output: {out.getvalue()!r}"
    return run, out.getvalue(), error


def cases_of(run: GoliveRun) -> dict[str, dict]:
    return {c["key"]: c for c in run.report}


def failed_checks(case: dict) -> list[str]:
    return [c["name"] for c in case["checks"] if not c["passed"]]


def test_a_good_model_passes_all_seven_cases_and_nothing_remains(shop, model, fake_llm):
    visitor = visitor_message_receive(
        site_id=shop.pk, token=None, client_id="real-1", text="Do you ship to Vienna?"
    )[1]
    before_turns = list(Turn.objects.filter(conversation=visitor).values_list("seq", "text"))
    stats_before = list(
        DailyStat.objects.values(
            "conversations", "visitor_turns", "assistant_turns", "handovers", "redactions"
        )
    )

    run, out, error = run_check(shop)

    assert error is None, out
    cases = cases_of(run)
    assert list(cases) == [
        "back_reference",
        "page_change",
        "condensation_threshold",
        "contradiction",
        "change_of_subject",
        "forgetting",
        "handover",
    ]
    assert {k: c["status"] for k, c in cases.items()} == dict.fromkeys(cases, "pass"), out
    assert run.status == GoliveRun.Status.PASSED
    assert "7 passed, 0 advisory, 0 failed" in out
    # figures: tokens and time to first token per turn, a total, the median
    turns = cases["back_reference"]["turns"]
    assert len(turns) == 5 and all(
        t["prompt_tokens"] > 0 and t["answer_tokens"] > 0 and t["ttft_ms"] is not None
        for t in turns
    )
    assert run.total_tokens == sum(c["tokens"]["total"] for c in run.report) > 0
    assert cases["condensation_threshold"]["tokens"]["condensation"] > 0, "it condensed"
    assert run.ttft_median_ms is not None
    # the evidence is what the model received: the rebuilt request is in the real one
    asked = next(
        r
        for r in fake_llm.requests
        if r.get("stream")
        and r["messages"][-1]["content"] == "Then I'll take the second one from the list."
    )
    received = "\n".join(m["content"] for m in asked["messages"])
    assert cases["back_reference"]["evidence"]["request"].strip("…") in received
    assert cases["back_reference"]["grade"]["evidence"] == "You mean LS-1002"
    # the card number never reached the model
    assert not any("4111" in str(r) for r in fake_llm.requests)

    # nothing of the throw-away conversations remains; the real visitor is untouched
    assert list(Conversation.objects.values_list("pk", flat=True)) == [visitor.pk]
    assert (
        list(Turn.objects.filter(conversation=visitor).values_list("seq", "text")) == before_turns
    )
    assert Turn.objects.exclude(conversation=visitor).count() == 0
    assert Core.objects.count() == ContextTrace.objects.count() == Case.objects.count() == 0
    assert (
        list(
            DailyStat.objects.values(
                "conversations", "visitor_turns", "assistant_turns", "handovers", "redactions"
            )
        )
        == stats_before
    )
    assert run.conversation_ids == []


def test_a_careless_model_fails_every_rubric_but_not_the_pipeline(shop, model):
    model(careless=True)

    run, out, error = run_check(shop)

    assert error is None, "advisory findings alone do not fail the check"
    cases = cases_of(run)
    assert {k: c["status"] for k, c in cases.items()} == dict.fromkeys(cases, "warn")
    assert all(not failed_checks(c) for c in cases.values())
    assert all(c["grade"]["verdict"] == "fail" for c in cases.values())
    assert cases["back_reference"]["grade"]["evidence"] == "Which one do you mean?"
    assert "tool" in cases["handover"]["grade"]["reason"]
    assert run.status == GoliveRun.Status.WARNED
    assert "0 passed, 7 advisory, 0 failed" in out

    run, out, error = run_check(shop, "--strict", "--case", "back_reference")
    assert error is not None and "did not pass" in str(error)


def test_a_condenser_that_drops_corrections_and_settled_fails_those_cases(shop, model):
    def careless_condenser(core):
        core["corrections"] = []
        core["settled"] = []
        return core

    model(mutate=careless_condenser)

    run, out, error = run_check(shop, "--case", "contradiction", "--case", "change_of_subject")

    assert error is not None
    cases = cases_of(run)
    assert failed_checks(cases["contradiction"]) == ["the correction is recorded as a correction"]
    assert failed_checks(cases["change_of_subject"]) == [
        "the settled request is marked settled (55-1031)"
    ]
    assert run.status == GoliveRun.Status.FAILED
    assert "[FAIL] Contradiction" in out and "core:" in out, "the evidence is printed"
    assert Conversation.objects.count() == 0


def test_a_model_without_structured_output_fails_the_threshold_case(shop, model):
    model(condense_status=400)

    run, out, error = run_check(shop, "--case", "condensation_threshold")

    case = cases_of(run)["condensation_threshold"]
    assert error is not None and case["status"] == "fail"
    assert "condensation ran and the core covers turn 1" in failed_checks(case)
    check = next(c for c in case["checks"] if c["name"].startswith("condensation ran"))
    assert "the model could not condense" in check["detail"]
    assert Conversation.objects.count() == 0


def test_a_card_number_in_the_owners_texts_fails_the_forgetting_case(shop, model):
    shop.pinned_conventions = "Test payments use the card 4111 1111 1111 1111."
    shop.save()

    run, out, error = run_check(shop, "--case", "forgetting")

    case = cases_of(run)["forgetting"]
    assert failed_checks(case) == [
        "the card number and the password are absent from every table",
        "the card number and the password are absent from every request",
    ], out
    assert "sites.Site.pinned_conventions (1)" in case["checks"][0]["detail"]
    assert error is not None


def test_a_grader_that_invents_evidence_is_not_believed(shop, model):
    model(grader="liar")
    run, _, error = run_check(shop, "--case", "back_reference")
    case = cases_of(run)["back_reference"]
    assert case["grade"]["verdict"] == "invalid" and case["status"] == "warn"

    model(grader="broken")
    run, _, _ = run_check(shop, "--case", "back_reference")
    assert (
        cases_of(run)["back_reference"]["grade"]["reason"] == "The grader did not reply with JSON."
    )


def test_demo_mode_is_refused_with_a_clear_message(shop, settings):
    settings.DEMO_MODE = True
    with pytest.raises(CommandError, match="demo mode"):
        call_command("golive_check", f"--site={shop.key}", stdout=io.StringIO())
    assert not GoliveRun.objects.exists() and not Conversation.objects.exists()


def test_an_unknown_site_is_named(db):
    with pytest.raises(CommandError, match="No site with the key 'nope'"):
        call_command("golive_check", "--site", "nope", stdout=io.StringIO())


def test_a_crashed_runs_conversations_go_with_the_next_run(shop, model):
    left = visitor_message_receive(
        site_id=shop.pk, token=None, client_id="x", text="Hello from a run that crashed"
    )[1]
    GoliveRun.objects.create(site=shop, status=GoliveRun.Status.ERROR, conversation_ids=[left.pk])
    going = visitor_message_receive(
        site_id=shop.pk, token=None, client_id="y", text="Hello from a run still going"
    )[1]
    GoliveRun.objects.create(
        site=shop, status=GoliveRun.Status.RUNNING, conversation_ids=[going.pk]
    )

    run_check(shop, "--case", "forgetting")

    assert list(Conversation.objects.values_list("pk", flat=True)) == [going.pk]


def test_site_keys_never_look_like_an_option():
    """A key starting with "-" made `golive_check --site KEY` fail (1 site in 64)."""
    from chatwidget.sites.models import new_site_key

    assert not any(new_site_key().startswith("-") for _ in range(2000))


def test_the_check_is_a_rehearsal_no_webhook_and_no_staff_mail(shop, model, settings):
    """Issue 25: the check's throw-away visitors fired the site's real webhooks (and left
    delivery rows) and e-mailed staff about a case that was gone seconds later. A real
    visitor afterwards still reaches both."""
    from django.core import mail

    from chatwidget.celery import app as celery_app
    from chatwidget.integrations.emit import webhook_hint_clear
    from chatwidget.integrations.models import Webhook, WebhookDelivery, WebhookEvent
    from handover.services import handover_request
    from tests.integrations.test_webhooks import Receiver

    settings.HANDOVER_NOTIFY_EMAIL = "team@shop.test"
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        with Receiver([]) as receiver:
            Webhook.objects.create(
                site=shop, url=receiver.url, events=list(WebhookEvent.values), include_text=True
            )
            webhook_hint_clear(site_id=shop.pk)
            run, out, error = run_check(shop, "--case", "handover", "--case", "forgetting")
            assert error is None, out
            assert cases_of(run)["handover"]["status"] != "error"
            assert receiver.seen == []
            assert WebhookDelivery.objects.count() == 0
            assert mail.outbox == []

            real = visitor_message_receive(
                site_id=shop.pk, token=None, client_id="real-1", text="Hello"
            )[1]
            handover_request(conversation_id=real.pk, trigger="visitor")
            events = set(WebhookDelivery.objects.values_list("event", flat=True))
            assert events == {"conversation.started", "case.waiting"}, "a real visitor: sent"
            assert len(mail.outbox) == 1
    finally:
        celery_app.conf.task_always_eager = eager
