"""Billing's tables: each user's subscription row, the coupons operators create, and payments."""
from __future__ import annotations

from datetime import datetime
from sqlalchemy import Boolean, ForeignKey, Index, Integer, Numeric, String
from sqlalchemy.orm import Mapped, backref, mapped_column, relationship

from app.common.models import TimestampMixin, UTCDateTime, id_column, utcnow
from app.extensions import db
from app.users.models import User


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

    # ``User.subscription`` (loaded with the user, in the same query): the users table knows no billing.
    user: Mapped[User] = relationship(backref=backref("subscription", uselist=False, lazy="joined",
                                                      cascade="all, delete-orphan"))


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
