"""Passkeys in Chromium, with its virtual authenticator (the WebAuthn domain of the DevTools protocol:
CTAP2, internal transport, resident keys, user verification): add two passkeys on the account page, see
them listed, rename one, sign out, sign in from /login with the passkey only (nothing typed), remove one,
and the last way in refused. In English and Chinese.

WebAuthn wants a domain for its relying party id (Chromium refuses an IP address), so this app's
BASE_URL is http://localhost:<port> (served on 127.0.0.1, where localhost points)."""
from __future__ import annotations


import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from app.extensions import db
from app.users.models import User
from tests.browser.conftest import LANGUAGES
from tests.support import free_port, serving

WORDS = {
    "en": {"none": "No passkey yet.", "added": "Passkey added.", "renamed": "Passkey renamed.",
           "removed": "Passkey removed.", "used": "Last used", "unused": "Not used yet",
           "signin": "Sign in with a passkey", "last": "only way to sign in", "title": "Passkeys"},
    "zh-cn": {"none": "还没有通行密钥。", "added": "通行密钥已添加。", "renamed": "通行密钥已重命名。",
              "removed": "通行密钥已删除。", "used": "上次使用", "unused": "尚未使用",
              "signin": "使用通行密钥登录", "last": "登录账户的唯一方式", "title": "通行密钥"},
}
AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True}


@pytest.fixture
def localhost(make_app):
    """(base URL, app): the test app on http://localhost:<port>."""
    port = free_port()
    url = f"http://localhost:{port}"
    app = make_app(BASE_URL=url)
    with serving(make_server("127.0.0.1", port, app, threaded=True)):
        yield url, app


@pytest.fixture
def context_for(browser, localhost):
    contexts = []

    def make(language: str):
        context = browser.new_context(base_url=localhost[0], viewport={"width": 1280, "height": 900},
                                      locale="zh-CN" if language == "zh-cn" else "en-US")
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def authenticator(page) -> str:
    """A virtual authenticator in this tab: returns its id."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    found = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    page.cdp = cdp
    return found["authenticatorId"]


def add_passkey(page, name: str, words: dict) -> None:
    page.locator("#passkey-name").fill(name)
    page.locator("#passkey-add-form button[type=submit]").click()
    expect(page.locator("#toast")).to_have_text(words["added"])
    expect(page.locator("#passkey-list li", has_text=name)).to_be_visible()


@pytest.mark.parametrize("language", LANGUAGES)
def test_passkeys_are_added_renamed_used_to_sign_in_and_removed(context_for, localhost, make_user, language):
    url, app = localhost
    words = WORDS[language]
    user = make_user()
    context = context_for(language)
    assert context.request.post("/api/auth/signin", data={"email": user["email"],
                                                          "password": user["password"]}).ok
    assert context.request.put("/api/account", data={"preferences": {"language": language}}).ok
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    first = authenticator(page)
    page.goto("/account#passkeys")
    expect(page.locator("#passkeys-title")).to_have_text(words["title"])
    expect(page.locator("#passkey-list")).to_contain_text(words["none"])

    # Two passkeys, each kept by its own authenticator (one authenticator keeps one per account).
    add_passkey(page, "Laptop", words)
    page.cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": first})
    second = authenticator(page)
    add_passkey(page, "手机" if language == "zh-cn" else "Phone", words)
    items = page.locator("#passkey-list li")
    expect(items).to_have_count(2)
    expect(items.first).to_contain_text(words["unused"])
    page.locator("#passkeys").scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/account-passkeys-{language}.png", full_page=True)
    page.locator("#passkeys").screenshot(path=f"/tmp/account-passkeys-section-{language}.png")

    # Renamed in place.
    items.nth(1).locator("[data-rename]").click()
    page.locator(".passkey-rename input").fill("Work phone")
    page.locator("#passkeys").screenshot(path=f"/tmp/account-passkeys-rename-{language}.png")
    page.locator(".passkey-rename button[type=submit]").click()
    expect(page.locator("#toast")).to_have_text(words["renamed"])
    expect(items.nth(1).locator(".passkey-name")).to_have_text("Work phone")

    # Signed out, and in again from /login with the passkey only: nothing typed.
    with page.expect_navigation():
        page.locator("form.signout button").click()
    page.wait_for_url("**/login")
    expect(page.locator("#passkey-signin")).to_have_text(words["signin"])
    page.screenshot(path=f"/tmp/login-passkey-{language}.png", full_page=True)
    with page.expect_navigation():
        page.locator("#passkey-signin").click()
    page.wait_for_url("**/dashboard")
    page.goto("/account#passkeys")
    expect(items.nth(1)).to_contain_text(words["used"])
    page.locator("#passkeys").screenshot(path=f"/tmp/account-passkeys-used-{language}.png")
    credentials = page.cdp.send("WebAuthn.getCredentials", {"authenticatorId": second})["credentials"]
    assert len(credentials) == 1 and credentials[0]["isResidentCredential"] and credentials[0]["signCount"] >= 1

    # Removed; and the last way in is refused once the password is gone.
    items.first.locator("[data-remove]").click()
    expect(page.locator("#toast")).to_have_text(words["removed"])
    expect(items).to_have_count(1)
    with app.app_context():
        db.session.get(User, user["id"]).password_hash = None
        db.session.commit()
    items.first.locator("[data-remove]").click()
    expect(page.locator("#passkey-error")).to_contain_text(words["last"])
    expect(items).to_have_count(1)
    assert errors == []


def test_a_cancelled_passkey_sign_in_says_so(context_for, localhost):
    context = context_for("en")
    page = context.new_page()
    authenticator(page)  # holds no passkey of this site: the browser finds none and the request fails
    page.goto("/login")
    page.locator("#passkey-signin").click()
    expect(page.locator("#passkey-error")).to_be_visible()
    assert "/login" in page.url
