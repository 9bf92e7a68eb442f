"""Two-factor set-up on the account page locks nobody out (issue 24, point 7): Set up starts a set-up
that waits for a first code (two-factor stays off, a sign-in elsewhere asks for no code, a reload
shows the same set-up), the code turns it on and the backup codes appear then; an expired set-up says
so and the page starts again. In English and Chinese."""
from __future__ import annotations

import pyotp
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LANGUAGES
from tests.browser.test_account import qr_drawn
from tests.support import wait_until

WORDS = {
    "en": {"on": "On", "off": "Off", "note": "Two-factor sign-in turns on when you confirm a code from the app",
           "expired": "This set-up has expired. Set it up again."},
    "zh-cn": {"on": "已开启", "off": "已关闭", "note": "确认应用中的验证码后，两步验证登录才会开启",
              "expired": "此次设置已过期，请重新设置。"},
}


def sign_in_elsewhere(browser, url: str, user: dict) -> str:
    """Sign in with the password on the login page of a fresh browser (no cookies): where it lands."""
    context = browser.new_context(base_url=url)
    try:
        page = context.new_page()
        page.goto("/login")
        page.locator("input[name=email]").fill(user["email"])
        page.locator("input[name=password]").fill(user["password"])
        with page.expect_navigation():
            page.locator("form button[type=submit]").click()
        page.wait_for_load_state()
        return page.url
    finally:
        context.close()


def start_set_up(page, user: dict) -> str:
    """Press Set up (with the password) and wait for the QR code: the key shown."""
    page.locator("#tf-enable-form input[name=currentPassword]").fill(user["password"])
    page.locator("#tf-enable-form button[type=submit]").click()
    expect(page.locator("#tf-setup")).to_be_visible()
    wait_until(lambda: qr_drawn(page))
    return page.locator("#tf-secret").inner_text()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_reload_mid_set_up_locks_nobody_out_and_the_codes_come_at_confirmation(browser, live, open_as,
                                                                                 make_user, language):
    url, app = live
    words = WORDS[language]
    user = make_user()
    page = open_as(user, language=language)
    page.goto("/account#two-factor")

    secret = start_set_up(page, user)
    expect(page.locator("#tf-state")).to_have_text(words["off"])
    expect(page.locator("#tf-setup-note")).to_contain_text(words["note"])
    expect(page.locator("#tf-enable-form")).to_be_hidden()
    expect(page.locator("#tf-code")).to_be_focused()
    page.screenshot(path=f"/tmp/account-2fa-mid-set-up-{language}.png", full_page=True)

    # Reloaded mid-set-up (no "leave the page?" question holds it up): still off, and a sign-in
    # elsewhere, with the password alone, is not asked for a code.
    page.reload()
    expect(page.locator("#tf-state")).to_have_text(words["off"])
    assert sign_in_elsewhere(browser, url, user).endswith("/dashboard")

    # The same set-up is there to finish: the code turns two-factor on and shows the backup codes.
    expect(page.locator("#tf-setup")).to_be_visible()
    wait_until(lambda: qr_drawn(page))
    assert page.locator("#tf-secret").inner_text() == secret
    page.locator("#tf-code").fill(pyotp.TOTP(secret).now())
    page.locator("#tf-confirm-form button[type=submit]").click()
    codes = page.locator("#tf-codes-list li")
    expect(codes).to_have_count(10)
    expect(page.locator("#tf-state")).to_have_text(words["on"])
    expect(page.locator("#tf-setup")).to_be_hidden()
    expect(page.locator("#tf-disable-form")).to_be_visible()
    page.screenshot(path=f"/tmp/account-2fa-confirmed-{language}.png", full_page=True)
    # One of those codes signs in where the password alone no longer does.
    assert "error=TWO_FACTOR_REQUIRED" in sign_in_elsewhere(browser, url, user)
    signed = app.test_client().post("/api/auth/signin", json={"email": user["email"], "password": user["password"],
                                                              "code": codes.first.inner_text()})
    assert signed.status_code == 200, signed.get_json()
    assert page.script_errors == []


def test_an_expired_set_up_says_so_and_starts_again(live, open_as, make_user):
    _url, app = live
    user = make_user()
    page = open_as(user)
    page.goto("/account#two-factor")
    secret = start_set_up(page, user)
    app.extensions["clock"].advance(minutes=16)

    page.locator("#tf-code").fill(pyotp.TOTP(secret).at(app.extensions["clock"].now()))
    page.locator("#tf-confirm-form button[type=submit]").click()
    # 16 minutes is past sudo mode's 10 too: the page asks who this is first, as it would anyone.
    dialog = page.get_by_role("dialog", name="Confirm it is you")
    dialog.get_by_label("Password").fill(user["password"])
    dialog.locator("#reauth-password button[type=submit]").click()
    expect(dialog).to_be_hidden()

    expect(page.locator("#toast")).to_have_text(WORDS["en"]["expired"])
    expect(page.locator("#tf-setup")).to_be_hidden()
    expect(page.locator("#tf-enable-form")).to_be_visible()
    expect(page.locator("#tf-state")).to_have_text("Off")
    expect(page.locator("#tf-enable-password")).to_be_focused()
    page.reload()
    expect(page.locator("#tf-setup")).to_be_hidden()
    # Starting again makes a new key, which confirms.
    again = start_set_up(page, user)
    assert again != secret
    page.locator("#tf-code").fill(pyotp.TOTP(again).at(app.extensions["clock"].now()))
    page.locator("#tf-confirm-form button[type=submit]").click()
    expect(page.locator("#tf-codes-list li")).to_have_count(10)
    expect(page.locator("#tf-state")).to_have_text("On")
    assert page.script_errors == []
