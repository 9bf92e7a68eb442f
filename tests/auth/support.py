"""Helpers for two-factor, API token and account security tests."""
from __future__ import annotations

from datetime import timedelta

import pyotp
import pytest


@pytest.fixture
def clock(app):
    """The app's clock (``clock.advance(hours=1)``), put back after the test."""
    clock = app.extensions["clock"]
    yield clock
    clock.offset = timedelta(0)


@pytest.fixture
def signed_in(app, make_user):
    """A new user and a test client signed in as it: ``user, client = signed_in()``."""

    def sign_in(**user_options):
        user = make_user(**user_options)
        client = app.test_client()
        response = client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
        assert response.status_code == 200, response.get_json()
        return user, client

    return sign_in


def reauthenticate(client, **proof):
    """Confirm it is you (sudo mode) in the session of ``client``, as the account page's dialog does:
    ``reauthenticate(client, password=...)``; asserts it worked."""
    response = client.post("/api/auth/reauthenticate", json=proof)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]


def security(client, **body):
    return client.put("/api/account/security", json=body)


def enable_two_factor(client, user) -> dict:
    """Turn two-factor on through the API; returns ``data`` with the secret added as ``secret``."""
    response = security(client, currentPassword=user["password"], twoFactorEnabled=True)
    assert response.status_code == 200, response.get_json()
    data = response.get_json()["data"]
    return {**data, "secret": pyotp.parse_uri(data["otpauthUri"]).secret}


def totp(app, secret: str, steps: int = 0) -> str:
    """The code of ``secret`` by the app's clock, ``steps`` 30-second steps away."""
    return pyotp.TOTP(secret).at(app.extensions["clock"].now() + timedelta(seconds=30 * steps))


def password_grant(client, user, **extra):
    return client.post("/api/auth/token", json={"grant_type": "password", "email": user["email"],
                                                "password": user["password"], **extra})


def refresh_grant(client, refresh_token: str):
    return client.post("/api/auth/token", json={"grant_type": "refresh_token", "refresh_token": refresh_token})


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def session_cookie(response) -> str:
    [header] = [h for h in response.headers.getlist("Set-Cookie") if h.startswith("sid=")]
    return header.split(";")[0].split("=", 1)[1]
