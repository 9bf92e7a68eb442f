"""Standard Webhooks: every delivery also carries webhook-id, webhook-timestamp and webhook-signature,
and the official ``standardwebhooks`` library verifies them as they arrive at a real receiver."""
import base64
import json

import pytest
from standardwebhooks.webhooks import Webhook as StandardVerifier
from standardwebhooks.webhooks import WebhookVerificationError

from app.webhooks.delivery import standard_key
from tests.webhooks import test_webhooks as shared
from tests.webhooks.test_webhooks import ALL_EVENTS, SECRET, create_resume, verified

receiver, hook = shared.receiver, shared.hook  # the fixtures


def test_a_generated_secret_is_whsec_and_the_base64_of_32_random_bytes(client, owner, receiver):
    secrets = {client.post("/api/webhooks", json={"url": receiver.url, "events": ["resume.created"]})
               .get_json()["data"]["secret"] for _ in range(2)}
    assert len(secrets) == 2
    for secret in secrets:
        assert secret.startswith("whsec_")
        assert len(base64.b64decode(secret[len("whsec_"):], validate=True)) == 32


def test_the_library_verifies_a_delivery_signed_with_a_generated_secret(client, owner, receiver):
    webhook = client.post("/api/webhooks", json={"url": receiver.url, "events": ALL_EVENTS}).get_json()["data"]
    resume_id = create_resume(client, "Standard")
    [request] = receiver.wait_for(1)
    headers = request["headers"]
    event = StandardVerifier(webhook["secret"]).verify(request["body"], headers)  # the secret as shown
    assert event["data"]["resume"]["id"] == resume_id
    assert headers["webhook-id"] == event["id"]
    assert headers["webhook-timestamp"] == headers["x-service-timestamp"]
    assert verified(request, webhook["secret"]) == event  # X-Service-Signature: keyed with the whole string


def test_a_secret_the_user_chose_is_the_key_as_given(client, hook, receiver):
    create_resume(client)
    [request] = receiver.wait_for(1)
    event = StandardVerifier(SECRET.encode()).verify(request["body"], request["headers"])
    assert event == verified(request)
    with pytest.raises(WebhookVerificationError):  # altered on the way
        StandardVerifier(SECRET.encode()).verify(request["body"].replace(b"DRAFT", b"DRAFX"), request["headers"])


def test_every_attempt_carries_the_same_webhook_id(client, owner, receiver):
    receiver.statuses = [500, 200]
    webhook = client.post("/api/webhooks", json={"url": receiver.url, "events": ALL_EVENTS}).get_json()["data"]
    create_resume(client)
    first, second = receiver.wait_for(2)
    verifier = StandardVerifier(webhook["secret"])
    ids = {verifier.verify(request["body"], request["headers"])["id"] for request in (first, second)}
    assert ids == {first["headers"]["webhook-id"]} == {second["headers"]["webhook-id"]}
    assert json.loads(first["body"]) == json.loads(second["body"])


@pytest.mark.parametrize("secret,key", [
    ("whsec_" + base64.b64encode(b"k" * 32).decode(), b"k" * 32),
    ("whsec_" + base64.b64encode(b"k" * 32).decode().rstrip("="), b"k" * 32),  # unpadded
    ("whsec_not-base64_at-all!", b"whsec_not-base64_at-all!"),  # not base64: as given
    ("a-receivers-secret-of-32-chars!!", b"a-receivers-secret-of-32-chars!!"),
    ("mot de passe très secret", "mot de passe très secret".encode()),
])
def test_the_standard_key_of_a_secret(secret, key):
    assert standard_key(secret) == key
