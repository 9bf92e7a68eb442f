"""Replay: POST /api/webhooks/<id>/logs/<log_id>/resend sends an event again; POST .../recover re-sends
every failed delivery since a time. Each re-send is a new log entry naming the entry it re-sends
(``resend_of``), delivered to a real receiver with the event's own id."""
import json
from datetime import datetime, timedelta, timezone

import pytest

from tests.support import wait_until
from tests.webhooks import test_webhooks as shared
from tests.webhooks.test_webhooks import create_resume, logs, verified

receiver, hook = shared.receiver, shared.hook  # the fixtures


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def settled(client, hook_id, count):
    """The log once it has ``count`` entries, none with an attempt still to come."""
    return wait_until(lambda: (entries := logs(client, hook_id)) and len(entries) == count and all(
        "delivered_at" in e or (e["attempts"] == 4 and e["next_retry_at"] is None) for e in entries) and entries,
        timeout=30)


def failed_deliveries(client, hook, receiver, count):
    """``count`` new events whose four attempts all failed (500): the whole log, newest first."""
    logged, received = len(logs(client, hook["id"])), len(receiver.requests)
    receiver.statuses = [500] * (4 * count)
    for i in range(count):
        create_resume(client, f"Failing {i}")
    receiver.wait_for(received + 4 * count, timeout=30)
    return settled(client, hook["id"], logged + count)


def test_resend_sends_a_delivered_event_again_as_a_new_log_entry(client, hook, receiver):
    create_resume(client)
    [first] = receiver.wait_for(1)
    [original] = settled(client, hook["id"], 1)

    response = client.post(f"/api/webhooks/{hook['id']}/logs/{original['id']}/resend")
    assert response.status_code == 202, response.get_json()
    entry = response.get_json()["data"]
    assert entry["resend_of"] == original["id"] and entry["id"] != original["id"]
    assert (entry["event_id"], entry["event_type"], entry["attempts"]) == (original["event_id"], "resume.created", 0)

    _, again = receiver.wait_for(2)
    assert verified(again) == verified(first)  # the same event, id included, signed anew
    assert again["headers"]["webhook-id"] == original["event_id"]
    newest, oldest = settled(client, hook["id"], 2)
    assert (newest["id"], newest["resend_of"], newest["status_code"]) == (entry["id"], original["id"], 200)
    assert "delivered_at" in newest and oldest == original and "resend_of" not in oldest


def test_resend_sends_a_failed_event_again(client, hook, receiver):
    [failed] = failed_deliveries(client, hook, receiver, 1)
    assert "delivered_at" not in failed
    response = client.post(f"/api/webhooks/{hook['id']}/logs/{failed['id']}/resend")
    assert response.status_code == 202
    receiver.wait_for(5)
    newest, _ = settled(client, hook["id"], 2)
    assert newest["resend_of"] == failed["id"] and newest["status_code"] == 200 and newest["attempts"] == 1


def test_recover_resends_each_failed_event_once(client, hook, receiver):
    since = datetime.now(timezone.utc) - timedelta(seconds=1)
    create_resume(client, "Delivered")
    receiver.wait_for(1)
    settled(client, hook["id"], 1)
    failed = failed_deliveries(client, hook, receiver, 2)[:2]  # the log is newest first
    failed_ids = {e["id"] for e in failed}

    response = client.post(f"/api/webhooks/{hook['id']}/recover", json={"since": iso(since)})
    assert response.status_code == 202, response.get_json()
    assert response.get_json()["data"] == {"count": 2}
    requests = receiver.wait_for(1 + 8 + 2)
    assert {verified(r)["id"] for r in requests[-2:]} == {e["event_id"] for e in failed}
    entries = settled(client, hook["id"], 5)
    resends = [e for e in entries if "resend_of" in e]
    assert {e["resend_of"] for e in resends} == failed_ids and all("delivered_at" in e for e in resends)

    # Re-sent successfully: not again.
    again = client.post(f"/api/webhooks/{hook['id']}/recover", json={"since": iso(since)})
    assert again.status_code == 202 and again.get_json()["data"] == {"count": 0}


def test_recover_leaves_out_failures_before_since(client, hook, receiver):
    failed_deliveries(client, hook, receiver, 1)
    response = client.post(f"/api/webhooks/{hook['id']}/recover", json={"since": iso(datetime.now(timezone.utc))})
    assert response.status_code == 202 and response.get_json()["data"] == {"count": 0}
    assert len(logs(client, hook["id"])) == 1


@pytest.mark.parametrize("body", [
    {}, {"since": None}, {"since": "yesterday"}, {"since": 1700000000}, {"since": "2026-11-21T08:30:00"},
    {"since": timedelta(minutes=5)}, {"since": -timedelta(days=31)}, {"since": timedelta(0), "extra": 1},
])
def test_recover_refuses_a_bad_since(client, hook, body):
    if isinstance(body.get("since"), timedelta):  # from now as the test runs, not as it was collected
        body = {**body, "since": iso(datetime.now(timezone.utc) + body["since"])}
    response = client.post(f"/api/webhooks/{hook['id']}/recover", json=body)
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["code"] == "VALIDATION_ERROR"
    assert response.get_json()["details"]["field"] == ("extra" if "extra" in body else "since")


def test_resend_and_recover_of_a_switched_off_webhook_are_409(client, hook, receiver):
    create_resume(client)
    [entry] = settled(client, hook["id"], 1)
    client.put(f"/api/webhooks/{hook['id']}", json={"active": False})
    for path, body in ((f"logs/{entry['id']}/resend", None), ("recover", {"since": iso(datetime.now(timezone.utc))})):
        response = client.post(f"/api/webhooks/{hook['id']}/{path}", json=body)
        assert response.status_code == 409 and response.get_json()["code"] == "WEBHOOK_DISABLED", path
    assert len(logs(client, hook["id"])) == 1 and len(receiver.requests) == 1


def test_resend_of_an_unknown_or_another_webhooks_entry_is_not_found(app, client, owner, hook, receiver,
                                                                     make_user):
    create_resume(client)
    [entry] = settled(client, hook["id"], 1)
    second = client.post("/api/webhooks", json={"url": receiver.url, "events": ["resume.deleted"]}).get_json()
    for webhook_id, log_id, code in ((hook["id"], "f" * 24, "NOT_FOUND"), (hook["id"], "a%20b", "NOT_FOUND"),
                                     (second["data"]["id"], entry["id"], "NOT_FOUND"),
                                     ("f" * 24, entry["id"], "WEBHOOK_NOT_FOUND")):
        response = client.post(f"/api/webhooks/{webhook_id}/logs/{log_id}/resend")
        assert response.status_code == 404 and response.get_json()["code"] == code, (webhook_id, log_id)
    other = app.test_client()
    user = make_user()
    other.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    for path, body in ((f"logs/{entry['id']}/resend", None), ("recover", {"since": iso(datetime.now(timezone.utc))})):
        response = other.post(f"/api/webhooks/{hook['id']}/{path}", json=body)
        assert response.status_code == 404 and response.get_json()["code"] == "WEBHOOK_NOT_FOUND"
    assert len(receiver.requests) == 1 and json.loads(receiver.requests[0]["body"])["type"] == "resume.created"


def test_a_webhook_whose_entry_was_re_sent_twice_is_deleted_with_its_whole_log(client, hook, receiver, query):
    from app.webhooks.models import Delivery

    create_resume(client)
    receiver.wait_for(1)
    [original] = settled(client, hook["id"], 1)
    for _ in range(2):
        assert client.post(f"/api/webhooks/{hook['id']}/logs/{original['id']}/resend").status_code == 202
    settled(client, hook["id"], 3)

    response = client.delete(f"/api/webhooks/{hook['id']}")

    assert response.status_code == 200, response.get_json()
    assert query(lambda s: s.query(Delivery).filter_by(webhook_id=hook["id"]).count()) == 0
