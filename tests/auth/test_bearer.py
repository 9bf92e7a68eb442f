"""Authorization: Bearer on the endpoints a session works on; refusals; metering against the plan."""
import base64
import hashlib
import hmac
import json
from datetime import datetime, timezone

import pytest
from joserfc import jwt
from joserfc.jwk import OctKey
from sqlalchemy import select

from tests.auth.support import bearer, password_grant, session_cookie

from app.billing.models import Subscription
from app.users.models import User, new_auth_id

INVALID_TOKEN = 'Bearer error="invalid_token"'


@pytest.fixture
def token_user(client, make_user):
    """A user and its access token."""
    user = make_user()
    return user, password_grant(client, user).get_json()["access_token"]


def used(query, user) -> int:
    return query(lambda s: s.scalar(select(Subscription.api_requests_used).where(Subscription.user_id == user["id"])))


def set_subscription(query, user, **values):
    def run(session):
        session.query(Subscription).filter_by(user_id=user["id"]).update(values)
        session.commit()

    query(run)


def test_a_bearer_token_reaches_the_resume_endpoints(app, token_user):
    user, token = token_user
    api = app.test_client()  # no cookie at all
    template = api.get("/api/templates").get_json()["data"][0]["id"]

    created = api.post("/api/resumes", json={"title": "Bearer CV", "templateId": template}, headers=bearer(token))
    listed = api.get("/api/resumes", headers=bearer(token))

    assert created.status_code == 201
    assert listed.status_code == 200 and [r["title"] for r in listed.get_json()["data"]] == ["Bearer CV"]
    assert api.get(f"/api/resumes/{created.get_json()['data']['id']}", headers=bearer(token)).status_code == 200
    assert api.get("/api/resumes").status_code == 401


def test_the_session_endpoint_answers_the_tokens_user_and_expiry(app, token_user):
    user, token = token_user
    body = app.test_client().get("/api/auth/session", headers=bearer(token)).get_json()
    assert body["user"]["id"] == user["id"] and body["user"]["email"] == user["email"]
    payload = token.split(".")[1]
    exp = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["exp"]
    assert body["expires"] == datetime.fromtimestamp(exp, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def forged(user_id: str, *, key: bytes = b"k" * 32, alg: str = "HS256", **claims) -> str:
    base = {"sub": user_id, "aid": "x" * 32, "iat": 1, "exp": 4_000_000_000, "jti": "j"}
    return jwt.encode({"alg": alg}, {**base, **claims}, OctKey.import_key(key), algorithms=[alg])


def unsigned(user_id: str) -> str:
    part = lambda data: base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()  # noqa: E731
    return f"{part({'alg': 'none', 'typ': 'JWT'})}.{part({'sub': user_id, 'exp': 4_000_000_000})}."


@pytest.mark.parametrize("header", ["Bearer", "Bearer ", "Bearer not.a.jwt", "Bearer a.b.c", "Basic dXNlcjpwYXNz",
                                    "Token abc", "bearer-ish", "Bearer " + "a" * 5000])
def test_a_malformed_authorization_header_is_refused_with_401_invalid_token(app, header):
    response = app.test_client().get("/api/resumes", headers={"Authorization": header})
    assert response.status_code == 401
    assert response.get_json()["code"] == "UNAUTHENTICATED"
    assert response.headers["WWW-Authenticate"] == INVALID_TOKEN


def test_forged_and_unsigned_tokens_are_refused(app, token_user):
    user, token = token_user
    header, payload, signature = token.split(".")
    tampered_payload = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    tampered_payload["sub"] = "f" * 24
    tampered = header + "." + base64.urlsafe_b64encode(json.dumps(tampered_payload).encode()).rstrip(b"=").decode() \
        + "." + signature
    bad_signature = f"{header}.{payload}.{signature[:10]}{'B' if signature[10] == 'A' else 'A'}{signature[11:]}"
    for bad in (forged(user["id"]), unsigned(user["id"]), tampered, bad_signature,
                forged(user["id"], key=b"k" * 64, alg="HS512")):
        response = app.test_client().get("/api/auth/session", headers=bearer(bad))
        assert response.status_code == 401 and response.headers["WWW-Authenticate"] == INVALID_TOKEN


def test_a_token_signed_with_the_secret_key_itself_is_refused(app, token_user):
    """The signing key is derived from SECRET_KEY with a label, not SECRET_KEY itself."""
    user, token = token_user
    _, payload, _ = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    raw_key = forged(user["id"], key=app.config["SECRET_KEY"].encode(), **claims)
    assert app.test_client().get("/api/resumes", headers=bearer(raw_key)).status_code == 401
    derived = hmac.new(app.config["SECRET_KEY"].encode(), b"resume-service/api-access-token/v1",
                       hashlib.sha256).digest()
    assert app.test_client().get("/api/resumes", headers=bearer(forged(user["id"], key=derived, **claims))
                                 ).status_code == 200


def test_an_access_token_expires_after_one_hour(app, clock, token_user):
    _, token = token_user
    api = app.test_client()
    clock.advance(minutes=59, seconds=50)
    assert api.get("/api/resumes", headers=bearer(token)).status_code == 200
    clock.advance(seconds=10)
    response = api.get("/api/resumes", headers=bearer(token))
    assert response.status_code == 401 and response.headers["WWW-Authenticate"] == INVALID_TOKEN


def test_rotating_the_users_auth_id_ends_its_access_tokens(app, token_user, query):
    user, token = token_user

    def rotate(session):
        session.query(User).filter_by(id=user["id"]).update({"auth_id": new_auth_id()})
        session.commit()

    query(rotate)
    assert app.test_client().get("/api/resumes", headers=bearer(token)).status_code == 401


def test_a_bad_token_is_not_rescued_by_a_valid_session_cookie(client, make_user, login):
    user = make_user()
    login(user)
    assert client.get("/api/auth/session").get_json()["user"]["id"] == user["id"]
    for path in ("/api/auth/session", "/api/resumes", "/api/templates"):
        response = client.get(path, headers=bearer("expired.or.forged"))
        assert response.status_code == 401 and response.headers["WWW-Authenticate"] == INVALID_TOKEN


def test_a_valid_token_wins_over_another_users_cookie(client, make_user, login, token_user):
    user, token = token_user
    login(make_user())
    assert client.get("/api/auth/session", headers=bearer(token)).get_json()["user"]["id"] == user["id"]


def test_a_request_without_credentials_is_told_bearer_works(app):
    response = app.test_client().get("/api/resumes")
    assert response.status_code == 401 and response.get_json()["code"] == "UNAUTHENTICATED"
    assert response.headers["WWW-Authenticate"] == "Bearer"


def test_bearer_requests_are_counted_and_cookie_and_token_requests_are_not(app, client, make_user, login, query):
    user = make_user()
    login(user)
    for _ in range(3):
        assert client.get("/api/resumes").status_code == 200
    token = password_grant(client, user).get_json()["access_token"]
    assert used(query, user) == 0
    api = app.test_client()
    for path in ("/api/resumes", "/api/auth/session", "/api/templates", "/api/nowhere"):
        api.get(path, headers=bearer(token))
    assert used(query, user) == 4
    assert api.get("/api/resumes", headers=bearer("forged")).status_code == 401
    assert used(query, user) == 4


def test_past_the_plans_limit_bearer_requests_get_429_until_the_period_resets(app, client, make_user, login,
                                                                              query):
    user = make_user()
    login(user)
    token = password_grant(client, user).get_json()["access_token"]
    set_subscription(query, user, api_requests_used=99)  # FREE: 100 a period
    api = app.test_client()

    assert api.get("/api/resumes", headers=bearer(token)).status_code == 200
    refused = api.get("/api/resumes", headers=bearer(token))

    assert refused.status_code == 429
    assert refused.get_json()["code"] == "SUBSCRIPTION_LIMIT_EXCEEDED"
    assert refused.get_json()["details"] == {"limit": 100, "resource": "apiRequests"}
    assert used(query, user) == 100
    assert client.get("/api/resumes").status_code == 200  # the browser session is not metered
    set_subscription(query, user, api_requests_used=0)  # what the period roll-over does
    assert api.get("/api/resumes", headers=bearer(token)).status_code == 200
    assert used(query, user) == 1


@pytest.mark.parametrize("plan,used_before,status", [("PREMIUM", 999, 200), ("PREMIUM", 1000, 429),
                                                     ("ENTERPRISE", 10**6, 200)])
def test_each_plan_has_its_own_api_request_limit(app, client, make_user, query, plan, used_before, status):
    user = make_user()
    token = password_grant(client, user).get_json()["access_token"]
    set_subscription(query, user, type=plan, api_requests_used=used_before)
    assert app.test_client().get("/api/resumes", headers=bearer(token)).status_code == status


def test_the_per_user_request_limit_applies_to_bearer_requests(app, make_user, login, client):
    user = make_user()
    login(user)
    token = password_grant(client, user).get_json()["access_token"]
    app.config["RATELIMIT_AUTHENTICATED"], saved = "3 per minute", app.config["RATELIMIT_AUTHENTICATED"]
    try:
        api = app.test_client()
        assert api.get("/api/resumes", headers=bearer(token)).status_code == 200
        assert client.get("/api/resumes").status_code == 200
        assert api.get("/api/resumes", headers=bearer(token)).status_code == 200
        limited = api.get("/api/resumes", headers=bearer(token))
        assert limited.status_code == 429 and limited.get_json()["code"] == "RATE_LIMITED"
        assert client.get("/api/resumes").status_code == 429  # one budget per user, whatever the credential
    finally:
        app.config["RATELIMIT_AUTHENTICATED"] = saved


def test_bearer_requests_are_not_refused_as_cross_site_forms(app, token_user):
    _, token = token_user
    api = app.test_client()
    template = api.get("/api/templates").get_json()["data"][0]["id"]
    elsewhere = {"Origin": "https://client.example", **bearer(token)}
    form = api.post("/api/resumes", data={"title": "x", "templateId": template}, headers=elsewhere)
    assert form.status_code == 415  # still JSON only, but not 403 FORBIDDEN
    created = api.post("/api/resumes", json={"title": "x", "templateId": template}, headers=elsewhere)
    assert created.status_code == 201


def test_cross_site_forms_without_a_token_are_still_refused(app, make_user):
    user = make_user()
    response = app.test_client().post("/api/auth/token", data={"grant_type": "password", "email": user["email"],
                                                               "password": user["password"]},
                                      headers={"Origin": "https://evil.example"})
    assert response.status_code == 403 and response.get_json()["code"] == "FORBIDDEN"


def test_a_signed_in_cookie_keeps_working_beside_api_tokens(client, make_user, login):
    user = make_user()
    cookie = session_cookie(login(user))
    password_grant(client, user)
    assert cookie and client.get("/api/auth/session").get_json()["user"]["id"] == user["id"]
