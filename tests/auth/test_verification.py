from tests.support import PASSWORD, link_token

from app.auth.models import OneTimeToken
from app.users.models import User

SAME_ANSWER = "If an account with this email exists, we have sent it a mail."


def registered(client, mailbox, email="ada@example.com") -> str:
    """Register through the API and return the token from the verification mail."""
    assert client.post("/api/register", json={"email": email, "password": PASSWORD, "name": "Ada"}).status_code == 201
    return link_token(mailbox.wait_for(email), "/verify-email")


def test_the_mailed_token_verifies_the_email_and_allows_sign_in(client, mailbox, query):
    token = registered(client, mailbox)
    signin = {"email": "ada@example.com", "password": PASSWORD}
    assert client.post("/api/auth/signin", json=signin).get_json()["code"] == "EMAIL_NOT_VERIFIED"

    response = client.post("/api/verify-email", json={"token": token})

    assert response.status_code == 200
    assert response.get_json() == {"success": True, "message": "Email verified. You can sign in now."}
    user = query(lambda s: s.query(User).one())
    assert user.email_verified_at is not None
    assert client.post("/api/auth/signin", json=signin).status_code == 200


def test_only_a_hash_of_the_token_is_stored(client, mailbox, query):
    token = registered(client, mailbox)
    stored = query(lambda s: [t.token_hash for t in s.query(OneTimeToken)])
    assert stored and token not in stored and all(len(h) == 64 for h in stored)


def test_a_token_works_once(client, mailbox):
    token = registered(client, mailbox)
    assert client.post("/api/verify-email", json={"token": token}).status_code == 200
    response = client.post("/api/verify-email", json={"token": token})
    assert response.status_code == 403
    assert response.get_json()["code"] == "TOKEN_INVALID"


def test_unknown_and_tampered_tokens_are_invalid(client, mailbox):
    token = registered(client, mailbox)
    for bad in ("nope", token[:-1] + ("A" if token[-1] != "A" else "B")):
        response = client.post("/api/verify-email", json={"token": bad})
        assert response.status_code == 403
        assert response.get_json()["code"] == "TOKEN_INVALID"


def test_a_token_past_its_24_hours_is_expired(client, mailbox, expire_token):
    token = registered(client, mailbox)

    assert round(expire_token() / 3600) == 24
    response = client.post("/api/verify-email", json={"token": token})
    assert response.status_code == 403
    assert response.get_json()["code"] == "TOKEN_EXPIRED"


def test_a_reset_token_does_not_verify_an_email(client, mailbox, make_user):
    user = make_user(verified=False)
    client.post("/api/forgot-password", json={"email": user["email"]})
    reset_token = link_token(mailbox.wait_for(user["email"]), "/reset-password")
    response = client.post("/api/verify-email", json={"token": reset_token})
    assert response.get_json()["code"] == "TOKEN_INVALID"


def test_resend_mails_a_new_link_to_an_unverified_account(client, mailbox):
    first = registered(client, mailbox)
    response = client.post("/api/resend-verification", json={"email": "ADA@example.com"})
    assert response.status_code == 200
    assert response.get_json() == {"success": True, "message": SAME_ANSWER}
    second = link_token(mailbox.wait_for("ada@example.com", count=2), "/verify-email")
    assert second != first
    assert client.post("/api/verify-email", json={"token": second}).status_code == 200


def test_resend_answers_the_same_for_unknown_and_verified_emails_and_sends_nothing(client, mailbox, make_user, app):
    verified = make_user()
    answers = [client.post("/api/resend-verification", json={"email": email})
               for email in ("nobody@example.com", verified["email"])]
    assert [(r.status_code, r.get_json()) for r in answers] == [(200, {"success": True, "message": SAME_ANSWER})] * 2
    from tests.conftest import drain_jobs

    drain_jobs(app)
    assert mailbox.messages == []
