"""Endpoints that are gone: a 410 answer disables the webhook at once; every attempt failing for 5 days
(the WEBHOOK_DISABLE_AFTER setting; the app's clock is moved, nobody waits) disables it too. The owner
gets one e-mail either way, GET /api/webhooks says why, and PUT active: true switches it on again."""
from datetime import datetime, timezone

from tests.auth.support import clock  # noqa: F401  (fixture)
from tests.support import html_part, text_part, wait_until
from tests.webhooks import test_webhooks as shared
from tests.webhooks.test_webhooks import create_resume, logs, verified

from app.events.models import Event
from app.webhooks import service
from app.webhooks.models import Delivery, Webhook

receiver, hook = shared.receiver, shared.hook  # the fixtures


def registration(client, hook_id):
    [webhook] = [w for w in client.get("/api/webhooks").get_json()["data"] if w["id"] == hook_id]
    return webhook


def disabled(client, hook_id):
    webhook = registration(client, hook_id)
    return webhook if webhook["disabledReason"] else None


def sweep(app):
    """A run of the periodic sweep, by this process's clock."""
    with app.app_context():
        return service.sweep()


def test_a_410_disables_the_webhook_at_once_and_mails_the_owner(client, owner, hook, receiver, mailbox):
    receiver.statuses = [410]
    before = datetime.now(timezone.utc)
    create_resume(client)
    receiver.wait_for(1)
    webhook = wait_until(lambda: disabled(client, hook["id"]))
    assert (webhook["active"], webhook["disabledReason"]) == (False, "gone")
    assert before <= datetime.fromisoformat(webhook["disabledAt"].replace("Z", "+00:00")) <= datetime.now(timezone.utc)

    [entry] = logs(client, hook["id"])  # no retry is coming, and the log says why
    assert (entry["status_code"], entry["attempts"], entry["next_retry_at"]) == (410, 1, None)
    assert "410" in entry["error"] and "disabled" in entry["error"]

    mail = mailbox.wait_for(owner["email"])
    assert mail["Subject"] == "Your webhook was disabled"
    text = text_part(mail)
    assert hook["url"] in text and "410 Gone" in text and "http://localhost:5000/webhooks" in text
    assert 'href="http://localhost:5000/webhooks"' in html_part(mail)
    assert len(mailbox.to(owner["email"])) == 1


def test_a_410_on_a_retry_stops_the_retries(client, owner, hook, receiver, mailbox):
    receiver.statuses = [500, 410]
    create_resume(client)
    receiver.wait_for(2)
    assert wait_until(lambda: disabled(client, hook["id"]))["disabledReason"] == "gone"
    entry = wait_until(lambda: (e := logs(client, hook["id"])[0])["attempts"] == 2 and e)
    assert (entry["status_code"], entry["next_retry_at"]) == (410, None)
    mailbox.wait_for(owner["email"])


def test_a_chinese_owner_is_mailed_in_chinese(client, owner, hook, receiver, mailbox):
    assert client.put("/api/account", json={"preferences": {"language": "zh-cn"}}).status_code == 200
    receiver.statuses = [410]
    create_resume(client)
    mail = mailbox.wait_for(owner["email"])
    assert mail["Subject"] == "您的 Webhook 已被停用"
    text = text_part(mail)
    assert hook["url"] in text and "410 Gone" in text and "重新启用" in text and "Hello" not in text


def test_a_webhook_whose_every_attempt_failed_for_5_days_is_disabled(
        app, client, owner, hook, receiver, mailbox, query, clock):  # noqa: F811
    receiver.statuses = [500] * 10
    entry = client.post(f"/api/webhooks/{hook['id']}/test").get_json()["data"]
    assert (entry["attempts"], entry["status_code"]) == (1, 500)
    wait_until(lambda: query(lambda s: s.get(Webhook, hook["id"]).failing_since))  # its run of failures started

    clock.advance(days=4, hours=23, minutes=59)
    assert sweep(app)["disabled"] == 0 and registration(client, hook["id"])["active"] is True
    clock.advance(minutes=1, seconds=1)
    sweep(app)
    webhook = wait_until(lambda: disabled(client, hook["id"]))
    assert (webhook["active"], webhook["disabledReason"]) == (False, "failing")
    entry = wait_until(lambda: (e := logs(client, hook["id"])[0])["next_retry_at"] is None and e)
    assert "delivered_at" not in entry  # its retries stopped

    mail = mailbox.wait_for(owner["email"])
    assert mail["Subject"] == "Your webhook was disabled"
    assert hook["url"] in text_part(mail) and "failed for 5 days" in text_part(mail)
    assert sweep(app)["disabled"] == 0
    assert len(mailbox.to(owner["email"])) == 1


def test_a_success_ends_the_run_of_failures(app, client, hook, receiver, query, clock):  # noqa: F811
    receiver.statuses = [500]
    client.post(f"/api/webhooks/{hook['id']}/test")
    wait_until(lambda: "delivered_at" in logs(client, hook["id"])[0])  # its retry succeeded
    wait_until(lambda: query(lambda s: s.get(Webhook, hook["id"]).failing_since) is None)
    clock.advance(days=6)
    assert sweep(app)["disabled"] == 0 and registration(client, hook["id"])["active"] is True


def test_re_enabling_delivers_new_events_but_not_those_of_while_it_was_off(client, owner, hook, receiver, query):
    receiver.statuses = [410]
    create_resume(client, "Before")
    wait_until(lambda: disabled(client, hook["id"]))

    create_resume(client, "While disabled")
    wait_until(lambda: query(lambda s: s.query(Event).filter(Event.dispatched_at.is_(None)).count() == 0))
    assert query(lambda s: s.query(Delivery).count()) == 1  # the 410 only

    response = client.put(f"/api/webhooks/{hook['id']}", json={"active": True})
    assert response.status_code == 200
    webhook = response.get_json()["data"]
    assert (webhook["active"], webhook["disabledReason"], webhook["disabledAt"]) == (True, None, None)
    assert query(lambda s: s.get(Webhook, hook["id"]).failing_since) is None

    resume_id = create_resume(client, "After")
    requests = receiver.wait_for(2)
    event = verified(requests[1])
    assert event["type"] == "resume.created" and event["data"]["resume"]["id"] == resume_id
    wait_until(lambda: "delivered_at" in logs(client, hook["id"])[0])
    assert [e["event_type"] for e in logs(client, hook["id"])] == ["resume.created"] * 2


def test_switching_off_by_hand_has_no_reason_and_sends_no_mail(client, owner, hook, mailbox):
    webhook = client.put(f"/api/webhooks/{hook['id']}", json={"active": False}).get_json()["data"]
    assert (webhook["active"], webhook["disabledReason"], webhook["disabledAt"]) == (False, None, None)
    assert mailbox.to(owner["email"]) == []
