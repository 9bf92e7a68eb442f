"""Re-authenticating a signed-in browser session (sudo mode, ``app.auth.sudo``): its owner proves who they
are again, and the session may make security changes for ``SUDO_LIFETIME``.

One proof is enough: the password, a two-factor code (TOTP or backup, spent as at sign-in), an assertion
of one of the account's passkeys, or, for an account without a password, a short code mailed to it.
The mailed code is ``CODE_DIGITS`` digits, single use, valid ``REAUTHENTICATION_CODE_LIFETIME``; only
the newest one works (asking again spends the older ones). It is stored in ``one_time_tokens`` as the
SHA-256 of the row's id with the code, never the code. Wrong answers are rate limited per user by the view.
"""
from __future__ import annotations

import hmac
import re
import secrets
from datetime import datetime

from flask import current_app
from sqlalchemy import update

from app.auth import passkeys, two_factor
from app.auth.models import AuthSession, OneTimeToken
from app.auth.passwords import check_password
from app.auth.sudo import BrowserSession
from app.common.models import new_id, utcnow
from app.common.security import hash_token
from app.errors import ApiError
from app.events.mail import queue_mail
from app.extensions import db
from app.users.models import User

CODE_DIGITS = 8
CODE_MAIL_JOB = "app.auth.jobs.send_reauthentication_code"
_SEPARATORS = re.compile(r"[\s-]+")


def reauthenticate(user: User, session: BrowserSession, *, password: str | None = None, code: str | None = None,
                   email_code: str | None = None, credential: dict | None = None) -> datetime:
    """Check one proof (the first given of ``password``, ``code``, ``email_code``, ``credential``) and mark
    ``session`` authenticated now. Commits (with the spent code or passkey counter). Returns until when
    the session may make security changes.

    Raises VALIDATION_ERROR for a way the account does not have (no password, two-factor off), then
    INVALID_PASSWORD (details.field password), INVALID_TWO_FACTOR_CODE (details.field code),
    TOKEN_INVALID or TOKEN_EXPIRED (details.field emailCode), PASSKEY_REJECTED (details.field credential).
    """
    if password is not None:
        if user.password_hash is None:
            raise ApiError("VALIDATION_ERROR", "Your account has no password: use a passkey or a code mailed to "
                           "you.", {"field": "password"})
        if not check_password(password, user.password_hash):
            raise ApiError("INVALID_PASSWORD", "The password is incorrect.", {"field": "password"})
    elif code is not None:
        if not user.two_factor_enabled:
            raise ApiError("VALIDATION_ERROR", "Two-factor sign-in is off: use your password.", {"field": "code"})
        two_factor.check(user, code)
    elif email_code is not None:
        _spend_code(user, email_code)
    else:
        passkeys.authenticate(credential, user)
    now = utcnow()
    db.session.execute(update(AuthSession).where(AuthSession.id == session.id, AuthSession.user_id == user.id)
                       .values(authenticated_at=now).execution_options(synchronize_session=False))
    db.session.commit()
    return now + current_app.config["SUDO_LIFETIME"]


def request_code(user: User) -> None:
    """Mail a re-authentication code to ``user`` (after the commit, through the outbox). Commits. Raises
    VALIDATION_ERROR for an account with a password (it re-authenticates with it: a mailbox is no stronger
    proof, and one more way in is one more to steal)."""
    if user.password_hash is not None:
        raise ApiError("VALIDATION_ERROR", "Your account has a password: confirm it is you with it.",
                       {"field": "body"})
    queue_mail(CODE_MAIL_JOB, user.id)
    db.session.commit()


def issue_code(user: User) -> str:
    """A new re-authentication code for ``user`` (the mail job's): older unused ones are spent, the new one
    is stored hashed. Commits. Returns the code."""
    now = utcnow()
    db.session.execute(update(OneTimeToken).where(OneTimeToken.user_id == user.id,
                                                  OneTimeToken.purpose == OneTimeToken.REAUTHENTICATE,
                                                  OneTimeToken.used_at.is_(None))
                       .values(used_at=now).execution_options(synchronize_session=False))
    code = "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))
    row_id = new_id()
    db.session.add(OneTimeToken(id=row_id, user_id=user.id, purpose=OneTimeToken.REAUTHENTICATE,
                                token_hash=_code_hash(row_id, code), created_at=now,
                                expires_at=now + current_app.config["REAUTHENTICATION_CODE_LIFETIME"]))
    db.session.commit()
    return code


def _code_hash(row_id: str, code: str) -> str:
    return hash_token(f"{row_id}:{code}")


def _spend_code(user: User, typed: str) -> None:
    """Spend the user's newest re-authentication code if ``typed`` is it (spaces and dashes ignored). No
    commit. Raises TOKEN_INVALID (wrong, used, none asked for), TOKEN_EXPIRED."""
    invalid = ApiError("TOKEN_INVALID", "That code is not valid: use the newest code we mailed you, once.",
                       {"field": "emailCode"})
    token = db.session.scalar(db.select(OneTimeToken).where(
        OneTimeToken.user_id == user.id, OneTimeToken.purpose == OneTimeToken.REAUTHENTICATE,
        OneTimeToken.used_at.is_(None)).order_by(OneTimeToken.created_at.desc(), OneTimeToken.id).limit(1))
    normalised = _SEPARATORS.sub("", typed)
    if token is None or not hmac.compare_digest(_code_hash(token.id, normalised), token.token_hash):
        raise invalid
    if token.expires_at <= utcnow():
        raise ApiError("TOKEN_EXPIRED", "That code has expired: ask for a new one.", {"field": "emailCode"})
    spent = db.session.execute(update(OneTimeToken).where(OneTimeToken.id == token.id, OneTimeToken.used_at.is_(None))
                               .values(used_at=utcnow()).execution_options(synchronize_session=False)).rowcount
    if spent != 1:  # another request spent it first
        raise invalid
