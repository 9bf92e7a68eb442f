"""Two-factor sign-in: TOTP (RFC 6238, 30-second steps, 6 digits) and single-use backup codes.

Time comes from the app's clock. A TOTP code is accepted for the current step
and one step either side (clock drift), and never for a step at or before the
last one accepted (``users.totp_last_step``), so a code seen over someone's
shoulder cannot be used again. Backup codes are stored as SHA-256 only.

A set-up may wait for its first code (``start_setup``): its secret is kept apart
(``users.totp_pending_secret``, until ``totp_pending_until``) and two-factor stays off
until ``confirm_setup`` accepts a code of it; an expired one is as good as none.

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


def enable(user: User) -> tuple[str, list[str]]:
    """Turn two-factor on at once with a new secret and ten new backup codes (the old ones are deleted;
    a set-up waiting for its first code is dropped).

    Returns the otpauth URI for an authenticator app and the readable backup codes.
    """
    user.totp_secret = pyotp.random_base32()  # 160 bits, as RFC 4226 recommends
    user.totp_last_step = None
    user.two_factor_enabled = True
    drop_setup(user)
    return provisioning_uri(user, user.totp_secret), _new_backup_codes(user)


def disable(user: User) -> None:
    """Turn two-factor off: the secret, every backup code and a waiting set-up are gone."""
    user.two_factor_enabled = False
    user.totp_secret = None
    user.totp_last_step = None
    drop_setup(user)
    db.session.execute(delete(BackupCode).where(BackupCode.user_id == user.id))


def start_setup(user: User) -> str:
    """Keep a new secret waiting for its first code (replacing a waiting one); two-factor is not turned
    on. Returns the secret."""
    user.totp_pending_secret = pyotp.random_base32()
    user.totp_pending_until = utcnow() + current_app.config["TWO_FACTOR_SETUP_LIFETIME"]
    return user.totp_pending_secret


def pending_secret(user: User) -> str | None:
    """The secret of the set-up waiting for its first code, unless it has expired."""
    if user.totp_pending_secret and user.totp_pending_until and user.totp_pending_until > utcnow():
        return user.totp_pending_secret
    return None


def drop_setup(user: User) -> None:
    user.totp_pending_secret = None
    user.totp_pending_until = None


def confirm_setup(user: User, code: str) -> list[str]:
    """Turn two-factor on with the waiting secret (``pending_secret``, which the caller has checked) when
    ``code`` is a TOTP code of it, spending the code's step; returns ten new backup codes.

    Raises INVALID_TWO_FACTOR_CODE. One conditional update turns it on, so two requests racing with
    one code cannot both make backup codes.
    """
    secret, normalised = user.totp_pending_secret, _normalise(code)
    totp, now = _totp(secret), utcnow()
    current = totp.timecode(now)
    step = next((step for step in (current - 1, current, current + 1)
                 if hmac.compare_digest(totp.generate_otp(step), normalised)), None)
    if step is not None and _TOTP_DIGITS.fullmatch(normalised):
        turned_on = db.session.execute(
            update(User).where(User.id == user.id, User.totp_pending_secret == secret,
                               User.totp_pending_until > now, User.two_factor_enabled.is_(False))
            .values(two_factor_enabled=True, totp_secret=secret, totp_last_step=step, totp_pending_secret=None,
                    totp_pending_until=None).execution_options(synchronize_session="fetch")).rowcount
        if turned_on == 1:
            return _new_backup_codes(user)
    raise ApiError("INVALID_TWO_FACTOR_CODE", "That two-factor code is not valid.", {"field": "code"})


def check(user: User, code: str | None) -> None:
    """Accept ``code`` (TOTP or backup) for a user with two-factor on, spending it.

    Raises TWO_FACTOR_REQUIRED without a code, INVALID_TWO_FACTOR_CODE for a
    wrong, replayed or spent one. Each spend is a conditional update, so two
    requests racing with one code cannot both pass.
    """
    if not code:
        raise ApiError("TWO_FACTOR_REQUIRED", "Enter the code from your authenticator app (or a backup code).",
                       {"field": "code"})
    normalised = _normalise(code)
    accepted = _spend_totp(user, normalised) if _TOTP_DIGITS.fullmatch(normalised) \
        else _spend_backup_code(user, normalised)
    if not accepted:
        raise ApiError("INVALID_TWO_FACTOR_CODE", "That two-factor code is not valid.", {"field": "code"})


def _spend_totp(user: User, code: str) -> bool:
    if not user.totp_secret:
        return False
    totp = _totp(user.totp_secret)
    current = totp.timecode(utcnow())
    last = user.totp_last_step if user.totp_last_step is not None else -1
    for step in (current - 1, current, current + 1):
        if step > last and hmac.compare_digest(totp.generate_otp(step), code):
            spent = db.session.execute(
                update(User).where(User.id == user.id,
                                   or_(User.totp_last_step.is_(None), User.totp_last_step < step))
                .values(totp_last_step=step).execution_options(synchronize_session="fetch")).rowcount
            return spent == 1
    return False


def _spend_backup_code(user: User, code: str) -> bool:
    if len(code) != _BACKUP_LENGTH:
        return False
    spent = db.session.execute(
        update(BackupCode)
        .where(BackupCode.user_id == user.id, BackupCode.code_hash == hash_token(code), BackupCode.used_at.is_(None))
        .values(used_at=utcnow()).execution_options(synchronize_session=False)).rowcount
    return spent == 1


def _new_backup_codes(user: User) -> list[str]:
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
