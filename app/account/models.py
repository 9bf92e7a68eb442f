"""Users and their subscription row."""
from __future__ import annotations

import secrets
from datetime import datetime

from flask_login import UserMixin
from sqlalchemy import BigInteger, Boolean, ForeignKey, Index, Integer, Numeric, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

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


class Subscription(TimestampMixin, db.Model):
    __tablename__ = "subscriptions"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), unique=True, nullable=False)
    type: Mapped[str] = mapped_column(String(16), nullable=False, default="FREE")
    status: Mapped[str] = mapped_column(String(16), nullable=False, default="ACTIVE")
    current_period_start: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)
    # Indexed: the period-end job looks for the periods that have ended.
    current_period_end: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, index=True)
    cancel_at_period_end: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    trial_end: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # A downgrade waiting for the period end: the type it becomes then.
    pending_type: Mapped[str | None] = mapped_column(String(16))
    coupon_id: Mapped[str | None] = mapped_column(ForeignKey("coupons.id", ondelete="SET NULL"))
    # The card on file, as the payment provider describes it (never the number).
    payment_method_id: Mapped[str | None] = mapped_column(String(64))
    payment_method_type: Mapped[str | None] = mapped_column(String(16))
    payment_method_brand: Mapped[str | None] = mapped_column(String(16))
    payment_method_last4: Mapped[str | None] = mapped_column(String(4))
    payment_method_exp_month: Mapped[int | None] = mapped_column(Integer)
    payment_method_exp_year: Mapped[int | None] = mapped_column(Integer)
    # Bearer-token requests in the current usage period (reset with the period, at current_period_end).
    api_requests_used: Mapped[int] = mapped_column(Integer, nullable=False, default=0, server_default="0")

    user: Mapped[User] = relationship(back_populates="subscription")


class BackupCode(db.Model):
    """A single-use two-factor backup code; only its SHA-256 is stored."""

    __tablename__ = "backup_codes"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False)
    code_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Coupon(db.Model):
    """A percent-off coupon an operator creates (``flask coupons create``)."""

    __tablename__ = "coupons"

    id: Mapped[str] = id_column()
    code: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    percent_off: Mapped[int] = mapped_column(Integer, nullable=False)
    max_redemptions: Mapped[int | None] = mapped_column(Integer)
    times_redeemed: Mapped[int] = mapped_column(Integer, nullable=False, default=0, server_default="0")
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)


class PaymentIntent(db.Model):
    """A payment of a subscription change, as the provider reports it (the 3-D-Secure-like path
    waits in ``requires_action`` until its confirmation address is posted)."""

    __tablename__ = "payment_intents"
    # A user's payments by status: what is owed, what waits for the card holder.
    __table_args__ = (Index("ix_payment_intents_user_status", "user_id", "status"),)

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    provider_id: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    plan_type: Mapped[str] = mapped_column(String(16), nullable=False)
    amount: Mapped[float] = mapped_column(Numeric(10, 2), nullable=False)
    currency: Mapped[str] = mapped_column(String(3), nullable=False)
    status: Mapped[str] = mapped_column(String(24), nullable=False)
    payment_method_id: Mapped[str] = mapped_column(String(64), nullable=False)
    coupon_id: Mapped[str | None] = mapped_column(ForeignKey("coupons.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
