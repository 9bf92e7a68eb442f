"""POST /api/auth/token: password and refresh-token grants, rotation, reuse detection, revocation."""
import base64
import json
import logging
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from app.auth.models import RefreshToken
from app.common.models import utcnow
from app.common.security import hash_token
from app.config import ConfigError, config_for
from tests.auth.support import bearer, password_grant, refresh_grant
from tests.support import link_token


def claims_of(access_token: str) -> tuple[dict, dict]:
    header, payload, _ = access_token.split(".")
    decode = lambda part: json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))  # noqa: E731
    return decode(header), decode(payload)


def test_a_password_grant_answers_an_access_token_and_a_refresh_token(client, make_user, query):
    user = make_user()
    response = password_grant(client, user)

    assert response.status_code == 200
    body = response.get_json()
    assert set(body) == {"access_token", "token_type", "expires_in", "refresh_token"}  # no envelope
    assert body["token_type"] == "Bearer" and body["expires_in"] == 3600
    assert response.headers["Cache-Control"] == "no-store" and response.headers["Pragma"] == "no-cache"
    header, claims = claims_of(body["access_token"])
    assert header["alg"] == "HS256"
    assert claims["sub"] == user["id"] and claims["exp"] - claims["iat"] == 3600
    assert claims["jti"] and claims["aid"]
    row = query(lambda s: s.scalars(select(RefreshToken)).one())
    assert row.token_hash == hash_token(body["refresh_token"]) and row.user_id == user["id"]
    assert row.used_at is None and row.revoked_at is None
    assert timedelta(days=30) - timedelta(minutes=1) < row.expires_at - row.created_at <= timedelta(days=30)


def test_each_access_token_is_unique(client, make_user):
    user = make_user()
    first, second = (claims_of(password_grant(client, user).get_json()["access_token"])[1] for _ in range(2))
    assert first["jti"] != second["jti"]


def test_oauth_clients_may_post_a_form_and_their_other_parameters_are_ignored(client, make_user):
    user = make_user()
    response = client.post("/api/auth/token", data={"grant_type": "password", "username_hint": "x",
                                                    "email": user["email"], "password": user["password"],
                                                    "client_id": "cli", "scope": "resumes"})
    assert response.status_code == 200 and response.get_json()["token_type"] == "Bearer"
    refreshed = client.post("/api/auth/token", data={"grant_type": "refresh_token",
                                                     "refresh_token": response.get_json()["refresh_token"]})
    assert refreshed.status_code == 200


def test_a_form_error_is_answered_as_json_not_a_redirect(client, make_user):
    user = make_user()
    response = client.post("/api/auth/token", data={"grant_type": "password", "email": user["email"],
                                                    "password": "wrong password 1"})
    assert response.status_code == 401 and response.get_json()["code"] == "INVALID_CREDENTIALS"


def test_wrong_password_and_unknown_email_give_401_invalid_credentials(client, make_user):
    user = make_user()
    wrong = password_grant(client, {**user, "password": "wrong password 1"})
    unknown = password_grant(client, {**user, "email": "nobody@example.com"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.get_json() == unknown.get_json() == {"error": "The email or password is incorrect.",
                                                      "code": "INVALID_CREDENTIALS"}


def test_an_unverified_email_gets_403_email_not_verified(client, make_user):
    response = password_grant(client, make_user(verified=False))
    assert response.status_code == 403 and response.get_json()["code"] == "EMAIL_NOT_VERIFIED"


@pytest.mark.parametrize("body", [{"grant_type": "client_credentials"}, {"grant_type": "authorization_code",
                                                                         "code": "x"},
                                  {}, {"grant_type": None}, {"grant_type": 1}])
def test_another_or_no_grant_type_is_a_validation_error_naming_it(client, body):
    response = client.post("/api/auth/token", json=body)
    assert response.status_code == 400
    assert response.get_json()["code"] == "VALIDATION_ERROR"
    assert response.get_json()["details"]["field"] == "grant_type"


@pytest.mark.parametrize("body,field", [({"grant_type": "password", "password": "x"}, "email"),
                                        ({"grant_type": "password", "email": "a@example.com"}, "password"),
                                        ({"grant_type": "refresh_token"}, "refresh_token"),
                                        ({"grant_type": "refresh_token", "refresh_token": ""}, "refresh_token"),
                                        ({"grant_type": "password", "email": "a@example.com", "password": "x",
                                          "extra": 1}, "extra")])
def test_the_fields_of_a_grant_are_required(client, body, field):
    response = client.post("/api/auth/token", json=body)
    assert response.status_code == 400 and response.get_json()["details"]["field"] == field


def test_a_refresh_token_rotates_the_used_one_is_spent_and_the_new_one_works(client, make_user, query):
    user = make_user()
    first = password_grant(client, user).get_json()

    second = refresh_grant(client, first["refresh_token"])

    assert second.status_code == 200
    body = second.get_json()
    assert body["refresh_token"] != first["refresh_token"] and body["access_token"] != first["access_token"]
    assert client.get("/api/auth/session", headers=bearer(body["access_token"])).get_json()["user"]["id"] \
        == user["id"]
    rows = {r.token_hash: r for r in query(lambda s: s.scalars(select(RefreshToken)).all())}
    spent, fresh = rows[hash_token(first["refresh_token"])], rows[hash_token(body["refresh_token"])]
    assert spent.used_at is not None and fresh.used_at is None
    assert spent.family_id == fresh.family_id
    assert refresh_grant(client, body["refresh_token"]).status_code == 200


def test_reusing_a_spent_refresh_token_revokes_its_whole_family(client, make_user, query):
    user = make_user()
    stolen = password_grant(client, user).get_json()["refresh_token"]
    newest = refresh_grant(client, stolen).get_json()["refresh_token"]
    other_family = password_grant(client, user).get_json()["refresh_token"]

    replay = refresh_grant(client, stolen)

    assert replay.status_code == 403
    assert replay.get_json()["code"] == "TOKEN_INVALID" and replay.get_json()["details"] == {
        "field": "refresh_token"}
    newest_answer = refresh_grant(client, newest)
    assert newest_answer.status_code == 403 and newest_answer.get_json()["code"] == "TOKEN_INVALID"
    family = query(lambda s: s.scalars(select(RefreshToken).where(
        RefreshToken.token_hash.in_([hash_token(stolen), hash_token(newest)]))).all())
    assert all(row.revoked_at is not None for row in family)
    assert refresh_grant(client, other_family).status_code == 200  # another sign-in's family lives on


def test_unknown_and_expired_refresh_tokens_are_refused_with_403(client, make_user, query):
    user = make_user()
    raw = password_grant(client, user).get_json()["refresh_token"]
    for unknown in ("not-a-token", "x" * 512, raw + "x"):
        response = refresh_grant(client, unknown)
        assert response.status_code == 403 and response.get_json()["code"] == "TOKEN_INVALID"

    def expire(session):
        session.execute(update(RefreshToken).values(expires_at=utcnow() - timedelta(seconds=1)))
        session.commit()

    query(expire)
    response = refresh_grant(client, raw)
    assert response.status_code == 403 and response.get_json()["code"] == "TOKEN_INVALID"


def test_refresh_tokens_expire_after_the_configured_days(app, clock, client, make_user):
    user = make_user()
    raw = password_grant(client, user).get_json()["refresh_token"]
    clock.advance(days=30, seconds=1)
    assert refresh_grant(client, raw).status_code == 403


def test_the_password_grant_shares_the_sign_in_failure_limit_per_email(client, make_user):
    user = make_user()
    for i in range(3):
        assert password_grant(client, {**user, "password": f"wrong {i} x"}).status_code == 401
    for i in range(2):
        assert client.post("/api/auth/signin", json={"email": user["email"], "password": f"nope {i} x"}
                           ).status_code == 401
    blocked = password_grant(client, user)
    assert blocked.status_code == 429 and blocked.get_json()["code"] == "RATE_LIMITED"
    assert int(blocked.headers["Retry-After"]) > 0
    signin = client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    assert signin.status_code == 429


def test_successful_grants_do_not_count_toward_the_limit(client, make_user):
    user = make_user()
    for _ in range(7):
        assert password_grant(client, user).status_code == 200


def test_a_password_reset_revokes_every_refresh_token_and_access_token(client, mailbox, make_user):
    user = make_user()
    tokens = password_grant(client, user).get_json()
    assert client.post("/api/forgot-password", json={"email": user["email"]}).status_code == 200
    reset = link_token(mailbox.wait_for(user["email"]), "http://localhost:5000/reset-password")

    assert client.post("/api/reset-password", json={"token": reset, "password": "a brand new 7"}).status_code == 200

    refused = refresh_grant(client, tokens["refresh_token"])
    assert refused.status_code == 403 and refused.get_json()["code"] == "TOKEN_INVALID"
    assert client.get("/api/resumes", headers=bearer(tokens["access_token"])).status_code == 401


def test_the_token_endpoint_ignores_an_authorization_header_and_is_not_counted(client, make_user, query):
    from app.billing.models import Subscription

    user = make_user()
    response = client.post("/api/auth/token", json={"grant_type": "password", "email": user["email"],
                                                    "password": user["password"]},
                           headers={"Authorization": "Basic Y2xpZW50OnNlY3JldA=="})  # an OAuth client's own
    assert response.status_code == 200
    access = response.get_json()["access_token"]
    assert refresh_grant(client.application.test_client(), response.get_json()["refresh_token"]).status_code == 200
    assert client.post("/api/auth/token", json={"grant_type": "password", "email": user["email"],
                                                "password": user["password"]}, headers=bearer(access)
                       ).status_code == 200
    assert query(lambda s: s.scalar(select(Subscription.api_requests_used))) == 0


def test_tokens_are_not_issued_with_a_short_secret_key(make_app, make_user, caplog):
    short = make_app(SECRET_KEY="too short for HS256")
    user = make_user()
    with caplog.at_level(logging.ERROR):
        response = short.test_client().post("/api/auth/token", json={
            "grant_type": "password", "email": user["email"], "password": user["password"]})
    assert response.status_code == 500 and response.get_json()["code"] == "INTERNAL_ERROR"
    assert "SECRET_KEY has 19 bytes; API tokens need at least 32" in caplog.text
    assert "SECRET_KEY" not in response.get_data(as_text=True)


def test_failed_refresh_grants_count_toward_the_per_address_limit(client, make_user):
    user = make_user()
    for i in range(20):
        assert refresh_grant(client, f"guess-{i}").status_code == 403
    assert refresh_grant(client, "guess").status_code == 429
    assert password_grant(client, user).status_code == 429  # the same address's sign-in budget
    assert client.post("/api/auth/token", json={"grant_type": "password", "email": user["email"],
                                                "password": user["password"]},
                       environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 200


def test_the_refresh_token_lifetime_is_configured_in_days():
    assert config_for("testing", {"REFRESH_TOKEN_DAYS": "2"})["REFRESH_TOKEN_LIFETIME"] == timedelta(days=2)
    with pytest.raises(ConfigError, match="REFRESH_TOKEN_DAYS"):
        config_for("testing", {"REFRESH_TOKEN_DAYS": "0"})
