import pytest

from tests.support import link_token

from app.auth.models import AuthSession
from app.users.models import User

NEW_PASSWORD = "a brand new 7"
SAME_ANSWER = "If an account with this email exists, we have sent it a mail."


def reset_token(client, mailbox, email, count=1) -> str:
    assert client.post("/api/forgot-password", json={"email": email}).status_code == 200
    return link_token(mailbox.wait_for(email, count=count), "http://localhost:5000/reset-password")


def signin(client, email, password):
    return client.post("/api/auth/signin", json={"email": email, "password": password})


def test_forgot_password_answers_the_same_whether_or_not_the_email_exists(client, mailbox, make_user):
    user = make_user()
    known = client.post("/api/forgot-password", json={"email": user["email"]})
    unknown = client.post("/api/forgot-password", json={"email": "nobody@example.com"})
    assert (known.status_code, known.get_json()) == (unknown.status_code, unknown.get_json()) \
        == (200, {"success": True, "message": SAME_ANSWER})
    mail = mailbox.wait_for(user["email"])
    assert "reset" in mail["Subject"].lower()
    assert mailbox.to("nobody@example.com") == []


def test_reset_changes_the_password_and_ends_every_session(app, client, mailbox, make_user, login, query):
    user = make_user()
    login(user)
    other_browser = app.test_client()
    other_browser.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    token = reset_token(client, mailbox, user["email"])

    response = client.post("/api/reset-password", json={"token": token, "password": NEW_PASSWORD})

    assert response.status_code == 200 and response.get_json()["success"] is True
    assert query(lambda s: s.query(AuthSession).count()) == 0
    assert client.get("/api/auth/session").get_json() == {}
    assert other_browser.get("/api/auth/session").get_json() == {}
    assert signin(client, user["email"], user["password"]).status_code == 401
    assert signin(client, user["email"], NEW_PASSWORD).status_code == 200


def test_reset_marks_the_email_verified(client, mailbox, make_user, query):
    user = make_user(verified=False)
    token = reset_token(client, mailbox, user["email"])
    assert client.post("/api/reset-password", json={"token": token, "password": NEW_PASSWORD}).status_code == 200
    assert query(lambda s: s.get(User, user["id"]).email_verified_at) is not None


def test_a_weak_password_does_not_use_up_the_token(client, mailbox, make_user):
    user = make_user()
    token = reset_token(client, mailbox, user["email"])
    weak = client.post("/api/reset-password", json={"token": token, "password": "weak"})
    assert weak.status_code == 422
    assert weak.get_json()["code"] == "WEAK_PASSWORD" and weak.get_json()["details"] == {"field": "password"}
    assert client.post("/api/reset-password", json={"token": token, "password": NEW_PASSWORD}).status_code == 200


def test_a_reset_token_works_once_and_spends_the_other_reset_tokens(client, mailbox, make_user):
    user = make_user()
    first = reset_token(client, mailbox, user["email"])
    second = reset_token(client, mailbox, user["email"], count=2)
    assert client.post("/api/reset-password", json={"token": second, "password": NEW_PASSWORD}).status_code == 200
    for token in (second, first):
        response = client.post("/api/reset-password", json={"token": token, "password": "another one 8"})
        assert response.status_code == 403 and response.get_json()["code"] == "TOKEN_INVALID"


def test_a_reset_token_expires_after_one_hour(client, mailbox, make_user, expire_token):
    user = make_user()
    token = reset_token(client, mailbox, user["email"])

    assert round(expire_token() / 60) == 60
    response = client.post("/api/reset-password", json={"token": token, "password": NEW_PASSWORD})
    assert response.status_code == 403 and response.get_json()["code"] == "TOKEN_EXPIRED"


def test_a_verification_token_cannot_reset_a_password(client, mailbox):
    client.post("/api/register", json={"email": "ada@example.com", "password": "first pass 1", "name": "Ada"})
    token = link_token(mailbox.wait_for("ada@example.com"), "/verify-email")
    response = client.post("/api/reset-password", json={"token": token, "password": NEW_PASSWORD})
    assert response.status_code == 403 and response.get_json()["code"] == "TOKEN_INVALID"


@pytest.mark.parametrize("path", ["/api/forgot-password", "/api/resend-verification"])
def test_mail_requests_are_limited_to_three_per_hour_per_email(client, path):
    for _ in range(3):
        assert client.post(path, json={"email": "x@example.com"}).status_code == 200
    response = client.post(path, json={"email": "X@example.com"})
    assert response.status_code == 429 and response.get_json()["code"] == "RATE_LIMITED"
    assert int(response.headers["Retry-After"]) > 0
    # another email is not affected
    assert client.post(path, json={"email": "y@example.com"}).status_code == 200
