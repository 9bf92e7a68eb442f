"""GET /api/auth/link/<provider>: a signed-in user links a provider account whatever its email, through the
real OAuth flow against the fake providers on loopback (see tests/auth/test_oauth.py for the flow).

The callback links to the user who started the flow, only while that user is the one signed in in the
browser; it starts no session and lands on the callbackUrl with ``?linked=`` or ``?link_error=``.
"""
from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlencode

import pytest

from app.auth.models import AuthSession, OAuthIdentity
from tests.auth.test_oauth import (BASE_URL, callback, github, google, identities, oauth_app,  # noqa: F401
                                   provider_redirect, session_user, sign_in)
from tests.support import PASSWORD


@pytest.fixture
def browser(oauth_app):  # noqa: F811  (a fresh client per test)
    return oauth_app.test_client()


def password_sign_in(client, email: str) -> None:
    response = client.post("/api/auth/signin", json={"email": email, "password": PASSWORD})
    assert response.status_code == 200, response.get_json()


def start_link(client, provider: str = "github", callback_url: str | None = "/account") -> str:
    query = f"?{urlencode({'callbackUrl': callback_url})}" if callback_url is not None else ""
    response = client.get(f"/api/auth/link/{provider}{query}")
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"]


def link(client, provider: str = "github", callback_url: str | None = "/account"):
    return callback(client, provider_redirect(start_link(client, provider, callback_url)))


def test_a_signed_in_user_links_a_github_account_with_another_email(browser, make_user, query):
    user = make_user(email="me@example.com")  # GitHub's verified email is octo@example.com
    password_sign_in(browser, user["email"])
    sessions_before = query(lambda s: s.query(AuthSession).count())

    response = link(browser)

    assert response.status_code == 302 and response.headers["Location"] == f"{BASE_URL}/account?linked=github"
    assert not [h for h in response.headers.getlist("Set-Cookie") if h.startswith("sid=")]  # no new session
    assert session_user(browser)["id"] == user["id"]
    assert identities(query) == [("github", "583231", user["id"])]
    assert query(lambda s: s.query(AuthSession).count()) == sessions_before

    listed = browser.get("/api/account/identities").get_json()["data"]["identities"]
    assert [(i["provider"], i["email"]) for i in listed] == [("github", "octo@example.com")]


def test_linking_without_a_callback_url_lands_on_the_account_page_and_keeps_its_fragment(browser, make_user):
    user = make_user(email="me@example.com")
    password_sign_in(browser, user["email"])
    assert link(browser, "google", None).headers["Location"] == f"{BASE_URL}/account?linked=google"

    other = make_user(email="other@example.com")
    again = browser.application.test_client()
    password_sign_in(again, other["email"])
    github_back = link(again, "github", "/account#identities").headers["Location"]
    assert github_back == f"{BASE_URL}/account?linked=github#identities"


def test_a_second_account_of_a_linked_provider_is_refused_with_a_409(browser, make_user, query):
    """One identity per provider (docs/api-decisions.md): the page hides the button once GitHub is linked,
    and a direct call is refused before the provider is asked, so unlinking never has to guess which."""
    user = make_user(email="me@example.com")
    password_sign_in(browser, user["email"])
    link(browser)

    again = browser.get("/api/auth/link/github?callbackUrl=/account")

    assert again.status_code == 409
    body = again.get_json()
    assert body["code"] == "PROVIDER_ALREADY_LINKED"
    assert body["details"] == {"field": "provider", "provider": "github"}
    assert "unlink it first" in body["error"]
    assert identities(query) == [("github", "583231", user["id"])]
    assert browser.get("/api/auth/link/google?callbackUrl=/account").status_code == 302  # another provider


def test_a_link_that_another_tab_made_first_is_refused_at_the_callback(browser, make_user, query):
    """Two flows started before either finished: the second callback finds an account of the provider
    linked (here another one, as another tab would have) and links nothing."""
    user = make_user(email="me@example.com")
    password_sign_in(browser, user["email"])
    started = start_link(browser)

    def other_tab(session):
        session.add(OAuthIdentity(user_id=user["id"], provider="github", provider_account_id="999", email=None))
        session.commit()
    query(other_tab)
    response = callback(browser, provider_redirect(started))

    assert response.headers["Location"] == f"{BASE_URL}/account?link_error=PROVIDER_ALREADY_LINKED"
    assert identities(query) == [("github", "999", user["id"])]


def test_an_account_linked_to_another_user_is_refused_and_nothing_changes(browser, make_user, query):
    owner = make_user(email="owner@example.com")
    first = browser.application.test_client()
    password_sign_in(first, owner["email"])
    link(first)

    user = make_user(email="me@example.com")
    password_sign_in(browser, user["email"])
    response = link(browser)

    assert response.headers["Location"] == f"{BASE_URL}/account?link_error=IDENTITY_IN_USE"
    assert identities(query) == [("github", "583231", owner["id"])]
    assert session_user(browser)["id"] == user["id"]


def test_linking_needs_a_signed_in_user(browser):
    response = browser.get("/api/auth/link/github?callbackUrl=/account")

    assert response.status_code == 401
    assert response.get_json()["code"] == "UNAUTHENTICATED" and response.get_json()["error"]


def test_a_link_started_by_one_user_is_refused_once_another_is_signed_in(browser, make_user, query):
    starter = make_user(email="starter@example.com")
    password_sign_in(browser, starter["email"])
    location = provider_redirect(start_link(browser))
    other = make_user(email="other@example.com")
    password_sign_in(browser, other["email"])  # the same browser, now another account

    response = callback(browser, location)

    assert response.headers["Location"] == f"{BASE_URL}/account?link_error=FORBIDDEN"
    assert identities(query) == [] and session_user(browser)["id"] == other["id"]


def test_a_link_finished_after_signing_out_is_refused(browser, make_user, query):
    user = make_user(email="me@example.com")
    password_sign_in(browser, user["email"])
    location = provider_redirect(start_link(browser))
    browser.post("/api/auth/signout")

    response = callback(browser, location)

    assert response.headers["Location"] == f"{BASE_URL}/account?link_error=UNAUTHENTICATED"
    assert identities(query) == [] and session_user(browser) is None


def test_a_refusal_at_the_provider_goes_back_to_the_account_page(browser, github, make_user, query):  # noqa: F811
    user = make_user(email="me@example.com")
    password_sign_in(browser, user["email"])
    github.deny = True

    response = link(browser)

    assert response.headers["Location"] == f"{BASE_URL}/account?link_error=OAuthCallback"
    assert identities(query) == [] and session_user(browser)["id"] == user["id"]


def test_a_foreign_callback_url_is_not_followed(browser, make_user):
    user = make_user(email="me@example.com")
    password_sign_in(browser, user["email"])
    assert link(browser, "github", "https://evil.example/").headers["Location"] == f"{BASE_URL}/?linked=github"


# -- sudo mode (issue 32, point 2): linking is a new way in, so a security change ----------------------------

def test_a_bearer_token_starts_no_link(browser, make_user):
    user = make_user(email="me@example.com")
    token = browser.post("/api/auth/token", json={"grant_type": "password", "email": user["email"],
                                                  "password": PASSWORD}).get_json()["access_token"]

    response = browser.get("/api/auth/link/github", headers={"Authorization": f"Bearer {token}"})

    assert response.status_code == 403 and response.get_json()["code"] == "SESSION_REQUIRED"


def test_a_session_past_ten_minutes_reauthenticates_before_it_links(oauth_app, browser, make_user, query):
    user = make_user(email="me@example.com")
    password_sign_in(browser, user["email"])
    oauth_app.extensions["clock"].advance(minutes=10, seconds=1)
    try:
        response = browser.get("/api/auth/link/github?callbackUrl=/account")
        assert response.status_code == 403
        assert response.get_json()["code"] == "REAUTHENTICATION_REQUIRED"
        assert response.get_json()["details"]["methods"] == ["password"]
        assert identities(query) == []

        assert browser.post("/api/auth/reauthenticate", json={"password": PASSWORD}).status_code == 200
        assert link(browser).headers["Location"] == f"{BASE_URL}/account?linked=github"
    finally:
        oauth_app.extensions["clock"].offset = timedelta(0)
    assert identities(query) == [("github", "583231", user["id"])]


def test_a_provider_sign_in_counts_as_a_recent_authentication(browser):
    assert sign_in(browser, "github").status_code == 302

    status = browser.get("/api/auth/reauthenticate").get_json()["data"]
    assert status["recent"] is True and status["methods"] == ["email"]  # no password: a mailed code
    assert start_link(browser, "google").startswith("http")
