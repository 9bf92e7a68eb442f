"""Views marked ``@writes_nothing`` run without a transaction, so a write in one must fail, not
commit statement by statement. (Round trips are counted in tests/resumes/test_round_trips.py.)"""
from __future__ import annotations

import pytest
from flask import jsonify
from sqlalchemy import update

from app.common.connections import writes_nothing
from app.extensions import db


@pytest.mark.parametrize("how", ["orm-flush", "update-statement"])
def test_a_write_in_a_view_marked_writes_nothing_fails_and_changes_nothing(make_app, make_user, how):
    from app.users.models import User

    app = make_app()
    user = make_user(name="Ada Lovelace")

    @app.get("/api/_probe/write")
    @writes_nothing
    def write():
        if how == "orm-flush":
            db.session.get(User, user["id"]).name = "Changed"
            db.session.flush()
        else:
            db.session.execute(update(User).where(User.id == user["id"]).values(name="Changed"))
        db.session.commit()
        return jsonify({})

    client = app.test_client()
    assert client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]}
                       ).status_code == 200

    response = client.get("/api/_probe/write")

    assert response.status_code == 500 and response.get_json()["code"] == "INTERNAL_ERROR"
    with app.app_context():
        assert db.session.get(User, user["id"]).name == "Ada Lovelace"


def test_a_bearer_request_to_a_view_marked_writes_nothing_is_still_counted(make_app, make_user):
    app = make_app()
    user = make_user()
    client = app.test_client()
    token = client.post("/api/auth/token", json={"grant_type": "password", "email": user["email"],
                                                 "password": user["password"]}).get_json()["access_token"]

    first = client.get("/api/resumes", headers={"Authorization": f"Bearer {token}"})
    account = client.get("/api/account", headers={"Authorization": f"Bearer {token}"})

    assert first.status_code == 200 and account.status_code == 200
    assert account.get_json()["data"]["apiRequestsUsed"] == 2  # the list's request, then this one
