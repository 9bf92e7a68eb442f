import time
from datetime import timedelta

import pytest

from app.auth.models import AuthSession
from app.common.models import utcnow
from app.common.security import hash_token


def cookie_header(response) -> str:
    [header] = [h for h in response.headers.getlist("Set-Cookie") if h.startswith("sid=")]
    return header


def test_json_sign_in_answers_the_session_and_sets_a_server_side_session_cookie(client, make_user, query):
    user = make_user(name="Ada Lovelace")
    response = client.post("/api/auth/signin", json={"email": user["email"].upper(), "password": user["password"]})

    assert response.status_code == 200
    body = response.get_json()
    assert body["user"] == {"id": user["id"], "email": user["email"], "name": "Ada Lovelace", "image": None,
                            "subscriptionType": "FREE"}
    assert body["url"] == "http://localhost:5000/"
    assert "success" not in body  # sign-in uses its own format, not the envelope

    header = cookie_header(response)
    assert "HttpOnly" in header and "SameSite=Lax" in header and "Path=/" in header
    assert "Secure" not in header  # plain http here
    raw = header.split(";")[0].split("=", 1)[1]
    row = query(lambda s: s.query(AuthSession).one())
    assert row.token_hash == hash_token(raw) and raw not in (row.token_hash, row.id)
    lifetime = row.expires_at - row.created_at
    assert timedelta(days=7) - timedelta(seconds=5) < lifetime <= timedelta(days=7)
    assert body["expires"].startswith(row.expires_at.strftime("%Y-%m-%dT%H:%M:%S"))


def test_the_session_endpoint_reads_the_session(client, make_user, login):
    user = make_user()
    assert client.get("/api/auth/session").get_json() == {}
    login(user)
    session = client.get("/api/auth/session").get_json()
    assert set(session) == {"user", "expires"} and session["user"]["id"] == user["id"]


def test_each_sign_in_starts_a_new_session_and_drops_the_old_one(client, make_user, login, query):
    user = make_user()
    first = cookie_header(login(user))
    second = cookie_header(login(user))
    assert first.split(";")[0] != second.split(";")[0]
    assert query(lambda s: s.query(AuthSession).count()) == 1


def test_unknown_email_and_wrong_password_give_the_same_401(client, make_user):
    user = make_user()
    wrong = client.post("/api/auth/signin", json={"email": user["email"], "password": "wrong password 1"})
    unknown = client.post("/api/auth/signin", json={"email": "nobody@example.com", "password": "wrong password 1"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.get_json() == unknown.get_json() == {"error": "The email or password is incorrect.",
                                                      "code": "INVALID_CREDENTIALS"}
    assert "Set-Cookie" not in wrong.headers


def test_unknown_email_and_wrong_password_take_about_the_same_time(app, client, make_user):
    """Both paths run one bcrypt check of the same cost (the unknown email against a dummy hash)."""
    from app.extensions import limiter

    app.config["BCRYPT_ROUNDS"], rounds = 10, app.config["BCRYPT_ROUNDS"]
    try:
        user = make_user(password="timing check 1")

        def timed(email):
            limiter.reset()
            start = time.perf_counter()
            client.post("/api/auth/signin", json={"email": email, "password": "wrong password 1"})
            return time.perf_counter() - start

        # Interleaved, and the fastest of each: a burst of load on the machine (CI runs two passes at
        # once) slows whichever run it lands on, never makes one faster than its work allows.
        wrong, unknown = [], []
        for _ in range(7):
            wrong.append(timed(user["email"]))
            unknown.append(timed("nobody@example.com"))
    finally:
        app.config["BCRYPT_ROUNDS"] = rounds
    assert 0.5 < min(unknown) / min(wrong) < 2.0, (wrong, unknown)


def test_an_unverified_email_is_refused_with_403_after_a_correct_password(client, make_user):
    user = make_user(verified=False)
    response = client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    assert response.status_code == 403 and response.get_json()["code"] == "EMAIL_NOT_VERIFIED"
    wrong = client.post("/api/auth/signin", json={"email": user["email"], "password": "wrong password 1"})
    assert wrong.get_json()["code"] == "INVALID_CREDENTIALS"


@pytest.mark.parametrize("callback,expected", [
    ("/resumes?tab=mine", "http://localhost:5000/resumes?tab=mine"),
    ("http://localhost:5000/account", "http://localhost:5000/account"),
    ("https://evil.example/phish", "http://localhost:5000/"),
    ("//evil.example/phish", "http://localhost:5000/"),
    ("/\\evil.example", "http://localhost:5000/"),
    ("http://localhost:5000.evil.example/", "http://localhost:5000/"),
    ("javascript:alert(1)", "http://localhost:5000/"),
    ("http://localhost:5001/", "http://localhost:5000/"),
])
def test_only_same_origin_callbacks_are_followed(client, make_user, callback, expected):
    user = make_user()
    body = {"email": user["email"], "password": user["password"], "callbackUrl": callback}
    assert client.post("/api/auth/signin", json=body).get_json()["url"] == expected
    form = client.post("/api/auth/signin", data=body)
    assert form.status_code == 302 and form.headers["Location"] == expected


def test_a_form_sign_in_redirects_and_sets_the_cookie(client, make_user):
    user = make_user()
    response = client.post("/api/auth/signin", data={"email": user["email"], "password": user["password"],
                                                     "callbackUrl": "/welcome"})
    assert response.status_code == 302 and response.headers["Location"] == "http://localhost:5000/welcome"
    assert "HttpOnly" in cookie_header(response)
    assert client.get("/api/auth/session").get_json()["user"]["email"] == user["email"]


def test_a_failed_form_sign_in_redirects_to_the_login_page_with_the_code(client, make_user):
    user = make_user()
    response = client.post("/api/auth/signin", data={"email": user["email"], "password": "wrong password 1",
                                                     "callbackUrl": "/x"})
    assert response.status_code == 302
    assert response.headers["Location"] == "http://localhost:5000/login?error=INVALID_CREDENTIALS&callbackUrl=%2Fx"
    missing = client.post("/api/auth/signin", data={"email": user["email"]})
    assert missing.headers["Location"] == "http://localhost:5000/login?error=VALIDATION_ERROR"


def test_five_failures_for_one_email_lock_it_for_a_while(client, make_user):
    user = make_user()
    for _ in range(5):
        assert client.post("/api/auth/signin", json={"email": user["email"], "password": "nope nope 1"}
                           ).status_code == 401
    blocked = client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    assert blocked.status_code == 429 and blocked.get_json()["code"] == "RATE_LIMITED"
    assert int(blocked.headers["Retry-After"]) > 0
    other = make_user()
    assert client.post("/api/auth/signin", json={"email": other["email"], "password": other["password"]}
                       ).status_code == 200


def test_successful_sign_ins_do_not_count_toward_the_limit(client, make_user):
    user = make_user()
    for _ in range(8):
        assert client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]}
                           ).status_code == 200


def test_twenty_failures_from_one_address_block_it(client, make_user):
    users = [make_user() for _ in range(5)]
    for i in range(20):
        user = users[i % 5]
        assert client.post("/api/auth/signin", json={"email": user["email"], "password": f"wrong {i} x"}
                           ).status_code == 401
    fresh = make_user()
    blocked = client.post("/api/auth/signin", json={"email": fresh["email"], "password": fresh["password"]})
    assert blocked.status_code == 429
    other_address = client.post("/api/auth/signin", json={"email": fresh["email"], "password": fresh["password"]},
                                environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other_address.status_code == 200


def test_a_rate_limited_form_sign_in_redirects_with_the_code(client, make_user):
    user = make_user()
    for _ in range(5):
        client.post("/api/auth/signin", data={"email": user["email"], "password": "nope nope 1"})
    response = client.post("/api/auth/signin", data={"email": user["email"], "password": user["password"]})
    assert response.status_code == 302
    assert response.headers["Location"] == "http://localhost:5000/login?error=RATE_LIMITED"


def test_sign_out_deletes_the_session_clears_the_cookie_and_redirects(client, make_user, login, query):
    user = make_user()
    login(user)
    response = client.post("/api/auth/signout")
    assert response.status_code == 302 and response.headers["Location"] == "http://localhost:5000/login"
    assert "sid=;" in cookie_header(response) and "Expires=Thu, 01 Jan 1970" in cookie_header(response)
    assert query(lambda s: s.query(AuthSession).count()) == 0
    assert client.get("/api/auth/session").get_json() == {}


def test_a_stolen_cookie_stops_working_after_sign_out(app, client, make_user, login):
    user = make_user()
    raw = cookie_header(login(user)).split(";")[0].split("=", 1)[1]
    client.post("/api/auth/signout")
    thief = app.test_client()
    thief.set_cookie("sid", raw)
    assert thief.get("/api/auth/session").get_json() == {}


def test_an_expired_session_is_not_accepted(client, make_user, login, query):
    user = make_user()
    login(user)

    def expire(session):
        session.query(AuthSession).update({"expires_at": utcnow() - timedelta(seconds=1)})
        session.commit()

    query(expire)
    assert client.get("/api/auth/session").get_json() == {}


def test_rotating_the_users_auth_id_ends_every_session_in_one_update(app, client, make_user, login, query):
    from app.users.models import User, new_auth_id

    user = make_user()
    login(user)
    other = app.test_client()
    other.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})

    def rotate(session):
        session.query(User).filter_by(id=user["id"]).update({"auth_id": new_auth_id()})
        session.commit()

    query(rotate)
    assert client.get("/api/auth/session").get_json() == {}
    assert other.get("/api/auth/session").get_json() == {}


def test_garbage_session_cookies_are_ignored(client):
    for value in ("x", "a" * 3000, "%00%ff", "🙂"):
        client.set_cookie("sid", value)
        response = client.get("/api/auth/session")
        assert response.status_code == 200 and response.get_json() == {}


def test_the_cookie_is_secure_under_https(app, make_user):
    user = make_user()
    https = app.test_client()
    response = https.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]},
                          base_url="https://localhost")
    assert "Secure" in cookie_header(response)


def test_signed_in_api_requests_are_limited_to_600_a_minute_per_user(app, client, make_user, login):
    user = make_user()
    login(user)
    for _ in range(599):  # the sign-in itself has its own limits and does not count
        assert client.get("/api/auth/session").status_code == 200
    assert client.get("/api/auth/session").status_code == 200
    limited = client.get("/api/auth/session")
    assert limited.status_code == 429 and limited.get_json()["code"] == "RATE_LIMITED"
    assert "Retry-After" in limited.headers
    # another user, and anonymous requests, are not affected
    other = app.test_client()
    other_user = make_user()
    other.post("/api/auth/signin", json={"email": other_user["email"], "password": other_user["password"]})
    assert other.get("/api/auth/session").status_code == 200
    assert app.test_client().get("/api/auth/session").status_code == 200


def test_another_site_cannot_sign_a_visitor_in_with_a_form(client, make_user, query):
    """Login CSRF: a form on evil.example posting a (known) password must not start a session."""
    user = make_user()
    response = client.post("/api/auth/signin", data={"email": user["email"], "password": user["password"]},
                           headers={"Origin": "https://evil.example"})
    assert response.status_code == 302
    assert response.headers["Location"] == "http://localhost:5000/login?error=FORBIDDEN"
    assert not [h for h in response.headers.getlist("Set-Cookie") if h.startswith("sid=")]
    assert query(lambda s: s.query(AuthSession).count()) == 0
    same_site = client.post("/api/auth/signin", data={"email": user["email"], "password": user["password"]},
                            headers={"Origin": "http://localhost:5000"})  # BASE_URL
    assert same_site.status_code == 302 and same_site.headers["Location"] == "http://localhost:5000/"
