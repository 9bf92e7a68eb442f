"""Sign-in (JSON, form, token endpoint) for users with two-factor on: TOTP codes, backup codes, limits."""
import pytest
from sqlalchemy import select

from tests.auth.support import enable_two_factor, password_grant, totp

from app.auth.models import BackupCode
from app.config import config_for
from app.users.models import User


@pytest.fixture
def two_factor_user(signed_in, clock):
    """A user with two-factor on: ``(user, setup)`` where setup has secret, backupCodes, otpauthUri.

    The clock is moved to the middle of a 30-second step, so that no step ends while a test runs.
    """
    clock.advance(seconds=15 - clock.now().timestamp() % 30)
    user, client = signed_in()
    return user, enable_two_factor(client, user)


def signin(client, user, **extra):
    return client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"], **extra})


def form_signin(client, user, **extra):
    return client.post("/api/auth/signin", data={"email": user["email"], "password": user["password"], **extra})


def code_of(response) -> str:
    return response.get_json()["code"]


def test_without_a_code_the_right_password_gets_401_two_factor_required(client, two_factor_user):
    user, _ = two_factor_user
    for response in (signin(client, user), signin(client, user, code=""), password_grant(client, user)):
        assert response.status_code == 401 and code_of(response) == "TWO_FACTOR_REQUIRED"
        assert "Set-Cookie" not in response.headers
    form = form_signin(client, user, code="")
    assert form.status_code == 302
    assert form.headers["Location"] == "http://localhost:5000/login?error=TWO_FACTOR_REQUIRED"


def test_a_wrong_password_is_still_invalid_credentials_whatever_the_code(app, client, two_factor_user):
    user, setup = two_factor_user
    response = signin(client, {**user, "password": "wrong password 1"}, code=totp(app, setup["secret"]))
    assert response.status_code == 401 and code_of(response) == "INVALID_CREDENTIALS"


def test_a_wrong_code_gets_401_invalid_two_factor_code(app, client, two_factor_user):
    user, setup = two_factor_user
    wrong = f"{(int(totp(app, setup['secret'])) + 1) % 1_000_000:06d}"
    for code in (wrong, "abcde-fghjk", "x" * 64):  # with the two below: five, the limit
        response = signin(client, user, code=code)
        assert response.status_code == 401 and code_of(response) == "INVALID_TWO_FACTOR_CODE"
    token = password_grant(client, user, code=wrong)
    assert token.status_code == 401 and code_of(token) == "INVALID_TWO_FACTOR_CODE"
    form = form_signin(client, user, code=wrong, callbackUrl="/x")
    assert form.headers["Location"] == "http://localhost:5000/login?error=INVALID_TWO_FACTOR_CODE&callbackUrl=%2Fx"


def test_a_current_totp_code_signs_in(app, clock, client, two_factor_user):
    user, setup = two_factor_user
    response = signin(client, user, code=totp(app, setup["secret"]))
    assert response.status_code == 200 and response.get_json()["user"]["id"] == user["id"]
    assert client.get("/api/auth/session").get_json()["user"]["id"] == user["id"]


def test_a_totp_code_works_on_the_form_and_the_token_endpoint(app, clock, client, two_factor_user):
    user, setup = two_factor_user
    form = form_signin(client, user, code=totp(app, setup["secret"]), callbackUrl="/resumes")
    assert form.status_code == 302 and form.headers["Location"] == "http://localhost:5000/resumes"
    clock.advance(seconds=30)
    token = password_grant(client, user, code=totp(app, setup["secret"]))
    assert token.status_code == 200 and token.get_json()["token_type"] == "Bearer"


def test_a_totp_code_is_not_accepted_twice(app, client, two_factor_user):
    user, setup = two_factor_user
    code = totp(app, setup["secret"])
    assert signin(client, user, code=code).status_code == 200
    replay = signin(app.test_client(), user, code=code)
    assert replay.status_code == 401 and code_of(replay) == "INVALID_TWO_FACTOR_CODE"
    assert code_of(password_grant(client, user, code=code)) == "INVALID_TWO_FACTOR_CODE"


def test_once_a_step_is_used_earlier_steps_are_refused_and_later_ones_work(app, clock, client, two_factor_user,
                                                                           query):
    user, setup = two_factor_user
    assert signin(client, user, code=totp(app, setup["secret"], steps=1)).status_code == 200  # a fast phone
    assert code_of(signin(client, user, code=totp(app, setup["secret"]))) == "INVALID_TWO_FACTOR_CODE"
    assert code_of(signin(client, user, code=totp(app, setup["secret"], steps=-1))) == "INVALID_TWO_FACTOR_CODE"
    clock.advance(seconds=60)
    assert signin(client, user, code=totp(app, setup["secret"])).status_code == 200
    step = int(app.extensions["clock"].now().timestamp()) // 30
    assert query(lambda s: s.get(User, user["id"]).totp_last_step) == step


def test_codes_one_step_away_are_accepted_but_not_two(app, clock, client, two_factor_user):
    user, setup = two_factor_user
    assert code_of(signin(client, user, code=totp(app, setup["secret"], steps=-2))) == "INVALID_TWO_FACTOR_CODE"
    assert code_of(signin(client, user, code=totp(app, setup["secret"], steps=2))) == "INVALID_TWO_FACTOR_CODE"
    assert signin(client, user, code=totp(app, setup["secret"], steps=-1)).status_code == 200


def test_a_code_typed_with_spaces_is_accepted(app, client, two_factor_user):
    user, setup = two_factor_user
    code = totp(app, setup["secret"])
    assert signin(client, user, code=f" {code[:3]} {code[3:]} ").status_code == 200


def test_a_backup_code_works_once(app, client, two_factor_user, query):
    user, setup = two_factor_user
    first, second, third = setup["backupCodes"][:3]

    assert signin(client, user, code=first).status_code == 200
    again = signin(client, user, code=first)
    assert again.status_code == 401 and code_of(again) == "INVALID_TWO_FACTOR_CODE"
    assert signin(client, user, code=second.upper().replace("-", "")).status_code == 200  # as typed
    assert password_grant(client, user, code=third).status_code == 200
    assert code_of(password_grant(client, user, code=third)) == "INVALID_TWO_FACTOR_CODE"
    rows = query(lambda s: s.scalars(select(BackupCode).where(BackupCode.user_id == user["id"])).all())
    assert sum(row.used_at is not None for row in rows) == 3 and len(rows) == 10


def test_another_users_backup_code_does_not_work(client, signed_in):
    one, one_client = signed_in()
    other, other_client = signed_in()
    enable_two_factor(one_client, one)
    codes = enable_two_factor(other_client, other)["backupCodes"]
    assert code_of(signin(client, one, code=codes[0])) == "INVALID_TWO_FACTOR_CODE"


def test_five_wrong_codes_lock_the_account_even_with_the_right_code(app, client, two_factor_user, make_user):
    user, setup = two_factor_user
    for i in range(3):
        assert code_of(signin(client, user, code=f"00000{i}")) == "INVALID_TWO_FACTOR_CODE"
    for i in range(2):  # the token endpoint shares the limit
        assert code_of(password_grant(client, user, code=f"11111{i}")) == "INVALID_TWO_FACTOR_CODE"

    blocked = signin(client, user, code=totp(app, setup["secret"]))

    assert blocked.status_code == 429 and code_of(blocked) == "RATE_LIMITED"
    assert int(blocked.headers["Retry-After"]) > 0
    assert password_grant(client, user, code=totp(app, setup["secret"])).status_code == 429
    other = make_user()
    assert signin(client, other).status_code == 200


def test_asking_for_the_code_does_not_count_as_a_failure(app, client, two_factor_user):
    user, setup = two_factor_user
    for _ in range(8):
        assert code_of(signin(client, user)) == "TWO_FACTOR_REQUIRED"
    assert signin(client, user, code=totp(app, setup["secret"])).status_code == 200


def test_wrong_codes_do_not_use_up_the_password_failure_limit(client, two_factor_user):
    user, _ = two_factor_user
    for i in range(4):
        signin(client, user, code=f"00000{i}")
    for _ in range(4):  # four wrong passwords still get their own answer
        assert code_of(signin(client, {**user, "password": "wrong password 1"})) == "INVALID_CREDENTIALS"


def test_the_two_factor_limit_is_configurable():
    assert config_for("testing", {})["RATELIMIT_TWO_FACTOR"] == "5 per 15 minutes"
    assert config_for("testing", {"RATELIMIT_TWO_FACTOR": "2 per hour"})["RATELIMIT_TWO_FACTOR"] == "2 per hour"


def test_the_login_page_has_a_code_field_and_explains_the_two_factor_errors(client):
    page = client.get("/login?error=TWO_FACTOR_REQUIRED").get_data(as_text=True)
    assert 'name="code"' in page and 'autocomplete="one-time-code"' in page
    assert "Enter the code from your authenticator app." in page
    assert "That code is not valid" in client.get("/login?error=INVALID_TWO_FACTOR_CODE").get_data(as_text=True)


def test_a_code_is_ignored_when_two_factor_is_off(client, make_user):
    user = make_user()
    assert signin(client, user, code="123456").status_code == 200
