"""Users and their subscription row."""
from __future__ import annotations

import secrets
from datetime import datetime

from flask_login import UserMixin
from sqlalchemy import BigInteger, Boolean, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.common.models import TimestampMixin, UTCDateTime, id_column
from app.extensions import db


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


class Subscription(TimestampMixin, db.Model):
    __tablename__ = "subscriptions"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), unique=True, nullable=False)
    type: Mapped[str] = mapped_column(String(16), nullable=False, default="FREE")
    status: Mapped[str] = mapped_column(String(16), nullable=False, default="ACTIVE")
    current_period_start: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)
    current_period_end: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)
    cancel_at_period_end: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)

    user: Mapped[User] = relationship(back_populates="subscription")
