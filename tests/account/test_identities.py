"""GET /api/account/identities and DELETE /api/account/identities/<provider>: the provider accounts
that sign a person in, linked through the real OAuth flow against the fake providers on loopback.

Unlinking the last way into an account (no password, one identity) is refused: 409 LAST_SIGN_IN_METHOD.
"""
from __future__ import annotations

import pytest

from app.auth.models import OAuthIdentity
from app.errors import STATUS
from tests.account.test_passkeys import added
from tests.auth.test_oauth import github, google, oauth_app, sign_in  # noqa: F401  (fixtures)
from tests.support import PASSWORD


@pytest.fixture
def browser(oauth_app):  # noqa: F811  (a fresh client per test, as in tests/auth/test_oauth.py)
    return oauth_app.test_client()


def listing(client) -> dict:
    response = client.get("/api/account/identities")
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]


def password_sign_in(client, email: str) -> None:
    response = client.post("/api/auth/signin", json={"email": email, "password": PASSWORD})
    assert response.status_code == 200, response.get_json()


def test_signing_in_with_a_provider_links_it_and_the_list_shows_it(browser, make_user):
    user = make_user(email="octo@example.com")
    password_sign_in(browser, user["email"])
    assert listing(browser) == {"identities": [], "hasPassword": True, "providers": ["github", "google"]}

    sign_in(browser, "github", "/account#identities")

    data = listing(browser)
    [identity] = data["identities"]
    assert identity["provider"] == "github" and identity["label"] == "GitHub"
    assert identity["email"] == "octo@example.com"
    assert identity["linkedAt"].endswith("Z")
    assert data["hasPassword"] is True


def test_a_password_account_unlinks_its_only_identity(browser, make_user, query):
    user = make_user(email="octo@example.com")
    sign_in(browser, "github")

    response = browser.delete("/api/account/identities/github")

    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["message"] and body["data"]["identities"] == []
    assert query(lambda s: s.query(OAuthIdentity).count()) == 0
    password_sign_in(browser, user["email"])  # the password still signs in


def test_the_last_way_to_sign_in_cannot_be_unlinked(browser, query):
    sign_in(browser, "github")  # a new account: no password, one identity

    response = browser.delete("/api/account/identities/github")

    assert response.status_code == 409
    body = response.get_json()
    assert body["code"] == "LAST_SIGN_IN_METHOD" and STATUS["LAST_SIGN_IN_METHOD"] == 409
    assert "only way to sign in" in body["error"]
    assert body["details"] == {"field": "provider", "provider": "github"}
    assert query(lambda s: s.query(OAuthIdentity).count()) == 1
    assert listing(browser)["hasPassword"] is False


def test_without_a_password_one_of_two_identities_can_go_but_not_the_second(browser, google):  # noqa: F811
    google.profile["email"] = "octo@example.com"  # the same verified person at both providers
    sign_in(browser, "github")
    sign_in(browser, "google")
    assert [i["provider"] for i in listing(browser)["identities"]] == ["github", "google"]

    assert browser.delete("/api/account/identities/google").status_code == 200
    refused = browser.delete("/api/account/identities/github")

    assert refused.status_code == 409 and refused.get_json()["code"] == "LAST_SIGN_IN_METHOD"
    assert [i["provider"] for i in listing(browser)["identities"]] == ["github"]


@pytest.mark.parametrize("provider", ["google", "gitlab", "x" * 300])
def test_a_provider_not_linked_answers_404(browser, make_user, provider):
    make_user(email="octo@example.com")
    sign_in(browser, "github")

    response = browser.delete(f"/api/account/identities/{provider}")

    assert response.status_code == 404 and response.get_json()["code"] == "NOT_FOUND"
    assert len(listing(browser)["identities"]) == 1


def test_identities_are_the_signed_in_users_own(browser, oauth_app, make_user):  # noqa: F811
    make_user(email="octo@example.com")
    sign_in(browser, "github")
    other = make_user()
    stranger = oauth_app.test_client()
    password_sign_in(stranger, other["email"])

    assert listing(stranger)["identities"] == []
    assert stranger.delete("/api/account/identities/github").status_code == 404
    assert len(listing(browser)["identities"]) == 1


def test_only_configured_providers_are_offered(client, make_user):
    user = make_user()
    password_sign_in(client, user["email"])  # the session app configures no provider

    assert listing(client)["providers"] == []


@pytest.mark.parametrize("method, path", [("GET", "/api/account/identities"),
                                          ("DELETE", "/api/account/identities/github")])
def test_identities_need_a_signed_in_user(client, method, path):
    response = client.open(path, method=method)

    assert response.status_code == 401 and response.get_json()["code"] == "UNAUTHENTICATED"


def test_a_passkey_is_a_way_in_so_the_last_identity_can_go(browser):
    sign_in(browser, "github")  # no password, one identity
    passkey = added(browser)

    assert browser.delete("/api/account/identities/github").status_code == 200
    refused = browser.delete(f"/api/account/passkeys/{passkey['id']}")  # now the only way in
    assert refused.status_code == 409 and refused.get_json()["code"] == "LAST_SIGN_IN_METHOD"
