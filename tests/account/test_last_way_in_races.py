"""The last way to sign in cannot be taken away by racing (issue 32 point 4): a password-less account with
two passkeys sends both removals at once, from two sessions, to ``gunicorn wsgi:app`` (two processes of
two threads) on the test database. On PostgreSQL the user's row lock decides; SQLite has no row locks
and its driver begins a transaction only at the first write, so a write that changes nothing takes the
database's lock first (``app.common.database.lock_row``). Either way one removal answers 200, the other
409 LAST_SIGN_IN_METHOD, and one passkey is left."""
from __future__ import annotations

import secrets
import threading

import pytest

from app.auth.models import Passkey
from app.common.models import new_id
from app.users.models import User
from tests.processes import gunicorn_for

ROUNDS = 10


@pytest.fixture(scope="module")
def server(test_env, tmp_path_factory):
    with gunicorn_for(test_env, tmp_path_factory, workers=2, threads=2) as running:
        yield running


def _password_less_with_two_passkeys(query, user_id: str) -> list[str]:
    """Drop the user's password and give it two passkeys (rows as registration leaves them)."""
    def arrange(session):
        session.get(User, user_id).password_hash = None
        ids = [new_id(), new_id()]
        session.add_all(Passkey(id=passkey_id, user_id=user_id, credential_id=secrets.token_urlsafe(16),
                                public_key=b"\xa5", sign_count=0, name=f"Key {n}")
                        for n, passkey_id in enumerate(ids))
        session.commit()
        return ids
    return query(arrange)


def test_two_removals_at_once_leave_one_passkey(server, make_user, query):
    outcomes = []
    for _ in range(ROUNDS):
        user = make_user()
        tabs = [server.signed_in(user["email"]) for _ in range(2)]
        passkeys = _password_less_with_two_passkeys(query, user["id"])
        gate, answers = threading.Barrier(2), [None, None]

        def remove(i: int) -> None:
            gate.wait()
            answers[i] = tabs[i].delete(f"{server.url}/api/account/passkeys/{passkeys[i]}", timeout=60)

        threads = [threading.Thread(target=remove, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        outcomes.append(sorted((a.status_code, a.json().get("code")) for a in answers))
        live = query(lambda s: s.query(Passkey).filter_by(user_id=user["id"], removed_at=None).count())
        assert live == 1, f"a password-less account was left with {live} passkeys: {outcomes}"
    assert all(outcome == [(200, None), (409, "LAST_SIGN_IN_METHOD")] for outcome in outcomes), outcomes
