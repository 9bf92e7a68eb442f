"""Two-factor sign-in: TOTP (RFC 6238, 30-second steps, 6 digits) and single-use backup codes.

Time comes from the app's clock. A TOTP code is accepted for the current step
and one step either side (clock drift), and never for a step at or before the
last one accepted (``users.totp_last_step``), so a code seen over someone's
shoulder cannot be used again. Backup codes are stored as SHA-256 only.

A set-up may wait for its first code (``start_setup``): its secret is kept apart
(``users.totp_pending_secret``, until ``totp_pending_until``) and two-factor stays off
until ``confirm_setup`` accepts a code of it; an expired one is as good as none. A set-up
belongs to the session that started it (``users.totp_pending_session_id``): only that
session is shown its key and may confirm it.

A code refused because it was right but already spent (the step the set-up's confirmation
used, a backup code used before) says so (``details.reason = "used"``): the person waits for
the next code instead of doubting the app.

Nothing here commits: the caller's use case does.
"""
from __future__ import annotations

import hmac
import re
import secrets

import pyotp
from flask import current_app
from sqlalchemy import delete, or_, update

from app.auth.models import BackupCode
from app.common.models import utcnow
from app.common.security import hash_token
from app.errors import ApiError
from app.extensions import db
from app.users.models import User

BACKUP_CODE_COUNT = 10
# Lower-case letters and digits without the look-alikes (0/o, 1/l/i): 10 characters carry 50 bits.
_BACKUP_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
_BACKUP_LENGTH = 10
_TOTP_DIGITS = re.compile(r"\d{6}")
_SEPARATORS = re.compile(r"[\s-]+")


def _totp(secret: str) -> pyotp.TOTP:
    return pyotp.TOTP(secret)


def provisioning_uri(user: User, secret: str) -> str:
    """The otpauth URI of ``secret`` for an authenticator app (issuer and the account's email)."""
    return _totp(secret).provisioning_uri(name=user.email, issuer_name=current_app.config["TOTP_ISSUER"])


def enable(user: User, session_id: str | None = None) -> tuple[str, list[str]]:
    """Turn two-factor on at once with a new secret and ten new backup codes (the old ones are deleted;
    a set-up waiting for its first code is dropped). Until a first code is accepted, only the session
    ``session_id`` is shown the secret again and may confirm it.

    Returns the otpauth URI for an authenticator app and the readable backup codes.
    """
    user.totp_secret = pyotp.random_base32()  # 160 bits, as RFC 4226 recommends
    user.totp_last_step = None
    user.two_factor_enabled = True
    drop_setup(user)
    user.totp_pending_session_id = session_id
    return provisioning_uri(user, user.totp_secret), new_backup_codes(user)


def disable(user: User) -> None:
    """Turn two-factor off: the secret, every backup code and a waiting set-up are gone."""
    user.two_factor_enabled = False
    user.totp_secret = None
    user.totp_last_step = None
    drop_setup(user)
    db.session.execute(delete(BackupCode).where(BackupCode.user_id == user.id))


def start_setup(user: User, session_id: str) -> str:
    """Keep a new secret waiting for its first code (replacing a waiting one, whichever session started
    it), bound to the session ``session_id``; two-factor is not turned on. Returns the secret."""
    user.totp_pending_secret = pyotp.random_base32()
    user.totp_pending_until = utcnow() + current_app.config["TWO_FACTOR_SETUP_LIFETIME"]
    user.totp_pending_session_id = session_id
    return user.totp_pending_secret


def pending_secret(user: User) -> str | None:
    """The secret of the set-up waiting for its first code, unless it has expired."""
    if user.totp_pending_secret and user.totp_pending_until and user.totp_pending_until > utcnow():
        return user.totp_pending_secret
    return None


def drop_setup(user: User) -> None:
    user.totp_pending_secret = None
    user.totp_pending_until = None
    user.totp_pending_session_id = None


def confirm_setup(user: User, code: str, session_id: str) -> list[str]:
    """Turn two-factor on with the waiting secret (``pending_secret``, which the caller has checked is the
    session ``session_id``'s) when ``code`` is a TOTP code of it, spending the code's step; returns ten new
    backup codes.

    Raises INVALID_TWO_FACTOR_CODE. One conditional update turns it on (if the set-up is still this
    session's), so two requests racing with one code cannot both make backup codes.
    """
    secret, normalised = user.totp_pending_secret, _normalise(code)
    totp, now = _totp(secret), utcnow()
    current = totp.timecode(now)
    step = next((step for step in (current - 1, current, current + 1)
                 if hmac.compare_digest(totp.generate_otp(step), normalised)), None)
    if step is not None and _TOTP_DIGITS.fullmatch(normalised):
        turned_on = db.session.execute(
            update(User).where(User.id == user.id, User.totp_pending_secret == secret,
                               User.totp_pending_until > now, User.two_factor_enabled.is_(False),
                               User.totp_pending_session_id == session_id)
            .values(two_factor_enabled=True, totp_secret=secret, totp_last_step=step, totp_pending_secret=None,
                    totp_pending_until=None, totp_pending_session_id=None)
            .execution_options(synchronize_session="fetch")).rowcount
        if turned_on == 1:
            return new_backup_codes(user)
    raise ApiError("INVALID_TWO_FACTOR_CODE", "That two-factor code is not valid.", {"field": "code"})


_SPENT, _USED = "spent", "used"  # a code accepted now; a right code accepted before (None: a wrong one)


def check(user: User, code: str | None) -> None:
    """Accept ``code`` (TOTP or backup) for a user with two-factor on, spending it.

    Raises TWO_FACTOR_REQUIRED without a code, INVALID_TWO_FACTOR_CODE for a
    wrong, replayed or spent one (details.reason "used" when it was right but
    spent already). Each spend is a conditional update, so two requests racing
    with one code cannot both pass.
    """
    if not code:
        raise ApiError("TWO_FACTOR_REQUIRED", "Enter the code from your authenticator app (or a backup code).",
                       {"field": "code"})
    normalised = _normalise(code)
    outcome = _spend_totp(user, normalised) if _TOTP_DIGITS.fullmatch(normalised) \
        else _spend_backup_code(user, normalised)
    if outcome == _USED and _TOTP_DIGITS.fullmatch(normalised):
        raise ApiError("INVALID_TWO_FACTOR_CODE", "This code was just used; wait for the next one from your "
                       "authenticator app.", {"field": "code", "reason": "used"})
    if outcome == _USED:
        raise ApiError("INVALID_TWO_FACTOR_CODE", "This backup code has been used already: each works once.",
                       {"field": "code", "reason": "used"})
    if outcome != _SPENT:
        raise ApiError("INVALID_TWO_FACTOR_CODE", "That two-factor code is not valid.", {"field": "code"})


def _spend_totp(user: User, code: str) -> str | None:
    if not user.totp_secret:
        return None
    totp = _totp(user.totp_secret)
    current = totp.timecode(utcnow())
    last = user.totp_last_step if user.totp_last_step is not None else -1
    for step in (current - 1, current, current + 1):
        if hmac.compare_digest(totp.generate_otp(step), code):
            if step <= last:
                return _USED  # e.g. the step the set-up's confirmation spent, seconds ago
            spent = db.session.execute(
                update(User).where(User.id == user.id,
                                   or_(User.totp_last_step.is_(None), User.totp_last_step < step))
                .values(totp_last_step=step).execution_options(synchronize_session="fetch")).rowcount
            return _SPENT if spent == 1 else _USED  # another request spent it (or a later step) first
    return None


def _spend_backup_code(user: User, code: str) -> str | None:
    if len(code) != _BACKUP_LENGTH:
        return None
    mine = (BackupCode.user_id == user.id, BackupCode.code_hash == hash_token(code))
    spent = db.session.execute(
        update(BackupCode).where(*mine, BackupCode.used_at.is_(None))
        .values(used_at=utcnow()).execution_options(synchronize_session=False)).rowcount
    if spent == 1:
        return _SPENT
    return _USED if db.session.scalar(db.select(BackupCode.id).where(*mine).limit(1)) else None


def unused_codes(user: User, codes: list[str]) -> list[str]:
    """Those of the readable ``codes`` that are backup codes of ``user`` not used yet, in their order."""
    live = set(db.session.scalars(db.select(BackupCode.code_hash).where(BackupCode.user_id == user.id,
                                                                       BackupCode.used_at.is_(None))))
    return [code for code in codes if hash_token(_normalise(code)) in live]


def new_backup_codes(user: User) -> list[str]:
    """Ten new backup codes for ``user`` (its old ones are deleted): the readable codes, stored hashed."""
    db.session.execute(delete(BackupCode).where(BackupCode.user_id == user.id))
    codes = [_new_backup_code() for _ in range(BACKUP_CODE_COUNT)]
    db.session.add_all(BackupCode(user_id=user.id, code_hash=hash_token(_normalise(code))) for code in codes)
    return codes


def _new_backup_code() -> str:
    chars = "".join(secrets.choice(_BACKUP_ALPHABET) for _ in range(_BACKUP_LENGTH))
    return f"{chars[:5]}-{chars[5:]}"


def _normalise(code: str) -> str:
    """As typed: spaces and dashes dropped, case ignored."""
    return _SEPARATORS.sub("", code).lower()
