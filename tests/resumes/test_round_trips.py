"""What a signed-in list request costs the database, counted where it is paid.

On PostgreSQL the app talks to the server through a proxy of the test's own on loopback that reads
the protocol the client sends. A round trip is a message after which the client waits for the
server: a simple ``Query`` (psycopg's ``BEGIN``/``COMMIT``/``ROLLBACK``, the pool's ping) or the
``Sync`` that ends an extended-protocol statement (``Parse``/``Bind``/``Execute``). On SQLite, where
there is no wire, sqlite3's trace callback counts every statement the library runs, the implicit
``BEGIN`` included.
"""
from __future__ import annotations

import os
import socket
import struct
import threading
import time

import pytest
from sqlalchemy import event, make_url

from app.config import database_url
from tests.support import pump, shut

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL")
LIST = "/api/resumes?page=1&limit=10"
WARM_UP = 6  # past psycopg's prepare threshold (5 runs of a statement): the count below is the steady one
# With Redis, jobs run in the worker process (on connections of its own); in-process jobs would share
# the counted connections.
needs_postgres = pytest.mark.skipif(not (TEST_DATABASE_URL and TEST_REDIS_URL),
                                    reason="TEST_DATABASE_URL and TEST_REDIS_URL are not both set: round trips "
                                           "are counted on PostgreSQL's wire protocol")
needs_sqlite = pytest.mark.skipif(bool(TEST_DATABASE_URL), reason="the embedded SQLite mode counts statements; "
                                                                  "with TEST_DATABASE_URL the wire is counted")


class WireCounter:
    """A TCP proxy to PostgreSQL that logs each round trip the clients start, in order, as a short
    label: the simple query's text, or the SQL of the statement a ``Sync`` completes. ``cut()``
    closes every open connection and keeps accepting new ones, as a restarted server does."""

    def __init__(self, upstream: tuple[str, int]):
        self.upstream = upstream
        self.trips: list[str] = []
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, database: str) -> str:
        # Plain text (no SSL or GSS encryption request), so that the messages can be read.
        return (make_url(database_url(database)).set(host="127.0.0.1", port=self.port)
                .update_query_dict({"sslmode": "disable", "gssencmode": "disable"})
                .render_as_string(hide_password=False))

    def reset(self) -> None:
        with self._lock:
            self.trips.clear()

    def taken(self) -> list[str]:
        with self._lock:
            return list(self.trips)

    def cut(self) -> None:
        with self._lock:
            sockets, self._open = self._open, set()
        for sock in sockets:
            shut(sock)
            sock.close()

    def close(self) -> None:
        self._listener.close()
        self.cut()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                return
            server.settimeout(None)
            with self._lock:
                self._open |= {client, server}
            threading.Thread(target=self._read_client, args=(client, server), daemon=True).start()
            threading.Thread(target=pump, args=(server, client), daemon=True).start()

    def _read_client(self, client: socket.socket, server: socket.socket) -> None:
        buffer, started, statement, prepared = b"", False, "?", {}
        try:
            while data := client.recv(65536):
                buffer += data
                while True:
                    if not started:  # the startup message: a length and no type byte
                        if len(buffer) < 4 or len(buffer) < struct.unpack("!I", buffer[:4])[0]:
                            break
                        buffer, started = buffer[struct.unpack("!I", buffer[:4])[0]:], True
                        continue
                    if len(buffer) < 5 or len(buffer) < 1 + struct.unpack("!I", buffer[1:5])[0]:
                        break
                    size = 1 + struct.unpack("!I", buffer[1:5])[0]
                    kind, body, buffer = buffer[:1], buffer[5:size], buffer[size:]
                    if kind == b"P":  # Parse: statement name, then the SQL
                        name, sql = body.split(b"\0")[:2]
                        statement = _label(sql)
                        if name:
                            prepared[name], statement = statement, f"PREPARE {statement}"
                    elif kind == b"B" and body.split(b"\0")[1]:  # Bind: portal, then a prepared statement's name
                        statement = "EXECUTE " + prepared.get(body.split(b"\0")[1], "?")
                    elif kind in (b"Q", b"S"):
                        with self._lock:
                            self.trips.append(_label(body.split(b"\0")[0]) if kind == b"Q" else statement)
                # Forwarded once its round trips are logged: the answer, and so the test's reading
                # of ``taken()``, cannot come before them.
                server.sendall(data)
        except OSError:
            pass
        finally:
            shut(client)
            shut(server)


def _label(sql: bytes) -> str:
    return " ".join(sql.decode(errors="replace").split())[:60]


def assert_written_in_one_transaction(trips: list[str]) -> None:
    """Every write of ``trips`` lies between one BEGIN and the COMMIT after it."""
    trips = ["BEGIN" if trip.startswith("BEGIN") else trip for trip in trips]  # BEGIN ISOLATION LEVEL ...
    writes = [i for i, trip in enumerate(trips) if trip.startswith(("INSERT", "UPDATE", "DELETE"))]
    assert writes, trips
    begin = max((i for i in range(writes[0]) if trips[i] == "BEGIN"), default=None)
    end = next((i for i in range(writes[-1], len(trips)) if trips[i] in ("COMMIT", "ROLLBACK")), None)
    assert begin is not None and end is not None and trips[end] == "COMMIT", trips
    assert not {"BEGIN", "COMMIT", "ROLLBACK"} & set(trips[begin + 1:end]), trips


@pytest.fixture
def wire():
    upstream = make_url(database_url(TEST_DATABASE_URL))
    counter = WireCounter((upstream.host or "127.0.0.1", upstream.port or 5432))
    yield counter
    counter.close()


@pytest.fixture
def signed_in(make_app, make_user, wire):
    """A client of an app (of the named configuration, ``testing`` unless given) whose database is
    behind ``wire``, signed in with a session cookie and warmed up; returns (client, user)."""

    def build(name: str = "testing", **variables):
        app = make_app(name, DATABASE_URL=wire.url(TEST_DATABASE_URL), **variables)
        client = app.test_client()
        user = make_user()
        response = client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
        assert response.status_code == 200
        for _ in range(WARM_UP):
            assert client.get(LIST).status_code == 200
        return client, user

    return build


# Round trips that are no statement of the view's: a transaction's, a session setting, the pool's ping.
OVERHEAD = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "SET", "SHOW", ";")


@needs_postgres
@pytest.mark.parametrize("configuration", ["production", "testing"])
def test_a_signed_in_list_request_makes_two_round_trips_and_no_transaction(signed_in, wire, templates,
                                                                           configuration):
    """The lean request of issue 12, as the deployed app serves it (``wsgi.py``: the production
    configuration) and as the other tests' app does: the session with its user and the page, in
    autocommit (no ``BEGIN``, no ``ROLLBACK``, which would also reset psycopg's count towards
    preparing the two statements)."""
    client, _ = signed_in(configuration)
    assert client.post("/api/resumes", json={"title": "Counted", "templateId": templates["basic"][0]}
                       ).status_code == 201
    for _ in range(WARM_UP):
        client.get(LIST)

    wire.reset()
    response = client.get(LIST)
    trips = wire.taken()

    assert response.status_code == 200
    body = response.get_json()
    assert [item["title"] for item in body["data"]] == ["Counted"] and body["meta"]["total"] == 1
    assert not [trip for trip in trips if trip.startswith(OVERHEAD)], trips
    assert len(trips) == 2, trips


@needs_postgres
def test_a_write_still_runs_in_one_transaction(signed_in, wire, templates):
    client, _ = signed_in()

    wire.reset()
    response = client.post("/api/resumes", json={"title": "Written", "templateId": templates["basic"][0]})
    trips = wire.taken()

    assert response.status_code == 201
    assert_written_in_one_transaction(trips)


@needs_postgres
def test_a_bearer_request_counts_its_use_in_a_transaction(signed_in, wire):
    client, user = signed_in()
    token = client.post("/api/auth/token", json={"grant_type": "password", "email": user["email"],
                                                 "password": user["password"]}).get_json()["access_token"]
    client.delete_cookie("sid")
    bearer = {"Authorization": f"Bearer {token}"}
    assert client.get(LIST, headers=bearer).status_code == 200

    wire.reset()
    response = client.get(LIST, headers=bearer)
    trips = wire.taken()

    assert response.status_code == 200
    assert_written_in_one_transaction(trips)


@needs_postgres
def test_a_pooled_connection_the_database_closed_is_replaced_without_an_error(signed_in, wire):
    client, _ = signed_in()

    wire.cut()  # what a restart of PostgreSQL does to the pool's idle connections
    time.sleep(0.05)
    response = client.get(LIST)

    assert response.status_code == 200, response.get_json()
    assert client.get(LIST).status_code == 200


@needs_sqlite
def test_a_signed_in_list_request_runs_at_most_three_statements_on_sqlite(make_app, make_user, templates):
    from app.extensions import db

    app = make_app()
    statements: list[str] = []
    test_thread = threading.get_ident()  # the test client's requests run here; jobs run on threads of their own

    def trace(sql: str) -> None:
        if threading.get_ident() == test_thread:
            statements.append(sql)

    with app.app_context():
        event.listen(db.engine, "connect", lambda dbapi_connection, _record: dbapi_connection.set_trace_callback(trace))
    client = app.test_client()
    user = make_user()
    assert client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]}
                       ).status_code == 200
    assert client.post("/api/resumes", json={"title": "Counted", "templateId": templates["basic"][0]}
                       ).status_code == 201
    client.get(LIST)

    statements.clear()
    response = client.get(LIST)

    assert response.status_code == 200 and response.get_json()["meta"]["total"] == 1
    assert len(statements) <= 3, statements
