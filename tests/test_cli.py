"""Operator commands: ``flask create-user``, ``flask prune``, ``flask worker``."""
from datetime import timedelta

from sqlalchemy import select, update

from tests.support import PASSWORD

from app.auth import service
from app.auth.models import AuthSession, OneTimeToken
from app.common.models import utcnow
from app.common.security import hash_token
from app.extensions import db
from app.users.models import User


def run(app, *args, **kwargs):
    return app.test_cli_runner().invoke(args=list(args), **kwargs)


def create_user(app, email="ops@example.com", password=PASSWORD, name="Grace Hopper"):
    return run(app, "create-user", email, "--name", name, "--password", password)


def test_create_user_makes_a_verified_user_who_can_sign_in(app, client, query, mailbox):
    result = create_user(app, email="  Grace@Example.com ")

    assert result.exit_code == 0, result.output
    assert "grace@example.com" in result.output
    user = query(lambda s: s.scalar(select(User).where(User.email == "grace@example.com")))
    assert user.email_verified and user.name == "Grace Hopper"
    assert user.subscription.type == "FREE"

    response = client.post("/api/auth/signin", json={"email": "grace@example.com", "password": PASSWORD})
    assert response.status_code == 200
    assert response.get_json()["user"]["email"] == "grace@example.com"
    assert mailbox.to("grace@example.com") == []


def test_create_user_prompts_twice_for_a_password_left_out(app, client):
    result = run(app, "create-user", "ops@example.com", "--name", "Ops", input=f"{PASSWORD}\n{PASSWORD}\n")

    assert result.exit_code == 0, result.output
    assert client.post("/api/auth/signin", json={"email": "ops@example.com", "password": PASSWORD}).status_code == 200


def test_create_user_refuses_an_email_already_taken(app, make_user):
    make_user(email="ops@example.com")

    result = create_user(app, email="OPS@example.com")

    assert result.exit_code != 0
    assert "An account with this email already exists." in result.output


def test_create_user_refuses_a_weak_password_and_says_why(app, query):
    result = create_user(app, password="password")

    assert result.exit_code != 0
    assert "The password is too weak." in result.output
    assert query(lambda s: s.scalar(select(User).where(User.email == "ops@example.com"))) is None


def test_create_user_refuses_an_invalid_email(app):
    result = create_user(app, email="not-an-email")

    assert result.exit_code != 0
    assert result.output == "Error: email: Not a valid email address.\n"


def test_prune_deletes_expired_sessions_and_expired_or_spent_tokens_and_keeps_live_ones(app, make_user, query):
    user = make_user()
    ids = {}
    with app.app_context():
        owner = db.session.get(User, user["id"])
        for name in ("expired_session", "live_session"):
            ids[name] = service.start_session(owner, replaces=None, ip_address=None, user_agent=None)[0].id
        for name, purpose in [("expired_token", OneTimeToken.VERIFY_EMAIL),
                              ("spent_token", OneTimeToken.RESET_PASSWORD),
                              ("live_token", OneTimeToken.RESET_PASSWORD)]:
            raw = service.issue_token(owner, purpose)
            ids[name] = db.session.scalar(select(OneTimeToken.id).where(OneTimeToken.token_hash == hash_token(raw)))

    past = utcnow() - timedelta(minutes=1)

    def age(s):
        s.execute(update(AuthSession).where(AuthSession.id == ids["expired_session"]).values(expires_at=past))
        s.execute(update(OneTimeToken).where(OneTimeToken.id == ids["expired_token"]).values(expires_at=past))
        s.execute(update(OneTimeToken).where(OneTimeToken.id == ids["spent_token"]).values(used_at=past))
        s.commit()

    query(age)

    result = run(app, "prune")

    assert result.exit_code == 0, result.output
    assert "deleted 1 sessions, 2 tokens and 0 refresh tokens" in result.output
    assert set(query(lambda s: s.scalars(select(AuthSession.id)).all())) == {ids["live_session"]}
    assert set(query(lambda s: s.scalars(select(OneTimeToken.id)).all())) == {ids["live_token"]}


def test_a_live_session_stays_signed_in_after_prune(app, client, make_user, login):
    login(make_user())

    assert run(app, "prune").exit_code == 0
    assert client.get("/api/auth/session").get_json()["user"]


def test_worker_refuses_with_a_clear_message_when_jobs_run_in_the_web_process(make_app):
    embedded = make_app(REDIS_URL=None)

    result = run(embedded, "worker", "--burst")

    assert result.exit_code != 0
    assert "REDIS_URL is not set" in result.output
