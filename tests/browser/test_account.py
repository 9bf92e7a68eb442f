"""The account page in Chromium: name, preferences applied at once (language and theme), password change,
two-factor set-up end to end (the server's QR code, a TOTP computed with pyotp, backup codes shown once),
linked accounts through a fake GitHub on loopback (link, unlink, the last way in refused); in English
and Chinese, light and dark, and 375 px wide."""
from __future__ import annotations

import io
import re
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pyotp
import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.browser.conftest import LANGUAGES, THEMES
from tests.support import PASSWORD, serving, wait_until

NEW_PASSWORD = "another secret 42"


def api(page, method: str, path: str, body: dict | None = None):
    """A call with the page's session cookie (checks the page itself does not make)."""
    return page.context.request.fetch(path, method=method, data=body)


def account(page) -> dict:
    response = api(page, "GET", "/api/account")
    assert response.ok, response.text()
    return response.json()["data"]


def qr_drawn(page) -> bool:
    """Whether the QR code image has loaded (polled from Python: the page's CSP forbids eval, which
    ``wait_for_function`` with a string needs)."""
    return page.evaluate("() => { const qr = document.getElementById('tf-qr'); "
                         "return qr.complete && qr.naturalWidth > 100; }")


def avatar_shown(page) -> bool:
    """Whether the profile's photo has loaded (from our origin: the CSP allows no other)."""
    return page.evaluate("() => { const img = document.querySelector('.acc-avatar img'); "
                         "return !!img && img.complete && img.naturalWidth > 0; }")


class _Photo(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802
        if self.path != "/me.png":
            self.send_error(404)
            return
        out = io.BytesIO()
        Image.new("RGB", (64, 64), (30, 120, 200)).save(out, "PNG")
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()
        self.wfile.write(out.getvalue())

    def log_message(self, *args):
        pass


@pytest.fixture
def photo_url():
    """A photo on loopback (the test settings allow loopback photo addresses)."""
    with serving(ThreadingHTTPServer(("127.0.0.1", 0), _Photo)) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}/me.png"


def test_name_and_preferences_apply_at_once(open_as, photo_url):
    page = open_as()
    page.goto("/settings")  # the preferences, on the account page
    page.wait_for_url(re.compile(r"/account#preferences$"))
    expect(page.get_by_role("heading", name="Account", exact=True)).to_be_visible()

    # The name, by keyboard: type it and press Enter.
    name = page.get_by_label("Name", exact=True)
    name.fill("Grace Hopper")
    name.press("Enter")
    expect(page.locator("#profile-name")).to_have_text("Grace Hopper")
    expect(page.locator(".who")).to_have_text("Grace Hopper")
    assert account(page)["name"] == "Grace Hopper"

    # The photo: saved by address, shown at once and after a reload, served from our origin.
    page.get_by_label("Photo address").fill(photo_url)
    page.get_by_role("button", name="Save profile").click()
    wait_until(lambda: avatar_shown(page))
    page.reload()
    wait_until(lambda: avatar_shown(page))
    assert page.locator(".acc-avatar img").get_attribute("src").startswith("/account/avatar?v=")
    # An address that is no image: the initial shows again.
    page.get_by_label("Photo address").fill(photo_url.replace("me.png", "none.png"))
    page.get_by_role("button", name="Save profile").click()
    expect(page.locator(".acc-avatar img")).to_have_count(0)
    expect(page.locator(".acc-initial")).to_have_text("G")
    page.reload()
    expect(page.locator(".acc-avatar img")).to_have_count(0)

    # A blank name is refused by the API, at the field.
    name.fill("   ")
    page.get_by_role("button", name="Save profile").click()
    expect(page.locator("#profile-form .field-error")).to_be_visible()
    expect(name).to_have_attribute("aria-invalid", "true")

    # Time zone and e-mail settings are saved without a reload.
    page.get_by_label("Time zone").select_option("Asia/Shanghai")
    page.get_by_label("News and offers").check()
    page.get_by_role("button", name="Save preferences").click()
    expect(page.locator("#toast")).to_have_text("Preferences saved.")
    preferences = account(page)["preferences"]
    assert preferences["timezone"] == "Asia/Shanghai" and preferences["marketingEmails"] is True

    # The theme, by keyboard (arrow keys move through the radio group): the page reloads dark.
    page.get_by_label("Light", exact=True).focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_label("Dark", exact=True)).to_be_checked()
    page.get_by_role("button", name="Save preferences").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(page.get_by_label("Dark", exact=True)).to_be_checked()

    # The language: the page reloads in Chinese at once.
    page.get_by_label("Language").select_option("zh-cn")
    with page.expect_navigation():
        page.get_by_role("button", name="Save preferences").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.get_by_role("heading", name="账户", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="保存偏好设置")).to_be_visible()
    assert account(page)["preferences"]["language"] == "zh-cn"
    assert page.script_errors == []


def test_password_change_shows_a_wrong_current_password_at_its_field(open_as, make_user, live):
    user = make_user()
    page = open_as(user)
    page.goto("/account#password")
    form = page.locator("#password-form")
    form.get_by_label("Current password").fill("not my password 1")
    form.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    form.get_by_label("New password again").fill(NEW_PASSWORD)
    form.get_by_role("button", name="Change password").click()

    current = form.get_by_label("Current password")
    expect(current).to_have_attribute("aria-invalid", "true")
    error = form.locator("#error-currentPassword")
    expect(error).to_have_text("The current password is incorrect.")
    expect(current).to_be_focused()

    # Different new passwords are caught before asking.
    current.fill(user["password"])
    form.get_by_label("New password again").fill(NEW_PASSWORD + "x")
    form.get_by_role("button", name="Change password").click()
    expect(form.locator("#error-confirmPassword")).to_have_text("The new passwords do not match.")

    form.get_by_label("New password again").fill(NEW_PASSWORD)
    form.get_by_role("button", name="Change password").click()
    expect(page.locator("#toast")).to_have_text("Your password has been changed.")
    expect(current).to_have_value("")
    assert page.context.request.get("/api/account").ok  # this session stays signed in
    signed = page.context.request.post("/api/auth/signin", data={"email": user["email"], "password": NEW_PASSWORD})
    assert signed.ok, signed.text()
    assert page.script_errors == []


def test_two_factor_set_up_confirm_and_backup_codes_shown_once(open_as, make_user):
    user = make_user()
    page = open_as(user)
    page.goto("/account#two-factor")
    expect(page.locator("#tf-state")).to_have_text("Off")

    page.locator("#tf-enable-form").get_by_label("Current password").fill(user["password"])
    page.get_by_role("button", name="Set up two-factor sign-in").click()

    # The QR code, drawn by the server, and the key it encodes.
    qr = page.get_by_role("img", name="QR code for your authenticator app")
    expect(qr).to_be_visible()
    wait_until(lambda: qr_drawn(page))
    secret = page.locator("#tf-secret").inner_text()
    assert re.fullmatch(r"[A-Z2-7]{32}", secret)
    expect(page.locator("#tf-state")).to_have_text("Off")  # on only once a code is confirmed
    expect(page.get_by_label("Code from the app")).to_be_focused()
    page.screenshot(path="/tmp/account-2fa-qr.png", full_page=True)

    # A wrong code is refused at the field; the right one confirms.
    code_field = page.get_by_label("Code from the app")
    code_field.fill(str((int(pyotp.TOTP(secret).now()) + 1) % 1_000_000).zfill(6))
    page.get_by_role("button", name="Confirm").click()
    expect(page.locator("#error-code")).to_have_text("That two-factor code is not valid.")
    code_field.fill(pyotp.TOTP(secret).now())
    code_field.press("Enter")

    codes = page.locator("#tf-codes-list li")
    expect(codes).to_have_count(10)
    expect(page.locator("#tf-state")).to_have_text("On")
    assert all(re.fullmatch(r"[2-9a-z]{5}-[2-9a-z]{5}", code) for code in codes.all_inner_texts())
    expect(page.locator("#tf-setup")).to_be_hidden()
    href = page.locator("#tf-download").get_attribute("href")
    assert href.startswith("data:text/plain") and codes.first.inner_text() in href
    expect(page.locator("#tf-copy")).to_be_focused()
    page.screenshot(path="/tmp/account-2fa-codes.png", full_page=True)
    page.get_by_role("button", name="I have saved them").click()
    expect(page.locator("#tf-codes")).to_be_hidden()

    # Shown once: not after a reload, and neither is the QR code.
    page.reload()
    expect(page.locator("#tf-state")).to_have_text("On")
    expect(page.locator("#tf-codes")).to_be_hidden()
    expect(page.locator("#tf-setup")).to_be_hidden()
    assert page.context.request.get("/account/two-factor/qr.svg").status == 404

    # Turning it off asks for the password.
    page.locator("#tf-disable-form").get_by_label("Current password").fill(user["password"])
    page.get_by_role("button", name="Turn off two-factor sign-in").click()
    expect(page.locator("#tf-state")).to_have_text("Off")
    expect(page.locator("#tf-enable-form")).to_be_visible()
    assert page.script_errors == []


# -- linked accounts, through a fake GitHub ---------------------------------------------------------


def test_link_and_unlink_github(browser, oauth_live, make_user):
    user = make_user(email="octo@example.com")
    context = browser.new_context(base_url=oauth_live, viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    assert context.request.post("/api/auth/signin", data={"email": user["email"], "password": PASSWORD}).ok
    page.goto("/account#identities")
    expect(page.locator("#identity-list")).to_have_text("No account is linked.")

    assert page.get_by_role("link", name="Link GitHub").get_attribute("href") == (
        "/api/auth/link/github?callbackUrl=%2Faccount%23identities")
    page.get_by_role("link", name="Link GitHub").click()
    page.wait_for_url(re.compile(r"/account#identities$"))  # ?linked=github, read and dropped from the address
    expect(page.locator("#toast")).to_have_text("Linked GitHub.")
    item = page.locator('#identity-list li[data-provider="github"]')
    expect(item).to_contain_text("GitHub")
    expect(item).to_contain_text("octo@example.com")
    expect(page.get_by_role("link", name="Link GitHub")).to_have_count(0)

    page.get_by_role("button", name="Unlink GitHub").click()
    expect(page.locator("#toast")).to_have_text("GitHub is no longer linked.")
    expect(page.get_by_role("link", name="Link GitHub")).to_be_visible()
    context.close()


def test_unlinking_the_last_way_to_sign_in_is_refused(browser, oauth_live):
    context = browser.new_context(base_url=oauth_live, viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/api/auth/signin/github?callbackUrl=/account")  # a new account: GitHub is its only way in
    page.wait_for_url(re.compile(r"/account$"))
    expect(page.locator("#password")).to_contain_text("no password")
    expect(page.locator("#tf-enable-form")).to_have_count(0)

    page.get_by_role("button", name="Unlink GitHub").focus()
    page.keyboard.press("Enter")

    problem = page.get_by_role("alert")
    expect(problem).to_have_text("This is the only way to sign in to your account: set a password "
                                 "(forgot password) or link another account before unlinking it.")
    expect(page.get_by_role("button", name="Unlink GitHub")).to_be_focused()
    expect(page.locator('#identity-list li[data-provider="github"]')).to_have_count(1)
    assert errors == []
    context.close()


# -- languages, themes, narrow screens ----------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("theme", THEMES)
def test_the_page_in_each_language_and_theme(open_as, language, theme):
    page = open_as(language=language, theme=theme)
    page.goto("/account")
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    heading, save, refused = (("账户", "保存个人资料", "当前密码不正确。") if language == "zh-cn"
                              else ("Account", "Save profile", "The current password is incorrect."))
    expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=save)).to_be_visible()
    expect(page.get_by_role("radio", name=re.compile("深色|Dark"))).to_be_checked(checked=theme == "dark")
    # Scripts speak the page's language too (an API error, worded by the API in the account's language).
    page.locator("#password-form input[name=currentPassword]").fill("wrong password 1")
    page.locator("#password-form input[name=newPassword]").fill(NEW_PASSWORD)
    page.locator("#password-form input[name=confirmPassword]").fill(NEW_PASSWORD)
    page.locator("#password-form button[type=submit]").click()
    expect(page.locator("#error-currentPassword")).to_have_text(refused)
    expect(page.locator("#identity-list")).to_have_text("尚未关联任何账号。" if language == "zh-cn"
                                                        else "No account is linked.")
    page.screenshot(path=f"/tmp/account-{language}-{theme}.png", full_page=True)
    assert page.script_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_is_wider_than_a_375_px_screen(open_as, make_user, language):
    user = make_user()
    page = open_as(user, language=language, theme="dark" if language == "zh-cn" else "light", width=375)
    page.goto("/account")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.locator("#tf-enable-form input[name=currentPassword]").fill(user["password"])
    page.locator("#tf-enable-form button[type=submit]").click()
    expect(page.locator("#tf-setup")).to_be_visible()
    wait_until(lambda: qr_drawn(page))
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.locator("#tf-code").fill(pyotp.TOTP(page.locator("#tf-secret").inner_text()).now())
    page.locator("#tf-confirm-form button[type=submit]").click()
    expect(page.locator("#tf-codes-list li")).to_have_count(10)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=f"/tmp/account-375-{language}.png", full_page=True)
    assert page.script_errors == []
