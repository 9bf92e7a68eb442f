"""The one error path: every failure class leaves as the contract's envelope with its status.

What a client sees: the status, ``{"error", "code", "details"?}``, the headers
(``X-API-Version``, ``X-Request-ID``, ``Allow``, ``Retry-After``) and, for a
refused request, no row written.
"""
import logging
import re

import pytest
from sqlalchemy import func, select

from tests.support import PASSWORD

from app import create_app
from app.common.http import RequestIdFilter
from app.config import API_VERSION, config_for
from app.errors import STATUS
from app.users.models import User

MiB = 1024 * 1024
REGISTER_BODY = {"email": "ada@example.com", "password": PASSWORD, "name": "Ada Lovelace"}
GENERATED_REQUEST_ID = re.compile(r"^[0-9a-f]{32}$")


def assert_error(response, status: int, code: str) -> dict:
    """The response is the JSON error envelope with this status and code; returns the body."""
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/json"
    assert response.headers["X-API-Version"] == API_VERSION
    body = response.get_json()
    assert set(body) <= {"error", "code", "details"}
    assert body["code"] == code and STATUS[code] == status
    assert isinstance(body["error"], str) and body["error"]
    assert isinstance(body.get("details", {}), dict)
    return body


def count_users(query) -> int:
    return query(lambda s: s.scalar(select(func.count()).select_from(User)))


# -- 404 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("method, path", [
    ("GET", "/api/nope"),
    ("GET", "/api"),
    ("GET", "/api/"),
    ("POST", "/api/no/such/thing"),
    ("DELETE", "/api/auth/session/extra"),
    ("GET", "/api/register/"),
])
def test_unknown_api_route_answers_json_404(client, method, path):
    response = client.open(path, method=method, headers={"Accept": "text/html"})

    body = assert_error(response, 404, "NOT_FOUND")
    assert "<html" not in response.get_data(as_text=True).lower()
    assert "details" not in body


def test_unknown_api_route_with_a_json_body_answers_404(client):
    response = client.post("/api/nope", json={"a": 1})
    assert_error(response, 404, "NOT_FOUND")


@pytest.mark.parametrize("path", ["/nope", "/api-docs", "/apifoo", "/no/such/page"])
def test_unknown_page_outside_the_api_answers_an_html_404_page(client, path):
    response = client.get(path)

    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert response.headers["X-API-Version"] == API_VERSION
    page = response.get_data(as_text=True)
    assert page.lstrip().lower().startswith("<!doctype html") and "404" in page
    assert response.get_json(silent=True) is None


# -- 405 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("method, path, allowed", [
    ("GET", "/api/register", {"POST"}),
    ("PUT", "/api/verify-email", {"POST"}),
    ("DELETE", "/api/forgot-password", {"POST"}),
    ("GET", "/api/auth/signin", {"POST"}),
    ("POST", "/api/auth/session", {"GET", "HEAD"}),
    ("PATCH", "/api/openapi.json", {"GET", "HEAD"}),
])
def test_wrong_method_answers_405_with_an_allow_header(client, method, path, allowed):
    response = client.open(path, method=method)

    assert_error(response, 405, "METHOD_NOT_ALLOWED")
    allow = {m.strip() for m in response.headers["Allow"].split(",")}
    assert allowed <= allow and method not in allow


def test_wrong_method_with_a_json_body_writes_nothing(client, query):
    response = client.put("/api/register", json=REGISTER_BODY)

    assert_error(response, 405, "METHOD_NOT_ALLOWED")
    assert count_users(query) == 0


def test_wrong_method_on_a_page_answers_html(client):
    response = client.delete("/login")

    assert response.status_code == 405 and response.mimetype == "text/html"
    assert "GET" in response.headers["Allow"]


# -- 413 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/register", "/api/verify-email", "/api/resend-verification",
                                  "/api/forgot-password", "/api/reset-password", "/api/auth/signin"])
def test_body_over_one_mib_answers_413(client, path, query):
    body = b'{"name": "' + b"x" * MiB + b'"}'

    response = client.post(path, data=body, content_type="application/json")

    assert_error(response, 413, "CONTENT_TOO_LARGE")
    assert count_users(query) == 0


def test_body_of_exactly_one_mib_is_read_and_validated(client, query):
    prefix = b'{"email": "ada@example.com", "password": "' + PASSWORD.encode() + b'", "name": "'
    body = prefix + b"x" * (MiB - len(prefix) - 2) + b'"}'
    assert len(body) == MiB

    response = client.post("/api/register", data=body, content_type="application/json")

    body = assert_error(response, 400, "VALIDATION_ERROR")
    assert body["details"]["field"] == "name"
    assert count_users(query) == 0


def test_form_post_over_one_mib_to_signin_redirects_to_the_login_page(client):
    response = client.post("/api/auth/signin", data={"email": "ada@example.com", "password": "x" * MiB})

    assert response.status_code == 302
    assert response.headers["Location"].startswith("http://localhost:5000/login?error=CONTENT_TOO_LARGE")
    assert response.headers["X-API-Version"] == API_VERSION


# -- 415 -----------------------------------------------------------------------------------------


JSON_ENDPOINTS = ["/api/register", "/api/verify-email", "/api/resend-verification", "/api/forgot-password",
                  "/api/reset-password"]


@pytest.mark.parametrize("path", JSON_ENDPOINTS + ["/api/auth/signin"])
@pytest.mark.parametrize("content_type", ["text/plain", "application/xml", "application/vnd.api+json",
                                          "application/octet-stream"])
def test_non_json_body_answers_415(client, path, content_type):
    response = client.post(path, data='{"email": "ada@example.com"}', content_type=content_type)

    assert_error(response, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_body_without_a_content_type_answers_415(client, query):
    response = client.post("/api/register", data=b'{"email": "ada@example.com"}')

    assert_error(response, 415, "UNSUPPORTED_MEDIA_TYPE")
    assert count_users(query) == 0


@pytest.mark.parametrize("as_multipart", [False, True], ids=["urlencoded", "multipart"])
def test_form_post_to_register_answers_415_and_writes_no_row(client, query, mailbox, as_multipart):
    content_type = "multipart/form-data" if as_multipart else "application/x-www-form-urlencoded"

    response = client.post("/api/register", data=REGISTER_BODY, content_type=content_type)

    assert_error(response, 415, "UNSUPPORTED_MEDIA_TYPE")
    assert count_users(query) == 0
    assert mailbox.messages == []


@pytest.mark.parametrize("path", ["/api/verify-email", "/api/reset-password", "/api/forgot-password"])
def test_form_post_to_a_json_only_endpoint_answers_415(client, path):
    response = client.post(path, data={"token": "abc", "email": "ada@example.com", "password": PASSWORD})

    assert_error(response, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_json_with_a_charset_parameter_is_accepted(client, query):
    response = client.post("/api/register", data=f'{{"email": "ada@example.com", "password": "{PASSWORD}", '
                                                 '"name": "Ada"}', content_type="application/json; charset=utf-8")

    assert response.status_code == 201
    assert count_users(query) == 1


# -- 429 -----------------------------------------------------------------------------------------


def test_eleventh_registration_from_one_address_is_rate_limited(client, query):
    for i in range(10):
        response = client.post("/api/register", json={**REGISTER_BODY, "email": f"user{i}@example.com"})
        assert response.status_code == 201, response.get_json()

    response = client.post("/api/register", json={**REGISTER_BODY, "email": "user10@example.com"},
                           headers={"X-Request-ID": "limit-check-1"})

    assert_error(response, 429, "RATE_LIMITED")
    assert int(response.headers["Retry-After"]) > 0
    assert response.headers["X-Request-ID"] == "limit-check-1"
    assert count_users(query) == 10


def test_rate_limit_is_per_address(client):
    for i in range(10):
        assert client.post("/api/register", json={**REGISTER_BODY, "email": f"user{i}@example.com"}).status_code == 201

    response = client.post("/api/register", json={**REGISTER_BODY, "email": "other@example.com"},
                           environ_base={"REMOTE_ADDR": "192.0.2.77"})

    assert response.status_code == 201


@pytest.mark.parametrize("path", ["/api/auth/signin", "/api/forgot-password", "/api/resend-verification",
                                  "/forgot-password"])
@pytest.mark.parametrize("as_form", [False, True], ids=["json", "form"])
def test_oversized_body_leaves_the_rate_limits_in_their_store(client, path, as_form):
    # A rate-limit key that raised on the unreadable body made Flask-Limiter give up its store
    # for a private in-memory fallback that a reset (and other processes) never see.
    from app.extensions import limiter

    if as_form:
        oversized = client.post(path, data={"email": "ada@example.com", "password": "x" * MiB})
    else:
        oversized = client.post(path, data=b'{"email": "' + b"x" * MiB + b'"}', content_type="application/json")
    assert oversized.status_code in (302, 413)
    for i in range(10):
        assert client.post("/api/register", json={**REGISTER_BODY, "email": f"u{i}@example.com"}).status_code == 201

    limiter.reset()

    assert client.post("/api/register", json={**REGISTER_BODY, "email": "late@example.com"}).status_code == 201


# -- 500 -----------------------------------------------------------------------------------------


@pytest.fixture
def failing_app(test_env):
    """A separate app (the shared one has served requests, so it takes no new routes) with a route
    that fails the way a bug would."""
    application = create_app(config_for("testing", test_env))

    def explode():
        raise RuntimeError("boom SELECT secret FROM users WHERE password = 'hunter2'")

    application.add_url_rule("/api/explode", "explode", explode, methods=["GET", "POST"])
    application.add_url_rule("/explode", "explode_page", explode)
    return application


def test_unexpected_exception_answers_500_with_a_generic_message(failing_app, caplog):
    caplog.set_level(logging.ERROR)

    response = failing_app.test_client().get("/api/explode", headers={"X-Request-ID": "trace-me-500"})

    body = assert_error(response, 500, "INTERNAL_ERROR")
    text = response.get_data(as_text=True)
    for leak in ("boom", "SELECT", "secret", "hunter2", "RuntimeError", "Traceback", 'File "'):
        assert leak not in text
    assert "details" not in body
    assert response.headers["X-Request-ID"] == "trace-me-500"


def test_unexpected_exception_is_logged_with_the_request_id(failing_app, caplog):
    caplog.set_level(logging.ERROR)

    response = failing_app.test_client().post("/api/explode", json={"a": 1})

    assert response.status_code == 500
    request_id = response.headers["X-Request-ID"]
    assert GENERATED_REQUEST_ID.match(request_id)
    records = [r for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info]
    assert len(records) == 1
    record = records[0]
    assert "boom SELECT secret" in str(record.exc_info[1])  # the details go to the log, not the client
    assert record.request_id == request_id
    app_handler = next(h for h in logging.getLogger().handlers
                       if any(isinstance(f, RequestIdFilter) for f in h.filters))
    line = app_handler.format(record).splitlines()[0]  # the traceback follows on the next lines
    assert f"[{request_id}]" in line and "POST /api/explode" in line


def test_unexpected_exception_on_a_page_answers_an_html_500_page(failing_app):
    response = failing_app.test_client().get("/explode")

    assert response.status_code == 500 and response.mimetype == "text/html"
    text = response.get_data(as_text=True)
    assert "boom" not in text and "SELECT" not in text
    assert response.headers["X-API-Version"] == API_VERSION


# -- X-Request-ID and X-API-Version --------------------------------------------------------------


@pytest.mark.parametrize("request_id", ["abc", "0f6a6c1e-8f5b-4a36-9d3c-2b1f1b7a9e10", "req.1:2_3-4",
                                        "A" * 128])
def test_sane_incoming_request_id_is_echoed(client, request_id):
    response = client.get("/api/auth/session", headers={"X-Request-ID": request_id})

    assert response.status_code == 200
    assert response.headers["X-Request-ID"] == request_id


@pytest.mark.parametrize("request_id", ["", "A" * 129, "x" * 500, "has space", "semi;colon", "<script>",
                                        "tab\there", "ünïcode"])
def test_insane_incoming_request_id_is_replaced(client, request_id):
    response = client.get("/api/auth/session", headers={"X-Request-ID": request_id})

    assert response.status_code == 200
    assert GENERATED_REQUEST_ID.match(response.headers["X-Request-ID"])


@pytest.mark.parametrize("request_id", ["abc\n", "abc\r\nSet-Cookie: sid=x", "\nabc", "abc\x00"])
def test_request_id_with_line_breaks_or_control_characters_is_replaced(client, request_id):
    # Sent straight into the WSGI environ: the test client refuses such header values itself.
    response = client.get("/api/auth/session", environ_overrides={"HTTP_X_REQUEST_ID": request_id})

    assert response.status_code == 200
    assert GENERATED_REQUEST_ID.match(response.headers["X-Request-ID"])
    assert "Set-Cookie" not in response.headers


def test_missing_request_id_is_generated_fresh_for_each_request(client):
    first = client.get("/api/auth/session").headers["X-Request-ID"]
    second = client.get("/api/auth/session").headers["X-Request-ID"]

    assert GENERATED_REQUEST_ID.match(first) and GENERATED_REQUEST_ID.match(second)
    assert first != second


def test_request_id_is_echoed_on_errors(client):
    response = client.get("/api/nope", headers={"X-Request-ID": "err-404-check"})

    assert_error(response, 404, "NOT_FOUND")
    assert response.headers["X-Request-ID"] == "err-404-check"


@pytest.mark.parametrize("method, path", [
    ("GET", "/api/auth/session"),
    ("GET", "/api/openapi.json"),
    ("GET", "/"),
    ("GET", "/login"),
    ("GET", "/healthz"),
    ("GET", "/static/style.css"),
    ("GET", "/nope"),
    ("POST", "/api/auth/signout"),
])
def test_every_response_carries_the_api_version(client, method, path):
    response = client.open(path, method=method)

    assert response.status_code < 500
    assert response.headers["X-API-Version"] == API_VERSION
