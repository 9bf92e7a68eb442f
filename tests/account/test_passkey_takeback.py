"""A passkey added from a session that a password change or reset then ends is taken back when it was added
within the last hour, and the account is mailed (issue 32, point 2; decisions "Sudo mode").

The probe: a stolen session (or token) added a passkey, the owner changed the password to sign every session
out, and the passkey kept signing the thief in, past two-factor.
"""
from __future__ import annotations

from sqlalchemy import select

from app.auth import service
from app.auth.models import OneTimeToken, Passkey
from app.users.models import User
from tests.auth.soft_authenticator import SoftAuthenticator
from tests.auth.support import clock, reauthenticate, security, signed_in  # noqa: F401
from tests.support import PASSWORD, text_part

NEW_PASSWORD = "a brand new 7"


def add_passkey(client, authenticator: SoftAuthenticator, name: str) -> dict:
    options = client.post("/api/account/passkey/options").get_json()["data"]["publicKey"]
    response = client.post("/api/account/passkeys", json={"credential": authenticator.create(options), "name": name})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]


def passkey_sign_in(app, authenticator: SoftAuthenticator):
    client = app.test_client()
    options = client.post("/api/auth/passkey/options").get_json()["data"]["publicKey"]
    return client.post("/api/auth/passkey/signin", json={"credential": authenticator.get(options)})


def change_password(client):
    return security(client, currentPassword=PASSWORD, newPassword=NEW_PASSWORD, confirmPassword=NEW_PASSWORD)


def listed(client) -> list[str]:
    return [p["name"] for p in client.get("/api/account/passkeys").get_json()["data"]["passkeys"]]


def test_a_password_change_takes_back_a_passkey_another_session_just_added(app, signed_in, mailbox, query):
    user, owner = signed_in()
    thief = app.test_client()  # a stolen cookie of a fresh session
    assert thief.post("/api/auth/signin", json={"email": user["email"], "password": PASSWORD}).status_code == 200
    theirs, mine = SoftAuthenticator(), SoftAuthenticator()
    add_passkey(thief, theirs, "Not mine")
    add_passkey(owner, mine, "My phone")
    sessions = query(lambda s: {p.name: p.session_id for p in s.scalars(select(Passkey))})
    assert sessions["Not mine"] != sessions["My phone"] and None not in sessions.values()

    assert change_password(owner).status_code == 200

    assert listed(owner) == ["My phone"]
    rejected = passkey_sign_in(app, theirs)
    assert rejected.status_code == 401 and rejected.get_json()["details"]["reason"] == "unknown"
    assert passkey_sign_in(app, mine).status_code == 200
    mailbox.wait_for(user["email"], count=3)  # two added, one taken back
    taken = [m for m in mailbox.to(user["email"])
             if m["Subject"] == "A passkey was removed when your sessions were signed out"]
    assert len(taken) == 1 and "Not mine" in text_part(taken[0])


def test_a_passkey_older_than_an_hour_stays(app, signed_in, clock):  # noqa: F811
    user, owner = signed_in()
    other = app.test_client()
    assert other.post("/api/auth/signin", json={"email": user["email"], "password": PASSWORD}).status_code == 200
    add_passkey(other, SoftAuthenticator(), "Laptop")
    clock.advance(hours=1, seconds=1)
    reauthenticate(owner, password=PASSWORD)

    assert change_password(owner).status_code == 200

    assert listed(owner) == ["Laptop"]


def test_a_password_reset_takes_back_the_passkeys_sessions_added_in_the_last_hour(app, signed_in, query, mailbox):
    user, owner = signed_in()
    authenticator = SoftAuthenticator()
    add_passkey(owner, authenticator, "Added by a session")
    assert app.test_client().post("/api/forgot-password", json={"email": user["email"]}).status_code == 200
    mailbox.wait_for(user["email"], count=2)

    def new_reset_token(session):
        return service.issue_token(session.get(User, user["id"]), OneTimeToken.RESET_PASSWORD)

    token = query(new_reset_token)
    reset = app.test_client().post("/api/reset-password", json={"token": token, "password": NEW_PASSWORD})
    assert reset.status_code == 200, reset.get_json()

    assert passkey_sign_in(app, authenticator).status_code == 401
    assert query(lambda s: s.scalar(select(Passkey.removed_at))) is not None
