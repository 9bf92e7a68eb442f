"""Server-side sessions, one-time (verification, reset) tokens, refresh tokens, linked OAuth identities and
two-factor backup codes."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.common.models import UTCDateTime, id_column, utcnow
from app.extensions import db
from app.users.models import User


class AuthSession(db.Model):
    """A signed-in browser. The cookie holds a random value; only its SHA-256 is here."""

    __tablename__ = "auth_sessions"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False)
    # The user's auth_id at sign-in: once the user's is rotated, this session is dead.
    auth_id: Mapped[str] = mapped_column(String(32), nullable=False)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True, nullable=False)
    ip_address: Mapped[str | None] = mapped_column(String(45))
    user_agent: Mapped[str | None] = mapped_column(String(255))

    user: Mapped[User] = relationship(lazy="joined")


class OneTimeToken(db.Model):
    """A single-use token mailed to the user; only its SHA-256 is stored."""

    __tablename__ = "one_time_tokens"

    VERIFY_EMAIL = "verify_email"
    RESET_PASSWORD = "reset_password"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False)
    purpose: Mapped[str] = mapped_column(String(20), nullable=False)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True, nullable=False)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    user: Mapped[User] = relationship()


class RefreshToken(db.Model):
    """An API refresh token (only its SHA-256). Each use spends it and issues the next of its family;
    presenting a spent one revokes the whole family (it was stolen, or replayed)."""

    __tablename__ = "refresh_tokens"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False)
    family_id: Mapped[str] = mapped_column(String(24), index=True, nullable=False)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class OAuthIdentity(db.Model):
    """An account at an OAuth provider (GitHub, Google) linked to a user: signing in with it signs the
    user in. One provider account links to one user; a user may link several."""

    __tablename__ = "oauth_identities"
    __table_args__ = (UniqueConstraint("provider", "provider_account_id"),)

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False)
    provider: Mapped[str] = mapped_column(String(16), nullable=False)  # "github", "google"
    # GitHub's numeric ``id`` (not the login, which can be renamed), Google's ``sub``.
    provider_account_id: Mapped[str] = mapped_column(String(255), nullable=False)
    # The provider's verified email at the last sign-in (it may differ from the user's own).
    email: Mapped[str | None] = mapped_column(String(254))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)

    user: Mapped[User] = relationship()


class BackupCode(db.Model):
    """A single-use two-factor backup code; only its SHA-256 is stored."""

    __tablename__ = "backup_codes"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False)
    code_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
