"""The API tokens a person holds, as the account page shows them: create one with a name, list, revoke.

An API token here is a refresh-token family (``app.auth.tokens``; decisions "API tokens"): creating one
issues the first refresh token of a new family with its ``name``, and answers the raw value once. The
holder exchanges it at ``POST /api/auth/token`` (``grant_type=refresh_token``) for an access token and the
next refresh token of the family, which keeps the name (it is read from the family's first token). The
families started by a password grant are listed too, without a name. A family is listed while it has a
live token (not spent, not revoked, not expired); revoking one revokes every token of the family.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from marshmallow import fields, validate
from sqlalchemy import func

from app.auth import tokens
from app.auth.models import RefreshToken
from app.auth.schemas import Name
from app.common.models import plausible_id, utcnow
from app.common.security import hash_token
from app.common.schemas import InputSchema, OutputSchema, Timestamp
from app.errors import ApiError
from app.extensions import db
from app.users.models import User

NAME_MAX = 100
MAX_LIVE = 50  # live tokens (families) a person may hold; one more is refused


@dataclass(frozen=True)
class ApiToken:
    id: str  # the family's id
    name: str | None
    created_at: datetime
    last_used_at: datetime | None
    expires_at: datetime
    token: str | None = None  # the raw value: only in the answer that created it


class ApiTokenCreateSchema(InputSchema):
    name = Name(required=True, validate=validate.Length(min=1, max=NAME_MAX),
                metadata={"description": "what the token is for, to recognise it in the list"})


class ApiTokenSchema(OutputSchema):
    id = fields.String(required=True)
    name = fields.String(required=True, allow_none=True,
                         metadata={"description": "null for a token from a password grant"})
    createdAt = Timestamp(required=True, attribute="created_at")
    lastUsedAt = Timestamp(required=True, allow_none=True, attribute="last_used_at",
                           metadata={"description": "the last exchange at POST /api/auth/token"})
    expiresAt = Timestamp(required=True, attribute="expires_at",
                          metadata={"description": "unless used before: each exchange starts the time again"})


class ApiTokenCreatedSchema(ApiTokenSchema):
    token = fields.String(required=True, metadata={
        "description": "the refresh token, shown this once: exchange it at POST /api/auth/token "
                       "(grant_type=refresh_token) for an access token"})


class ApiTokensSchema(OutputSchema):
    tokens = fields.List(fields.Nested(ApiTokenSchema), required=True)


def _live(user: User):
    return db.select(RefreshToken).where(RefreshToken.user_id == user.id, RefreshToken.used_at.is_(None),
                                         RefreshToken.revoked_at.is_(None), RefreshToken.expires_at > utcnow())


def tokens_of(user: User) -> list[ApiToken]:
    """The user's live API tokens, the newest first."""
    live = {token.family_id: token for token in db.session.scalars(_live(user))}
    if not live:
        return []
    families = db.session.execute(
        db.select(RefreshToken.family_id, func.max(RefreshToken.name), func.min(RefreshToken.created_at),
                  func.max(RefreshToken.used_at))
        .where(RefreshToken.user_id == user.id, RefreshToken.family_id.in_(list(live)))
        .group_by(RefreshToken.family_id)).all()
    found = [ApiToken(id=family_id, name=name, created_at=created, last_used_at=used,
                      expires_at=live[family_id].expires_at) for family_id, name, created, used in families]
    return sorted(found, key=lambda token: (token.created_at, token.id), reverse=True)


def create_token(user: User, name: str) -> ApiToken:
    """A new named API token (a refresh-token family); the answer carries its raw value. Commits.

    Raises 403 FORBIDDEN past MAX_LIVE live tokens, ConfigError when SECRET_KEY is too short to sign the
    access tokens it would be exchanged for."""
    tokens.signing_key()
    live = db.session.scalar(db.select(func.count()).select_from(_live(user).subquery()))
    if live >= MAX_LIVE:
        raise ApiError("FORBIDDEN", "You have %(limit)s API tokens: revoke one first.", {"limit": MAX_LIVE},
                       values={"limit": MAX_LIVE})
    raw = tokens.issue_refresh_token(user)
    db.session.flush()
    token = db.session.scalar(db.select(RefreshToken).where(RefreshToken.token_hash == hash_token(raw)))
    token.name = name
    db.session.commit()
    return ApiToken(id=token.family_id, name=name, created_at=token.created_at, last_used_at=None,
                    expires_at=token.expires_at, token=raw)


def revoke_token(user: User, token_id: str) -> None:
    """Revoke the user's API token ``token_id`` (every token of its family). Commits.

    Raises 404 NOT_FOUND when the user has no live token of that id (another person's included)."""
    owned = plausible_id(token_id) and db.session.scalar(
        _live(user).where(RefreshToken.family_id == token_id).limit(1))
    if not owned:
        raise ApiError("NOT_FOUND", "You have no API token with this id.", {"tokenId": token_id})
    tokens.revoke_family(token_id)
    db.session.commit()
