"""Sudo mode and backup codes on the account page, in Chromium (issue 32, points 2 and 3): a security change
from a session that signed in more than 10 minutes ago opens "Confirm it is you", which asks for what the
account has (the password; a code mailed to an account without one) and then makes the change; backup codes
stay on screen across reloads until "I have saved them", and new ones can be made. In English and Chinese."""
from __future__ import annotations

import re
from datetime import timedelta

import pyotp
import pytest
from playwright.sync_api import expect
from sqlalchemy import update

from app.auth.models import AuthSession
from app.common.models import utcnow
from app.users.models import User
from tests.browser.conftest import LANGUAGES
from tests.browser.test_account import qr_drawn
from tests.support import text_part, wait_until

NEW_PASSWORD = "another secret 42"
WORDS = {
    "en": {"title": "Confirm it is you", "password": "Password", "confirm": "Confirm", "cancel": "Cancel",
           "changed": "Your password has been changed.", "wrong": "The password is incorrect.",
           "not changed": "Not changed: confirm it is you to make this change."},
    "zh-cn": {"title": "确认是您本人", "password": "密码", "confirm": "确认", "cancel": "取消",
              "changed": "您的密码已更改。", "wrong": "密码不正确。",
              "not changed": "未更改：请先确认是您本人，才能进行此更改。"},
}


@pytest.fixture
def age_sessions(query):
    """``age_sessions(user)``: every session of ``user`` signed in 11 minutes ago, past sudo mode (the
    clocks stay: a mail job on another process reads the real one)."""
    def age(user: dict, minutes: float = 11) -> None:
        def run(session):
            session.execute(update(AuthSession).where(AuthSession.user_id == user["id"])
                            .values(authenticated_at=utcnow() - timedelta(minutes=minutes)))
            session.commit()

        query(run)

    return age


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_stale_session_confirms_it_is_you_and_the_password_change_goes_on(open_as, make_user, age_sessions,
                                                                           language):
    words = WORDS[language]
    user = make_user()
    page = open_as(user, language=language)
    page.goto("/account#password")
    age_sessions(user)
    form = page.locator("#password-form")

    def submit():
        form.locator("input[name=currentPassword]").fill(user["password"])
        form.locator("input[name=newPassword]").fill(NEW_PASSWORD)
        form.locator("input[name=confirmPassword]").fill(NEW_PASSWORD)
        form.locator("button[type=submit]").click()

    # Cancelled: nothing changes, and the page says why.
    submit()
    dialog = page.get_by_role("dialog", name=words["title"])
    expect(dialog).to_be_visible()
    expect(dialog.get_by_label(words["password"])).to_be_focused()
    expect(dialog.locator("#reauth-email")).to_be_hidden()
    dialog.get_by_role("button", name=words["cancel"]).click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#toast")).to_have_text(words["not changed"])

    # A wrong password stays in the dialog, at its field; the right one makes the change.
    submit()
    expect(dialog).to_be_visible()
    dialog.get_by_label(words["password"]).fill("not my password 1")
    dialog.locator("#reauth-password").get_by_role("button", name=words["confirm"]).click()
    expect(dialog.locator("#error-password")).to_have_text(words["wrong"])
    page.screenshot(path=f"/tmp/account-sudo-dialog-{language}.png", full_page=True)
    dialog.get_by_label(words["password"]).fill(user["password"])
    dialog.get_by_label(words["password"]).press("Enter")
    expect(dialog).to_be_hidden()
    expect(page.locator("#toast")).to_have_text(words["changed"])
    signed = page.context.request.post("/api/auth/signin", data={"email": user["email"], "password": NEW_PASSWORD})
    assert signed.ok, signed.text()
    assert page.script_errors == []


def test_an_account_without_a_password_confirms_with_a_mailed_code(open_as, make_user, age_sessions, query,
                                                                   mailbox):
    user = make_user()
    page = open_as(user)

    def drop_password(session):
        session.execute(update(User).where(User.id == user["id"]).values(password_hash=None))
        session.commit()

    query(drop_password)
    page.goto("/account#api-tokens")
    age_sessions(user)

    page.locator("#token-name").fill("CI")
    page.locator("#token-create-form button[type=submit]").click()
    dialog = page.get_by_role("dialog", name="Confirm it is you")
    expect(dialog.locator("#reauth-email")).to_be_visible()
    expect(dialog.locator("#reauth-password")).to_be_hidden()
    dialog.get_by_role("button", name="Mail me a code").click()
    mail = mailbox.wait_for(user["email"])
    code = re.search(r"\b\d{4} \d{4}\b", text_part(mail)).group(0)
    dialog.get_by_label("Code from the mail").fill(code)
    dialog.locator("#reauth-email button[type=submit]").click()

    expect(dialog).to_be_hidden()
    expect(page.locator("#token-created")).to_be_visible()
    assert page.locator("#token-value").input_value()
    assert page.script_errors == []


def test_backup_codes_stay_until_saved_and_new_ones_replace_them(live, open_as, make_user):
    _url, app = live
    user = make_user()
    page = open_as(user)
    page.goto("/account#two-factor")
    page.locator("#tf-enable-form input[name=currentPassword]").fill(user["password"])
    page.locator("#tf-enable-form button[type=submit]").click()
    expect(page.locator("#tf-setup")).to_be_visible()
    wait_until(lambda: qr_drawn(page))
    page.locator("#tf-code").fill(pyotp.TOTP(page.locator("#tf-secret").inner_text()).now())
    page.locator("#tf-confirm-form button[type=submit]").click()
    codes = page.locator("#tf-codes-list li")
    expect(codes).to_have_count(10)
    first = codes.all_inner_texts()

    # A reload before "I have saved them" shows the same codes, ready to download.
    page.reload()
    expect(codes).to_have_count(10)
    assert codes.all_inner_texts() == first
    assert first[0] in page.locator("#tf-download").get_attribute("href")
    page.get_by_role("button", name="I have saved them").click()
    expect(page.locator("#tf-codes")).to_be_hidden()
    page.reload()
    expect(page.locator("#tf-codes")).to_be_hidden()

    # New codes: asked first, then shown; the old ones no longer sign in.
    page.once("dialog", lambda question: question.accept())
    page.get_by_role("button", name="Make new backup codes").click()
    expect(codes).to_have_count(10)
    expect(page.locator("#toast")).to_have_text("New backup codes: the old ones no longer work.")
    second = codes.all_inner_texts()
    assert not set(first) & set(second)
    page.screenshot(path="/tmp/account-2fa-new-codes.png", full_page=True)
    client = app.test_client()
    old = client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"],
                                                "code": first[0]})
    assert old.status_code == 401
    new = client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"],
                                                "code": second[0]})
    assert new.status_code == 200, new.get_json()
    assert page.script_errors == []
