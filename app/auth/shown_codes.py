"""Backup codes shown until dismissed: the readable codes made in a session are kept on that session's
row (``auth_sessions.backup_codes``), sealed with a key derived from the session's cookie, until its
owner says they saved them. A reload of the account page shows them again, in that session only.

The key is HKDF-SHA256 of the raw cookie value, which the server never stores (the row keeps the
cookie's SHA-256, from which the key cannot be had): the database alone, a backup of it or another
session of the account cannot read them. The seal is Fernet (AES-128-CBC and HMAC-SHA256).

Codes are made in one session at a time: new codes (or two-factor turned off) drop what every other
session of the user kept. Nothing here commits: the caller's use case does.
"""
from __future__ import annotations

import base64
import json
import logging

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from sqlalchemy import update

from app.auth import two_factor
from app.auth.models import AuthSession
from app.extensions import db
from app.users.models import User

log = logging.getLogger(__name__)

_INFO = b"resume-service/session-backup-codes/v1"


def _seal(cookie: str) -> Fernet:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_INFO).derive(cookie.encode("utf-8"))
    return Fernet(base64.urlsafe_b64encode(key))


def keep(user: User, session_id: str, cookie: str, codes: list[str]) -> None:
    """Keep ``codes`` sealed on the session ``session_id`` (of cookie value ``cookie``); any other session's
    kept codes are dropped (they are no longer the account's)."""
    forget(user)
    sealed = _seal(cookie).encrypt(json.dumps(codes).encode("utf-8")).decode("ascii")
    db.session.execute(update(AuthSession).where(AuthSession.id == session_id, AuthSession.user_id == user.id)
                       .values(backup_codes=sealed).execution_options(synchronize_session=False))


def kept(user: User, session_id: str, cookie: str) -> list[str]:
    """The codes kept on this session and not used since, in their order; [] when none (or the seal does not
    open: another cookie, a changed format)."""
    sealed = db.session.scalar(db.select(AuthSession.backup_codes).where(AuthSession.id == session_id,
                                                                        AuthSession.user_id == user.id))
    if not sealed:
        return []
    try:
        codes = json.loads(_seal(cookie).decrypt(sealed.encode("ascii")))
    except (InvalidToken, ValueError):
        log.warning("backup codes kept on session %s could not be opened", session_id)
        return []
    return two_factor.unused_codes(user, codes)


def dismiss(user: User, session_id: str) -> None:
    """Stop showing the codes kept on this session."""
    db.session.execute(update(AuthSession).where(AuthSession.id == session_id, AuthSession.user_id == user.id)
                       .values(backup_codes=None).execution_options(synchronize_session=False))


def forget(user: User) -> None:
    """Drop the codes every session of ``user`` kept (new codes were made, or two-factor is off)."""
    db.session.execute(update(AuthSession).where(AuthSession.user_id == user.id, AuthSession.backup_codes.is_not(None))
                       .values(backup_codes=None).execution_options(synchronize_session=False))
