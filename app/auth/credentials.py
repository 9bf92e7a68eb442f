"""A signed-in user's credentials: changing the password and the two-factor setting (one use case, one
commit), starting a two-factor set-up that waits for its first code, and confirming a set-up with that
code (``PUT /api/account/security``, ``POST /api/account/two-factor/setup`` and ``.../confirm``,
answered by ``app.account.views``).
"""
from __future__ import annotations

from datetime import datetime

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
    codes, returned once (``otpauthUri``, ``backupCodes``), and it is on at once
    (the contract's behaviour); turning it off deletes them; either drops a set-up
    waiting for its first code; asking for the state it is already in changes
    nothing else. Commits.
    Raises INVALID_PASSWORD (details.field currentPassword), then WEAK_PASSWORD
    (details.field newPassword).
    """
    _check_current_password(user, current_password)
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
    elif two_factor_enabled is False:
        two_factor.drop_setup(user)  # off already: a set-up waiting for its first code is given up
    result["twoFactorEnabled"] = user.two_factor_enabled
    db.session.commit()
    return result


def start_two_factor_setup(user: User, *, current_password: str) -> tuple[str, str, datetime]:
    """Start a two-factor set-up that waits for its first code, after checking the current password:
    a new secret is kept apart (replacing a waiting one) and two-factor stays off, so sign-in asks for
    nothing, until ``confirm_two_factor`` accepts a code of it. Commits. Returns the secret, its
    otpauth URI and until when the set-up may be confirmed. Raises INVALID_PASSWORD (details.field
    currentPassword), then VALIDATION_ERROR when two-factor is already on."""
    _check_current_password(user, current_password)
    if user.two_factor_enabled:
        raise ApiError("VALIDATION_ERROR", "Two-factor sign-in is already on: turn it off first to set it up "
                       "again.", {"field": "body"})
    secret = two_factor.start_setup(user)
    until = user.totp_pending_until
    db.session.commit()
    return secret, two_factor.provisioning_uri(user, secret), until


def two_factor_pending(user: User) -> bool:
    """Two-factor is on but no code from the authenticator app was ever accepted: turned on at once by
    ``PUT /api/account/security`` and not confirmed yet (``users.totp_last_step`` is set by the first
    accepted code, and only then)."""
    return bool(user.two_factor_enabled and user.totp_secret and user.totp_last_step is None)


def setup_secret(user: User) -> str | None:
    """The secret waiting for its first code, if any: a set-up started with ``start_two_factor_setup``
    (not expired), or two-factor turned on at once and not confirmed yet; else None. Once an
    authenticator app has proved it holds the secret, the secret is never shown again."""
    if two_factor_pending(user):
        return user.totp_secret
    return None if user.two_factor_enabled else two_factor.pending_secret(user)


def setup_uri(user: User) -> str | None:
    """The otpauth URI of ``setup_secret`` (to draw its QR code again), else None."""
    secret = setup_secret(user)
    return two_factor.provisioning_uri(user, secret) if secret else None


def confirm_two_factor(user: User, code: str) -> list[str]:
    """Accept a code from the authenticator app just set up (spending its time step), which proves the
    app holds the secret. Commits. A set-up waiting for its first code turns two-factor on here and
    returns its ten backup codes; two-factor turned on at once (its codes were given then) returns [].
    Raises VALIDATION_ERROR when two-factor is off and no set-up is waiting (it expired, or none was
    started), INVALID_TWO_FACTOR_CODE (details.field code) for a wrong or already used code."""
    codes: list[str] = []
    if user.two_factor_enabled:
        two_factor.check(user, code)
    elif two_factor.pending_secret(user):
        codes = two_factor.confirm_setup(user, code)
    elif user.totp_pending_secret:
        raise ApiError("VALIDATION_ERROR", "The two-factor set-up has expired: start it again.", {"field": "code"})
    else:
        raise ApiError("VALIDATION_ERROR", "Two-factor sign-in is off: set it up first.", {"field": "code"})
    db.session.commit()
    return codes


def _check_current_password(user: User, current_password: str) -> None:
    if not check_password(current_password, user.password_hash):
        raise ApiError("INVALID_PASSWORD", "The current password is incorrect.", {"field": "currentPassword"})
