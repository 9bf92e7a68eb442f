"""POST /api/account/two-factor/confirm: the first code from the authenticator app confirms the set-up,
and the set-up's QR code (GET /account/two-factor/qr.svg) is drawn only until then."""
from __future__ import annotations

import segno  # noqa: F401  (the QR's library must be installed)

from tests.auth.support import clock, enable_two_factor, signed_in, totp  # noqa: F401  (fixtures)


def confirm(client, code):
    return client.post("/api/account/two-factor/confirm", json={"code": code})


def test_a_code_from_the_app_confirms_the_set_up_once(app, signed_in):
    user, client = signed_in()
    secret = enable_two_factor(client, user)["secret"]
    code = totp(app, secret)

    response = confirm(client, code[:3] + " " + code[3:])  # as the apps show it

    assert response.status_code == 200, response.get_json()
    # Turned on at once by PUT /api/account/security, which gave the backup codes: none here.
    assert response.get_json()["data"] == {"twoFactorEnabled": True, "confirmed": True, "backupCodes": []}
    replayed = confirm(client, code)
    assert replayed.status_code == 401 and replayed.get_json()["code"] == "INVALID_TWO_FACTOR_CODE"


def test_a_wrong_code_is_refused_at_the_code_field(app, signed_in):
    user, client = signed_in()
    secret = enable_two_factor(client, user)["secret"]

    response = confirm(client, totp(app, secret, steps=5))

    assert response.status_code == 401
    body = response.get_json()
    assert body["code"] == "INVALID_TWO_FACTOR_CODE" and body["details"] == {"field": "code"}


def test_a_code_that_is_not_six_digits_is_a_validation_error(signed_in):
    user, client = signed_in()
    enable_two_factor(client, user)

    for code in ("12345", "abcdef", "abcde-fghjk", ""):
        response = confirm(client, code)
        assert response.status_code == 400, code
        assert response.get_json()["details"]["field"] == "code"


def test_confirming_with_two_factor_off_is_refused(signed_in):
    _user, client = signed_in()

    response = confirm(client, "123456")

    assert response.status_code == 400 and response.get_json()["details"] == {"field": "code"}


def test_the_qr_code_is_drawn_until_the_set_up_is_confirmed(app, signed_in):
    user, client = signed_in()
    assert client.get("/account/two-factor/qr.svg").status_code == 404  # two-factor off
    secret = enable_two_factor(client, user)["secret"]

    drawn = client.get("/account/two-factor/qr.svg")

    assert drawn.status_code == 200 and drawn.mimetype == "image/svg+xml"
    assert drawn.data.lstrip().startswith((b"<?xml", b"<svg")) and b"<path" in drawn.data
    assert "no-store" in drawn.headers["Cache-Control"]
    assert confirm(client, totp(app, secret)).status_code == 200
    assert client.get("/account/two-factor/qr.svg").status_code == 404  # never shown again


def test_the_qr_code_needs_a_signed_in_user(client):
    response = client.get("/account/two-factor/qr.svg")

    assert response.status_code == 302 and response.headers["Location"].startswith("/login?")
