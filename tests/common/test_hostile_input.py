"""Hostile input and headers: bodies built to break the server, and the headers every response carries.

- A body nested deeper than the JSON decoder can follow is malformed JSON: ``400
  VALIDATION_ERROR`` on every route that reads one, and it must not disturb the
  rate limits (a key function that raised once let locked-out guesses through).
- A chunked body over 1 MiB is ``413``, through a real HTTP server as through the test client.
- Every response carries a strict Content-Security-Policy, ``frame-ancestors 'none'``,
  a Referrer-Policy, and HSTS when the request came over HTTPS.
- A form post's ``Origin`` is compared with ``BASE_URL``, never with a forwarded host.
"""
from __future__ import annotations

import http.client
import io
import re
import socket
import threading
from html.parser import HTMLParser

import pytest
from sqlalchemy import func, select
from werkzeug.serving import make_server

from tests.processes import gunicorn_for
from tests.support import PASSWORD, serving

from app.config import API_VERSION
from app.errors import STATUS
from app.users.models import User

MiB = 1024 * 1024
BASE_URL = "http://localhost:5000"  # the testing default

NESTED_BODIES = {
    "open-arrays-1500": "[" * 1_500,
    "open-objects-20000": '{"a":' * 20_000,
    "closed-arrays-100000": "[" * 100_000 + "]" * 100_000,  # valid JSON, 200 KB
    "inside-a-field": '{"email": ' + "[" * 5_000 + "]" * 5_000 + "}",
}


def assert_envelope(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/json"
    assert response.headers["X-API-Version"] == API_VERSION
    body = response.get_json()
    assert set(body) <= {"error", "code", "details"} and body["code"] == code and STATUS[code] == status
    return body


# -- deeply nested bodies ------------------------------------------------------------------------


@pytest.fixture
def path_values(client, owner):
    """A live value for every path parameter of the API: the signed-in owner's resume, project,
    webhook and an entry of its log, a share that takes comments and a version of the resume."""
    template_id = client.get("/api/templates").get_json()["data"][0]["id"]
    resume = client.post("/api/resumes", json={"title": "Deep", "templateId": template_id})
    resume_id = resume.get_json()["data"]["id"]
    project = client.post(f"/api/resumes/{resume_id}/projects", json={"name": "Engine"})
    webhook = client.post("/api/webhooks", json={"url": "http://127.0.0.1:9/hook", "events": ["resume.created"]})
    share = client.post(f"/api/resumes/{resume_id}/share", json={"allowComments": True})
    for response in (resume, project, webhook, share):
        assert response.status_code == 201, response.get_json()
    assert client.put(f"/api/resumes/{resume_id}", json={"title": "Deeper"}).status_code == 200  # keeps a version
    version_id = client.get(f"/api/resumes/{resume_id}/versions").get_json()["data"][0]["id"]
    log = client.post(f"/api/webhooks/{webhook.get_json()['data']['id']}/test")  # nobody listens on port 9
    assert log.status_code == 200, log.get_json()
    return {"resume_id": resume_id, "project_id": project.get_json()["data"]["id"],
            "webhook_id": webhook.get_json()["data"]["id"], "log_id": log.get_json()["data"]["id"],
            "token": share.get_json()["data"]["token"], "version_id": version_id,
            "passkey_id": "0" * 24}  # none: the body is read (and refused) before the passkey is looked up


def api_write_rules(app):
    """Every ``/api`` rule taking POST, PUT or PATCH: those whose view reads a JSON body first
    (sign-out last: it ends the session the others need)."""
    rules = [(rule, method) for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")
             for method in sorted(rule.methods & {"POST", "PUT", "PATCH"})]

    def reads_body(rule) -> bool:
        return getattr(app.view_functions[rule.endpoint], "api_doc", {}).get("body") is not None

    return sorted(rules, key=lambda item: (not reads_body(item[0]), item[0].rule)), reads_body


@pytest.mark.parametrize("raw", list(NESTED_BODIES.values()), ids=list(NESTED_BODIES))
def test_a_deeply_nested_body_answers_400_on_every_json_route(app, client, path_values, raw):
    rules, reads_body = api_write_rules(app)
    readers = 0
    for rule, method in rules:
        missing = rule.arguments - set(path_values)
        assert not missing, f"give the test a value for {missing} ({rule.rule})"
        path = rule.build({name: path_values[name] for name in rule.arguments}, append_unknown=False)[1]

        response = client.open(path, method=method, data=raw, content_type="application/json")

        assert response.status_code < 500, (method, rule.rule, response.get_data(as_text=True)[:300])
        if reads_body(rule):
            readers += 1
            body = assert_envelope(response, 400, "VALIDATION_ERROR")
            assert body["details"]["field"] == "body", (method, rule.rule, body)
    assert readers >= 21  # the issue counted 21 routes that read JSON


def test_a_deeply_nested_value_that_the_decoder_can_follow_is_a_field_error(client):
    raw = '{"email": ' + "[" * 400 + "]" * 400 + ', "password": "x"}'

    response = client.post("/api/auth/signin", data=raw, content_type="application/json")

    assert assert_envelope(response, 400, "VALIDATION_ERROR")["details"]["field"] == "email"


def test_nested_bodies_let_no_guess_through_after_a_sign_in_lockout(client, make_user):
    user = make_user()
    for _ in range(5):
        assert client.post("/api/auth/signin", json={"email": user["email"], "password": "wrong 1 x"}
                           ).status_code == 401
    let_through = 0
    for i in range(20):
        nested = client.post("/api/auth/signin", data=list(NESTED_BODIES.values())[i % 4],
                             content_type="application/json")
        assert_envelope(nested, 400, "VALIDATION_ERROR")
        if i % 2:
            guess = client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
        else:
            guess = client.post("/api/auth/token", json={"grant_type": "password", "email": user["email"],
                                                         "password": user["password"]})
        let_through += guess.status_code != 429
    assert let_through == 0


# -- chunked bodies ------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=["werkzeug", "gunicorn"])
def live_server(request, app, test_env, tmp_path_factory):
    """The port of a real HTTP server on loopback (each de-chunks request bodies): Werkzeug's,
    serving the test app, or ``gunicorn wsgi:app`` as the Procfile starts it, on the test database."""
    if request.param == "werkzeug":
        with serving(make_server("127.0.0.1", 0, app, threaded=True)) as server:
            yield server.server_port
        return
    with gunicorn_for(test_env, tmp_path_factory) as server:
        yield server.port


def post_chunked(port: int, path: str, body: bytes, content_type: str):
    """POST ``body`` with ``Transfer-Encoding: chunked`` (no Content-Length); returns (status, headers, body).

    A server may answer 413 and close before the body is all sent, as a real one does: the answer
    is read while the body is being written (a thread reading the socket), and a broken pipe or a
    reset while writing ends the writing, not the test. Reading only after writing lost the answer
    to the reset that closing with unread data sends."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    answer = {}

    def read():
        response = http.client.HTTPResponse(sock)
        response.begin()
        answer["result"] = response.status, response.headers, response.read()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: {content_type}\r\n"
            "Transfer-Encoding: chunked\r\n\r\n")
    try:
        sock.sendall(head.encode())
        for i in range(0, len(body), 64 * 1024):
            chunk = body[i:i + 64 * 1024]
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        sock.sendall(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass
    reader.join(30)
    sock.close()
    assert "result" in answer, "no answer within 30 s"
    return answer["result"]


def json_of_size(size: int) -> bytes:
    prefix = b'{"email": "ada@example.com", "password": "' + PASSWORD.encode() + b'", "name": "'
    return prefix + b"x" * (size - len(prefix) - 2) + b'"}'


@pytest.mark.parametrize("path", ["/api/register", "/api/auth/signin", "/api/forgot-password"])
def test_a_chunked_json_body_over_one_mib_answers_413_through_a_real_server(live_server, query, path):
    status, headers, body = post_chunked(live_server, path, json_of_size(2 * MiB), "application/json")

    assert status == 413, body[:300]
    assert b'"code":"CONTENT_TOO_LARGE"' in body and headers["X-API-Version"] == API_VERSION
    assert query(lambda s: s.scalar(select(func.count()).select_from(User))) == 0


def test_a_chunked_form_over_one_mib_to_signin_redirects_with_413s_code(live_server):
    form = b"email=ada%40example.com&password=" + b"x" * (2 * MiB)

    status, headers, _ = post_chunked(live_server, "/api/auth/signin", form, "application/x-www-form-urlencoded")

    assert status == 302 and headers["Location"].startswith(f"{BASE_URL}/login?error=CONTENT_TOO_LARGE")


def test_a_chunked_form_over_one_mib_to_a_page_answers_413(live_server):
    form = b"email=ada%40example.com&name=Ada&password=" + b"x" * (2 * MiB)

    status, _, _ = post_chunked(live_server, "/register", form, "application/x-www-form-urlencoded")

    assert status == 413


@pytest.mark.parametrize("size", [1000, MiB])
def test_a_chunked_body_up_to_one_mib_is_read_and_validated(live_server, size):
    status, _, body = post_chunked(live_server, "/api/register", json_of_size(size), "application/json")

    assert status == 400 and b'"field":"name"' in body  # read whole: only the long name is refused


def test_a_chunked_registration_succeeds(live_server, query):
    body = b'{"email": "chunked@example.com", "password": "' + PASSWORD.encode() + b'", "name": "Ada"}'

    status, _, _ = post_chunked(live_server, "/api/register", body, "application/json")

    assert status == 201
    assert query(lambda s: s.scalar(select(User.email))) == "chunked@example.com"


def test_a_chunked_body_over_one_mib_answers_413_through_the_test_client(client):
    # As a server that de-chunks hands it over: no length, a stream it terminates (wsgi.input_terminated).
    response = client.post("/api/register", input_stream=io.BytesIO(json_of_size(2 * MiB)),
                           content_type="application/json", headers={"Transfer-Encoding": "chunked"},
                           environ_overrides={"wsgi.input_terminated": True})

    assert_envelope(response, 413, "CONTENT_TOO_LARGE")


# -- security headers ----------------------------------------------------------------------------


def policy(response) -> dict[str, list[str]]:
    """The Content-Security-Policy as {directive: [sources]}."""
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no CSP on {response.request.path}"
    directives = {}
    for part in header.split(";"):
        if part.strip():
            name, *sources = part.split()
            directives[name] = sources
    return directives


class InlineCode(HTMLParser):
    """Inline script, inline event handlers, style attributes and <style> elements (with their nonce)."""

    def __init__(self):
        super().__init__()
        self.problems: list[str] = []
        self.style_nonces: list[str | None] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and not attrs.get("src"):
            self.problems.append("inline <script>")
        if tag == "style":
            self.style_nonces.append(attrs.get("nonce"))
        self.problems += [f"{name}= on <{tag}>" for name in attrs if name.startswith("on") or name == "style"]
        for name in ("href", "src", "action"):
            if (attrs.get(name) or "").strip().lower().startswith("javascript:"):
                self.problems.append(f"javascript: URL on <{tag}>")


def assert_secure_headers(response, *, https: bool = False) -> None:
    csp = policy(response)
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["default-src"] == ["'none'"]
    assert csp["script-src"] == ["'self'"]
    assert not any("unsafe" in source for sources in csp.values() for source in sources)
    assert csp["base-uri"] == ["'none'"] and csp["form-action"] == ["'self'"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    if https:
        assert re.fullmatch(r"max-age=\d{8,}", response.headers["Strict-Transport-Security"])
    else:
        assert "Strict-Transport-Security" not in response.headers


def assert_no_inline_code(response) -> None:
    page = InlineCode()
    page.feed(response.get_data(as_text=True))
    assert page.problems == [], response.request.path
    style_sources = policy(response).get("style-src", [])
    for nonce in page.style_nonces:
        assert nonce and f"'nonce-{nonce}'" in style_sources, "a <style> element without the response's nonce"


@pytest.fixture
def protected_share(client, owner):
    template_id = client.get("/api/templates").get_json()["data"][0]["id"]
    resume_id = client.post("/api/resumes", json={"title": "Shared", "templateId": template_id}
                            ).get_json()["data"]["id"]
    share = client.post(f"/api/resumes/{resume_id}/share", json={"allowComments": True, "allowDownload": True})
    return resume_id, share.get_json()["data"]["token"]


PAGES = ["/", "/login", "/register", "/forgot-password", "/resend-verification", "/verify-email?token=abc",
         "/reset-password?token=abc", "/login?error=INVALID_CREDENTIALS", "/nope", "/share/unknown-token"]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_forbids_framing_and_inline_code(client, path):
    response = client.get(path)

    assert response.mimetype == "text/html"
    assert_secure_headers(response)
    assert_no_inline_code(response)


def test_the_share_pages_forbid_framing_and_inline_script(app, client, protected_share):
    resume_id, token = protected_share
    visitor = app.test_client()
    open_page = visitor.get(f"/share/{token}")
    assert open_page.status_code == 200
    assert_secure_headers(open_page)
    assert_no_inline_code(open_page)
    client.put(f"/api/resumes/{resume_id}/share", json={"password": "open sesame"})
    password_page = visitor.get(f"/share/{token}")
    assert "password" in password_page.get_data(as_text=True)
    assert_secure_headers(password_page)
    assert_no_inline_code(password_page)


def test_the_payment_page_forbids_framing(client, owner):
    response = client.post("/api/account/subscription", json={"planId": "premium",
                                                              "paymentMethodId": "pm_card_authenticationRequired"})
    url = response.get_json()["data"]["nextAction"]["url"]

    page = client.get(url.removeprefix(BASE_URL))

    assert page.status_code == 200
    assert_secure_headers(page)
    assert_no_inline_code(page)


@pytest.mark.parametrize("method, path", [("GET", "/api/templates"), ("GET", "/api/auth/session"),
                                          ("POST", "/api/register"), ("GET", "/api/nope"), ("GET", "/healthz"),
                                          ("GET", "/static/style.css"), ("GET", "/api/openapi.json")])
def test_every_api_response_carries_the_security_headers(client, method, path):
    assert_secure_headers(client.open(path, method=method))


@pytest.mark.parametrize("path", ["/login", "/api/templates"])
def test_hsts_is_sent_over_https_only(client, path):
    assert_secure_headers(client.get(path, base_url="https://localhost"), https=True)
    assert_secure_headers(client.get(path), https=False)


def test_hsts_follows_the_forwarded_scheme_behind_a_trusted_proxy(make_app, app):
    proxied = make_app(TRUSTED_PROXIES="1").test_client()
    assert_secure_headers(proxied.get("/login", headers={"X-Forwarded-Proto": "https"}), https=True)
    # Without a trusted proxy a client's X-Forwarded-Proto is only a header.
    assert_secure_headers(app.test_client().get("/login", headers={"X-Forwarded-Proto": "https"}), https=False)


# -- the Origin check ----------------------------------------------------------------------------


def test_a_form_post_is_judged_by_base_url_not_by_a_forwarded_host(make_app, make_user):
    user = make_user()
    form = {"email": user["email"], "password": user["password"]}
    proxied = make_app(TRUSTED_PROXIES="1").test_client()

    forged = proxied.post("/api/auth/signin", data=form, headers={
        "Origin": "https://evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"})
    assert forged.status_code == 302 and forged.headers["Location"] == f"{BASE_URL}/login?error=FORBIDDEN"
    same_site = proxied.post("/api/auth/signin", data=form, headers={"Origin": BASE_URL})
    assert same_site.status_code == 302 and same_site.headers["Location"] == f"{BASE_URL}/"


def test_a_form_post_from_the_request_host_that_is_not_base_url_is_refused(client, make_user):
    user = make_user()

    response = client.post("/api/auth/signin", data={"email": user["email"], "password": user["password"]},
                           headers={"Origin": "http://localhost"})  # the test client's host, not BASE_URL

    assert response.status_code == 302 and response.headers["Location"] == f"{BASE_URL}/login?error=FORBIDDEN"
