"""POST /api/auth/passkey/options and /api/auth/passkey/signin: signing in with a passkey, nothing typed
(app/auth/passkeys.py; decisions "Passkeys"). The refusals: a replayed assertion, another origin or
relying party, no user verification, a signature counter that goes back, a removed passkey."""
from __future__ import annotations

import pytest

from app.auth.models import Passkey
from tests.account.test_passkeys import added
from tests.auth.soft_authenticator import SoftAuthenticator
from tests.auth.support import clock, enable_two_factor, signed_in  # noqa: F401


@pytest.fixture
def holder(signed_in):  # noqa: F811
    """A user with a passkey (its authenticator), and a fresh client that is signed in as nobody."""
    user, client = signed_in()
    authenticator = SoftAuthenticator()
    passkey = added(client, authenticator=authenticator)
    return user, client, authenticator, passkey


def sign_in_options(client) -> dict:
    response = client.post("/api/auth/passkey/options")
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]["publicKey"]


def sign_in(client, credential, **extra):
    return client.post("/api/auth/passkey/signin", json={"credential": credential, **extra})


def refused(response, reason: str) -> bool:
    body = response.get_json()
    return response.status_code == 401 and body["code"] == "PASSKEY_REJECTED" and body["details"]["reason"] == reason


def test_a_passkey_signs_in_with_nothing_typed(app, holder, query):
    user, _, authenticator, passkey = holder
    browser = app.test_client()
    publicKey = sign_in_options(browser)
    assert publicKey["userVerification"] == "required" and publicKey["allowCredentials"] == []
    assert publicKey["rpId"] == "localhost"

    response = sign_in(browser, authenticator.get(publicKey), callbackUrl="/account")

    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["user"]["email"] == user["email"] and body["url"] == "http://localhost:5000/account"
    assert browser.get("/api/auth/session").get_json()["user"]["id"] == user["id"]
    stored = query(lambda s: s.get(Passkey, passkey["id"]))
    assert stored.sign_count == 1 and stored.last_used_at is not None


def test_a_replayed_assertion_is_refused(app, holder):
    _, _, authenticator, _ = holder
    browser = app.test_client()
    credential = authenticator.get(sign_in_options(browser))
    assert sign_in(browser, credential).status_code == 200

    assert refused(sign_in(app.test_client(), credential), "challenge")


def test_an_assertion_from_another_origin_is_refused_and_spends_its_challenge(app, holder):
    _, _, authenticator, _ = holder
    browser = app.test_client()
    publicKey = sign_in_options(browser)

    assert refused(sign_in(browser, authenticator.get(publicKey, origin="https://evil.example")), "verification")
    assert refused(sign_in(browser, authenticator.get(publicKey)), "challenge")
    assert browser.get("/api/auth/session").get_json() == {}


def test_an_assertion_for_another_relying_party_is_refused(app, holder):
    _, _, authenticator, _ = holder
    browser = app.test_client()
    assert refused(sign_in(browser, authenticator.get(sign_in_options(browser), rp_id="evil.example")),
                   "verification")


def test_an_assertion_without_user_verification_is_refused(app, holder):
    _, _, authenticator, _ = holder
    browser = app.test_client()
    assert refused(sign_in(browser, authenticator.get(sign_in_options(browser), verified=False)), "verification")


def test_a_counter_that_does_not_increase_is_refused(app, holder, query):
    _, _, authenticator, passkey = holder
    browser = app.test_client()
    assert sign_in(browser, authenticator.get(sign_in_options(browser), counter=5)).status_code == 200

    assert refused(sign_in(browser, authenticator.get(sign_in_options(browser), counter=5)), "verification")
    assert refused(sign_in(browser, authenticator.get(sign_in_options(browser), counter=3)), "verification")
    assert query(lambda s: s.get(Passkey, passkey["id"]).sign_count) == 5
    assert sign_in(browser, authenticator.get(sign_in_options(browser), counter=6)).status_code == 200


def test_an_expired_challenge_is_refused(app, holder, clock):  # noqa: F811
    _, _, authenticator, _ = holder
    browser = app.test_client()
    publicKey = sign_in_options(browser)
    clock.advance(minutes=5, seconds=1)
    assert refused(sign_in(browser, authenticator.get(publicKey)), "challenge")


def test_a_registration_challenge_does_not_sign_in(app, holder):
    _, client, authenticator, _ = holder
    publicKey = client.post("/api/account/passkey/options").get_json()["data"]["publicKey"]
    assert refused(sign_in(app.test_client(), authenticator.get({**publicKey, "rpId": "localhost"})), "challenge")


def test_a_removed_or_unknown_passkey_does_not_sign_in(app, holder):
    _, client, authenticator, passkey = holder
    stranger = SoftAuthenticator()
    stranger.user_handle = authenticator.user_handle
    browser = app.test_client()
    assert refused(sign_in(browser, stranger.get(sign_in_options(browser))), "unknown")

    assert client.delete(f"/api/account/passkeys/{passkey['id']}").status_code == 200
    assert refused(sign_in(browser, authenticator.get(sign_in_options(browser))), "unknown")


def test_a_passkey_satisfies_two_factor(app, holder):
    user, client, authenticator, _ = holder
    enable_two_factor(client, user)
    browser = app.test_client()
    password_only = browser.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    assert password_only.get_json()["code"] == "TWO_FACTOR_REQUIRED"

    response = sign_in(browser, authenticator.get(sign_in_options(browser)))

    assert response.status_code == 200, response.get_json()


def test_a_malformed_credential_is_refused(app):
    browser = app.test_client()
    response = sign_in(browser, {"id": "x", "rawId": "x", "type": "public-key", "response": {}})
    assert refused(response, "verification")
    assert browser.post("/api/auth/passkey/signin", json={"credential": "nope"}).status_code == 400


def test_failed_passkey_sign_ins_count_toward_the_address_limit(app, holder):
    _, _, authenticator, _ = holder
    saved, app.config["RATELIMIT_SIGNIN_IP"] = app.config["RATELIMIT_SIGNIN_IP"], "2 per 15 minutes"
    try:
        browser = app.test_client()
        for _ in range(2):
            assert refused(sign_in(browser, authenticator.get(sign_in_options(browser), verified=False)),
                           "verification")
        limited = sign_in(browser, authenticator.get(sign_in_options(browser)))
        assert limited.status_code == 429
    finally:
        app.config["RATELIMIT_SIGNIN_IP"] = saved
