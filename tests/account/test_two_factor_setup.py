"""POST /api/account/two-factor/setup: a set-up that waits for its first code (issue 24, point 7).

Two-factor stays off, and sign-in asks for no code, until POST /api/account/two-factor/confirm
accepts a code of the waiting secret; that answer carries the backup codes. A set-up nobody confirms
expires. PUT /api/account/security keeps the contract's behaviour (on at once, codes in its answer).
"""
from __future__ import annotations

from datetime import timedelta

import pyotp
import pytest
from sqlalchemy import select

from tests.auth.support import (clock, enable_two_factor, password_grant, reauthenticate, security,  # noqa: F401
                                signed_in, totp)

from app.auth.models import BackupCode
from app.common.schemas import format_timestamp
from app.common.security import hash_token
from app.users.models import User


@pytest.fixture(autouse=True)
def mid_step(clock):  # noqa: F811
    """The clock in the middle of a 30-second step, so that no step ends while a test runs."""
    clock.advance(seconds=15 - clock.now().timestamp() % 30)


def set_up(client, password):
    return client.post("/api/account/two-factor/setup", json={"currentPassword": password})


def start(client, user) -> dict:
    response = set_up(client, user["password"])
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]


def confirm(client, code):
    return client.post("/api/account/two-factor/confirm", json={"code": code})


def signin(app, user, **extra):
    return app.test_client().post("/api/auth/signin", json={"email": user["email"], "password": user["password"],
                                                            **extra})


def stored(query, user) -> User:
    return query(lambda s: s.get(User, user["id"]))


def test_a_set_up_answers_the_key_and_leaves_two_factor_off(app, signed_in, query):  # noqa: F811
    user, client = signed_in()

    response = set_up(client, user["password"])

    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    data = body["data"]
    assert set(data) == {"twoFactorEnabled", "otpauthUri", "secret", "expiresAt"} and body["message"]
    assert data["twoFactorEnabled"] is False
    assert pyotp.parse_uri(data["otpauthUri"]).secret == data["secret"]
    assert pyotp.parse_uri(data["otpauthUri"]).name == user["email"]
    row = stored(query, user)
    assert row.two_factor_enabled is False and row.totp_secret is None
    assert row.totp_pending_secret == data["secret"]
    expected = app.extensions["clock"].now() + timedelta(minutes=15)
    assert abs(row.totp_pending_until - expected) < timedelta(seconds=5)
    assert data["expiresAt"] == format_timestamp(row.totp_pending_until)
    assert query(lambda s: s.query(BackupCode).count()) == 0


def test_a_set_up_waiting_for_its_code_asks_nothing_at_sign_in(app, signed_in):  # noqa: F811
    user, client = signed_in()
    start(client, user)

    assert signin(app, user).status_code == 200
    assert password_grant(app.test_client(), user).status_code == 200


def test_the_first_code_turns_two_factor_on_and_answers_the_backup_codes(app, signed_in, query):  # noqa: F811
    user, client = signed_in()
    secret = start(client, user)["secret"]
    code = totp(app, secret)

    response = confirm(client, code[:3] + " " + code[3:])

    assert response.status_code == 200, response.get_json()
    data = response.get_json()["data"]
    assert data["twoFactorEnabled"] is True and data["confirmed"] is True
    codes = data["backupCodes"]
    assert len(codes) == len(set(codes)) == 10
    hashes = set(query(lambda s: s.scalars(select(BackupCode.code_hash)).all()))
    assert hashes == {hash_token(c.replace("-", "")) for c in codes}
    row = stored(query, user)
    assert row.two_factor_enabled is True and row.totp_secret == secret
    assert row.totp_pending_secret is None and row.totp_pending_until is None
    # Sign-in now asks for a code; the one that confirmed is spent, a backup code works.
    assert signin(app, user).get_json()["code"] == "TWO_FACTOR_REQUIRED"
    assert signin(app, user, code=code).get_json()["code"] == "INVALID_TWO_FACTOR_CODE"
    assert signin(app, user, code=codes[0]).status_code == 200
    # Confirmed once: the same code again is refused, and no new codes are made.
    again = confirm(client, totp(app, secret, steps=1))
    assert again.status_code == 200 and again.get_json()["data"]["backupCodes"] == []
    assert query(lambda s: s.query(BackupCode).count()) == 10


def test_a_wrong_code_leaves_two_factor_off_and_counts_toward_the_limit(app, signed_in, query):  # noqa: F811
    user, client = signed_in()
    secret = start(client, user)["secret"]

    for steps in (5, 6, 7, 8, 9):
        response = confirm(client, totp(app, secret, steps=steps))
        assert response.status_code == 401
        assert response.get_json()["code"] == "INVALID_TWO_FACTOR_CODE"
        assert response.get_json()["details"] == {"field": "code"}
    assert stored(query, user).two_factor_enabled is False
    assert signin(app, user).status_code == 200

    blocked = confirm(client, totp(app, secret))
    assert blocked.status_code == 429 and blocked.get_json()["code"] == "RATE_LIMITED"


def test_an_unconfirmed_set_up_expires(app, clock, signed_in, query):  # noqa: F811
    user, client = signed_in()
    secret = start(client, user)["secret"]
    clock.advance(minutes=15, seconds=1)
    reauthenticate(client, password=user["password"])  # past sudo mode's 10 minutes too

    response = confirm(client, totp(app, secret))

    assert response.status_code == 400
    assert response.get_json()["code"] == "VALIDATION_ERROR" and response.get_json()["details"] == {"field": "code"}
    assert "expired" in response.get_json()["error"]
    assert stored(query, user).two_factor_enabled is False
    assert signin(app, user).status_code == 200
    assert client.get("/account/two-factor/qr.svg").status_code == 404
    assert 'data-set-up="false"' in client.get("/account").get_data(as_text=True)


def test_a_set_up_confirmed_just_in_time_counts(app, clock, signed_in, query):  # noqa: F811
    user, client = signed_in()
    secret = start(client, user)["secret"]
    clock.advance(minutes=14, seconds=50)
    reauthenticate(client, password=user["password"])

    assert confirm(client, totp(app, secret)).status_code == 200
    assert stored(query, user).two_factor_enabled is True


def test_starting_again_replaces_the_waiting_key(app, signed_in, query):  # noqa: F811
    user, client = signed_in()
    first = start(client, user)["secret"]
    second = start(client, user)["secret"]
    assert first != second

    refused = confirm(client, totp(app, first))
    assert refused.status_code == 401 and stored(query, user).two_factor_enabled is False
    assert confirm(client, totp(app, second)).status_code == 200


def test_the_qr_code_and_the_page_show_the_waiting_set_up_after_a_reload(app, signed_in):  # noqa: F811
    user, client = signed_in()
    secret = start(client, user)["secret"]

    assert client.get("/account/two-factor/qr.svg").status_code == 200
    page = client.get("/account").get_data(as_text=True)
    assert 'data-enabled="false"' in page and 'data-set-up="true"' in page and secret in page

    assert confirm(client, totp(app, secret)).status_code == 200
    assert client.get("/account/two-factor/qr.svg").status_code == 404
    page = client.get("/account").get_data(as_text=True)
    assert 'data-enabled="true"' in page and 'data-set-up="false"' in page and secret not in page


def test_a_wrong_current_password_is_refused_and_shares_the_security_limit(app, signed_in, query):  # noqa: F811
    user, client = signed_in()
    for i in range(3):
        response = set_up(client, f"wrong {i} x")
        assert response.status_code == 400 and response.get_json()["code"] == "INVALID_PASSWORD"
        assert response.get_json()["details"] == {"field": "currentPassword"}
    for i in range(2):
        assert security(client, currentPassword=f"wrong {i} y", twoFactorEnabled=True).status_code == 400
    assert stored(query, user).totp_pending_secret is None

    blocked = set_up(client, user["password"])
    assert blocked.status_code == 429 and blocked.get_json()["code"] == "RATE_LIMITED"
    assert security(client, currentPassword=user["password"], twoFactorEnabled=True).status_code == 429


@pytest.mark.parametrize("body", [{}, {"currentPassword": ""}, {"currentPassword": 5},
                                  {"currentPassword": "x", "code": "123456"}])
def test_the_body_is_checked(signed_in, body):  # noqa: F811
    _user, client = signed_in()
    response = client.post("/api/account/two-factor/setup", json=body)
    assert response.status_code == 400 and response.get_json()["code"] == "VALIDATION_ERROR"


def test_with_two_factor_on_a_set_up_is_refused(signed_in, query):  # noqa: F811
    user, client = signed_in()
    secret = enable_two_factor(client, user)["secret"]

    response = set_up(client, user["password"])

    assert response.status_code == 400 and response.get_json()["code"] == "VALIDATION_ERROR"
    row = stored(query, user)
    assert row.two_factor_enabled is True and row.totp_secret == secret and row.totp_pending_secret is None


def test_without_a_session_it_is_401(app):
    response = set_up(app.test_client(), "whatever 1")
    assert response.status_code == 401 and response.get_json()["code"] == "UNAUTHENTICATED"


# PUT /api/account/security keeps the contract's behaviour, and settles a waiting set-up.
def test_turning_two_factor_on_by_put_is_still_at_once_with_its_codes(app, signed_in, query):  # noqa: F811
    user, client = signed_in()
    waiting = start(client, user)["secret"]

    data = enable_two_factor(client, user)

    assert data["twoFactorEnabled"] is True and len(data["backupCodes"]) == 10 and data["otpauthUri"]
    assert data["secret"] != waiting
    row = stored(query, user)
    assert row.two_factor_enabled is True and row.totp_pending_secret is None
    assert signin(app, user).get_json()["code"] == "TWO_FACTOR_REQUIRED"
    # Confirming the PUT's set-up answers no new codes (the PUT gave them).
    response = confirm(client, totp(app, data["secret"]))
    assert response.status_code == 200
    assert response.get_json()["data"] == {"twoFactorEnabled": True, "confirmed": True, "backupCodes": []}


def test_turning_two_factor_off_by_put_drops_a_waiting_set_up(app, signed_in, query):  # noqa: F811
    user, client = signed_in()
    secret = start(client, user)["secret"]

    response = security(client, currentPassword=user["password"], twoFactorEnabled=False)

    assert response.status_code == 200
    assert stored(query, user).totp_pending_secret is None
    assert confirm(client, totp(app, secret)).status_code == 400
