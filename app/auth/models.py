"""Server-side sessions, one-time (verification, reset) tokens, refresh tokens, linked OAuth identities,
two-factor backup codes, passkeys (WebAuthn credentials) and their challenges."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, ForeignKey, LargeBinary, String, Text, UniqueConstraint
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
    # When the owner last proved who they are in this session (sign-in, or re-authentication for a
    # security change: app.auth.sudo). None for sessions older than sudo mode.
    authenticated_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The readable backup codes last made in this session, sealed with a key derived from the cookie
    # (never stored here), shown until the owner dismisses them.
    backup_codes: Mapped[str | None] = mapped_column(Text)

    user: Mapped[User] = relationship(lazy="joined")


class OneTimeToken(db.Model):
    """A single-use token mailed to the user; only its SHA-256 is stored."""

    __tablename__ = "one_time_tokens"

    VERIFY_EMAIL = "verify_email"
    RESET_PASSWORD = "reset_password"
    # A short code mailed to a password-less account to re-authenticate a session (app.auth.reauthentication):
    # its hash covers the row's id too, so that two accounts' equal codes never collide.
    REAUTHENTICATE = "reauthenticate"

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
    # The name given to the family's first token when it was created on the account page (app.account.api_tokens)
    name: Mapped[str | None] = mapped_column(String(100))


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


class Passkey(db.Model):
    """A WebAuthn credential (a passkey) that signs its user in (``app.auth.passkeys``): the public key
    and the last signature counter the authenticator reported. A removed passkey keeps its row (with
    ``removed_at``) so that the mail saying it was removed can name it; it signs nobody in any more."""

    __tablename__ = "passkeys"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False)
    # The credential id as base64url (at most 1023 bytes, so 1364 characters), as browsers send it.
    credential_id: Mapped[str] = mapped_column(String(1400), unique=True, nullable=False)
    public_key: Mapped[bytes] = mapped_column(LargeBinary, nullable=False)  # COSE_Key
    sign_count: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0)
    name: Mapped[str] = mapped_column(String(64), nullable=False)
    transports: Mapped[str | None] = mapped_column(String(128))  # comma-separated hints ("internal,hybrid")
    backed_up: Mapped[bool] = mapped_column(Boolean, default=False, nullable=False)  # synced (a multi-device passkey)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    removed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The session that added it (a revoked session's recent passkeys are taken back with it).
    session_id: Mapped[str | None] = mapped_column(String(24))

    user: Mapped[User] = relationship()


class PasskeyChallenge(db.Model):
    """A WebAuthn challenge handed out for one ceremony: registering a passkey (``user_id`` set),
    signing in with one (no user: the passkey names it) or re-authenticating with one (``user_id`` set).
    Single use (``used_at``) and short-lived; only its SHA-256 is stored (the browser's answer carries the
    challenge back, signed)."""

    __tablename__ = "passkey_challenges"

    REGISTER = "register"
    SIGN_IN = "signin"
    REAUTHENTICATE = "reauthenticate"  # a signed-in user's passkey proving it is them (sudo mode)

    id: Mapped[str] = id_column()
    challenge_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    purpose: Mapped[str] = mapped_column(String(16), nullable=False)
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True, nullable=False)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
