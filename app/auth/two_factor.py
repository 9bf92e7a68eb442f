"""Two-factor sign-in: TOTP (RFC 6238, 30-second steps, 6 digits) and single-use backup codes.

Time comes from the app's clock. A TOTP code is accepted for the current step
and one step either side (clock drift), and never for a step at or before the
last one accepted (``users.totp_last_step``), so a code seen over someone's
shoulder cannot be used again. Backup codes are stored as SHA-256 only.

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


def enable(user: User) -> tuple[str, list[str]]:
    """Turn two-factor on with a new secret and ten new backup codes (the old ones are deleted).

    Returns the otpauth URI for an authenticator app and the readable backup codes.
    """
    user.totp_secret = pyotp.random_base32()  # 160 bits, as RFC 4226 recommends
    user.totp_last_step = None
    user.two_factor_enabled = True
    db.session.execute(delete(BackupCode).where(BackupCode.user_id == user.id))
    codes = [_new_backup_code() for _ in range(BACKUP_CODE_COUNT)]
    db.session.add_all(BackupCode(user_id=user.id, code_hash=hash_token(_normalise(code))) for code in codes)
    uri = _totp(user.totp_secret).provisioning_uri(name=user.email, issuer_name=current_app.config["TOTP_ISSUER"])
    return uri, codes


def disable(user: User) -> None:
    """Turn two-factor off: the secret and every backup code are gone."""
    user.two_factor_enabled = False
    user.totp_secret = None
    user.totp_last_step = None
    db.session.execute(delete(BackupCode).where(BackupCode.user_id == user.id))


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


def _new_backup_code() -> str:
    chars = "".join(secrets.choice(_BACKUP_ALPHABET) for _ in range(_BACKUP_LENGTH))
    return f"{chars[:5]}-{chars[5:]}"


def _normalise(code: str) -> str:
    """As typed: spaces and dashes dropped, case ignored."""
    return _SEPARATORS.sub("", code).lower()
