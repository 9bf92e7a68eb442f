"""The account's passkeys: POST /api/account/passkey/options, POST/GET /api/account/passkeys, PUT and DELETE
/api/account/passkeys/<id> (app/auth/passkeys.py; decisions "Passkeys").

The browser's side is played by a software authenticator (tests/auth/soft_authenticator.py); the checks
are py_webauthn's. Chromium's own authenticator drives the page in tests/browser/test_account_passkeys.py.
"""
from __future__ import annotations

from app.auth import service
from app.auth.models import Passkey, PasskeyChallenge
from app.users.models import User
from tests.auth.soft_authenticator import SoftAuthenticator
from tests.auth.support import clock, signed_in  # noqa: F401


def options(client) -> dict:
    response = client.post("/api/account/passkey/options")
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]["publicKey"]


def add(client, authenticator=None, name="Laptop", **create):
    authenticator = authenticator or SoftAuthenticator()
    credential = authenticator.create(options(client), **create)
    return client.post("/api/account/passkeys", json={"credential": credential, "name": name})


def added(client, **kwargs) -> dict:
    response = add(client, **kwargs)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]


def listing(client) -> list[dict]:
    response = client.get("/api/account/passkeys")
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]["passkeys"]


def test_the_options_ask_for_a_discoverable_verified_passkey_of_this_site(signed_in, query):  # noqa: F811
    user, client = signed_in()
    first = added(client)
    credential_id = query(lambda s: s.get(Passkey, first["id"]).credential_id)

    publicKey = options(client)

    assert publicKey["rp"] == {"id": "localhost", "name": "Resume Service"}
    assert publicKey["user"]["name"] == user["email"]
    assert publicKey["authenticatorSelection"]["residentKey"] == "required"
    assert publicKey["authenticatorSelection"]["userVerification"] == "required"
    assert publicKey["timeout"] == 300_000
    assert [c["id"] for c in publicKey["excludeCredentials"]] == [credential_id]


def test_a_passkey_is_added_listed_renamed_and_mailed(signed_in, mailbox):  # noqa: F811
    user, client = signed_in()

    passkey = added(client, name="  My laptop ")

    assert passkey["name"] == "My laptop" and passkey["lastUsedAt"] is None
    assert set(passkey) == {"id", "name", "createdAt", "lastUsedAt", "backedUp"}
    assert listing(client) == [passkey]
    mail = mailbox.wait_for(user["email"])
    assert mail["Subject"] == "A passkey was added to your account"
    assert "My laptop" in mail.get_body(("plain",)).get_content()

    renamed = client.put(f"/api/account/passkeys/{passkey['id']}", json={"name": "Work laptop"})
    assert renamed.status_code == 200 and renamed.get_json()["data"]["name"] == "Work laptop"
    assert client.put(f"/api/account/passkeys/{passkey['id']}", json={"name": "  "}).status_code == 400
    assert listing(client)[0]["name"] == "Work laptop"

    second = added(client, name="")
    assert second["name"] == "Passkey 2"
    assert [p["id"] for p in listing(client)] == [passkey["id"], second["id"]]


def test_another_users_passkey_is_not_found(signed_in):  # noqa: F811
    _, owner = signed_in()
    passkey = added(owner)
    _, other = signed_in()

    assert other.put(f"/api/account/passkeys/{passkey['id']}", json={"name": "x"}).status_code == 404
    assert other.delete(f"/api/account/passkeys/{passkey['id']}").get_json()["code"] == "NOT_FOUND"
    assert listing(other) == [] and len(listing(owner)) == 1


def test_a_replayed_registration_is_refused(signed_in):  # noqa: F811
    _, client = signed_in()
    credential = SoftAuthenticator().create(options(client))
    assert client.post("/api/account/passkeys", json={"credential": credential}).status_code == 201

    again = client.post("/api/account/passkeys", json={"credential": credential})

    assert again.status_code == 400
    assert again.get_json()["code"] == "PASSKEY_INVALID" and again.get_json()["details"]["reason"] == "challenge"


def test_a_registration_from_another_origin_is_refused_and_spends_its_challenge(signed_in, query):  # noqa: F811
    _, client = signed_in()
    authenticator = SoftAuthenticator()
    publicKey = options(client)

    wrong = client.post("/api/account/passkeys", json={
        "credential": authenticator.create(publicKey, origin="http://localhost:5001")})
    assert wrong.status_code == 400 and wrong.get_json()["details"]["reason"] == "verification"
    right = client.post("/api/account/passkeys", json={"credential": authenticator.create(publicKey)})
    assert right.get_json()["details"]["reason"] == "challenge"  # the failed answer spent it
    assert query(lambda s: s.query(Passkey).count()) == 0


def test_a_registration_without_user_verification_is_refused(signed_in):  # noqa: F811
    _, client = signed_in()
    response = add(client, verified=False)
    assert response.status_code == 400 and response.get_json()["details"]["reason"] == "verification"


def test_an_expired_challenge_is_refused(signed_in, clock):  # noqa: F811
    _, client = signed_in()
    publicKey = options(client)
    clock.advance(minutes=5, seconds=1)

    response = client.post("/api/account/passkeys", json={"credential": SoftAuthenticator().create(publicKey)})

    assert response.status_code == 400 and response.get_json()["details"]["reason"] == "challenge"


def test_another_users_challenge_is_refused(signed_in):  # noqa: F811
    _, first = signed_in()
    _, second = signed_in()
    credential = SoftAuthenticator().create(options(first))

    response = second.post("/api/account/passkeys", json={"credential": credential})

    assert response.status_code == 400 and response.get_json()["details"]["reason"] == "challenge"


def test_removing_a_passkey_mails_the_account_and_it_stops_listing(signed_in, mailbox, query):  # noqa: F811
    user, client = signed_in()
    passkey = added(client, name="Old phone")
    mailbox.wait_for(user["email"])

    response = client.delete(f"/api/account/passkeys/{passkey['id']}")

    assert response.status_code == 200 and response.get_json()["data"] == {"passkeys": []}
    mail = mailbox.wait_for(user["email"], count=2)
    assert mail["Subject"] == "A passkey was removed from your account"
    assert "Old phone" in mail.get_body(("plain",)).get_content()
    assert query(lambda s: s.get(Passkey, passkey["id"]).removed_at) is not None
    assert client.delete(f"/api/account/passkeys/{passkey['id']}").status_code == 404


def test_the_last_way_to_sign_in_cannot_be_removed(signed_in, query):  # noqa: F811
    user, client = signed_in()
    first, second = added(client), added(client)

    def drop_password(session):
        session.get(User, user["id"]).password_hash = None
        session.commit()
    query(drop_password)

    assert client.delete(f"/api/account/passkeys/{first['id']}").status_code == 200
    last = client.delete(f"/api/account/passkeys/{second['id']}")

    assert last.status_code == 409
    assert last.get_json()["code"] == "LAST_SIGN_IN_METHOD" and last.get_json()["details"]["field"] == "id"
    assert [p["id"] for p in listing(client)] == [second["id"]]


def test_challenges_are_pruned_once_spent_or_expired(app, signed_in, clock, query):  # noqa: F811
    _, client = signed_in()
    added(client)
    options(client)  # still live
    with app.app_context():
        assert service.prune_expired()["passkey_challenges"] == 1
    clock.advance(minutes=6)
    with app.app_context():
        assert service.prune_expired()["passkey_challenges"] == 1
    assert query(lambda s: s.query(PasskeyChallenge).count()) == 0


def test_the_mail_speaks_the_accounts_language(signed_in, mailbox):  # noqa: F811
    user, client = signed_in()
    assert client.put("/api/account", json={"preferences": {"language": "zh-cn"}}).status_code == 200

    added(client, name="笔记本")

    mail = mailbox.wait_for(user["email"])
    assert mail["Subject"] == "您的账户添加了一个通行密钥"
    assert "名为“笔记本”的通行密钥已添加到您的账户" in mail.get_body(("plain",)).get_content()
