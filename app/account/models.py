"""Users and their two-factor backup codes (a user's subscription row is billing's: ``app.billing.models``)."""
from __future__ import annotations

import secrets
from datetime import datetime

from flask_login import UserMixin
from sqlalchemy import BigInteger, Boolean, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.billing.models import Subscription
from app.common.models import JSONDocument, TimestampMixin, UTCDateTime, id_column, utcnow
from app.extensions import db


LANGUAGES = ("zh-cn", "en")
THEMES = ("light", "dark", "auto")
# What a user who never chose gets; stored preferences are merged over these.
DEFAULT_PREFERENCES = {"language": "en", "timezone": "UTC", "theme": "auto", "emailNotifications": True,
                       "marketingEmails": False}


def new_auth_id() -> str:
    return secrets.token_hex(16)


class User(UserMixin, TimestampMixin, db.Model):
    __tablename__ = "users"

    id: Mapped[str] = id_column()
    email: Mapped[str] = mapped_column(String(254), unique=True, nullable=False)
    name: Mapped[str] = mapped_column(String(100), nullable=False)
    # Null for accounts that only sign in through an OAuth provider.
    password_hash: Mapped[str | None] = mapped_column(String(60))
    # Flask-Login's id: rotating it ends every session of the user in one update.
    auth_id: Mapped[str] = mapped_column(String(32), unique=True, nullable=False, default=new_auth_id)
    email_verified_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    avatar: Mapped[str | None] = mapped_column(Text)
    last_login_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Live (not deleted) resumes, kept by the resume service in the transaction of each create and
    # delete: the list's total and the plan limit read it instead of counting rows.
    live_resumes: Mapped[int] = mapped_column(Integer, nullable=False, default=0, server_default="0")
    # Bytes of stored exports, kept by the export service (a conditional update against the plan's
    # storage limit) and by the cleanup that deletes expired files.
    storage_used: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0, server_default="0")
    # language, timezone, theme, emailNotifications, marketingEmails (merged key by key on update)
    preferences: Mapped[dict] = mapped_column(JSONDocument, nullable=False, default=dict)
    # Two-factor sign-in (TOTP, RFC 6238): the base32 secret, and the last time step a code was
    # accepted for, so that a code is not accepted twice.
    two_factor_enabled: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False,
                                                     server_default="0")
    totp_secret: Mapped[str | None] = mapped_column(String(64))
    totp_last_step: Mapped[int | None] = mapped_column(BigInteger)

    subscription: Mapped[Subscription] = relationship(back_populates="user", uselist=False, lazy="joined",
                                                      cascade="all, delete-orphan")

    def get_id(self) -> str:
        return self.auth_id

    def rotate_auth_id(self) -> None:
        self.auth_id = new_auth_id()

    @property
    def email_verified(self) -> bool:
        return self.email_verified_at is not None

    @property
    def subscription_type(self) -> str:
        return self.subscription.type if self.subscription else "FREE"


class BackupCode(db.Model):
    """A single-use two-factor backup code; only its SHA-256 is stored."""

    __tablename__ = "backup_codes"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False)
    code_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
