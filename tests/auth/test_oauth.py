"""Sign-in with GitHub and Google against fake providers served over HTTP on loopback.

The app is pointed at them through the endpoint variables (GITHUB_*_URL, GOOGLE_*_URL). A flow: the test
client asks to sign in and is redirected to the provider; ``requests`` follows that address (the
provider answers with a redirect back, as it does once the person agreed); the test client, which keeps
the state cookie, opens the callback.
"""
from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import requests

from tests.auth.fake_provider import FakeProvider
from tests.conftest import drain_jobs
from tests.support import PASSWORD

from app.auth.models import AuthSession, OAuthIdentity
from app.events.models import Event
from app.users.models import User

BASE_URL = "http://localhost:5000"
FAILED = f"{BASE_URL}/login?error=OAuthCallback"


@pytest.fixture
def github():
    provider = FakeProvider("github")
    provider.profile = {"login": "octocat", "id": 583231, "name": "The Octocat", "email": "octo@example.com",
                        "avatar_url": "https://avatars.example.com/u/583231"}
    provider.emails = [{"email": "octo@example.com", "primary": True, "verified": True}]
    yield provider
    provider.close()


@pytest.fixture
def google():
    provider = FakeProvider("google")
    provider.profile = {"sub": "1098765432101234567890", "email": "ada@example.com", "email_verified": True,
                        "name": "Ada Lovelace", "picture": "https://images.example.com/ada.png"}
    yield provider
    provider.close()


@pytest.fixture
def oauth_app(make_app, github, google):
    """An app with both providers configured (the session app has none)."""
    application = make_app(**github.settings(), **google.settings())
    yield application
    drain_jobs(application)  # the relay of user.registered, before the tables are emptied


@pytest.fixture
def browser(oauth_app):
    return oauth_app.test_client()


def start(browser, provider: str, callback: str | None = "/dashboard"):
    query = f"?{urlencode({'callbackUrl': callback})}" if callback is not None else ""
    response = browser.get(f"/api/auth/signin/{provider}{query}")
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"]


def provider_redirect(authorize_url: str) -> str:
    """What the provider answers the browser: the address of our callback, with code (or error) and state."""
    answer = requests.get(authorize_url, allow_redirects=False, timeout=10)
    assert answer.status_code == 302, answer.text
    return answer.headers["Location"]


def callback(browser, location: str):
    parts = urlsplit(location)
    assert f"{parts.scheme}://{parts.netloc}" == BASE_URL  # the redirect URI registered with the provider
    return browser.get(f"{parts.path}?{parts.query}")


def sign_in(browser, provider: str, callback_url: str | None = "/dashboard"):
    return callback(browser, provider_redirect(start(browser, provider, callback_url)))


def session_user(browser) -> dict | None:
    return browser.get("/api/auth/session").get_json().get("user")


def identities(query) -> list[tuple[str, str, str]]:
    return query(lambda s: [(i.provider, i.provider_account_id, i.user_id) for i in s.query(OAuthIdentity)])


# -- the flow ----------------------------------------------------------------------------------------------


def test_sign_in_redirects_to_the_provider_with_state_and_a_pkce_challenge(browser, github):
    location = start(browser, "github")

    parts = urlsplit(location)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == f"{github.url}/authorize"
    params = {k: v[0] for k, v in parse_qs(parts.query).items()}
    assert params["client_id"] == github.client_id and params["response_type"] == "code"
    assert params["redirect_uri"] == f"{BASE_URL}/api/auth/callback/github"
    assert params["scope"] == "read:user user:email"
    assert params["state"] and params["code_challenge"] and params["code_challenge_method"] == "S256"
    assert "code_verifier" not in params


def test_google_asks_for_openid_email_and_profile_with_pkce(browser, google):
    params = parse_qs(urlsplit(start(browser, "google")).query)
    assert params["scope"] == ["openid email profile"]
    assert params["code_challenge_method"] == ["S256"] and params["code_challenge"]


def test_the_state_cookie_is_http_only_lax_and_secure_under_https(oauth_app):
    plain = oauth_app.test_client().get("/api/auth/signin/github")
    [cookie] = [h for h in plain.headers.getlist("Set-Cookie") if h.startswith("rs_state=")]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie

    secure = oauth_app.test_client().get("/api/auth/signin/github", base_url="https://localhost")
    [cookie] = [h for h in secure.headers.getlist("Set-Cookie") if h.startswith("rs_state=")]
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_a_new_github_user_is_created_verified_with_the_avatar_and_signed_in(browser, github, query):
    response = sign_in(browser, "github")

    assert response.status_code == 302 and response.headers["Location"] == f"{BASE_URL}/dashboard"
    [cookie] = [h for h in response.headers.getlist("Set-Cookie") if h.startswith("sid=")]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    user = session_user(browser)
    assert user["email"] == "octo@example.com" and user["name"] == "The Octocat"
    assert user["image"] == "https://avatars.example.com/u/583231" and user["subscriptionType"] == "FREE"
    row = query(lambda s: s.get(User, user["id"]))
    assert row.email_verified and row.password_hash is None
    assert identities(query) == [("github", "583231", user["id"])]
    events = query(lambda s: [(e.type, e.user_id) for e in s.query(Event)])
    assert events == [("user.registered", user["id"])]
    # the exchange carried the PKCE verifier the provider checked
    assert github.exchanges[-1]["code_verifier"] and github.exchanges[-1]["grant_type"] == "authorization_code"


def test_a_new_google_user_is_created_from_the_openid_profile(browser, query):
    response = sign_in(browser, "google", "/resumes?tab=all")

    assert response.headers["Location"] == f"{BASE_URL}/resumes?tab=all"
    user = session_user(browser)
    assert (user["email"], user["name"], user["image"]) == ("ada@example.com", "Ada Lovelace",
                                                            "https://images.example.com/ada.png")
    assert identities(query) == [("google", "1098765432101234567890", user["id"])]


def test_without_a_callback_url_the_sign_in_lands_on_the_home_page(browser):
    assert sign_in(browser, "github", None).headers["Location"] == f"{BASE_URL}/"


def test_a_returning_user_signs_in_to_the_same_account_without_a_new_one(oauth_app, github, query):
    first = oauth_app.test_client()
    sign_in(first, "github")
    user_id = session_user(first)["id"]
    github.profile = {**github.profile, "name": "Renamed", "avatar_url": "https://avatars.example.com/new"}

    again = oauth_app.test_client()
    response = sign_in(again, "github")

    assert response.headers["Location"] == f"{BASE_URL}/dashboard"
    assert session_user(again)["id"] == user_id
    assert query(lambda s: s.query(User).count()) == 1 and len(identities(query)) == 1
    assert query(lambda s: s.query(AuthSession).count()) == 2  # one per browser
    assert session_user(again)["image"] == "https://avatars.example.com/u/583231"  # kept: the user has one


def test_a_name_less_profile_gets_the_email_local_part(browser, google):
    google.profile = {**google.profile, "name": ""}
    sign_in(browser, "google")
    assert session_user(browser)["name"] == "ada"


# -- linking -----------------------------------------------------------------------------------------------


def test_a_verified_provider_email_links_to_the_existing_password_user(browser, make_user, query, oauth_app):
    existing = make_user(email="octo@example.com", name="Octo Owner")

    response = sign_in(browser, "github")

    assert response.headers["Location"] == f"{BASE_URL}/dashboard"
    user = session_user(browser)
    assert user["id"] == existing["id"] and user["name"] == "Octo Owner"
    assert user["image"] == "https://avatars.example.com/u/583231"  # the user had none
    assert identities(query) == [("github", "583231", existing["id"])]
    assert query(lambda s: s.query(User).count()) == 1
    assert query(lambda s: s.query(Event).filter_by(type="user.registered").count()) == 1  # make_user's only
    password = oauth_app.test_client().post("/api/auth/signin", json={"email": existing["email"],
                                                                      "password": PASSWORD})
    assert password.status_code == 200  # the password still works


def test_a_second_account_of_a_linked_provider_signs_in_by_email_but_is_not_linked(browser, make_user, query):
    """One identity per provider: the user's GitHub account 999 is linked; another GitHub account whose
    verified email is the user's still signs them in, and 999 stays the one linked."""
    existing = make_user(email="octo@example.com")

    def linked_before(session):
        session.add(OAuthIdentity(user_id=existing["id"], provider="github", provider_account_id="999"))
        session.commit()
    query(linked_before)

    response = sign_in(browser, "github")

    assert response.headers["Location"] == f"{BASE_URL}/dashboard"
    assert session_user(browser)["id"] == existing["id"]
    assert identities(query) == [("github", "999", existing["id"])]


def test_linking_to_an_unverified_account_verifies_it_and_drops_the_password_someone_else_chose(
        browser, make_user, query, oauth_app):
    squatter = make_user(email="ada@example.com", verified=False)

    sign_in(browser, "google")

    assert session_user(browser)["id"] == squatter["id"]
    row = query(lambda s: s.get(User, squatter["id"]))
    assert row.email_verified and row.password_hash is None
    password = oauth_app.test_client().post("/api/auth/signin", json={"email": squatter["email"],
                                                                      "password": PASSWORD})
    assert password.status_code == 401


def test_an_unverified_google_email_is_refused_and_links_nothing(browser, google, make_user, query):
    make_user(email="ada@example.com")
    google.profile = {**google.profile, "email_verified": False}

    response = sign_in(browser, "google")

    assert response.status_code == 302 and response.headers["Location"] == FAILED
    assert identities(query) == [] and session_user(browser) is None
    assert query(lambda s: s.query(AuthSession).count()) == 0


def test_an_unverified_google_email_creates_no_account_either(browser, google, query):
    google.profile = {**google.profile, "email_verified": False}
    assert sign_in(browser, "google").headers["Location"] == FAILED
    assert query(lambda s: s.query(User).count()) == 0


def test_an_unverified_github_profile_email_does_not_link_but_the_primary_verified_one_is_used(
        browser, github, make_user, query):
    victim = make_user(email="public@example.com")
    github.profile = {**github.profile, "email": "public@example.com"}
    github.emails = [{"email": "public@example.com", "primary": False, "verified": False},
                     {"email": "mine@example.com", "primary": True, "verified": True}]

    sign_in(browser, "github")

    user = session_user(browser)
    assert user["email"] == "mine@example.com" and user["id"] != victim["id"]
    assert [i[2] for i in identities(query)] == [user["id"]]


def test_a_github_account_without_any_verified_email_is_refused(browser, github, make_user, query):
    make_user(email="octo@example.com")
    github.emails = [{"email": "octo@example.com", "primary": True, "verified": False}]

    assert sign_in(browser, "github").headers["Location"] == FAILED
    assert identities(query) == [] and query(lambda s: s.query(User).count()) == 1


def test_a_github_profile_without_email_uses_the_primary_verified_address(browser, github, query):
    github.profile = {**github.profile, "email": None, "name": None}
    github.emails = [{"email": "old@example.com", "primary": False, "verified": True},
                     {"email": "primary@example.com", "primary": True, "verified": True}]

    response = sign_in(browser, "github")

    assert response.headers["Location"] == f"{BASE_URL}/dashboard"
    user = session_user(browser)
    assert user["email"] == "primary@example.com" and user["name"] == "octocat"  # the login, lacking a name


def test_an_account_with_two_factor_on_is_refused_and_not_linked(browser, make_user, query):
    existing = make_user(email="octo@example.com")

    def turn_on(session):
        session.get(User, existing["id"]).two_factor_enabled = True
        session.commit()

    query(turn_on)

    assert sign_in(browser, "github").headers["Location"] == FAILED
    assert identities(query) == [] and session_user(browser) is None


def test_a_linked_identity_stops_signing_in_once_two_factor_is_on(oauth_app, query):
    sign_in(oauth_app.test_client(), "google")

    def turn_on(session):
        session.query(User).one().two_factor_enabled = True
        session.commit()

    query(turn_on)
    browser = oauth_app.test_client()
    assert sign_in(browser, "google").headers["Location"] == FAILED
    assert session_user(browser) is None


# -- failures ----------------------------------------------------------------------------------------------


def test_a_callback_with_another_state_is_refused(browser, query):
    location = provider_redirect(start(browser, "github"))
    parts = urlsplit(location)
    params = {k: v[0] for k, v in parse_qs(parts.query).items()}

    forged = browser.get(f"{parts.path}?{urlencode({**params, 'state': 'not-the-state'})}")

    assert forged.status_code == 302 and forged.headers["Location"] == FAILED
    assert session_user(browser) is None and query(lambda s: s.query(User).count()) == 0


def test_a_callback_without_state_is_refused(browser):
    location = provider_redirect(start(browser, "github"))
    params = {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}
    response = browser.get(f"/api/auth/callback/github?{urlencode({'code': params['code']})}")
    assert response.headers["Location"] == FAILED


def test_a_callback_in_another_browser_is_refused(oauth_app, query):
    location = provider_redirect(start(oauth_app.test_client(), "github"))
    response = callback(oauth_app.test_client(), location)  # the attacker's code, in the victim's browser
    assert response.headers["Location"] == FAILED
    assert query(lambda s: s.query(User).count()) == 0


def test_a_state_works_once(browser):
    location = provider_redirect(start(browser, "github"))
    assert callback(browser, location).headers["Location"] == f"{BASE_URL}/dashboard"
    assert callback(browser, location).headers["Location"] == FAILED


def test_a_browser_keeps_its_last_four_pending_sign_ins(browser):
    started = [provider_redirect(start(browser, "github")) for _ in range(6)]

    assert [callback(browser, location).headers["Location"] for location in started[:2]] == [FAILED, FAILED]
    assert callback(browser, started[2]).headers["Location"] == f"{BASE_URL}/dashboard"
    assert callback(browser, started[5]).headers["Location"] == f"{BASE_URL}/dashboard"


def test_a_state_refused_by_the_provider_cannot_be_used_again(browser, github):
    github.deny = True
    location = start(browser, "github")
    denied = provider_redirect(location)
    assert callback(browser, denied).headers["Location"] == FAILED

    github.deny = False
    state = parse_qs(urlsplit(denied).query)["state"][0]
    code_for_that_state = provider_redirect(location)
    assert parse_qs(urlsplit(code_for_that_state).query)["state"] == [state]
    assert callback(browser, code_for_that_state).headers["Location"] == FAILED


def test_a_refusal_at_the_provider_is_refused(browser, github, query):
    github.deny = True
    location = provider_redirect(start(browser, "github"))
    assert "error=access_denied" in location

    assert callback(browser, location).headers["Location"] == FAILED
    assert query(lambda s: s.query(User).count()) == 0


def test_a_failing_token_endpoint_is_refused(browser, google, query):
    google.token_status = 500
    assert sign_in(browser, "google").headers["Location"] == FAILED
    assert len(google.exchanges) == 1 and query(lambda s: s.query(User).count()) == 0


def test_an_unreachable_profile_endpoint_is_refused(make_app, github, query):
    application = make_app(**{**github.settings(), "GITHUB_USERINFO_URL": f"{github.url}/nowhere"})
    try:
        assert sign_in(application.test_client(), "github").headers["Location"] == FAILED
        assert query(lambda s: s.query(User).count()) == 0
    finally:
        drain_jobs(application)


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example", "/\\evil.example",
                                    "http://localhost:5000.evil.example/"])
def test_a_foreign_callback_url_lands_on_the_home_page(browser, target):
    assert sign_in(browser, "github", target).headers["Location"] == f"{BASE_URL}/"


def test_a_same_origin_absolute_callback_url_is_kept(browser):
    assert sign_in(browser, "github", f"{BASE_URL}/resumes/1").headers["Location"] == f"{BASE_URL}/resumes/1"


# -- which providers exist ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/auth/signin/github", "/api/auth/callback/github?code=x&state=y",
                                  "/api/auth/signin/google", "/api/auth/callback/google"])
def test_a_provider_without_credentials_is_not_offered(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.get_json()["code"] == "NOT_FOUND" and response.get_json()["error"]


def test_a_provider_with_only_a_client_id_is_not_offered(make_app):
    half = make_app(GITHUB_CLIENT_ID="only-the-id")
    assert half.test_client().get("/api/auth/signin/github").status_code == 404


@pytest.mark.parametrize("path", ["/api/auth/signin/facebook", "/api/auth/callback/facebook"])
def test_an_unknown_provider_is_not_found(browser, path):
    response = browser.get(path)
    assert response.status_code == 404 and response.get_json()["code"] == "NOT_FOUND"


def test_the_login_page_offers_only_the_configured_providers(client, make_app, github):
    bare = client.get("/login").get_data(as_text=True)
    assert "/api/auth/signin/" not in bare and "Sign in with GitHub" not in bare  # (a passkey is no provider)

    only_github = make_app(**github.settings()).test_client()
    page = only_github.get("/login?callbackUrl=/resumes").get_data(as_text=True)

    assert 'href="/api/auth/signin/github?callbackUrl=%2Fresumes"' in page and "Sign in with GitHub" in page
    assert "google" not in page.lower()


def test_the_login_page_explains_a_failed_provider_sign_in(client):
    page = client.get("/login?error=OAuthCallback").get_data(as_text=True)
    assert "Signing in with that provider did not work" in page
