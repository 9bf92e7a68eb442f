"""Webhooks: registrations, signed deliveries to a real receiver, retries, the log, the SSRF guard."""
import hashlib
import hmac
import json
import time
from datetime import datetime, timedelta, timezone

import pytest

from tests.support import Receiver, wait_until

from app.events.models import Event
from app.webhooks.models import Delivery

ALL_EVENTS = ["resume.created", "resume.updated", "resume.deleted", "resume.shared", "resume.exported",
              "user.registered", "user.profile_updated", "user.subscription_changed"]
SECRET = "a-receivers-secret-of-32-chars!!"


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.close()


@pytest.fixture
def hook(client, owner, receiver):
    """A webhook of the signed-in owner for every event, posting to ``receiver``."""
    response = client.post("/api/webhooks", json={"url": receiver.url, "events": ALL_EVENTS, "secret": SECRET})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]


def create_resume(client, title="Backend engineer"):
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    response = client.post("/api/resumes", json={"title": title, "templateId": template})
    assert response.status_code == 201
    return response.get_json()["data"]["id"]


def verified(request: dict, secret: str = SECRET) -> dict:
    """The event of a received request, after checking its signature as a receiver would."""
    timestamp = request["headers"]["x-service-timestamp"]
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + request["body"], hashlib.sha256).hexdigest()
    assert hmac.compare_digest(request["headers"]["x-service-signature"], f"sha256={expected}")
    assert abs(int(timestamp) - time.time()) <= 300
    return json.loads(request["body"])


def logs(client, hook_id, **query):
    response = client.get(f"/api/webhooks/{hook_id}/logs", query_string=query)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]


# Registrations ------------------------------------------------------------------
def test_a_registration_has_the_contracts_fields(client, owner, receiver):
    response = client.post("/api/webhooks", json={"url": receiver.url, "events": ["resume.created"],
                                                  "secret": SECRET, "active": False})
    assert response.status_code == 201
    webhook = response.get_json()["data"]
    assert list(webhook) == ["id", "url", "events", "secret", "active", "createdAt", "previousSecretExpiresAt",
                             "disabledReason", "disabledAt"]
    assert (webhook["url"], webhook["events"], webhook["secret"], webhook["active"]) == (
        receiver.url, ["resume.created"], SECRET, False)
    assert (webhook["previousSecretExpiresAt"], webhook["disabledReason"], webhook["disabledAt"]) == (None, None, None)
    assert client.get("/api/webhooks").get_json()["data"] == [webhook]


def test_a_secret_is_generated_when_none_is_given(client, owner, receiver):
    webhook = client.post("/api/webhooks", json={"url": receiver.url, "events": ["resume.created"]}).get_json()
    assert len(webhook["data"]["secret"]) >= 16 and webhook["data"]["active"] is True


@pytest.mark.parametrize("body,field", [
    ({"events": ["resume.created"]}, "url"),
    ({"url": "ftp://example.com/hook", "events": ["resume.created"]}, "url"),
    ({"url": "not a url", "events": ["resume.created"]}, "url"),
    ({"url": "https://example.com/hook"}, "events"),
    ({"url": "https://example.com/hook", "events": []}, "events"),
    ({"url": "https://example.com/hook", "events": ["resume.printed"]}, "events.0"),
    ({"url": "https://example.com/hook", "events": "resume.created"}, "events"),
    ({"url": "https://example.com/hook", "events": ["resume.created"], "secret": "short"}, "secret"),
    ({"url": "https://example.com/hook", "events": ["resume.created"], "active": "yes"}, "active"),
    ({"url": "https://example.com/hook", "events": ["resume.created"], "extra": 1}, "extra"),
])
def test_invalid_registrations_name_the_field(client, owner, body, field):
    response = client.post("/api/webhooks", json=body)
    assert response.status_code == 400 and response.get_json()["details"]["field"] == field


def test_a_user_has_at_most_ten_webhooks(client, owner, receiver):
    for _ in range(10):
        assert client.post("/api/webhooks", json={"url": receiver.url, "events": ["resume.created"]}).status_code == 201
    response = client.post("/api/webhooks", json={"url": receiver.url, "events": ["resume.created"]})
    assert response.status_code == 429 and response.get_json()["code"] == "WEBHOOK_LIMIT_EXCEEDED"


def test_updates_apply_the_given_fields(client, hook):
    response = client.put(f"/api/webhooks/{hook['id']}", json={"active": False, "events": ["resume.deleted"]})
    assert response.status_code == 200
    updated = response.get_json()["data"]
    assert (updated["active"], updated["events"], updated["url"], updated["secret"]) == (
        False, ["resume.deleted"], hook["url"], SECRET)


def test_delete_removes_the_webhook(client, hook):
    assert client.delete(f"/api/webhooks/{hook['id']}").status_code == 200
    assert client.get("/api/webhooks").get_json()["data"] == []
    assert client.delete(f"/api/webhooks/{hook['id']}").get_json()["code"] == "WEBHOOK_NOT_FOUND"


@pytest.mark.parametrize("method,suffix", [("put", ""), ("delete", ""), ("post", "/test"), ("get", "/logs")])
def test_another_users_webhook_is_not_found(app, hook, make_user, method, suffix):
    other = app.test_client()
    user = make_user()
    other.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    response = getattr(other, method)(f"/api/webhooks/{hook['id']}{suffix}",
                                      json={"active": False} if method == "put" else None)
    assert response.status_code == 404 and response.get_json()["code"] == "WEBHOOK_NOT_FOUND"


def test_webhook_endpoints_need_a_session(app):
    assert app.test_client().get("/api/webhooks").status_code == 401


# The SSRF guard ------------------------------------------------------------------
@pytest.mark.parametrize("url", [
    "http://127.0.0.1/hook", "http://localhost:8080/hook", "http://[::1]/hook", "http://10.1.2.3/",
    "http://172.16.0.1/", "http://192.168.1.10/", "http://169.254.169.254/latest/meta-data/", "http://0.0.0.0/",
    "http://224.0.0.1/", "http://240.0.0.1/", "http://[::ffff:127.0.0.1]/", "http://[fe80::1]/", "http://[fc00::1]/",
])
def test_private_addresses_are_refused_at_registration(make_app, owner, url):
    strict = make_app(WEBHOOK_ALLOW_PRIVATE_TARGETS=None)
    client = strict.test_client()
    client.post("/api/auth/signin", json={"email": owner["email"], "password": owner["password"]})
    response = client.post("/api/webhooks", json={"url": url, "events": ["resume.created"]})
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["code"] == "VALIDATION_ERROR" and response.get_json()["details"]["field"] == "url"


def test_a_private_address_is_refused_again_at_delivery_time(app, make_app, client, hook, receiver, query):
    create_resume(client)
    receiver.wait_for(1)
    event_id = query(lambda s: s.query(Event).filter_by(type="resume.created").one().id)

    def fresh_delivery(session):
        session.query(Delivery).delete()
        session.add(Delivery(id="f" * 24, webhook_id=hook["id"], event_id=event_id, event_type="resume.created",
                             url=hook["url"], created_at=datetime.now(timezone.utc)))
        session.commit()

    query(fresh_delivery)
    strict = make_app(WEBHOOK_ALLOW_PRIVATE_TARGETS=None)
    with strict.app_context():
        from app.webhooks import service

        with pytest.raises(service.DeliveryFailed):
            service.deliver("f" * 24)
    delivery = query(lambda s: s.get(Delivery, "f" * 24))
    assert delivery.attempts == 1 and delivery.delivered_at is None and "address" in delivery.error
    assert len(receiver.requests) == 1  # only the earlier, allowed delivery


# Deliveries -------------------------------------------------------------------------
def test_an_event_is_posted_signed_with_the_contracts_envelope(client, owner, hook, receiver):
    resume_id = create_resume(client, "Signed")
    [request] = receiver.wait_for(1)
    assert request["headers"]["content-type"] == "application/json"
    assert request["headers"]["user-agent"].startswith("ResumeService-Webhooks/")
    event = verified(request)
    assert list(event) == ["id", "type", "created", "data", "api_version"]
    assert event["type"] == "resume.created" and event["api_version"] == "2026-11-01"
    resume = event["data"]["resume"]
    assert (resume["id"], resume["title"], resume["status"], resume["user_id"]) == (
        resume_id, "Signed", "DRAFT", owner["id"])
    assert set(resume) == {"id", "title", "status", "user_id", "template_id", "created_at"}

    wait_until(lambda: logs(client, hook["id"]) and "delivered_at" in logs(client, hook["id"])[0])
    [entry] = logs(client, hook["id"])
    assert entry["event_id"] == event["id"] and entry["event_type"] == "resume.created"
    assert (entry["status_code"], entry["attempts"], entry["next_retry_at"], entry["url"]) == (
        200, 1, None, receiver.url)
    assert "error" not in entry and "last_attempt_at" not in entry and entry["response_time"] >= 0


def test_only_subscribed_types_of_active_webhooks_are_delivered(client, owner, receiver):
    client.post("/api/webhooks", json={"url": receiver.url, "events": ["resume.deleted"]})
    client.post("/api/webhooks", json={"url": receiver.url + "off", "events": ["resume.created"], "active": False})
    resume_id = create_resume(client)
    client.delete(f"/api/resumes/{resume_id}")
    [request] = receiver.wait_for(1)
    time.sleep(0.5)
    assert len(receiver.requests) == 1 and json.loads(request["body"])["type"] == "resume.deleted"


def test_a_failed_delivery_is_retried_after_about_one_then_two_seconds(client, hook, receiver):
    receiver.statuses = [500, 500, 200]
    create_resume(client)
    requests = receiver.wait_for(3)
    ids = {verified(r)["id"] for r in requests}
    assert len(ids) == 1  # the same event id on every attempt
    first_gap, second_gap = requests[1]["at"] - requests[0]["at"], requests[2]["at"] - requests[1]["at"]
    assert 0.95 <= first_gap <= 3.2 and 1.95 <= second_gap <= 4.2, (first_gap, second_gap)
    wait_until(lambda: "delivered_at" in logs(client, hook["id"])[0])
    entry = logs(client, hook["id"])[0]
    assert (entry["attempts"], entry["status_code"], entry["next_retry_at"]) == (3, 200, None)


def test_a_delivery_gives_up_after_four_attempts(client, hook, receiver):
    receiver.statuses = [500] * 10
    create_resume(client)
    receiver.wait_for(4, timeout=30)
    wait_until(lambda: logs(client, hook["id"])[0]["attempts"] == 4 and
               logs(client, hook["id"])[0]["next_retry_at"] is None, timeout=10)
    time.sleep(1.5)
    assert len(receiver.requests) == 4
    entry = logs(client, hook["id"])[0]
    assert entry["status_code"] == 500 and "HTTP 500" in entry["error"] and entry["last_attempt_at"].endswith("Z")
    assert "delivered_at" not in entry


def test_while_retries_are_left_the_log_says_when_the_next_one_is(client, hook, receiver):
    receiver.statuses = [503] * 10
    create_resume(client)
    receiver.wait_for(1)
    wait_until(lambda: logs(client, hook["id"])[0]["attempts"] >= 1)
    entry = logs(client, hook["id"])[0]
    assert entry["attempts"] == 1 and entry["next_retry_at"] is not None and entry["status_code"] == 503


@pytest.mark.parametrize("status", [301, 400, 410])
def test_other_statuses_are_failures_and_redirects_are_not_followed(app, hook, receiver, query, status):
    receiver.statuses = [status]
    from app.events import outbox

    with app.test_request_context():
        event = outbox.record_event("resume.deleted", hook_owner(query, hook), {"resume": {"id": "x"}})
        from app.extensions import db

        db.session.commit()
        event_id = event.id
    receiver.wait_for(1)
    wait_until(lambda: query(lambda s: s.query(Delivery).filter_by(event_id=event_id).one().attempts) >= 1)
    delivery = query(lambda s: s.query(Delivery).filter_by(event_id=event_id).one())
    assert delivery.status_code == status and delivery.delivered_at is None
    assert all(r["path"] == "/" for r in receiver.requests)  # /redirected was never asked for


def hook_owner(query, hook):
    from app.webhooks.models import Webhook

    return query(lambda s: s.get(Webhook, hook["id"]).user_id)


def test_a_time_out_is_logged_as_the_time_limit(make_app, hook, query):
    slow = Receiver(delay=3)
    try:
        def point_at_slow(session):
            from app.webhooks.models import Webhook

            session.get(Webhook, hook["id"]).url = slow.url
            session.add(Event(id="e" * 24, type="resume.deleted", user_id=session.get(Webhook, hook["id"]).user_id,
                              data={}, created_at=datetime.now(timezone.utc), dispatched_at=datetime.now(timezone.utc)))
            session.flush()
            session.add(Delivery(id="d" * 24, webhook_id=hook["id"], event_id="e" * 24, event_type="resume.deleted",
                                 url=slow.url, created_at=datetime.now(timezone.utc)))
            session.commit()

        query(point_at_slow)
        short = make_app(WEBHOOK_TIMEOUT="1")
        with short.app_context():
            from app.webhooks import service

            started = time.monotonic()
            with pytest.raises(service.DeliveryFailed):
                service.deliver("d" * 24)
            assert time.monotonic() - started < 2.5
        delivery = query(lambda s: s.get(Delivery, "d" * 24))
        assert delivery.response_time == 1000 and delivery.status_code is None and "1 s" in delivery.error
    finally:
        slow.close()


# The test endpoint and the log ------------------------------------------------------
def test_the_test_endpoint_answers_its_delivery_log_entry(client, hook, receiver):
    response = client.post(f"/api/webhooks/{hook['id']}/test")
    assert response.status_code == 200
    entry = response.get_json()["data"]
    assert (entry["event_type"], entry["attempts"], entry["status_code"]) == ("webhook.test", 1, 200)
    assert "delivered_at" in entry
    [request] = receiver.wait_for(1)
    event = verified(request)
    assert event["type"] == "webhook.test" and event["id"] == entry["event_id"]


def test_a_failed_test_delivery_is_logged_and_retried(client, hook, receiver):
    receiver.statuses = [500, 200]
    entry = client.post(f"/api/webhooks/{hook['id']}/test").get_json()["data"]
    assert (entry["attempts"], entry["status_code"]) == (1, 500) and entry["next_retry_at"] is not None
    receiver.wait_for(2)
    wait_until(lambda: "delivered_at" in logs(client, hook["id"])[0])


def test_the_log_is_newest_first_and_limited(client, hook, receiver, query):
    for i in range(3):
        create_resume(client, f"R{i}")
    receiver.wait_for(3)
    wait_until(lambda: len(logs(client, hook["id"])) == 3)
    newest_first = query(lambda s: [e.id for e in s.query(Event).filter_by(type="resume.created")
                                    .order_by(Event.created_at.desc())])
    assert [e["event_id"] for e in logs(client, hook["id"])] == newest_first
    assert [e["event_id"] for e in logs(client, hook["id"], limit=2)] == newest_first[:2]


@pytest.mark.parametrize("limit", ["0", "101", "x", "2.5"])
def test_bad_log_limits_are_validation_errors(client, hook, limit):
    response = client.get(f"/api/webhooks/{hook['id']}/logs?limit={limit}")
    assert response.status_code == 400 and response.get_json()["details"]["field"] == "limit"


# The outbox and the events -------------------------------------------------------------
def events_of(query, user_id, event_type):
    return query(lambda s: [e.data for e in s.query(Event).filter_by(user_id=user_id, type=event_type)
                            .order_by(Event.created_at)])


def test_each_operation_records_its_event_with_its_data_shape(app, client, owner, query):
    resume_id = create_resume(client, "Shapes")
    client.put(f"/api/resumes/{resume_id}", json={"title": "Shapes 2", "status": "PUBLISHED"})
    share = client.post(f"/api/resumes/{resume_id}/share", json={}).get_json()["data"]
    client.post(f"/api/resumes/{resume_id}/export", json={"format": "txt"})
    client.put("/api/account", json={"name": "Renamed"})
    client.delete(f"/api/resumes/{resume_id}")

    [registered] = events_of(query, owner["id"], "user.registered")
    assert registered["user"]["id"] == owner["id"]
    assert set(registered["user"]) == {"id", "email", "name", "created_at"}
    [updated] = events_of(query, owner["id"], "resume.updated")
    assert updated["resume"]["changed_fields"] == ["title", "status"] and updated["resume"]["title"] == "Shapes 2"
    assert set(updated["resume"]) == {"id", "title", "status", "user_id", "template_id", "updated_at",
                                      "changed_fields"}
    [shared] = events_of(query, owner["id"], "resume.shared")
    assert shared == {"resume": {"id": resume_id, "user_id": owner["id"]},
                      "share": {"id": share["id"], "share_url": share["shareUrl"], "is_enabled": True,
                                "has_password": False, "expires_at": None}}
    [exported] = events_of(query, owner["id"], "resume.exported")
    assert exported["export"]["format"] == "txt"
    [profile] = events_of(query, owner["id"], "user.profile_updated")
    assert profile["user"]["changed_fields"] == ["name"]
    [deleted] = events_of(query, owner["id"], "resume.deleted")
    assert set(deleted["resume"]) == {"id", "user_id", "deleted_at"} and deleted["resume"]["id"] == resume_id


def test_enabling_a_disabled_share_records_resume_shared_again(client, owner, query):
    resume_id = create_resume(client)
    client.post(f"/api/resumes/{resume_id}/share", json={"isEnabled": False})
    assert events_of(query, owner["id"], "resume.shared") == []
    client.put(f"/api/resumes/{resume_id}/share", json={"isEnabled": True})
    client.put(f"/api/resumes/{resume_id}/share", json={"allowComments": True})
    assert len(events_of(query, owner["id"], "resume.shared")) == 1


def test_a_refused_change_records_no_event(client, owner, query):
    for i in range(5):
        create_resume(client, f"R{i}")
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    assert client.post("/api/resumes", json={"title": "Sixth", "templateId": template}).status_code == 429
    assert len(events_of(query, owner["id"], "resume.created")) == 5


def test_the_sweeper_dispatches_an_event_whose_dispatch_was_lost(app, hook, receiver, query):
    def lost(session):
        from app.webhooks.models import Webhook

        webhook = session.get(Webhook, hook["id"])
        webhook.created_at = datetime.now(timezone.utc) - timedelta(minutes=10)  # registered before the event
        user_id = webhook.user_id
        session.add(Event(id="c" * 24, type="resume.deleted", user_id=user_id, data={"resume": {"id": "gone"}},
                          created_at=datetime.now(timezone.utc) - timedelta(minutes=5)))
        session.commit()

    query(lost)  # written as a crash between the commit and the enqueue would leave it
    jobs = app.extensions["jobs"]
    jobs.connection.delete("periodic:sweep-webhook-events")
    with app.app_context():
        jobs.enqueue_due_periodic_jobs()
    [request] = receiver.wait_for(1)
    assert verified(request)["id"] == "c" * 24


def test_a_webhook_hears_only_of_events_after_its_registration(app, client, owner, receiver, query):
    def waiting_event(session):  # recorded before the webhook, not yet relayed
        session.add(Event(id="b" * 24, type="resume.deleted", user_id=owner["id"], data={},
                          created_at=datetime.now(timezone.utc) - timedelta(seconds=5)))
        session.commit()

    query(waiting_event)
    hook = client.post("/api/webhooks", json={"url": receiver.url, "events": ALL_EVENTS}).get_json()["data"]
    create_resume(client)
    [request] = receiver.wait_for(1)
    time.sleep(0.5)
    assert len(receiver.requests) == 1 and json.loads(request["body"])["type"] == "resume.created"
    assert [e["event_type"] for e in logs(client, hook["id"])] == ["resume.created"]
