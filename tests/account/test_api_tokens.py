"""GET/POST /api/account/tokens and DELETE /api/account/tokens/<id>: the API tokens a person holds, as the
account page shows them. A token is a refresh-token family (decisions "API tokens"): created here with a
name (its value answered once), exchanged at POST /api/auth/token, listed while it lives, revoked whole."""
from __future__ import annotations

from datetime import timedelta

import pytest

from tests.auth.support import bearer, password_grant, refresh_grant, signed_in  # noqa: F401  (fixtures)

from app.account import api_tokens
from app.auth.models import RefreshToken
from app.common.models import utcnow


def listing(client) -> list[dict]:
    response = client.get("/api/account/tokens")
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]["tokens"]


def create(client, name="Deploy script", **kwargs):
    return client.post("/api/account/tokens", json={"name": name}, **kwargs)


def test_a_token_is_created_with_a_name_shown_once_and_exchanged_for_access(signed_in):
    _user, client = signed_in()
    assert listing(client) == []

    response = create(client, name="  Deploy script  ")
    assert response.status_code == 201
    assert response.headers["Cache-Control"] == "no-store"
    token = response.get_json()["data"]
    assert token["name"] == "Deploy script" and token["lastUsedAt"] is None and len(token["token"]) > 30
    assert set(token) == {"id", "name", "createdAt", "lastUsedAt", "expiresAt", "token"}
    [listed] = listing(client)
    assert listed == {key: value for key, value in token.items() if key != "token"}  # never the value again

    # a program exchanges it, and the next token of the family keeps the name
    exchanged = refresh_grant(client, token["token"])
    assert exchanged.status_code == 200, exchanged.get_json()
    access, following = exchanged.get_json()["access_token"], exchanged.get_json()["refresh_token"]
    anonymous = client.application.test_client()
    assert anonymous.get("/api/account", headers=bearer(access)).status_code == 200
    [listed] = listing(client)
    assert listed["id"] == token["id"] and listed["name"] == "Deploy script" and listed["lastUsedAt"] is not None
    assert refresh_grant(client, following).status_code == 200


def test_password_grants_are_listed_without_a_name_and_the_newest_first(signed_in):
    user, client = signed_in()
    assert password_grant(client.application.test_client(), user).status_code == 200
    named = create(client).get_json()["data"]
    tokens = listing(client)
    assert [t["name"] for t in tokens] == ["Deploy script", None]
    assert tokens[0]["id"] == named["id"]


def test_revoking_a_token_ends_it_and_every_token_exchanged_from_it(signed_in):
    _user, client = signed_in()
    first = create(client, name="CI").get_json()["data"]
    second = create(client, name="Backup job").get_json()["data"]
    following = refresh_grant(client, first["token"]).get_json()["refresh_token"]

    response = client.delete(f"/api/account/tokens/{first['id']}")
    assert response.status_code == 200
    assert [t["name"] for t in response.get_json()["data"]["tokens"]] == ["Backup job"]
    refused = refresh_grant(client, following)
    assert refused.status_code == 403 and refused.get_json()["code"] == "TOKEN_INVALID"
    assert refresh_grant(client, second["token"]).status_code == 200  # the other one lives
    again = client.delete(f"/api/account/tokens/{first['id']}")
    assert again.status_code == 404 and again.get_json()["code"] == "NOT_FOUND"


@pytest.mark.parametrize("token_id", ["no-such-token", "x" * 300, "%00"])
def test_an_unknown_token_id_is_a_404(signed_in, token_id):
    _user, client = signed_in()
    response = client.delete(f"/api/account/tokens/{token_id}")
    assert response.status_code == 404 and response.get_json()["code"] == "NOT_FOUND"


def test_another_persons_token_can_be_neither_seen_nor_revoked(signed_in):
    _alice, alice = signed_in()
    _bob, bob = signed_in()
    token = create(alice).get_json()["data"]
    assert listing(bob) == []
    response = bob.delete(f"/api/account/tokens/{token['id']}")
    assert response.status_code == 404
    assert [t["id"] for t in listing(alice)] == [token["id"]]


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "   "}, {"name": "x" * 101}, {"name": 5},
                                  {"name": "CI", "token": "mine"}])
def test_a_token_needs_a_name_of_1_to_100_characters(signed_in, body):
    _user, client = signed_in()
    response = client.post("/api/account/tokens", json=body)
    assert response.status_code == 400 and response.get_json()["code"] == "VALIDATION_ERROR"
    assert listing(client) == []


def test_a_bearer_token_may_list_and_revoke_but_not_create_tokens(signed_in):
    user, client = signed_in()
    token = create(client).get_json()["data"]
    access = password_grant(client.application.test_client(), user).get_json()["access_token"]
    other = client.application.test_client()
    refused = create(other, headers=bearer(access))
    assert refused.status_code == 403 and refused.get_json()["code"] == "SESSION_REQUIRED"
    assert len(other.get("/api/account/tokens", headers=bearer(access)).get_json()["data"]["tokens"]) == 2
    assert other.delete(f"/api/account/tokens/{token['id']}", headers=bearer(access)).status_code == 200


def test_the_endpoints_need_a_signed_in_person(client):
    assert client.get("/api/account/tokens").status_code == 401
    assert client.post("/api/account/tokens", json={"name": "CI"}).status_code == 401
    assert client.delete("/api/account/tokens/abc").status_code == 401


def test_an_expired_token_leaves_the_list_and_cannot_be_revoked(signed_in, query):
    user, client = signed_in()
    token = create(client).get_json()["data"]

    def expire(session):
        session.query(RefreshToken).filter_by(user_id=user["id"]).update(
            {"expires_at": utcnow() - timedelta(minutes=1)})
        session.commit()

    query(expire)
    assert listing(client) == []
    assert client.delete(f"/api/account/tokens/{token['id']}").status_code == 404


def test_a_person_holds_a_bounded_number_of_live_tokens(signed_in, query, monkeypatch):
    assert api_tokens.MAX_LIVE == 50
    monkeypatch.setattr(api_tokens, "MAX_LIVE", 2)
    user, client = signed_in()
    assert create(client).status_code == 201 and create(client).status_code == 201
    response = create(client)
    assert response.status_code == 403 and response.get_json()["code"] == "FORBIDDEN"
    assert query(lambda s: s.query(RefreshToken).filter_by(user_id=user["id"]).count()) == 2
