"""PUT /api/account/security: password change (other sessions and API tokens end), two-factor on and off."""
from urllib.parse import parse_qs, urlsplit

import pyotp
import pytest
from sqlalchemy import select

from tests.auth.support import (bearer, enable_two_factor, password_grant, refresh_grant, security,  # noqa: F401
                                signed_in, totp)

from app.auth.models import BackupCode
from app.auth.models import AuthSession, RefreshToken
from app.common.security import hash_token
from app.users.models import User

NEW_PASSWORD = "a brand new 7"


def change_password(client, user, new=NEW_PASSWORD, **extra):
    return security(client, currentPassword=user["password"], newPassword=new, confirmPassword=new, **extra)


def signin(client, email, password, **extra):
    return client.post("/api/auth/signin", json={"email": email, "password": password, **extra})


def test_a_password_change_answers_what_changed(signed_in):
    user, client = signed_in()
    response = change_password(client, user)
    assert response.status_code == 200
    body = response.get_json()
    assert body["success"] is True and body["message"]
    assert body["data"] == {"passwordUpdated": True, "twoFactorEnabled": False, "backupCodes": []}


def test_a_password_change_keeps_this_session_and_ends_the_others(app, signed_in, query):
    user, client = signed_in()
    other = app.test_client()
    assert signin(other, user["email"], user["password"]).status_code == 200
    assert other.get("/api/resumes").status_code == 200

    assert change_password(client, user).status_code == 200

    assert client.get("/api/resumes").status_code == 200
    assert client.get("/api/auth/session").get_json()["user"]["id"] == user["id"]
    assert other.get("/api/resumes").status_code == 401
    assert other.get("/api/auth/session").get_json() == {}
    assert query(lambda s: s.query(AuthSession).count()) == 1
    assert signin(app.test_client(), user["email"], user["password"]).status_code == 401
    assert signin(app.test_client(), user["email"], NEW_PASSWORD).status_code == 200


def test_a_password_change_revokes_every_refresh_token_and_access_token(app, signed_in, query):
    user, client = signed_in()
    api = app.test_client()
    first, second = password_grant(api, user).get_json(), password_grant(api, user).get_json()

    assert change_password(client, user).status_code == 200

    for tokens in (first, second):
        refused = refresh_grant(api, tokens["refresh_token"])
        assert refused.status_code == 403 and refused.get_json()["code"] == "TOKEN_INVALID"
        assert api.get("/api/resumes", headers=bearer(tokens["access_token"])).status_code == 401
    assert all(r.revoked_at is not None for r in query(lambda s: s.scalars(select(RefreshToken)).all()))
    assert password_grant(api, {**user, "password": NEW_PASSWORD}).status_code == 200


def test_a_password_change_with_a_bearer_token_is_refused_and_changes_nothing(app, signed_in):
    """Security settings change in a browser session only (sudo mode): a leaked token cannot take the account."""
    user, browser = signed_in()
    api = app.test_client()
    token = password_grant(api, user).get_json()["access_token"]

    response = api.put("/api/account/security", json={"currentPassword": user["password"],
                                                      "newPassword": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD},
                       headers=bearer(token))

    assert response.status_code == 403 and response.get_json()["code"] == "SESSION_REQUIRED"
    assert browser.get("/api/resumes").status_code == 200
    assert api.get("/api/resumes", headers=bearer(token)).status_code == 200
    assert signin(app.test_client(), user["email"], user["password"]).status_code == 200


def test_current_password_is_required_for_every_change(signed_in):
    user, client = signed_in()
    for body in ({"twoFactorEnabled": True}, {"newPassword": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD},
                 {"currentPassword": "", "twoFactorEnabled": True},
                 {"currentPassword": None, "twoFactorEnabled": True}):
        response = security(client, **body)
        assert response.status_code == 400
        assert response.get_json()["code"] == "VALIDATION_ERROR"
        assert response.get_json()["details"]["field"] == "currentPassword"


def test_a_wrong_current_password_is_400_invalid_password_and_changes_nothing(app, signed_in, query):
    user, client = signed_in()
    for body in ({"newPassword": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD}, {"twoFactorEnabled": True}):
        response = security(client, currentPassword="not my password 1", **body)
        assert response.status_code == 400
        assert response.get_json()["code"] == "INVALID_PASSWORD"
        assert response.get_json()["details"] == {"field": "currentPassword"}
    assert query(lambda s: s.get(User, user["id"]).two_factor_enabled) is False
    assert signin(app.test_client(), user["email"], user["password"]).status_code == 200


def test_a_weak_new_password_is_422_weak_password(signed_in):
    user, client = signed_in()
    for weak in ("short1", "onlyletters", "12345678901", "x1" * 40):
        response = change_password(client, user, new=weak)
        assert response.status_code == 422
        assert response.get_json()["code"] == "WEAK_PASSWORD"
        assert response.get_json()["details"] == {"field": "newPassword"}


@pytest.mark.parametrize("confirm", ["a brand new 8", None, ""])
def test_a_confirmation_that_differs_is_a_validation_error(signed_in, confirm):
    user, client = signed_in()
    body = {"currentPassword": user["password"], "newPassword": NEW_PASSWORD}
    if confirm is not None:
        body["confirmPassword"] = confirm
    response = security(client, **body)
    assert response.status_code == 400
    assert response.get_json()["code"] == "VALIDATION_ERROR"
    assert response.get_json()["details"]["field"] == "confirmPassword"


@pytest.mark.parametrize("body", [{}, {"newPassword": "", "confirmPassword": ""},
                                  {"newPassword": None, "twoFactorEnabled": None}])
def test_a_body_with_nothing_to_change_is_a_validation_error(signed_in, body):
    user, client = signed_in()
    response = security(client, currentPassword=user["password"], **body)
    assert response.status_code == 400 and response.get_json()["code"] == "VALIDATION_ERROR"


@pytest.mark.parametrize("body,field", [({"twoFactorEnabled": "true"}, "twoFactorEnabled"),
                                        ({"twoFactorEnabled": 1}, "twoFactorEnabled"),
                                        ({"newPassword": 12345678}, "newPassword"),
                                        ({"twoFactorEnabled": True, "backupCodes": []}, "backupCodes")])
def test_wrong_types_and_unknown_fields_are_validation_errors(signed_in, body, field):
    user, client = signed_in()
    response = security(client, currentPassword=user["password"], **body)
    assert response.status_code == 400 and response.get_json()["details"]["field"] == field


def test_a_confirmation_without_a_new_password_is_refused(signed_in):
    user, client = signed_in()
    response = security(client, currentPassword=user["password"], newPassword="", confirmPassword=NEW_PASSWORD)
    assert response.status_code == 400 and response.get_json()["details"]["field"] == "newPassword"


def test_without_a_session_or_token_it_is_401(app):
    response = app.test_client().put("/api/account/security", json={"currentPassword": "x", "twoFactorEnabled": True})
    assert response.status_code == 401 and response.get_json()["code"] == "UNAUTHENTICATED"


def test_wrong_current_passwords_are_limited_per_user(app, signed_in):
    user, client = signed_in()
    for i in range(5):
        assert security(client, currentPassword=f"wrong {i} x", twoFactorEnabled=True).status_code == 400
    blocked = security(client, currentPassword=user["password"], twoFactorEnabled=True)
    assert blocked.status_code == 429 and blocked.get_json()["code"] == "RATE_LIMITED"
    assert int(blocked.headers["Retry-After"]) > 0
    other, other_client = signed_in()
    assert security(other_client, currentPassword=other["password"], twoFactorEnabled=True).status_code == 200


def test_right_current_passwords_do_not_count_toward_the_limit(signed_in):
    user, client = signed_in()
    for enabled in (True, False) * 4:
        assert security(client, currentPassword=user["password"], twoFactorEnabled=enabled).status_code == 200


def test_turning_two_factor_on_returns_the_uri_and_ten_backup_codes_stored_as_hashes(signed_in, query):
    user, client = signed_in()
    response = security(client, currentPassword=user["password"], twoFactorEnabled=True)

    assert response.status_code == 200
    data = response.get_json()["data"]
    assert set(data) == {"passwordUpdated", "twoFactorEnabled", "backupCodes", "otpauthUri"}
    assert data["passwordUpdated"] is False and data["twoFactorEnabled"] is True
    codes = data["backupCodes"]
    assert len(codes) == len(set(codes)) == 10
    assert all(len(code) == 11 and code[5] == "-" and code.replace("-", "").isalnum() for code in codes)
    uri = urlsplit(data["otpauthUri"])
    assert uri.scheme == "otpauth" and uri.netloc == "totp"
    assert parse_qs(uri.query)["issuer"] == ["Resume Service"]
    assert pyotp.parse_uri(data["otpauthUri"]).name == user["email"]
    secret = pyotp.parse_uri(data["otpauthUri"]).secret
    stored = query(lambda s: s.get(User, user["id"]))
    assert stored.two_factor_enabled is True and stored.totp_secret == secret
    hashes = set(query(lambda s: s.scalars(select(BackupCode.code_hash)).all()))
    assert len(hashes) == 10 and not hashes & set(codes)
    assert hashes == {hash_token(code.replace("-", "")) for code in codes}


def test_after_turning_it_on_sign_in_needs_a_code(app, signed_in):
    user, client = signed_in()
    setup = enable_two_factor(client, user)
    browser = app.test_client()
    assert signin(browser, user["email"], user["password"]).get_json()["code"] == "TWO_FACTOR_REQUIRED"
    assert signin(browser, user["email"], user["password"], code=totp(app, setup["secret"])).status_code == 200


def test_asking_for_two_factor_again_when_it_is_on_changes_nothing(signed_in, query):
    user, client = signed_in()
    setup = enable_two_factor(client, user)
    again = security(client, currentPassword=user["password"], twoFactorEnabled=True)
    assert again.status_code == 200
    assert again.get_json()["data"] == {"passwordUpdated": False, "twoFactorEnabled": True, "backupCodes": []}
    assert query(lambda s: s.get(User, user["id"]).totp_secret) == setup["secret"]


def test_turning_two_factor_off_clears_the_secret_and_the_codes(app, signed_in, query):
    user, client = signed_in()
    enable_two_factor(client, user)

    response = security(client, currentPassword=user["password"], twoFactorEnabled=False)

    assert response.status_code == 200
    assert response.get_json()["data"] == {"passwordUpdated": False, "twoFactorEnabled": False, "backupCodes": []}
    stored = query(lambda s: s.get(User, user["id"]))
    assert stored.two_factor_enabled is False and stored.totp_secret is None and stored.totp_last_step is None
    assert query(lambda s: s.query(BackupCode).count()) == 0
    assert signin(app.test_client(), user["email"], user["password"]).status_code == 200


def test_turning_it_on_again_makes_a_new_secret_and_new_codes(signed_in):
    user, client = signed_in()
    first = enable_two_factor(client, user)
    security(client, currentPassword=user["password"], twoFactorEnabled=False)
    second = enable_two_factor(client, user)
    assert first["secret"] != second["secret"] and not set(first["backupCodes"]) & set(second["backupCodes"])


def test_the_password_and_two_factor_can_change_together(app, signed_in):
    user, client = signed_in()
    response = change_password(client, user, twoFactorEnabled=True)
    data = response.get_json()["data"]
    assert data["passwordUpdated"] is True and data["twoFactorEnabled"] is True and len(data["backupCodes"]) == 10
    assert client.get("/api/resumes").status_code == 200
    refused = signin(app.test_client(), user["email"], NEW_PASSWORD)
    assert refused.get_json()["code"] == "TWO_FACTOR_REQUIRED"


def test_a_settings_form_that_sends_every_field_can_toggle_two_factor_alone(signed_in):
    user, client = signed_in()
    response = security(client, currentPassword=user["password"], newPassword="", confirmPassword="",
                        twoFactorEnabled=True)
    assert response.status_code == 200 and response.get_json()["data"]["passwordUpdated"] is False


def test_the_current_session_cookie_is_unchanged_by_a_password_change(signed_in, app):
    user, client = signed_in()
    response = change_password(client, user)
    assert not [h for h in response.headers.getlist("Set-Cookie") if h.startswith("sid=")]
    assert client.get("/api/auth/session").get_json()["user"]["email"] == user["email"]
