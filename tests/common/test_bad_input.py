"""Bad input to the JSON endpoints: always a 4xx in the error envelope, never a 500.

decisions §2: a body must be a JSON object; malformed JSON, a wrong type, a
missing or unknown field answer ``400 VALIDATION_ERROR`` with ``details.field``.
A password is never echoed.
"""
import json

import pytest
from marshmallow import Schema, ValidationError
from sqlalchemy import func, select

from tests.support import PASSWORD

from app.common.schemas import StrictBoolean, StrictInteger, StrictString
from app.config import API_VERSION
from app.errors import STATUS
from app.users.models import User

KB = 1024
SECRET = "Hunter2-secret-pw-7731"  # a password that must never show up in a response

VALID_BODIES = {
    "/api/register": {"email": "ada@example.com", "password": PASSWORD, "name": "Ada Lovelace"},
    "/api/verify-email": {"token": "t" * 43},
    "/api/resend-verification": {"email": "ada@example.com"},
    "/api/forgot-password": {"email": "ada@example.com"},
    "/api/reset-password": {"token": "t" * 43, "password": PASSWORD},
    "/api/auth/signin": {"email": "ada@example.com", "password": PASSWORD},
}
ENDPOINTS = list(VALID_BODIES)
# (path, field) for every required string field of every endpoint.
FIELDS = [(path, field) for path, body in VALID_BODIES.items() for field in body]
PASSWORD_FIELDS = [(path, "password") for path, body in VALID_BODIES.items() if "password" in body]


def post_raw(client, path: str, data, content_type: str = "application/json"):
    return client.post(path, data=data, content_type=content_type)


def post_json(client, path: str, body):
    # json.dumps escapes NUL and lone surrogates as \\u0000 and \\ud800, as a client would send them.
    return post_raw(client, path, json.dumps(body))


def assert_client_error(response, status: int | None = None, code: str | None = None) -> dict:
    """A 4xx answered with the error envelope; returns the body."""
    text = response.get_data(as_text=True)
    assert 400 <= response.status_code < 500, text[:500]
    assert response.mimetype == "application/json"
    assert response.headers["X-API-Version"] == API_VERSION
    body = response.get_json()
    assert set(body) <= {"error", "code", "details"} and isinstance(body["error"], str)
    assert STATUS[body["code"]] == response.status_code
    if status is not None:
        assert response.status_code == status, body
    if code is not None:
        assert body["code"] == code, body
    return body


def assert_validation_error(response, field: str) -> dict:
    body = assert_client_error(response, 400, "VALIDATION_ERROR")
    assert body["details"]["field"] == field, body
    return body


def assert_not_echoed(response, secret: str) -> None:
    text = response.get_data(as_text=True)
    assert secret not in text
    assert json.dumps(secret)[1:-1] not in text
    assert secret not in str(response.headers)


def count_users(query) -> int:
    return query(lambda s: s.scalar(select(func.count()).select_from(User)))


# -- the body is not a JSON object ---------------------------------------------------------------


@pytest.mark.parametrize("path", ENDPOINTS)
@pytest.mark.parametrize("raw", [
    b'{"email": ',
    b"{'email': 'ada@example.com'}",
    b'{"email": "ada@example.com",}',
    b'{"email": "ada@example.com"} trailing',
    b'{email: "ada@example.com"}',
    b"\xff\xfe{\x00}",
    b'{"email": "\xc3\x28"}',
    b"<xml/>",
], ids=["truncated", "single-quotes", "trailing-comma", "trailing-text", "bare-key", "utf16-bom", "bad-utf8",
        "xml"])
def test_malformed_json_answers_400_naming_the_body(client, path, raw):
    assert_validation_error(post_raw(client, path, raw), "body")


@pytest.mark.parametrize("path", ENDPOINTS)
@pytest.mark.parametrize("raw", ["[]", '[{"email": "ada@example.com"}]', '"ada@example.com"', "42", "4.2",
                                 "null", "true", "NaN"])
def test_json_that_is_not_an_object_answers_400_naming_the_body(client, path, raw):
    body = assert_validation_error(post_raw(client, path, raw), "body")
    assert "object" in body["error"]


@pytest.mark.parametrize("path", ENDPOINTS)
@pytest.mark.parametrize("content_type", ["application/json", None])
def test_empty_body_answers_400_naming_the_body(client, path, content_type):
    response = client.post(path, data=b"", content_type=content_type)
    assert_validation_error(response, "body")


@pytest.mark.parametrize("raw", [b"   ", b"\n"])
def test_whitespace_body_answers_400_naming_the_body(client, raw):
    assert_validation_error(post_raw(client, "/api/register", raw), "body")


# -- fields --------------------------------------------------------------------------------------


@pytest.mark.parametrize("path, field", FIELDS)
@pytest.mark.parametrize("value", [42, 4.2, True, False, None, [], ["x"], {}, {"value": "x"}],
                         ids=["int", "float", "true", "false", "null", "empty-list", "list", "empty-object",
                              "object"])
def test_wrong_type_answers_400_naming_the_field(client, query, path, field, value):
    response = post_json(client, path, {**VALID_BODIES[path], field: value})

    assert_validation_error(response, field)
    assert count_users(query) == 0


@pytest.mark.parametrize("path", ENDPOINTS)
@pytest.mark.parametrize("unknown", ["isAdmin", "id", "createdAt", "emailVerified", "Email", "email "])
def test_unknown_field_answers_400_naming_it(client, query, path, unknown):
    response = post_json(client, path, {**VALID_BODIES[path], unknown: True})

    assert_validation_error(response, unknown)
    assert count_users(query) == 0


@pytest.mark.parametrize("path, field", FIELDS)
def test_missing_field_answers_400_naming_it(client, query, path, field):
    body = {k: v for k, v in VALID_BODIES[path].items() if k != field}

    assert_validation_error(post_json(client, path, body), field)
    assert count_users(query) == 0


@pytest.mark.parametrize("path", ENDPOINTS)
def test_empty_object_answers_400_naming_a_required_field(client, path):
    body = assert_client_error(post_json(client, path, {}), 400, "VALIDATION_ERROR")

    required = set(VALID_BODIES[path])
    assert body["details"]["field"] in required
    assert set(body["details"].get("errors", {body["details"]["field"]: ""})) == required


def test_several_problems_are_all_listed(client):
    response = post_json(client, "/api/register", {"email": 42, "name": "", "extra": 1})

    body = assert_client_error(response, 400, "VALIDATION_ERROR")
    assert set(body["details"]["errors"]) == {"email", "name", "password", "extra"}
    assert body["details"]["field"] in body["details"]["errors"]


# -- huge and odd strings ------------------------------------------------------------------------


@pytest.fixture
def reset_token(app, make_user):
    """A live password-reset token, so that reset-password gets as far as the new password."""
    from app.users import service as users
    from app.auth import service
    from app.auth.models import OneTimeToken

    user = make_user(email="reset@example.com")
    with app.app_context():
        return service.issue_token(users.find_by_email(user["email"]), OneTimeToken.RESET_PASSWORD)


def body_with(path: str, field: str, value: str, reset_token: str) -> dict:
    body = dict(VALID_BODIES[path])
    if path == "/api/reset-password" and field == "password":
        body["token"] = reset_token
    body[field] = value
    return body


@pytest.mark.parametrize("path, field", FIELDS)
def test_huge_string_is_refused_without_a_server_error(client, query, reset_token, path, field):
    huge = "A1" * (450 * KB)  # 900 KB: under the 1 MiB body limit, so the field itself is judged

    response = post_json(client, path, body_with(path, field, huge, reset_token))

    assert_client_error(response)
    assert response.status_code in (400, 422)
    assert_not_echoed(response, huge[:1000])
    assert count_users(query) == 1  # only the fixture's user


@pytest.mark.parametrize("path, field", [
    ("/api/register", "email"), ("/api/register", "name"), ("/api/resend-verification", "email"),
    ("/api/auth/signin", "email"),
])
def test_huge_email_like_string_is_refused_quickly(client, path, field):
    huge = "a" * (300 * KB) + "@" + "b." * (300 * KB) + "com"

    assert_validation_error(post_json(client, path, {**VALID_BODIES[path], field: huge}), field)


ODD_STRINGS = {
    "nul": "Ada\x00Lovelace1",
    "lone-high-surrogate": "Ada\ud800Lovelace1",
    "lone-low-surrogate": "Ada\udfffLovelace1",
    "emoji": "Ada 🚀👩🏽‍💻 Lovelace1",
    "rtl": "\u202eAda\u202c مرحبا עברית 1",
    "control": "Ada\x07\x1b[31m\x7f\x08Lovelace1",
    "newlines": "Ada\r\nLovelace\n1",
    "bom-and-zero-width": "\ufeffAda\u200b\u200dLovelace1",
    "noncharacter": "Ada\uffffLovelace1",
    "astral": "Ada𝔘𝔫𝔦𝔠𝔬𝔡𝔢Lovelace1",
    "only-spaces": "   ",
    "combining": "Ada" + "\u0301" * 50 + "1",
}


@pytest.mark.parametrize("path, field", FIELDS)
@pytest.mark.parametrize("odd", list(ODD_STRINGS.values()), ids=list(ODD_STRINGS))
def test_odd_string_never_causes_a_server_error(client, reset_token, path, field, odd):
    response = post_json(client, path, body_with(path, field, odd, reset_token))

    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    assert response.headers["X-API-Version"] == API_VERSION
    assert response.mimetype == "application/json"
    if response.status_code >= 400:
        assert_client_error(response)
    if field == "password":
        assert_not_echoed(response, odd)


@pytest.mark.parametrize("field", ["email", "password", "name"])
@pytest.mark.parametrize("bad", ["\x00", "\ud800", "\udc00"], ids=["nul", "high-surrogate", "low-surrogate"])
def test_registration_refuses_nul_and_lone_surrogates_and_writes_nothing(client, query, field, bad):
    body = dict(VALID_BODIES["/api/register"])
    body[field] = body[field][:3] + bad + body[field][3:]

    assert_validation_error(post_json(client, "/api/register", body), field)
    assert count_users(query) == 0


@pytest.mark.parametrize("name", ["Ada 🚀 Lovelace", "مرحبا بالعالم", "Ada\u202eLovelace", "Ζωή"])
def test_registration_keeps_unicode_names_intact(client, query, name):
    response = post_json(client, "/api/register", {**VALID_BODIES["/api/register"], "name": name})

    assert response.status_code == 201, response.get_json()
    assert response.get_json()["data"]["name"] == name
    assert query(lambda s: s.scalar(select(User.name))) == name


@pytest.mark.parametrize("path", ["/api/register", "/api/reset-password", "/api/auth/signin"])
@pytest.mark.parametrize("problem", ["weak", "too-long", "unknown-field", "bad-other", "missing-other",
                                     "nul", "surrogate"])
def test_password_is_never_echoed(client, reset_token, path, problem):
    password = {"weak": "onlylettersnodigits", "too-long": SECRET * 10, "nul": SECRET + "\x00",
                "surrogate": SECRET + "\ud800"}.get(problem, SECRET)
    body = body_with(path, "password", password, reset_token)
    if problem == "unknown-field":
        body["confirm"] = password
    elif problem == "bad-other":
        body.update({"email": "not-an-email"} if "email" in body else {"token": ""})
    elif problem == "missing-other":
        body.pop("email", None) or body.pop("token", None)

    response = post_json(client, path, body)

    assert 400 <= response.status_code < 500
    assert_not_echoed(response, password)
    assert_not_echoed(response, SECRET)


# -- sign-in: empty values and browser forms ----------------------------------------------------


def test_empty_password_on_signin_is_a_wrong_password(client, make_user):
    user = make_user()

    response = post_json(client, "/api/auth/signin", {"email": user["email"], "password": ""})

    assert_client_error(response, 401, "INVALID_CREDENTIALS")


@pytest.mark.parametrize("form, error", [
    ({"email": "ada@example.com", "password": ""}, "INVALID_CREDENTIALS"),
    ({"email": "ada@example.com"}, "VALIDATION_ERROR"),
    ({"email": "", "password": PASSWORD}, "VALIDATION_ERROR"),
    ({"email": "ada@example.com", "password": "wrong", "submit": "Sign in", "callbackUrl": ""},
     "INVALID_CREDENTIALS"),
], ids=["empty-password", "missing-password", "empty-email", "extra-form-fields"])
def test_signin_form_post_with_bad_input_redirects_back_to_the_form(client, make_user, form, error):
    make_user(email="ada@example.com")

    response = client.post("/api/auth/signin", data=form)

    assert response.status_code == 302
    assert response.headers["Location"].startswith(f"http://localhost:5000/login?error={error}")


def test_signin_form_post_ignores_fields_it_does_not_know(client, make_user):
    user = make_user()

    response = client.post("/api/auth/signin", data={"email": user["email"], "password": user["password"],
                                                     "submit": "Sign in", "remember": "on"})

    assert response.status_code == 302 and response.headers["Location"] == "http://localhost:5000/"


# -- the strict field types ----------------------------------------------------------------------


class Probe(Schema):
    number = StrictInteger()
    flag = StrictBoolean()
    text = StrictString()


@pytest.mark.parametrize("value", [2.5, "2", True, False, None, "two", [2], {"n": 2}])
def test_strict_integer_refuses_anything_but_an_integer(value):
    with pytest.raises(ValidationError) as err:
        Probe().load({"number": value})
    assert set(err.value.messages) == {"number"}


@pytest.mark.parametrize("value", [2, 0, -3, 10**20])
def test_strict_integer_accepts_integers(value):
    assert Probe().load({"number": value}) == {"number": value}


@pytest.mark.parametrize("value", ["true", "false", 1, 0, None, "", [], "yes"])
def test_strict_boolean_refuses_anything_but_true_and_false(value):
    with pytest.raises(ValidationError) as err:
        Probe().load({"flag": value})
    assert set(err.value.messages) == {"flag"}


@pytest.mark.parametrize("value", [True, False])
def test_strict_boolean_accepts_true_and_false(value):
    assert Probe().load({"flag": value}) == {"flag": value}


@pytest.mark.parametrize("value", ["a\x00b", "\ud800", "x\udfff", 42, True, None, ["a"]])
def test_strict_string_refuses_non_strings_nul_and_lone_surrogates(value):
    with pytest.raises(ValidationError) as err:
        Probe().load({"text": value})
    assert set(err.value.messages) == {"text"}


@pytest.mark.parametrize("value", ["", "plain", "🚀 emoji", "مرحبا", "tab\tand\nnewline"])
def test_strict_string_accepts_unicode_text(value):
    assert Probe().load({"text": value}) == {"text": value}
