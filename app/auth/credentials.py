"""A signed-in user's credentials: changing the password and the two-factor setting (one use case, one
commit), starting a two-factor set-up that waits for its first code, confirming a set-up with that
code, and the backup codes: new ones, and those shown until dismissed (``PUT /api/account/security``,
``POST /api/account/two-factor/setup``, ``.../confirm`` and ``.../backup-codes``, answered by
``app.account.views``).

Each takes the browser session that asked (``sudo.BrowserSession``; the views have checked it is recent):
a set-up belongs to the session that started it, and the backup codes made in a session are kept,
sealed, on its row until it dismisses them (``app.auth.shown_codes``).
"""
from __future__ import annotations

from datetime import datetime

from app.auth import service as auth
from app.auth import shown_codes, two_factor
from app.auth.passwords import check_password, hash_password
from app.auth.sudo import BrowserSession
from app.errors import ApiError
from app.extensions import db
from app.users.models import User


def update_security(user: User, *, current_password: str, session: BrowserSession, new_password: str | None = None,
                    two_factor_enabled: bool | None = None) -> dict:
    """Change the password and/or the two-factor setting of ``user``, after checking its current password.

    A new password ends every other session of the user (``session`` stays signed
    in), every access token and every refresh token, and takes back the passkeys
    the ended sessions added lately. Turning two-factor on makes a new secret and
    ten backup codes, returned (``otpauthUri``, ``backupCodes``) and kept on
    ``session`` until dismissed, and it is on at once (the contract's behaviour);
    turning it off deletes them; either drops a set-up waiting for its first code;
    asking for the state it is already in changes nothing else. Commits.
    Raises INVALID_PASSWORD (details.field currentPassword), then WEAK_PASSWORD
    (details.field newPassword).
    """
    _check_current_password(user, current_password)
    result: dict = {"passwordUpdated": False, "backupCodes": []}
    if new_password is not None:
        auth.check_password_rule(new_password, field="newPassword")
        user.password_hash = hash_password(new_password)
        auth.end_other_sessions(user, keep=session.cookie)
        result["passwordUpdated"] = True
    if two_factor_enabled is True and not user.two_factor_enabled:
        result["otpauthUri"], result["backupCodes"] = two_factor.enable(user, session.id)
        shown_codes.keep(user, session.id, session.cookie, result["backupCodes"])
    elif two_factor_enabled is False and user.two_factor_enabled:
        two_factor.disable(user)
        shown_codes.forget(user)
    elif two_factor_enabled is False:
        two_factor.drop_setup(user)  # off already: a set-up waiting for its first code is given up
    result["twoFactorEnabled"] = user.two_factor_enabled
    db.session.commit()
    return result


def start_two_factor_setup(user: User, *, current_password: str, session: BrowserSession) -> tuple[str, str, datetime]:
    """Start a two-factor set-up that waits for its first code, after checking the current password:
    a new secret is kept apart (replacing a waiting one, whichever session started it), bound to
    ``session``, and two-factor stays off, so sign-in asks for nothing, until ``confirm_two_factor``
    accepts a code of it from that session. Commits. Returns the secret, its otpauth URI and until when
    the set-up may be confirmed. Raises INVALID_PASSWORD (details.field currentPassword), then
    VALIDATION_ERROR when two-factor is already on."""
    _check_current_password(user, current_password)
    if user.two_factor_enabled:
        raise ApiError("VALIDATION_ERROR", "Two-factor sign-in is already on: turn it off first to set it up "
                       "again.", {"field": "body"})
    secret = two_factor.start_setup(user, session.id)
    until = user.totp_pending_until
    db.session.commit()
    return secret, two_factor.provisioning_uri(user, secret), until


def two_factor_pending(user: User) -> bool:
    """Two-factor is on but no code from the authenticator app was ever accepted: turned on at once by
    ``PUT /api/account/security`` and not confirmed yet (``users.totp_last_step`` is set by the first
    accepted code, and only then)."""
    return bool(user.two_factor_enabled and user.totp_secret and user.totp_last_step is None)


def setup_secret(user: User, session_id: str | None) -> str | None:
    """The secret waiting for its first code, if the session ``session_id`` started it: a set-up started
    with ``start_two_factor_setup`` (not expired), or two-factor turned on at once and not confirmed yet;
    else None (another session's set-up included). Once an authenticator app has proved it holds the
    secret, the secret is never shown again."""
    if session_id is None or user.totp_pending_session_id != session_id:
        return None
    if two_factor_pending(user):
        return user.totp_secret
    return None if user.two_factor_enabled else two_factor.pending_secret(user)


def setup_elsewhere(user: User, session_id: str | None) -> bool:
    """Whether a set-up waiting for its first code belongs to another session than ``session_id``. (Two-factor
    turned on at once before set-ups named their session has none named: any session may confirm it.)"""
    if not user.two_factor_enabled and two_factor.pending_secret(user):
        return user.totp_pending_session_id != session_id
    return two_factor_pending(user) and user.totp_pending_session_id not in (None, session_id)


def setup_uri(user: User, session_id: str | None) -> str | None:
    """The otpauth URI of ``setup_secret`` (to draw its QR code again), else None."""
    secret = setup_secret(user, session_id)
    return two_factor.provisioning_uri(user, secret) if secret else None


def confirm_two_factor(user: User, code: str, session: BrowserSession) -> list[str]:
    """Accept a code from the authenticator app just set up (spending its time step), which proves the
    app holds the secret. Commits. A set-up waiting for its first code turns two-factor on here and
    returns its ten backup codes (kept on ``session`` until dismissed); two-factor turned on at once (its
    codes were given then) returns []. Raises TWO_FACTOR_SETUP_IN_ANOTHER_SESSION when another session
    started the set-up (nothing is spent: that session can still confirm it), VALIDATION_ERROR when
    two-factor is off and no set-up is waiting (it expired, or none was started), INVALID_TWO_FACTOR_CODE
    (details.field code) for a wrong or already used code."""
    if setup_elsewhere(user, session.id):
        raise ApiError("TWO_FACTOR_SETUP_IN_ANOTHER_SESSION", "This two-factor set-up was started in another "
                       "browser session: confirm it there, or set it up again here.", {"field": "code"})
    codes: list[str] = []
    if user.two_factor_enabled:
        two_factor.check(user, code)
        if user.totp_pending_session_id is not None:
            user.totp_pending_session_id = None  # confirmed: the secret is shown to no session again
    elif two_factor.pending_secret(user):
        codes = two_factor.confirm_setup(user, code, session.id)
        shown_codes.keep(user, session.id, session.cookie, codes)
    elif user.totp_pending_secret:
        raise ApiError("VALIDATION_ERROR", "The two-factor set-up has expired: start it again.", {"field": "code"})
    else:
        raise ApiError("VALIDATION_ERROR", "Two-factor sign-in is off: set it up first.", {"field": "code"})
    db.session.commit()
    return codes


def regenerate_backup_codes(user: User, session: BrowserSession) -> list[str]:
    """Ten new backup codes for ``user``, replacing every old one (used or not), kept on ``session`` until
    dismissed (any other session's kept codes are dropped). Commits. Raises VALIDATION_ERROR when
    two-factor is off."""
    if not user.two_factor_enabled:
        raise ApiError("VALIDATION_ERROR", "Two-factor sign-in is off: backup codes come with it.",
                       {"field": "body"})
    codes = two_factor.new_backup_codes(user)
    shown_codes.keep(user, session.id, session.cookie, codes)
    db.session.commit()
    return codes


def backup_codes_shown(user: User, session: BrowserSession | None) -> list[str]:
    """The backup codes made in ``session`` and not dismissed (nor used) yet; [] for none or no session."""
    return shown_codes.kept(user, session.id, session.cookie) if session else []


def dismiss_backup_codes(user: User, session: BrowserSession) -> None:
    """Stop showing the backup codes kept on ``session`` ("I have saved them"). Commits."""
    shown_codes.dismiss(user, session.id)
    db.session.commit()


def _check_current_password(user: User, current_password: str) -> None:
    if not check_password(current_password, user.password_hash):
        raise ApiError("INVALID_PASSWORD", "The current password is incorrect.", {"field": "currentPassword"})
