from app.account.models import User
from tests.support import PASSWORD, html_part, link_token, text_part


def register(client, **overrides):
    body = {"email": "ada@example.com", "password": PASSWORD, "name": "Ada Lovelace", **overrides}
    return client.post("/api/register", json=body)


def test_register_creates_an_unverified_user_and_mails_a_verification_link(client, mailbox, query):
    response = register(client, email="  Ada@Example.COM ")

    assert response.status_code == 201
    body = response.get_json()
    assert body["success"] is True and body["message"]
    data = body["data"]
    assert set(data) == {"id", "email", "name", "emailVerified", "createdAt"}
    assert data["email"] == "ada@example.com" and data["emailVerified"] is False
    assert len(data["id"]) >= 12 and data["createdAt"].endswith("Z")

    user = query(lambda s: s.get(User, data["id"]))
    assert user.password_hash.startswith("$2b$") and PASSWORD not in user.password_hash
    assert user.subscription.type == "FREE" and user.subscription.status == "ACTIVE"

    mail = mailbox.wait_for("ada@example.com")
    assert "verify" in mail["Subject"].lower()
    token = link_token(mail, "http://localhost:5000/verify-email")
    assert token in html_part(mail) and "Ada Lovelace" in text_part(mail)


def test_registration_does_not_sign_in(client):
    register(client)
    assert client.get("/api/auth/session").get_json() == {}
