"""``Idempotency-Key`` on the creating POSTs: replays, reuse with another body, per user, expiry after 24 hours,
and concurrent requests with one key (app.common.idempotency)."""
import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from tests.support import wait_until

from app.billing.models import PaymentIntent
from app.common.idempotency import IdempotencyKey, fingerprint
from app.events.models import Event
from app.queue import DEFAULT, PERIODIC
from app.resumes.models import Export, Resume, Share
from app.webhooks.models import Webhook


@pytest.fixture
def template_id(client):
    return client.get("/api/templates").get_json()["data"][0]["id"]


@pytest.fixture
def user(make_user, login):
    created = make_user()
    login(created)
    return created


def count(query, model, **where) -> int:
    return query(lambda s: s.scalar(select(func.count()).select_from(model).filter_by(**where)))


def events(query, user_id: str) -> int:
    return count(query, Event, user_id=user_id)


def new_resume(client, template_id, title="Mine", key=None) -> dict:
    headers = {"Idempotency-Key": key} if key else {}
    response = client.post("/api/resumes", json={"title": title, "templateId": template_id}, headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]


def assert_replayed(first, again):
    assert again.status_code == first.status_code
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers


# Replays, one endpoint at a time -------------------------------------------------------
def test_create_resume_replays_the_first_answer_and_creates_one_resume(client, user, query, template_id):
    body = {"title": "Once", "templateId": template_id}
    first = client.post("/api/resumes", json=body, headers={"Idempotency-Key": "create-1"})
    assert first.status_code == 201
    before = events(query, user["id"])
    again = client.post("/api/resumes", json=body, headers={"Idempotency-Key": "create-1"})
    assert_replayed(first, again)
    assert count(query, Resume, user_id=user["id"]) == 1
    assert events(query, user["id"]) == before
    # Key order and spacing are not part of the request: the canonical JSON is the same.
    reordered = client.post("/api/resumes", data='{ "templateId": "%s", "title": "Once" }' % template_id,
                            content_type="application/json", headers={"Idempotency-Key": "create-1"})
    assert_replayed(first, reordered)


def test_without_the_header_nothing_changes(client, user, query, template_id):
    new_resume(client, template_id)
    new_resume(client, template_id)
    assert count(query, Resume, user_id=user["id"]) == 2
    assert count(query, IdempotencyKey) == 0


def test_create_webhook_is_registered_once(client, user, query):
    body = {"url": "http://127.0.0.1:9/hook", "events": ["resume.created"]}
    first = client.post("/api/webhooks", json=body, headers={"Idempotency-Key": "hook"})
    assert first.status_code == 201, first.get_json()
    again = client.post("/api/webhooks", json=body, headers={"Idempotency-Key": "hook"})
    assert_replayed(first, again)
    assert count(query, Webhook, user_id=user["id"]) == 1


def test_subscribe_charges_once(client, user, query):
    body = {"planId": "premium", "paymentMethodId": "pm_card_visa"}
    first = client.post("/api/account/subscription", json=body, headers={"Idempotency-Key": "sub"})
    assert first.status_code == 201, first.get_json()
    before = events(query, user["id"])
    again = client.post("/api/account/subscription", json=body, headers={"Idempotency-Key": "sub"})
    assert_replayed(first, again)
    assert count(query, PaymentIntent, user_id=user["id"]) == 1
    assert events(query, user["id"]) == before
    # Without the key, the same request is a new one (and is refused: already subscribed).
    assert client.post("/api/account/subscription", json=body).status_code != 201
    assert count(query, PaymentIntent, user_id=user["id"]) == 1


def test_export_is_stored_once(client, user, query, template_id):
    resume = new_resume(client, template_id)
    path = f"/api/resumes/{resume['id']}/export"
    first = client.post(path, json={"format": "txt"}, headers={"Idempotency-Key": "export"})
    assert first.status_code == 201, first.get_json()
    before = events(query, user["id"])
    again = client.post(path, json={"format": "txt"}, headers={"Idempotency-Key": "export"})
    assert_replayed(first, again)
    assert count(query, Export, resume_id=resume["id"]) == 1
    assert events(query, user["id"]) == before


def test_share_replays_its_created_answer(client, user, query, template_id):
    resume = new_resume(client, template_id)
    path = f"/api/resumes/{resume['id']}/share"
    first = client.post(path, json={"allowComments": True}, headers={"Idempotency-Key": "share"})
    assert first.status_code == 201, first.get_json()
    again = client.post(path, json={"allowComments": True}, headers={"Idempotency-Key": "share"})
    assert_replayed(first, again)  # 201 again, where running it twice would answer 200
    assert count(query, Share, resume_id=resume["id"]) == 1
    # The same key on another resume is another request.
    other = new_resume(client, template_id, title="Other")
    reused = client.post(f"/api/resumes/{other['id']}/share", json={"allowComments": True},
                         headers={"Idempotency-Key": "share"})
    assert reused.status_code == 409
    assert reused.get_json()["code"] == "IDEMPOTENCY_KEY_REUSED"


def test_a_client_error_is_replayed_too(client, user, query):
    body = {"title": "No template", "templateId": "no-such-template"}
    first = client.post("/api/resumes", json=body, headers={"Idempotency-Key": "bad"})
    assert 400 <= first.status_code < 500 and first.status_code != 409, first.get_json()
    again = client.post("/api/resumes", json=body, headers={"Idempotency-Key": "bad"})
    assert_replayed(first, again)
    assert count(query, Resume, user_id=user["id"]) == 0


# Misuse ----------------------------------------------------------------------------
def test_the_same_key_with_another_body_is_409_reused(client, user, query, template_id):
    new_resume(client, template_id, title="First", key="k")
    response = client.post("/api/resumes", json={"title": "Second", "templateId": template_id},
                           headers={"Idempotency-Key": "k"})
    assert response.status_code == 409
    assert response.get_json()["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert response.get_json()["details"] == {"field": "Idempotency-Key"}
    assert count(query, Resume, user_id=user["id"]) == 1


@pytest.mark.parametrize("key", ["", "x" * 256, "caf\u00e9", "tab\there"])
def test_a_malformed_key_is_400(client, user, query, template_id, key):
    response = client.post("/api/resumes", json={"title": "T", "templateId": template_id},
                           headers={"Idempotency-Key": key})
    assert response.status_code == 400
    assert response.get_json()["code"] == "VALIDATION_ERROR"
    assert response.get_json()["details"]["field"] == "Idempotency-Key"
    assert count(query, Resume, user_id=user["id"]) == 0


def test_a_key_of_255_printable_characters_is_fine(client, user, template_id):
    key = "~ !" + "k" * 252
    first = client.post("/api/resumes", json={"title": "T", "templateId": template_id},
                        headers={"Idempotency-Key": key})
    again = client.post("/api/resumes", json={"title": "T", "templateId": template_id},
                        headers={"Idempotency-Key": key})
    assert first.status_code == 201
    assert_replayed(first, again)


def test_keys_are_per_user(app, client, make_user, login, query, template_id):
    ada, bob = make_user(), make_user()
    login(ada)
    mine = new_resume(client, template_id, title="Ada's", key="shared")
    other = app.test_client()
    other.post("/api/auth/signin", json={"email": bob["email"], "password": bob["password"]})
    response = other.post("/api/resumes", json={"title": "Bob's", "templateId": template_id},
                          headers={"Idempotency-Key": "shared"})
    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response.headers
    assert response.get_json()["data"]["id"] != mine["id"]
    assert count(query, Resume, user_id=bob["id"]) == 1


def test_a_key_is_forgotten_after_24_hours(client, user, query, template_id):
    first = new_resume(client, template_id, title="Day one", key="daily")

    def age(session):
        row = session.scalar(select(IdempotencyKey))
        session.execute(update(IdempotencyKey).values(created_at=row.created_at - timedelta(hours=24)))
        session.commit()

    query(age)
    # Another body is no reuse once the key has expired: it is a new request.
    second = new_resume(client, template_id, title="Day two", key="daily")
    assert second["id"] != first["id"]
    assert count(query, Resume, user_id=user["id"]) == 2
    assert count(query, IdempotencyKey) == 1


def test_the_cleanup_job_deletes_expired_keys_on_the_general_lane(app, client, user, query, template_id):
    new_resume(client, template_id, title="Old", key="old")
    new_resume(client, template_id, title="New", key="new")

    def age(session):
        row = session.scalar(select(IdempotencyKey).filter_by(key="old"))
        row.created_at -= timedelta(hours=24)
        session.commit()

    query(age)
    name = "delete-expired-idempotency-keys"
    lane, function, setting = PERIODIC[name]
    assert (lane, function, app.config[setting]) == (DEFAULT, "app.common.idempotency.delete_expired", 3600)
    jobs = app.extensions["jobs"]
    jobs.connection.delete(f"periodic:{name}")  # due now
    with app.app_context():
        jobs.enqueue_due_periodic_jobs()
    wait_until(lambda: count(query, IdempotencyKey, key="old") == 0)
    assert count(query, IdempotencyKey, key="new") == 1
    assert 0 < jobs.connection.ttl(f"periodic:{name}") <= 3600  # not again before the interval


def test_a_key_whose_first_request_runs_is_409_in_use(client, user, query, template_id):
    body = b'{"title": "Busy", "templateId": "%s"}' % template_id.encode()

    def running(session):
        session.add(IdempotencyKey(user_id=user["id"], key="busy", state="running",
                                   fingerprint=fingerprint("POST", "/api/resumes", body)))
        session.commit()

    query(running)
    response = client.post("/api/resumes", data=body, content_type="application/json",
                           headers={"Idempotency-Key": "busy"})
    assert response.status_code == 409
    assert response.get_json()["code"] == "IDEMPOTENCY_KEY_IN_USE"
    assert count(query, Resume, user_id=user["id"]) == 0


def test_concurrent_requests_with_one_key_create_one_resume(app, make_user, query, template_id):
    user = make_user()
    clients = []
    for _ in range(4):
        c = app.test_client()
        assert c.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]}).status_code \
            == 200
        clients.append(c)
    barrier, answers = threading.Barrier(len(clients)), []

    def send(c):
        barrier.wait()
        answers.append(c.post("/api/resumes", json={"title": "Race", "templateId": template_id},
                              headers={"Idempotency-Key": "race"}))

    threads = [threading.Thread(target=send, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    created = [a for a in answers if a.status_code == 201 and "Idempotent-Replayed" not in a.headers]
    assert len(created) == 1
    for answer in answers:
        if answer is created[0]:
            continue
        if answer.status_code == 409:
            assert answer.get_json()["code"] == "IDEMPOTENCY_KEY_IN_USE"
        else:
            assert_replayed(created[0], answer)
    assert count(query, Resume, user_id=user["id"]) == 1


def test_the_openapi_document_shows_the_header(client):
    spec = client.get("/api/openapi.json").get_json()
    for path in ("/api/resumes", "/api/webhooks", "/api/account/subscription", "/api/resumes/{resume_id}/export",
                 "/api/resumes/{resume_id}/share"):
        operation = spec["paths"][path]["post"]
        assert "Idempotency-Key" in [p.get("name") for p in operation.get("parameters", [])], path
        for status, response in operation["responses"].items():  # the replay header, on every answer kept
            if status != "default":
                assert "Idempotent-Replayed" in response["headers"], (path, status)
    listing = spec["paths"]["/api/resumes"]["get"]
    assert "Idempotency-Key" not in [p.get("name") for p in listing.get("parameters", [])]
    assert "Idempotent-Replayed" not in listing["responses"]["200"]["headers"]
