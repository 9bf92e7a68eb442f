"""Sudo mode (issue 32, point 2): security changes need a browser session that signed in or re-authenticated
within SUDO_LIFETIME (10 minutes), never a bearer token; POST /api/auth/reauthenticate proves it again with
the password, a two-factor code, a passkey, or (an account without a password) a code mailed to it.

The probe that found it: a leaked access token added a passkey, which outlived the password change that
ended every session and token, and signed in past two-factor: a lasting way in.
"""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import update

from app.auth.models import AuthSession
from app.common.models import utcnow
from app.users.models import User
from tests.auth.soft_authenticator import SoftAuthenticator, b64
from tests.auth.support import (bearer, clock, enable_two_factor, password_grant, reauthenticate,  # noqa: F401
                                signed_in, totp)
from tests.support import PASSWORD, text_part

NEW_PASSWORD = "a brand new 7"
# Each security change, with a body it would accept from a fresh session (or one it refuses past the check).
SECURITY_CHANGES = {
    "passkey options": ("POST", "/api/account/passkey/options", None),
    "add a passkey": ("POST", "/api/account/passkeys", {"credential": {"id": "x"}}),
    "two-factor set-up": ("POST", "/api/account/two-factor/setup", {"currentPassword": PASSWORD}),
    "two-factor confirm": ("POST", "/api/account/two-factor/confirm", {"code": "123456"}),
    "new backup codes": ("POST", "/api/account/two-factor/backup-codes", None),
    "an API token": ("POST", "/api/account/tokens", {"name": "CI"}),
    "the password": ("PUT", "/api/account/security", {"currentPassword": PASSWORD, "newPassword": NEW_PASSWORD,
                                                      "confirmPassword": NEW_PASSWORD}),
    "two-factor on": ("PUT", "/api/account/security", {"currentPassword": PASSWORD, "twoFactorEnabled": True}),
}


def send(client, change: str, **kwargs):
    method, path, body = SECURITY_CHANGES[change]
    return client.open(path, method=method, json=body, **kwargs)


def age_sessions(query, user, minutes: float = 10.1) -> None:
    """Make every session of ``user`` as if it signed in ``minutes`` ago (the clock stays: a mail job on
    another process reads the real one)."""
    def run(session):
        session.execute(update(AuthSession).where(AuthSession.user_id == user["id"])
                        .values(authenticated_at=utcnow() - timedelta(minutes=minutes)))
        session.commit()

    query(run)


def drop_password(query, user) -> None:
    def run(session):
        session.execute(update(User).where(User.id == user["id"]).values(password_hash=None))
        session.commit()

    query(run)


def refused(response, code: str) -> dict:
    assert response.status_code == 403, response.get_json()
    body = response.get_json()
    assert body["code"] == code, body
    return body


def passkey_options(client) -> dict:
    response = client.post("/api/auth/reauthenticate/passkey/options")
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]["publicKey"]


def add_passkey(client, authenticator: SoftAuthenticator) -> dict:
    options = client.post("/api/account/passkey/options").get_json()["data"]["publicKey"]
    response = client.post("/api/account/passkeys", json={"credential": authenticator.create(options)})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]


@pytest.mark.parametrize("change", list(SECURITY_CHANGES))
def test_a_bearer_token_makes_no_security_change(app, signed_in, query, change):  # noqa: F811
    user, _browser = signed_in()
    token = password_grant(app.test_client(), user).get_json()["access_token"]

    body = refused(send(app.test_client(), change, headers=bearer(token)), "SESSION_REQUIRED")

    assert "browser session" in body["error"]
    stored = query(lambda s: s.get(User, user["id"]))
    assert stored.two_factor_enabled is False and stored.totp_pending_secret is None
    assert app.test_client().post("/api/auth/signin", json={"email": user["email"],
                                                            "password": PASSWORD}).status_code == 200


def test_a_leaked_token_adds_no_passkey_and_mints_no_token(app, signed_in, query):  # noqa: F811
    """The probe: with a token alone, no passkey (which would survive a password change) and no token."""
    user, _browser = signed_in()
    api, token = app.test_client(), password_grant(app.test_client(), user).get_json()["access_token"]

    refused(api.post("/api/account/passkey/options", headers=bearer(token)), "SESSION_REQUIRED")
    refused(api.post("/api/account/tokens", json={"name": "mine"}, headers=bearer(token)), "SESSION_REQUIRED")
    refused(api.post("/api/auth/reauthenticate", json={"password": PASSWORD}, headers=bearer(token)),
            "SESSION_REQUIRED")
    assert api.get("/api/account/passkeys", headers=bearer(token)).get_json()["data"]["passkeys"] == []


@pytest.mark.parametrize("change", list(SECURITY_CHANGES))
def test_a_session_past_ten_minutes_reauthenticates_and_then_the_change_goes_through(signed_in, clock,  # noqa: F811
                                                                                     change):
    user, client = signed_in()
    clock.advance(minutes=10, seconds=1)

    body = refused(send(client, change), "REAUTHENTICATION_REQUIRED")
    assert body["details"] == {"methods": ["password"], "reauthenticate": "/api/auth/reauthenticate"}
    assert "10 minutes" in body["error"]

    reauthenticate(client, password=PASSWORD)
    after = send(client, change)
    assert after.status_code != 403 and after.get_json().get("code") != "REAUTHENTICATION_REQUIRED", after.get_json()


def test_a_sign_in_lasts_ten_minutes_for_security_changes(signed_in, clock):  # noqa: F811
    user, client = signed_in()
    status = client.get("/api/auth/reauthenticate").get_json()["data"]
    assert status["recent"] is True and status["methods"] == ["password"]

    clock.advance(minutes=9, seconds=50)
    assert client.post("/api/account/passkey/options").status_code == 200
    clock.advance(seconds=11)
    refused(client.post("/api/account/passkey/options"), "REAUTHENTICATION_REQUIRED")
    assert client.get("/api/auth/reauthenticate").get_json()["data"] == {"recent": False, "expiresAt": None,
                                                                         "methods": ["password"]}
    assert client.get("/api/resumes").status_code == 200  # the session itself goes on


def test_a_session_signed_in_before_sudo_mode_must_reauthenticate(signed_in, query):  # noqa: F811
    user, client = signed_in()

    def legacy(session):
        session.execute(update(AuthSession).values(authenticated_at=None))
        session.commit()

    query(legacy)
    refused(client.post("/api/account/tokens", json={"name": "CI"}), "REAUTHENTICATION_REQUIRED")
    reauthenticate(client, password=PASSWORD)
    assert client.post("/api/account/tokens", json={"name": "CI"}).status_code == 201


def test_a_wrong_password_leaves_the_session_as_it_was_and_is_rate_limited(signed_in, query):  # noqa: F811
    user, client = signed_in()
    age_sessions(query, user)

    for _ in range(5):
        wrong = client.post("/api/auth/reauthenticate", json={"password": "not it 1"})
        assert wrong.status_code == 400 and wrong.get_json()["code"] == "INVALID_PASSWORD"
        assert wrong.get_json()["details"] == {"field": "password"}
    assert client.post("/api/auth/reauthenticate", json={"password": PASSWORD}).status_code == 429
    refused(client.post("/api/account/passkey/options"), "REAUTHENTICATION_REQUIRED")


@pytest.mark.parametrize("body", [{}, {"password": PASSWORD, "code": "123456"}, {"password": ""},
                                  {"password": PASSWORD, "extra": 1}, {"code": None}])
def test_reauthenticating_takes_one_proof(signed_in, body):  # noqa: F811
    _user, client = signed_in()
    response = client.post("/api/auth/reauthenticate", json=body)
    assert response.status_code == 400 and response.get_json()["code"] == "VALIDATION_ERROR"


def test_reauthenticating_needs_a_session(client):
    assert client.post("/api/auth/reauthenticate", json={"password": PASSWORD}).status_code == 401
    assert client.get("/api/auth/reauthenticate").status_code == 401


def test_a_two_factor_code_or_a_backup_code_reauthenticates_once(app, signed_in, query, clock):  # noqa: F811
    clock.advance(seconds=15 - clock.now().timestamp() % 30)  # mid-step: no step ends during the test
    user, client = signed_in()
    secret = enable_two_factor(client, user)
    age_sessions(query, user)
    assert refused(client.post("/api/account/tokens", json={"name": "CI"}),
                   "REAUTHENTICATION_REQUIRED")["details"]["methods"] == ["password", "totp"]

    reauthenticate(client, code=totp(app, secret["secret"]))
    age_sessions(query, user)
    again = client.post("/api/auth/reauthenticate", json={"code": totp(app, secret["secret"])})
    assert again.status_code == 401 and again.get_json()["details"] == {"field": "code", "reason": "used"}

    reauthenticate(client, code=secret["backupCodes"][0])
    age_sessions(query, user)
    spent = client.post("/api/auth/reauthenticate", json={"code": secret["backupCodes"][0]})
    assert spent.status_code == 401 and spent.get_json()["details"]["reason"] == "used"


def test_a_code_is_no_proof_without_two_factor(signed_in):  # noqa: F811
    _user, client = signed_in()
    response = client.post("/api/auth/reauthenticate", json={"code": "123456"})
    assert response.status_code == 400 and response.get_json()["details"] == {"field": "code"}


def test_a_passkey_of_the_account_reauthenticates(signed_in, query):  # noqa: F811
    user, client = signed_in()
    mine = SoftAuthenticator()
    added = add_passkey(client, mine)
    age_sessions(query, user)
    assert refused(client.post("/api/account/tokens", json={"name": "CI"}),
                   "REAUTHENTICATION_REQUIRED")["details"]["methods"] == ["password", "passkey"]

    options = passkey_options(client)
    assert [c["id"] for c in options["allowCredentials"]] == [b64(mine.credential_id)]
    assert options["userVerification"] == "required"
    status = reauthenticate(client, credential=mine.get(options))
    assert status["recent"] is True and status["expiresAt"]
    assert client.post("/api/account/tokens", json={"name": "CI"}).status_code == 201
    listed = client.get("/api/account/passkeys").get_json()["data"]["passkeys"]
    assert [p["id"] for p in listed] == [added["id"]] and listed[0]["lastUsedAt"] is not None

    # An answer sent twice finds its challenge spent.
    age_sessions(query, user)
    replay = client.post("/api/auth/reauthenticate", json={"credential": mine.get(options)})
    assert replay.status_code == 401 and replay.get_json()["details"]["reason"] == "challenge"


def test_another_accounts_passkey_is_no_proof(signed_in, query):  # noqa: F811
    user, client = signed_in()
    add_passkey(client, SoftAuthenticator())
    _other, other_client = signed_in()
    theirs = SoftAuthenticator()
    add_passkey(other_client, theirs)
    age_sessions(query, user)

    response = client.post("/api/auth/reauthenticate", json={"credential": theirs.get(passkey_options(client))})

    assert response.status_code == 401
    assert response.get_json()["code"] == "PASSKEY_REJECTED" and response.get_json()["details"]["reason"] == "unknown"
    assert response.get_json()["error"] == "That passkey did not confirm it is you."  # not "sign you in": no sign-in
    refused(client.post("/api/account/tokens", json={"name": "CI"}), "REAUTHENTICATION_REQUIRED")


def test_passkey_options_need_a_passkey(signed_in):  # noqa: F811
    _user, client = signed_in()
    response = client.post("/api/auth/reauthenticate/passkey/options")
    assert response.status_code == 400 and response.get_json()["details"] == {"field": "credential"}


def mailed_code(mailbox, email: str, count: int = 1) -> str:
    mail = mailbox.wait_for(email, count=count)
    assert mail["Subject"] == "Your code to confirm it is you"
    return re.search(r"\b(\d{4} \d{4})\b", text_part(mail)).group(1)


def test_an_account_without_a_password_reauthenticates_with_a_mailed_code(signed_in, query,  # noqa: F811
                                                                           mailbox):
    user, client = signed_in()
    drop_password(query, user)
    age_sessions(query, user)
    body = refused(client.post("/api/account/passkey/options"), "REAUTHENTICATION_REQUIRED")
    assert body["details"]["methods"] == ["email"]
    no_password = client.post("/api/auth/reauthenticate", json={"password": PASSWORD})
    assert no_password.status_code == 400 and no_password.get_json()["details"] == {"field": "password"}

    sent = client.post("/api/auth/reauthenticate/code")
    assert sent.status_code == 200, sent.get_json()
    code = mailed_code(mailbox, user["email"])
    wrong = client.post("/api/auth/reauthenticate", json={"emailCode": "0000 0000" if code != "0000 0000" else "1"})
    assert wrong.status_code == 403 and wrong.get_json()["code"] == "TOKEN_INVALID"

    reauthenticate(client, emailCode=code)
    assert client.post("/api/account/passkey/options").status_code == 200
    age_sessions(query, user)
    once = client.post("/api/auth/reauthenticate", json={"emailCode": code.replace(" ", "")})
    assert once.status_code == 403 and once.get_json()["code"] == "TOKEN_INVALID"


def test_only_the_newest_mailed_code_works_and_only_for_ten_minutes(signed_in, query, mailbox, clock):  # noqa: F811
    user, client = signed_in()
    drop_password(query, user)
    age_sessions(query, user)
    assert client.post("/api/auth/reauthenticate/code").status_code == 200
    first = mailed_code(mailbox, user["email"])
    assert client.post("/api/auth/reauthenticate/code").status_code == 200
    second = mailed_code(mailbox, user["email"], count=2)

    if first != second:
        stale = client.post("/api/auth/reauthenticate", json={"emailCode": first})
        assert stale.get_json()["code"] == "TOKEN_INVALID"
    clock.advance(minutes=10, seconds=1)
    expired = client.post("/api/auth/reauthenticate", json={"emailCode": second})
    assert expired.status_code == 403 and expired.get_json()["code"] == "TOKEN_EXPIRED"


def test_an_account_with_a_password_is_mailed_no_code(signed_in, mailbox):  # noqa: F811
    user, client = signed_in()
    response = client.post("/api/auth/reauthenticate/code")
    assert response.status_code == 400 and response.get_json()["code"] == "VALIDATION_ERROR"
    assert mailbox.to(user["email"]) == []


def test_a_passkey_sign_in_counts_as_a_recent_authentication(app, signed_in, query, clock):  # noqa: F811
    user, client = signed_in()
    authenticator = SoftAuthenticator()
    add_passkey(client, authenticator)
    clock.advance(minutes=30)

    fresh = app.test_client()
    options = fresh.post("/api/auth/passkey/options").get_json()["data"]["publicKey"]
    assert fresh.post("/api/auth/passkey/signin", json={"credential": authenticator.get(options)}).status_code == 200

    assert fresh.get("/api/auth/reauthenticate").get_json()["data"]["recent"] is True
    assert fresh.post("/api/account/tokens", json={"name": "CI"}).status_code == 201
    refused(client.post("/api/account/tokens", json={"name": "CI"}), "REAUTHENTICATION_REQUIRED")
