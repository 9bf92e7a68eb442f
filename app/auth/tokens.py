"""API tokens: HS256 access tokens (JWT) and rotating refresh tokens.

An access token is self-contained for its hour, except for one look-up the bearer
path makes anyway (the user): its ``aid`` claim is a digest of the user's
``auth_id`` at issue, so rotating that id (password change or reset) ends every
access token of the user as it ends every browser session.

Refresh tokens are 256 random bits; only their SHA-256 is stored. Each use
spends the token and issues the next one of its family; presenting a spent one
means a copy is in someone else's hands, so the whole family is revoked.

Nothing here commits: the auth service's use cases do.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
from dataclasses import dataclass
from datetime import datetime, timezone

from flask import current_app
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import OctKey
from joserfc.jwt import JWTClaimsRegistry
from sqlalchemy import update

from app.auth.models import RefreshToken
from app.common.models import new_id, plausible_id, utcnow
from app.common.security import hash_token, new_token
from app.config import ConfigError
from app.extensions import db
from app.users.models import User

log = logging.getLogger(__name__)

ALGORITHM = "HS256"
MIN_SECRET_BYTES = 32  # an HS256 key should carry at least the hash's 256 bits
MAX_TOKEN_LENGTH = 4096  # ours are ~300 characters; anything far longer is not worth parsing
_KEY_LABEL = b"resume-service/api-access-token/v1"  # a key of its own: never the cookie/link key itself
# "now" from the app's clock, so that tests can move past an expiry.
_CLAIMS = JWTClaimsRegistry(now=lambda: int(utcnow().timestamp()), sub={"essential": True},
                            aid={"essential": True}, jti={"essential": True}, iat={"essential": True},
                            exp={"essential": True})


@dataclass(frozen=True)
class AccessClaims:
    user_id: str
    auth_digest: str
    expires_at: datetime


def signing_key() -> OctKey:
    """The HS256 key: HMAC-SHA256 of SECRET_KEY with a label. Raises ConfigError when SECRET_KEY is too short."""
    secret = (current_app.config.get("SECRET_KEY") or "").encode("utf-8")
    if len(secret) < MIN_SECRET_BYTES:
        raise ConfigError(f"SECRET_KEY has {len(secret)} bytes; API tokens need at least {MIN_SECRET_BYTES}. "
                          "Set a long random SECRET_KEY, e.g. python -c 'import secrets; "
                          "print(secrets.token_urlsafe(48))'.")
    return OctKey.import_key(hmac.new(secret, _KEY_LABEL, hashlib.sha256).digest())


def auth_digest(user: User) -> str:
    """What an access token carries of the user's auth id (not the id itself)."""
    return hash_token(user.auth_id)[:32]


def issue_access_token(user: User) -> str:
    """A signed access token for ``user``, valid ACCESS_TOKEN_LIFETIME. Raises ConfigError (short SECRET_KEY)."""
    now = int(utcnow().timestamp())
    lifetime = int(current_app.config["ACCESS_TOKEN_LIFETIME"].total_seconds())
    claims = {"sub": user.id, "aid": auth_digest(user), "iat": now, "exp": now + lifetime, "jti": new_id()}
    return jwt.encode({"alg": ALGORITHM, "typ": "JWT"}, claims, signing_key(), algorithms=[ALGORITHM])


def read_access_token(raw: str) -> AccessClaims | None:
    """The claims of a genuine, unexpired access token of ours; None for anything else.

    Only HS256 with our key is accepted (no ``none``, no other algorithm).
    """
    if not raw or len(raw) > MAX_TOKEN_LENGTH:
        return None
    try:
        key = signing_key()
    except ConfigError as exc:
        log.error("bearer token refused: %s", exc)
        return None
    try:
        token = jwt.decode(raw, key, algorithms=[ALGORITHM])
        _CLAIMS.validate(token.claims)
    except (JoseError, ValueError, TypeError):  # forged, malformed, expired, or not ours
        return None
    claims = token.claims
    if not (isinstance(claims["sub"], str) and plausible_id(claims["sub"]) and isinstance(claims["aid"], str)
            and isinstance(claims["exp"], int)):
        return None
    return AccessClaims(claims["sub"], claims["aid"], datetime.fromtimestamp(claims["exp"], timezone.utc))


def issue_refresh_token(user: User, family_id: str | None = None) -> str:
    """A new refresh token for ``user`` in ``family_id`` (a new family when None); returns the raw value."""
    raw = new_token()
    db.session.add(RefreshToken(user_id=user.id, family_id=family_id or new_id(), token_hash=hash_token(raw),
                                expires_at=utcnow() + current_app.config["REFRESH_TOKEN_LIFETIME"]))
    return raw


def find_refresh_token(raw: str) -> RefreshToken | None:
    return db.session.scalar(db.select(RefreshToken).where(RefreshToken.token_hash == hash_token(raw)))


def spend_refresh_token(token: RefreshToken) -> bool:
    """Mark ``token`` used unless it already is (or was revoked); False when another request got there first."""
    now = utcnow()
    spent = db.session.execute(
        update(RefreshToken)
        .where(RefreshToken.id == token.id, RefreshToken.used_at.is_(None), RefreshToken.revoked_at.is_(None))
        .values(used_at=now).execution_options(synchronize_session=False)).rowcount
    return spent == 1


def revoke_family(family_id: str) -> None:
    db.session.execute(update(RefreshToken)
                       .where(RefreshToken.family_id == family_id, RefreshToken.revoked_at.is_(None))
                       .values(revoked_at=utcnow()).execution_options(synchronize_session=False))


def revoke_user_tokens(user: User) -> None:
    """Revoke every live refresh token of ``user`` (a password change or reset)."""
    db.session.execute(update(RefreshToken)
                       .where(RefreshToken.user_id == user.id, RefreshToken.revoked_at.is_(None))
                       .values(revoked_at=utcnow()).execution_options(synchronize_session=False))
