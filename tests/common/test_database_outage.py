"""The database out of reach: every answer is the JSON envelope, ``503 SERVICE_UNAVAILABLE`` with
``Retry-After`` and ``X-Request-ID``; nothing leaves as a bare 500; the rate limiter does not take
the outage for its own; and the app recovers when the database comes back.

"Stopping PostgreSQL" is done with a TCP proxy of the test's own between the app and the server:
closing the proxy refuses new connections and cuts the open ones, as a stopped server does;
freezing it holds every byte with the connections left open, as a frozen server or a network that
drops packets does. The machine's PostgreSQL is never touched. Those tests need
``TEST_DATABASE_URL``; the ones on an
unopenable SQLite file or a closed PostgreSQL port run in both modes.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from flask import jsonify
from sqlalchemy import create_engine, make_url, text

from app.config import API_VERSION, database_url
from tests.support import PASSWORD, free_port, pump, shut, wait_until

ROOT = Path(__file__).resolve().parent.parent.parent
TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
CLOSED_PORT_DATABASE = "postgresql://127.0.0.1:1/none"
LIMITER_OUTAGE_MESSAGES = ("Rate limit storage unreachable", "Failed to rate limit")
needs_postgres = pytest.mark.skipif(not TEST_DATABASE_URL, reason="TEST_DATABASE_URL is not set: these tests "
                                                                  "stop a PostgreSQL connection through a proxy")


class TcpProxy:
    """A TCP forwarder on a loopback port. ``stop()`` closes it and cuts every open connection
    (the database looks stopped); ``start()`` opens it again on the same port. With ``blackhole``
    set, it accepts connections and never answers (a host that drops packets)."""

    def __init__(self, upstream: tuple[str, int], blackhole: bool = False):
        self.upstream, self.blackhole, self.port = upstream, blackhole, None
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._flowing = threading.Event()
        self._flowing.set()

    def freeze(self) -> None:
        """Hold every byte from now on, both ways, with every connection left open and new ones
        accepted: the database looks frozen (SIGSTOP, or a network that drops packets)."""
        self._flowing.clear()

    def thaw(self) -> None:
        """Let the held bytes and the next ones through again."""
        self._flowing.set()

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port or 0))
        listener.listen(128)
        self.port, self._listener = listener.getsockname()[1], listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def stop(self) -> None:
        try:
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accept() (close alone does not)
        except OSError:
            pass
        self._listener.close()
        with self._lock:
            sockets, self._open = self._open, set()
        for sock in sockets:
            shut(sock)
            sock.close()

    def url(self, database: str) -> str:
        return make_url(database_url(database)).set(host="127.0.0.1", port=self.port) \
            .render_as_string(hide_password=False)

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            with self._lock:
                self._open.add(client)
            if self.blackhole:
                continue
            try:
                server = socket.create_connection(self.upstream, timeout=5)
                server.settimeout(None)
            except OSError:
                shut(client)
                continue
            with self._lock:
                self._open.add(server)
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=pump, args=(source, target, self._flowing), daemon=True).start()


def assert_unavailable(status: int, headers, body: bytes, *, json_body: bool = True) -> None:
    """503 with a short Retry-After and a request id; the JSON envelope (or the HTML error page)
    saying nothing about the database's internals."""
    text_body = body.decode(errors="replace")
    assert status == 503, text_body[:300]
    assert headers["Retry-After"] == "5"
    assert headers["X-Request-ID"] and headers["X-API-Version"] == API_VERSION
    for leak in ("SELECT", "psycopg", "sqlite", "OperationalError", "Traceback", "127.0.0.1"):
        assert leak not in text_body
    if json_body:
        assert headers["Content-Type"].startswith("application/json")
        envelope = json.loads(body)
        assert envelope["code"] == "SERVICE_UNAVAILABLE" and set(envelope) <= {"error", "code", "details"}
    else:
        assert headers["Content-Type"].startswith("text/html") and "503" in text_body


def limiter_outage_lines(text_or_records) -> list[str]:
    lines = text_or_records if isinstance(text_or_records, list) else text_or_records.splitlines()
    return [line for line in lines if any(m in line for m in LIMITER_OUTAGE_MESSAGES)]


# -- in process, both modes: a database that cannot be opened ---------------------------------------


@pytest.fixture(params=["unopenable-sqlite-file", "closed-postgresql-port"])
def unreachable_database(request, tmp_path):
    if request.param == "closed-postgresql-port":
        return CLOSED_PORT_DATABASE
    return f"sqlite:///{tmp_path / 'no-such-directory' / 'app.db'}"


def test_an_unreachable_database_answers_503_with_retry_after_everywhere(make_app, unreachable_database, caplog):
    client = make_app(DATABASE_URL=unreachable_database).test_client()
    anonymous = client.post("/api/auth/signin", json={"email": "ada@example.com", "password": PASSWORD})
    client.set_cookie("sid", "a" * 43)  # any session cookie needs a look-up

    answers = [
        anonymous,
        client.get("/api/resumes"),
        client.post("/api/resumes", json={"title": "CV", "templateId": "basic"}),
    ]
    for response in answers:
        assert_unavailable(response.status_code, response.headers, response.get_data())
    page = client.get("/")
    assert_unavailable(page.status_code, page.headers, page.get_data(), json_body=False)
    assert "Briefly unavailable" in page.get_data(as_text=True)

    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 503
    assert limiter_outage_lines([r.getMessage() for r in caplog.records]) == []


def test_a_sign_in_form_posted_while_the_database_is_down_goes_back_to_the_login_page(make_app, tmp_path):
    client = make_app(DATABASE_URL=f"sqlite:///{tmp_path / 'missing' / 'app.db'}").test_client()

    response = client.post("/api/auth/signin", data={"email": "ada@example.com", "password": PASSWORD})

    assert response.status_code == 302 and response.headers["Location"].endswith("/login?error=SERVICE_UNAVAILABLE")
    page = client.get("/login?error=SERVICE_UNAVAILABLE")
    assert "briefly unavailable" in page.get_data(as_text=True)


# -- in process, both modes: whatever escapes Flask ----------------------------------------------------


def _raise_runtime_error(_exc):
    raise RuntimeError("a teardown failed")


def _open_an_unopenable_database(tmp_path):
    def teardown(_exc):
        create_engine(f"sqlite:///{tmp_path / 'missing' / 'app.db'}").connect()

    return teardown


@pytest.mark.parametrize("fault, status, code", [
    ("runtime-error", 500, "INTERNAL_ERROR"),
    ("unopenable-database", 503, "SERVICE_UNAVAILABLE"),
])
def test_an_error_raised_after_the_response_still_leaves_as_the_envelope(make_app, tmp_path, fault, status, code):
    app = make_app()
    # Flask runs teardowns after the response is made; what they raise escapes the app's handlers.
    teardown = _raise_runtime_error if fault == "runtime-error" else _open_an_unopenable_database(tmp_path)
    app.teardown_appcontext(teardown)
    client = app.test_client()

    given = client.get("/healthz", headers={"X-Request-ID": "probe-42"})
    generated = client.get("/api/templates")

    for response in (given, generated):
        assert response.status_code == status and response.mimetype == "application/json"
        body = response.get_json()
        assert body["code"] == code and "teardown" not in body["error"]
        assert response.headers["X-API-Version"] == API_VERSION
        assert ("Retry-After" in response.headers) == (status == 503)
    assert given.headers["X-Request-ID"] == "probe-42"
    assert len(generated.headers["X-Request-ID"]) == 32


# -- in process, PostgreSQL through a proxy ------------------------------------------------------------


@pytest.fixture
def proxy():
    upstream = make_url(database_url(TEST_DATABASE_URL))
    server = TcpProxy((upstream.host or "127.0.0.1", upstream.port or 5432))
    server.start()
    yield server
    server.stop()


@needs_postgres
def test_a_connection_cut_after_the_last_query_keeps_the_response(make_app, proxy):
    from app.extensions import db

    app = make_app(DATABASE_URL=proxy.url(TEST_DATABASE_URL))
    cut = threading.Event()

    @app.get("/_probe/query-then-cut")
    def query_then_cut():
        value = db.session.execute(text("SELECT 1")).scalar()  # the session keeps its transaction open
        if not cut.is_set():
            cut.set()
            proxy.stop()  # the teardown's rollback now meets a dead connection
        return jsonify({"value": value})

    client = app.test_client()
    first = client.get("/_probe/query-then-cut")
    assert first.status_code == 200 and first.get_json() == {"value": 1}

    proxy.start()
    again = client.get("/_probe/query-then-cut")  # the pool drops the dead connection and reconnects
    assert again.status_code == 200 and again.get_json() == {"value": 1}


@needs_postgres
def test_a_connection_cut_between_two_queries_answers_503(make_app, proxy):
    from app.extensions import db

    app = make_app(DATABASE_URL=proxy.url(TEST_DATABASE_URL))

    @app.get("/api/_probe/cut-between-queries")
    def cut_between_queries():
        db.session.execute(text("SELECT 1"))
        proxy.stop()
        db.session.execute(text("SELECT 2"))
        return jsonify({})

    response = app.test_client().get("/api/_probe/cut-between-queries")

    assert_unavailable(response.status_code, response.headers, response.get_data())


@needs_postgres
def test_a_database_host_that_never_answers_costs_one_connect_timeout(make_app):
    upstream = make_url(database_url(TEST_DATABASE_URL))
    silent = TcpProxy((upstream.host, upstream.port), blackhole=True)
    silent.start()
    try:
        client = make_app(DATABASE_URL=silent.url(TEST_DATABASE_URL), DATABASE_CONNECT_TIMEOUT="2").test_client()
        started = time.monotonic()
        response = client.post("/api/auth/signin", json={"email": "ada@example.com", "password": PASSWORD})
        waited = time.monotonic() - started

        assert_unavailable(response.status_code, response.headers, response.get_data())
        assert 1.5 < waited < 5, waited
        healthz_started = time.monotonic()
        assert client.get("/healthz").status_code == 200 and time.monotonic() - healthz_started < 0.5
    finally:
        silent.stop()


# -- gunicorn, PostgreSQL through a proxy ----------------------------------------------------------------


class Gunicorn:
    """``gunicorn wsgi:app`` as the Procfile starts it (gunicorn.conf.py), on a free loopback port."""

    def __init__(self, env: dict, log: Path):
        self.port, self.log = free_port(), log
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, **env, "PORT": str(self.port), "WEB_CONCURRENCY": "2", "BASE_URL": self.base,
               "TRUSTED_PROXIES": "0", "LOG_LEVEL": "INFO"}
        with open(log, "wb") as out:
            # No control socket: gunicorn's default path is shared by every gunicorn on the machine.
            self.process = subprocess.Popen([sys.executable, "-m", "gunicorn", "wsgi:app", "--bind",
                                             f"127.0.0.1:{self.port}", "--no-control-socket"], cwd=ROOT, env=env,
                                            stdout=out, stderr=subprocess.STDOUT)
        wait_until(lambda: self._answers("/healthz"), timeout=30, interval=0.2)

    def _answers(self, path: str) -> bool:
        assert self.process.poll() is None, self.output()
        try:
            return self.request("GET", path)[0] == 200
        except OSError:
            return False

    def request(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        """(status, headers, body bytes, seconds taken)."""
        request = urllib.request.Request(self.base + path, method=method, headers=headers or {},
                                         data=None if body is None else json.dumps(body).encode())
        if body is not None:
            request.add_header("Content-Type", "application/json")
        started = time.monotonic()
        try:
            response = urllib.request.urlopen(request, timeout=30)
        except urllib.error.HTTPError as error:
            response = error
        with response:
            return response.status, response.headers, response.read(), time.monotonic() - started

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@needs_postgres
def test_gunicorn_answers_503_envelopes_while_postgresql_is_stopped_and_recovers(test_env, proxy, make_user,
                                                                                 tmp_path):
    user = make_user()
    credentials = {"email": user["email"], "password": user["password"]}
    server = Gunicorn({**test_env, "APP_ENV": "production", "DATABASE_URL": proxy.url(TEST_DATABASE_URL)},
                      tmp_path / "gunicorn.log")
    try:
        status, headers, _, _ = server.request("POST", "/api/auth/signin", credentials)
        assert status == 200
        cookie = {"Cookie": headers["Set-Cookie"].split(";")[0]}
        token = json.loads(server.request("POST", "/api/auth/token", {"grant_type": "password", **credentials})[2])
        bearer = {"Authorization": f"Bearer {token['access_token']}"}
        template_id = json.loads(server.request("GET", "/api/templates", headers=cookie)[2])["data"][0]["id"]
        status, _, body, _ = server.request("POST", "/api/resumes", {"title": "Before", "templateId": template_id},
                                            cookie)
        assert status == 201
        resume_id = json.loads(body)["data"]["id"]

        proxy.stop()
        calls = [
            ("POST", "/api/auth/signin", credentials, None),  # anonymous
            ("GET", "/api/resumes", None, cookie),
            ("GET", f"/api/resumes/{resume_id}", None, bearer),
            ("PUT", f"/api/resumes/{resume_id}", {"title": "During"}, cookie),  # writes
            ("POST", "/api/resumes", {"title": "During", "templateId": template_id}, bearer),
        ]
        slowest = 0.0
        for _ in range(3):  # both workers meet the outage, on pooled and on new connections
            for method, path, body, headers in calls:
                status, answer_headers, answer, took = server.request(method, path, body, headers)
                assert_unavailable(status, answer_headers, answer)
                slowest = max(slowest, took)
            status, answer_headers, answer, _ = server.request("GET", "/", headers=cookie)
            assert_unavailable(status, answer_headers, answer, json_body=False)
            assert server.request("GET", "/healthz", headers=cookie)[0] == 200
            assert server.request("GET", "/readyz")[0] == 503
        assert slowest < 1.0, f"a refused database should fail fast, took {slowest:.2f}s"

        proxy.start()
        wait_until(lambda: server.request("GET", "/readyz")[0] == 200, timeout=10)
        for headers in (cookie, bearer, cookie, bearer):  # both workers' pools reconnect
            status, _, body, _ = server.request("GET", f"/api/resumes/{resume_id}", headers=headers)
            assert status == 200 and json.loads(body)["data"]["title"] == "Before"
        assert server.request("PUT", f"/api/resumes/{resume_id}", {"title": "After"}, cookie)[0] == 200
        listed = json.loads(server.request("GET", "/api/resumes", headers=cookie)[2])
        assert [r["title"] for r in listed["data"]] == ["After"]
    finally:
        server.stop()
    output = server.output()
    assert limiter_outage_lines(output) == []
    assert "Error handling request" not in output  # gunicorn never answered with its own page
    assert "database unavailable on GET /api/resumes" in output


@needs_postgres
def test_gunicorn_answers_503_within_its_bound_while_postgresql_is_frozen_and_recovers(
        test_env, proxy, make_user, tmp_path):
    """A database that stops answering with connections open (issue 24 point 3): each request answers
    503 within DATABASE_STATEMENT_TIMEOUT + 2 s on an open connection (1 + 2 here) or
    DATABASE_CONNECT_TIMEOUT on a new one (2 here), /readyz says so, and once the database answers
    again everything works with no restart and nothing saved lost."""
    user = make_user()
    credentials = {"email": user["email"], "password": user["password"]}
    server = Gunicorn({**test_env, "APP_ENV": "production", "DATABASE_URL": proxy.url(TEST_DATABASE_URL),
                       "DATABASE_STATEMENT_TIMEOUT": "1", "DATABASE_CONNECT_TIMEOUT": "2"},
                      tmp_path / "gunicorn.log")
    try:
        status, headers, _, _ = server.request("POST", "/api/auth/signin", credentials)
        assert status == 200
        cookie = {"Cookie": headers["Set-Cookie"].split(";")[0]}
        template_id = json.loads(server.request("GET", "/api/templates", headers=cookie)[2])["data"][0]["id"]
        status, _, body, _ = server.request("POST", "/api/resumes", {"title": "Before", "templateId": template_id},
                                            cookie)
        assert status == 201
        resume_id = json.loads(body)["data"]["id"]
        for _ in range(4):  # both workers hold a pooled connection through the proxy
            assert server.request("GET", f"/api/resumes/{resume_id}", headers=cookie)[0] == 200

        proxy.freeze()
        slowest = 0.0
        for method, path, body in (("GET", f"/api/resumes/{resume_id}", None), ("GET", "/api/resumes", None),
                                   ("PUT", f"/api/resumes/{resume_id}", {"title": "During"}),
                                   ("GET", f"/api/resumes/{resume_id}", None)):
            status, answer_headers, answer, took = server.request(method, path, body, cookie)
            assert_unavailable(status, answer_headers, answer)
            slowest = max(slowest, took)
        assert slowest < 1 + 2 + 1.5, f"a frozen database should cost a request its bound, took {slowest:.2f}s"
        ready = server.request("GET", "/readyz")
        assert ready[0] == 503 and ready[3] < 1 + 2 + 1.5
        assert server.request("GET", "/healthz")[0] == 200

        proxy.thaw()
        wait_until(lambda: server.request("GET", "/readyz")[0] == 200, timeout=15)
        for _ in range(4):  # both workers' pools
            status, _, body, _ = server.request("GET", f"/api/resumes/{resume_id}", headers=cookie)
            assert status == 200 and json.loads(body)["data"]["title"] == "Before"  # the frozen PUT was not kept
        assert server.request("PUT", f"/api/resumes/{resume_id}", {"title": "After"}, cookie)[0] == 200
        listed = json.loads(server.request("GET", "/api/resumes", headers=cookie)[2])
        assert [r["title"] for r in listed["data"]] == ["After"]
    finally:
        proxy.thaw()
        server.stop()
    output = server.output()
    assert "no answer within 3 s; the connection is cut" in output
    assert "Error handling request" not in output and "Traceback" not in output
