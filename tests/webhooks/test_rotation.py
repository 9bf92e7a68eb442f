"""Secret rotation: POST /api/webhooks/<id>/rotate-secret answers the new secret; for 24 hours (the
WEBHOOK_SECRET_OVERLAP setting) deliveries carry both secrets' signatures, which the official
``standardwebhooks`` package verifies at a real receiver; X-Service-Signature uses the new secret."""
import base64
from datetime import datetime, timedelta, timezone

import pytest
from standardwebhooks.webhooks import Webhook as StandardVerifier
from standardwebhooks.webhooks import WebhookVerificationError

from tests.auth.support import clock  # noqa: F401  (fixture)
from tests.webhooks import test_webhooks as shared
from tests.webhooks.test_webhooks import SECRET, create_resume, verified

receiver, hook = shared.receiver, shared.hook  # the fixtures
OWN_SECRET = "a-second-secret-the-user-chose"


def timestamp(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def rotate(client, hook_id, **body):
    response = client.post(f"/api/webhooks/{hook_id}/rotate-secret", json=body or None)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]


def registration(client, hook_id):
    [webhook] = [w for w in client.get("/api/webhooks").get_json()["data"] if w["id"] == hook_id]
    return webhook


def test_rotating_answers_a_generated_secret_and_when_the_old_one_stops(client, hook):
    before = datetime.now(timezone.utc)
    rotated = rotate(client, hook["id"])
    assert list(rotated) == ["secret", "previousSecretExpiresAt"]
    assert rotated["secret"].startswith("whsec_") and rotated["secret"] != SECRET
    assert len(base64.b64decode(rotated["secret"][len("whsec_"):], validate=True)) == 32
    expires = timestamp(rotated["previousSecretExpiresAt"])
    assert before + timedelta(hours=24) - timedelta(seconds=1) <= expires <= datetime.now(timezone.utc) + timedelta(
        hours=24)
    webhook = registration(client, hook["id"])
    assert (webhook["secret"], webhook["previousSecretExpiresAt"]) == (rotated["secret"],
                                                                       rotated["previousSecretExpiresAt"])


def test_during_the_rotation_both_signatures_verify_and_x_service_signature_uses_the_new_secret(
        client, hook, receiver):
    new = rotate(client, hook["id"])["secret"]
    create_resume(client)
    [request] = receiver.wait_for(1)
    headers = request["headers"]
    assert len(headers["webhook-signature"].split(" ")) == 2
    event = StandardVerifier(new).verify(request["body"], headers)  # the new secret, as shown
    assert StandardVerifier(SECRET.encode()).verify(request["body"], headers) == event  # the old one, as chosen
    assert verified(request, new) == event
    with pytest.raises(AssertionError):
        verified(request, SECRET)


def test_after_the_rotation_window_only_the_new_secret_signs(client, hook, receiver, clock):  # noqa: F811
    clock.advance(hours=-24, seconds=-1)  # the rotation happened 24 hours and a second ago
    new = rotate(client, hook["id"], secret=OWN_SECRET)["secret"]
    clock.offset = timedelta(0)
    assert new == OWN_SECRET and registration(client, hook["id"])["previousSecretExpiresAt"] is None
    create_resume(client)
    [request] = receiver.wait_for(1)
    headers = request["headers"]
    assert " " not in headers["webhook-signature"]
    event = StandardVerifier(OWN_SECRET.encode()).verify(request["body"], headers)
    with pytest.raises(WebhookVerificationError):
        StandardVerifier(SECRET.encode()).verify(request["body"], headers)
    assert verified(request, OWN_SECRET) == event


def test_a_second_rotation_keeps_only_the_secret_it_replaces(client, hook, receiver):
    first = rotate(client, hook["id"])["secret"]
    second = rotate(client, hook["id"], secret=OWN_SECRET)
    assert second["secret"] == OWN_SECRET
    create_resume(client)
    [request] = receiver.wait_for(1)
    headers = request["headers"]
    assert len(headers["webhook-signature"].split(" ")) == 2
    StandardVerifier(OWN_SECRET.encode()).verify(request["body"], headers)
    StandardVerifier(first).verify(request["body"], headers)
    with pytest.raises(WebhookVerificationError):  # the registration's secret: two rotations ago
        StandardVerifier(SECRET.encode()).verify(request["body"], headers)


def test_a_secret_replaced_by_put_stops_signing_at_once_even_after_a_rotation(client, hook, receiver):
    rotate(client, hook["id"])
    response = client.put(f"/api/webhooks/{hook['id']}", json={"secret": OWN_SECRET})
    assert response.status_code == 200 and response.get_json()["data"]["previousSecretExpiresAt"] is None
    create_resume(client)
    [request] = receiver.wait_for(1)
    assert " " not in request["headers"]["webhook-signature"]
    StandardVerifier(OWN_SECRET.encode()).verify(request["body"], request["headers"])


@pytest.mark.parametrize("body,field", [({"secret": "short"}, "secret"), ({"secret": 12345678901234567}, "secret"),
                                        ({"extra": 1}, "extra"), ([], "body")])
def test_rotating_with_a_bad_body_names_the_field(client, hook, body, field):
    response = client.post(f"/api/webhooks/{hook['id']}/rotate-secret", json=body)
    assert response.status_code == 400 and response.get_json()["details"]["field"] == field
    assert registration(client, hook["id"])["secret"] == SECRET


def test_rotating_another_users_or_an_unknown_webhook_is_not_found(app, client, hook, make_user):
    other = app.test_client()
    user = make_user()
    other.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    for who, webhook_id in ((other, hook["id"]), (client, "f" * 24)):
        response = who.post(f"/api/webhooks/{webhook_id}/rotate-secret")
        assert response.status_code == 404 and response.get_json()["code"] == "WEBHOOK_NOT_FOUND"
    assert app.test_client().post(f"/api/webhooks/{hook['id']}/rotate-secret").status_code == 401
    assert registration(client, hook["id"])["secret"] == SECRET
