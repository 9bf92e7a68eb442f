"""A signed-in user's credentials: changing the password and the two-factor setting (one use case, one
commit), and confirming a two-factor set-up with a first code (``PUT /api/account/security`` and
``POST /api/account/two-factor/confirm``, answered by ``app.account.views``).
"""
from __future__ import annotations

import pyotp
from flask import current_app

from app.auth import service as auth
from app.auth import two_factor
from app.auth.passwords import check_password, hash_password
from app.errors import ApiError
from app.extensions import db
from app.users.models import User


def update_security(user: User, *, current_password: str, new_password: str | None = None,
                    two_factor_enabled: bool | None = None, keep_session: str | None = None) -> dict:
    """Change the password and/or the two-factor setting of ``user``, after checking its current password.

    A new password ends every other session of the user (the one of cookie value
    ``keep_session`` stays signed in; None ends them all), every access token and
    every refresh token. Turning two-factor on makes a new secret and ten backup
    codes, returned once (``otpauthUri``, ``backupCodes``); turning it off deletes
    them; asking for the state it is already in changes nothing. Commits.
    Raises INVALID_PASSWORD (details.field currentPassword), then WEAK_PASSWORD
    (details.field newPassword).
    """
    if not check_password(current_password, user.password_hash):
        raise ApiError("INVALID_PASSWORD", "The current password is incorrect.", {"field": "currentPassword"})
    result: dict = {"passwordUpdated": False, "backupCodes": []}
    if new_password is not None:
        auth.check_password_rule(new_password, field="newPassword")
        user.password_hash = hash_password(new_password)
        auth.end_other_sessions(user, keep=keep_session)
        result["passwordUpdated"] = True
    if two_factor_enabled is True and not user.two_factor_enabled:
        result["otpauthUri"], result["backupCodes"] = two_factor.enable(user)
    elif two_factor_enabled is False and user.two_factor_enabled:
        two_factor.disable(user)
    result["twoFactorEnabled"] = user.two_factor_enabled
    db.session.commit()
    return result


def two_factor_pending(user: User) -> bool:
    """Two-factor is on but no code from the authenticator app was ever accepted: the set-up is not
    confirmed yet (``users.totp_last_step`` is set by the first accepted code, and only then)."""
    return bool(user.two_factor_enabled and user.totp_secret and user.totp_last_step is None)


def setup_uri(user: User) -> str | None:
    """The otpauth URI of a set-up not confirmed yet (to draw its QR code again), else None: once an
    authenticator app has proved it holds the secret, the secret is never shown again."""
    if not two_factor_pending(user):
        return None
    return pyotp.TOTP(user.totp_secret).provisioning_uri(name=user.email,
                                                         issuer_name=current_app.config["TOTP_ISSUER"])


def confirm_two_factor(user: User, code: str) -> None:
    """Accept a code from the authenticator app just set up (spending its time step), which proves
    the app holds the secret. Commits. Raises VALIDATION_ERROR when two-factor is off,
    INVALID_TWO_FACTOR_CODE (details.field code) for a wrong or already used code."""
    if not user.two_factor_enabled:
        raise ApiError("VALIDATION_ERROR", "Two-factor sign-in is off: turn it on first.", {"field": "code"})
    two_factor.check(user, code)
    db.session.commit()
