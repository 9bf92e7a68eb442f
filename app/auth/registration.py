"""Registration: a new account (a user with its FREE subscription), by password or by the operator.

``new_user`` is every new account's one way in: registration here, an OAuth sign-in
(``service.sign_in_with_provider``), the operator's ``flask create-user``, and the tests' and benches'
factories.
"""
from __future__ import annotations

from flask import has_request_context
from sqlalchemy.exc import IntegrityError

from app import i18n
from app.auth.passwords import MAX_BYTES, MIN_LENGTH, hash_password, password_problem
from app.billing import service as billing
from app.common.models import utcnow
from app.errors import ApiError
from app.events.mail import queue_mail
from app.extensions import db
from app.users import service as users
from app.users.models import User


def new_user(*, email: str, name: str, password_hash: str | None, verified: bool = False) -> User:
    """A user with its FREE subscription and a ``user.registered`` event, added to the session (the
    caller commits). Made during a request, it starts in that request's language (``Accept-Language``:
    the language of the page that signed up), so its first mail is in it too."""
    now = utcnow()
    language = i18n.language() if has_request_context() else None
    user = users.add_user(email=email, name=name, password_hash=password_hash, verified=verified, now=now,
                          preferences={"language": language} if language else None)
    billing.open_free_subscription(user, now)
    return user


def check_password_rule(password: str, field: str = "password") -> None:
    """Raises 422 WEAK_PASSWORD naming ``field`` when the password breaks the rule."""
    problem = password_problem(password)
    if problem:
        raise ApiError("WEAK_PASSWORD", problem, {"field": field}, values={"length": MIN_LENGTH, "bytes": MAX_BYTES})


def register(*, email: str, password: str, name: str) -> User:
    """Create an unverified user with a FREE subscription and mail a verification link.

    Commits the user; enqueues the verification mail after the commit.
    Raises WEAK_PASSWORD, EMAIL_ALREADY_EXISTS.
    """
    check_password_rule(password)
    email_taken = ApiError("EMAIL_ALREADY_EXISTS", "An account with this email already exists.",
                           {"field": "email"})
    if users.find_by_email(email):
        raise email_taken
    user = new_user(email=email, name=name, password_hash=hash_password(password))
    try:
        db.session.flush()
    except IntegrityError:  # a concurrent registration won the race
        db.session.rollback()
        raise email_taken from None
    queue_mail("app.auth.jobs.send_verification_email", user.id)
    db.session.commit()
    return user


def create_verified_user(*, email: str, password: str, name: str) -> User:
    """Operator path (CLI): a verified user, no mail. Raises as ``register``."""
    check_password_rule(password)
    if users.find_by_email(email):
        raise ApiError("EMAIL_ALREADY_EXISTS", "An account with this email already exists.", {"field": "email"})
    user = new_user(email=email, name=name, password_hash=hash_password(password), verified=True)
    db.session.commit()
    return user
