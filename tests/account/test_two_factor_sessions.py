"""A two-factor set-up belongs to the browser session that started it, and backup codes stay until dismissed
(issue 32, point 3).

The probes: a second session (a stolen cookie, no password) saw the waiting key on /account, confirmed it and
received the ten backup codes, and the owner's confirmation then got ``backupCodes: []``; a reload before "I
have saved them" lost the codes, with no way to make new ones; the code that confirmed the set-up was refused
at the next sign-in in the same 30 seconds with the generic message.
"""
from __future__ import annotations

import pytest
from sqlalchemy import select

from app.auth.models import AuthSession
from tests.auth.support import clock, enable_two_factor, signed_in, totp  # noqa: F401
from tests.support import PASSWORD


@pytest.fixture(autouse=True)
def mid_step(clock):  # noqa: F811
    """The clock in the middle of a 30-second step, so that no step ends while a test runs."""
    clock.advance(seconds=15 - clock.now().timestamp() % 30)


def second_session(app, user):
    """Another browser signed in to the same account (as a stolen cookie would be)."""
    client = app.test_client()
    assert client.post("/api/auth/signin", json={"email": user["email"], "password": PASSWORD}).status_code == 200
    return client


def start(client) -> str:
    response = client.post("/api/account/two-factor/setup", json={"currentPassword": PASSWORD})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]["secret"]


def confirm(client, code):
    return client.post("/api/account/two-factor/confirm", json={"code": code})


def page(client) -> str:
    response = client.get("/account")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def shown_codes(client) -> list[str]:
    html = page(client)
    listing = html.split('id="tf-codes-list"', 1)[1].split("</ol>", 1)[0]
    return [item.split("</li>", 1)[0] for item in listing.split("<li>")[1:]]


def test_only_the_session_that_started_a_set_up_sees_its_key(app, signed_in):
    user, owner = signed_in()
    other = second_session(app, user)
    secret = start(owner)

    assert secret in page(owner) and owner.get("/account/two-factor/qr.svg").status_code == 200
    theirs = page(other)
    assert secret not in theirs and 'data-set-up="false"' in theirs and 'id="tf-elsewhere"' in theirs
    assert other.get("/account/two-factor/qr.svg").status_code == 404
    assert secret not in other.get("/api/account").get_data(as_text=True)


def test_another_session_cannot_confirm_and_the_owner_still_gets_the_ten_codes(app, signed_in, query):
    user, owner = signed_in()
    other = second_session(app, user)
    secret = start(owner)
    code = totp(app, secret)

    refused = confirm(other, code)

    assert refused.status_code == 409
    assert refused.get_json()["code"] == "TWO_FACTOR_SETUP_IN_ANOTHER_SESSION"
    assert refused.get_json()["details"] == {"field": "code"}
    confirmed = confirm(owner, code)  # nothing was spent by the refusal
    assert confirmed.status_code == 200, confirmed.get_json()
    assert len(confirmed.get_json()["data"]["backupCodes"]) == 10


def test_a_set_up_turned_on_at_once_shows_its_key_to_that_session_only(app, signed_in):
    user, owner = signed_in()
    other = second_session(app, user)
    secret = enable_two_factor(owner, user)["secret"]

    assert secret in page(owner)
    assert secret not in page(other) and other.get("/account/two-factor/qr.svg").status_code == 404
    refused = confirm(other, totp(app, secret))
    assert refused.status_code == 409 and refused.get_json()["code"] == "TWO_FACTOR_SETUP_IN_ANOTHER_SESSION"
    assert confirm(owner, totp(app, secret)).status_code == 200


def test_a_second_session_may_start_its_own_set_up_which_replaces_the_first(app, signed_in):
    user, owner = signed_in()
    other = second_session(app, user)
    first = start(owner)
    second = start(other)  # it signed in with the password: sudo mode

    stale = confirm(owner, totp(app, first))
    assert stale.status_code == 409
    assert len(confirm(other, totp(app, second)).get_json()["data"]["backupCodes"]) == 10


def test_backup_codes_are_shown_in_their_session_until_dismissed(app, signed_in, query):
    user, owner = signed_in()
    other = second_session(app, user)
    codes = confirm(owner, totp(app, start(owner))).get_json()["data"]["backupCodes"]

    assert shown_codes(owner) == codes
    assert shown_codes(owner) == codes  # a reload shows them again
    assert shown_codes(other) == []
    sealed = query(lambda s: [row for row in s.scalars(select(AuthSession.backup_codes)) if row])
    assert len(sealed) == 1 and not any(code in sealed[0] for code in codes)  # sealed, not stored readable

    used = app.test_client().post("/api/auth/signin", json={"email": user["email"], "password": PASSWORD,
                                                             "code": codes[0]})
    assert used.status_code == 200
    assert shown_codes(owner) == codes[1:]  # a used code is shown no more

    dismissed = owner.post("/api/account/two-factor/backup-codes/dismiss")
    assert dismissed.status_code == 200, dismissed.get_json()
    assert shown_codes(owner) == []
    assert query(lambda s: [row for row in s.scalars(select(AuthSession.backup_codes)) if row]) == []


def test_new_backup_codes_replace_the_old_ones(app, signed_in):
    user, owner = signed_in()
    other = second_session(app, user)
    old = confirm(owner, totp(app, start(owner))).get_json()["data"]["backupCodes"]

    response = other.post("/api/account/two-factor/backup-codes")

    assert response.status_code == 201, response.get_json()
    new = response.get_json()["data"]["backupCodes"]
    assert len(new) == 10 and not set(new) & set(old)
    assert shown_codes(other) == new and shown_codes(owner) == []  # the old ones are no one's any more

    def sign_in(code):
        return app.test_client().post("/api/auth/signin", json={"email": user["email"], "password": PASSWORD,
                                                                 "code": code})

    assert sign_in(old[0]).status_code == 401
    assert sign_in(new[0]).status_code == 200


def test_new_backup_codes_need_two_factor_on(signed_in):
    _user, client = signed_in()
    response = client.post("/api/account/two-factor/backup-codes")
    assert response.status_code == 400 and response.get_json()["code"] == "VALIDATION_ERROR"


def test_dismissing_needs_a_browser_session(app, signed_in):
    user, _client = signed_in()
    token = app.test_client().post("/api/auth/token", json={"grant_type": "password", "email": user["email"],
                                                             "password": PASSWORD}).get_json()["access_token"]
    response = app.test_client().post("/api/account/two-factor/backup-codes/dismiss",
                                      headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 403 and response.get_json()["code"] == "SESSION_REQUIRED"


def test_the_code_that_confirmed_the_set_up_says_why_it_is_refused_at_sign_in(app, signed_in):
    user, owner = signed_in()
    code = totp(app, start(owner))
    assert confirm(owner, code).status_code == 200

    response = app.test_client().post("/api/auth/signin", json={"email": user["email"], "password": PASSWORD,
                                                                 "code": code})

    assert response.status_code == 401
    body = response.get_json()
    assert body["code"] == "INVALID_TWO_FACTOR_CODE"
    assert body["details"] == {"field": "code", "reason": "used"}
    assert "just used" in body["error"] and "next one" in body["error"]


def test_the_login_form_says_the_code_was_just_used_and_the_next_one_works(app, signed_in, clock):  # noqa: F811
    user, owner = signed_in()
    secret = start(owner)
    code = totp(app, secret)
    confirm(owner, code)
    browser = app.test_client()

    posted = browser.post("/api/auth/signin", data={"email": user["email"], "password": PASSWORD, "code": code})

    assert posted.status_code == 302
    assert posted.headers["Location"].endswith("/login?error=INVALID_TWO_FACTOR_CODE&reason=used")
    shown = browser.get("/login?error=INVALID_TWO_FACTOR_CODE&reason=used").get_data(as_text=True)
    assert "That code has just been used. Wait for the next one" in shown
    clock.advance(seconds=30)
    later = browser.post("/api/auth/signin", json={"email": user["email"], "password": PASSWORD,
                                                   "code": totp(app, secret)})
    assert later.status_code == 200, later.get_json()
