"""Sudo mode: an account's security changes are made from a browser session whose owner proved who they
are lately (docs/api-decisions.md, "Sudo mode").

Adding a passkey, starting or confirming a two-factor set-up, making new backup codes, creating an API
token, linking a provider account and changing the password need a session cookie (``SESSION_REQUIRED``
with a bearer token: a leaked token must not turn itself into a lasting way in) whose
``authenticated_at`` is within ``SUDO_LIFETIME`` (``REAUTHENTICATION_REQUIRED`` otherwise, naming the
ways this account can prove it again). Signing in sets ``authenticated_at`` (``service._add_session``);
so does re-authenticating (``app.auth.reauthentication``).

The session's id, cookie and ``authenticated_at`` were read with the user (``sessions._load_user``), so
the check costs no query; only a refusal looks up the account's methods.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import wraps

from flask import current_app, g
from flask_login import current_user

from app.auth import passkeys
from app.auth.sessions import current_cookie
from app.common.models import utcnow
from app.errors import ApiError
from app.users.models import User

PASSWORD, PASSKEY, TWO_FACTOR, EMAIL = "password", "passkey", "totp", "email"


@dataclass(frozen=True)
class BrowserSession:
    """The session cookie that authenticated this request: its row's id, the raw cookie (the key of what
    the session keeps sealed, ``app.auth.shown_codes``; never stored) and its last proof of identity."""

    id: str
    cookie: str
    authenticated_at: datetime | None


def current() -> BrowserSession | None:
    """The browser session of this request, or None (anonymous, or a bearer token)."""
    if g.get("authenticated_by") != "session" or not g.get("auth_session_id"):
        return None
    return BrowserSession(g.auth_session_id, current_cookie(), g.get("authenticated_at"))


def browser_session() -> BrowserSession:
    """This request's browser session. Raises 403 SESSION_REQUIRED for a bearer token."""
    session = current()
    if session is None:
        raise ApiError("SESSION_REQUIRED", "Security settings can only be changed in a browser session (signed in "
                       "on the web), not with an API token.")
    return session


def sudo_until(session: BrowserSession) -> datetime | None:
    """Until when ``session`` may make security changes; None when it may not now."""
    if session.authenticated_at is None:
        return None
    until = session.authenticated_at + current_app.config["SUDO_LIFETIME"]
    return until if until > utcnow() else None


def methods_of(user: User) -> list[str]:
    """How ``user`` can re-authenticate: its password, a passkey, a two-factor code (TOTP or backup), and
    for an account without a password, a code mailed to it."""
    methods = [PASSWORD] if user.password_hash is not None else []
    if passkeys.passkeys_of(user):
        methods.append(PASSKEY)
    if user.two_factor_enabled:
        methods.append(TWO_FACTOR)
    if user.password_hash is None:
        methods.append(EMAIL)
    return methods


def require_recent(user: User) -> BrowserSession:
    """This request's browser session, which re-authenticated within ``SUDO_LIFETIME``. Raises 403
    SESSION_REQUIRED (a bearer token), then 403 REAUTHENTICATION_REQUIRED (details.methods: how
    ``user`` can re-authenticate at POST /api/auth/reauthenticate)."""
    session = browser_session()
    if sudo_until(session) is None:
        minutes = int(current_app.config["SUDO_LIFETIME"].total_seconds() // 60)
        raise ApiError("REAUTHENTICATION_REQUIRED",
                       "Confirm it is you: security changes need a sign-in within the last %(minutes)s minutes. "
                       "Re-authenticate, then try again.",
                       {"methods": methods_of(user), "reauthenticate": "/api/auth/reauthenticate"},
                       values={"minutes": minutes})
    return session


def sudo_required(view):
    """Mark a view as a security change: signed in (place it under ``login_required``), with a browser
    session that re-authenticated lately (``require_recent``), checked before the body is read."""

    @wraps(view)
    def checked(*args, **kwargs):
        require_recent(current_user)
        return view(*args, **kwargs)

    checked.sudo_required = True
    return checked
