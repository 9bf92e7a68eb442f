"""The users table: who a person is to the service.

Its columns have one writer each: ``app.users.service`` the person (email, name, avatar,
preferences); ``app.auth`` the credentials (password hash, ``auth_id``, verification, sign-in
time, two-factor); ``app.billing.usage`` the counters (``live_resumes``, ``storage_used``). A
user's ``subscription`` is billing's row, attached by ``app.billing.models`` (a backref), so this
module imports no other room.
"""
from __future__ import annotations

import secrets
from datetime import datetime

from flask_login import UserMixin
from sqlalchemy import BigInteger, Boolean, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app import i18n
from app.common.models import JSONDocument, TimestampMixin, UTCDateTime, id_column
from app.extensions import db


# The interface languages (preferences.language): the contract's two first, in its order, then the others.
LANGUAGES = ("zh-cn", "en", *(code for code in i18n.LANGUAGES if code not in ("zh-cn", "en")))
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
    # Live (not deleted) resumes, kept by billing's usage service in the transaction of each create and
    # delete of a resume: the list's total and the plan limit read it instead of counting rows.
    live_resumes: Mapped[int] = mapped_column(Integer, nullable=False, default=0, server_default="0")
    # Bytes of stored exports, kept by billing's usage service (a conditional update against the plan's
    # storage limit) for the exports and the cleanup that deletes expired files.
    storage_used: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0, server_default="0")
    # language, timezone, theme, emailNotifications, marketingEmails (merged key by key on update)
    preferences: Mapped[dict] = mapped_column(JSONDocument, nullable=False, default=dict)
    # Two-factor sign-in (TOTP, RFC 6238): the base32 secret, and the last time step a code was
    # accepted for, so that a code is not accepted twice.
    two_factor_enabled: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False,
                                                     server_default="0")
    totp_secret: Mapped[str | None] = mapped_column(String(64))
    totp_last_step: Mapped[int | None] = mapped_column(BigInteger)
    # A set-up waiting for its first code (POST /api/account/two-factor/setup): the new secret and
    # until when it may be confirmed. Two-factor stays off (sign-in asks for nothing) until then.
    totp_pending_secret: Mapped[str | None] = mapped_column(String(64))
    totp_pending_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The session that started it: no other session sees its key or may confirm it.
    totp_pending_session_id: Mapped[str | None] = mapped_column(String(24))

    def get_id(self) -> str:
        return self.auth_id

    def rotate_auth_id(self) -> None:
        self.auth_id = new_auth_id()

    @property
    def email_verified(self) -> bool:
        return self.email_verified_at is not None

    @property
    def subscription_type(self) -> str:
        """The plan's type: ``subscription`` is billing's backref (every user has one; FREE without)."""
        return self.subscription.type if self.subscription else "FREE"
