import pytest

from tests.support import PASSWORD, html_part, link_token, text_part

from app.users.models import User


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


def test_register_refuses_an_email_that_exists_in_any_case(client, make_user):
    make_user("ada@example.com")
    response = register(client, email="ADA@example.com")
    assert response.status_code == 400
    assert response.get_json() == {"error": "An account with this email already exists.",
                                   "code": "EMAIL_ALREADY_EXISTS", "details": {"field": "email"}}


@pytest.mark.parametrize("password", [
    "", "short1", "lettersonly", "1234567890", "a" * 70 + "12",  # 72 bytes is fine below; 73 is not
    "é" * 36 + "1",  # 73 bytes in UTF-8 although only 37 characters
])
def test_weak_passwords_are_refused_with_422_and_never_echoed(client, query, password):
    if password == "a" * 70 + "12":
        password += "x"
    response = register(client, password=password)
    assert response.status_code == 422
    body = response.get_json()
    assert body["code"] == "WEAK_PASSWORD" and body["details"] == {"field": "password"}
    assert password == "" or password not in response.get_data(as_text=True)
    assert query(lambda s: s.query(User).count()) == 0


def test_a_72_byte_password_is_accepted(client):
    assert register(client, password="a" * 70 + "12").status_code == 201


@pytest.mark.parametrize("field", ["email", "password", "name"])
def test_a_missing_field_is_a_validation_error_naming_it(client, field):
    body = {"email": "ada@example.com", "password": PASSWORD, "name": "Ada"}
    del body[field]
    response = client.post("/api/register", json=body)
    assert response.status_code == 400
    assert response.get_json()["code"] == "VALIDATION_ERROR"
    assert response.get_json()["details"]["field"] == field


@pytest.mark.parametrize("overrides,field", [
    ({"email": "not-an-email"}, "email"),
    ({"email": "a" * 250 + "@example.com"}, "email"),
    ({"name": ""}, "name"),
    ({"name": "   "}, "name"),
    ({"name": "n" * 101}, "name"),
    ({"name": 42}, "name"),
    ({"password": 12345678}, "password"),
    ({"emailVerified": True}, "emailVerified"),
    ({"id": "abc"}, "id"),
])
def test_invalid_registrations_name_the_field(client, overrides, field):
    response = register(client, **overrides)
    assert response.status_code == 400
    assert response.get_json()["code"] == "VALIDATION_ERROR"
    assert response.get_json()["details"]["field"] == field


def test_register_is_limited_to_ten_per_hour_per_address(client):
    for i in range(10):
        assert register(client, email=f"u{i}@example.com").status_code == 201
    response = register(client, email="u10@example.com")
    assert response.status_code == 429
    assert response.get_json()["code"] == "RATE_LIMITED"
    assert int(response.headers["Retry-After"]) > 0


def test_retry_after_is_only_sent_with_a_429(client):
    accepted = register(client)
    refused = register(client, email="bad")
    assert accepted.status_code == 201 and refused.status_code == 400
    assert "Retry-After" not in accepted.headers and "Retry-After" not in refused.headers
    assert accepted.headers["X-RateLimit-Limit"] == "10"  # the limit is still advertised
