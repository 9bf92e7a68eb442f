"""Webhooks and the delivery log (a row per event and webhook, updated after each attempt). The events
themselves are the outbox's (``app.events.models``)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.common.models import JSONDocument, TimestampMixin, UTCDateTime, id_column, utcnow
from app.events.models import Event
from app.extensions import db


class Webhook(TimestampMixin, db.Model):
    """A user's receiver: events of the listed types are posted to ``url``, signed with ``secret``.

    After a rotation, ``previous_secret`` signs too (a second ``webhook-signature``) until
    ``previous_secret_expires_at``. ``failing_since`` is the first failed attempt of the current
    unbroken run of failures (null after a success). The service disables a webhook itself
    (``disabled_reason`` "gone": a 410 answer; "failing": every attempt failed for
    WEBHOOK_DISABLE_AFTER), setting ``active`` false and ``disabled_at``.
    """

    __tablename__ = "webhooks"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False)
    url: Mapped[str] = mapped_column(String(2048), nullable=False)
    events: Mapped[list] = mapped_column(JSONDocument, nullable=False)
    secret: Mapped[str] = mapped_column(String(255), nullable=False)
    active: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)
    previous_secret: Mapped[str | None] = mapped_column(String(255))
    previous_secret_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    failing_since: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    disabled_reason: Mapped[str | None] = mapped_column(String(16))
    disabled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Delivery(db.Model):
    """The delivery of one event to one webhook: its log entry, updated after each attempt.

    ``next_retry_at`` is when its next attempt is due (the first one: at once; the log shows it only
    once an attempt failed) and null once delivered or out of attempts: its index gives the sweep
    the deliveries still to make. ``lease_until`` is set while an attempt runs, so that a second
    job for the same delivery (the sweep's, after a lost one) does not post it at the same time.
    A re-send (resend, recover) is a delivery of its own for the same event, ``resend_of`` naming
    the entry it re-sends (and deleted with it: were it set null instead, SQLite, which applies it
    row by row, would make two re-sends look like two first deliveries); an event's first delivery
    to a webhook is unique.
    """

    __tablename__ = "webhook_deliveries"
    __table_args__ = (Index("uq_webhook_deliveries_first", "webhook_id", "event_id", unique=True,
                            postgresql_where=text("resend_of IS NULL"), sqlite_where=text("resend_of IS NULL")),)

    id: Mapped[str] = id_column()
    webhook_id: Mapped[str] = mapped_column(ForeignKey("webhooks.id", ondelete="CASCADE"), index=True,
                                            nullable=False)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True, nullable=False)
    event_type: Mapped[str] = mapped_column(String(64), nullable=False)
    url: Mapped[str] = mapped_column(String(2048), nullable=False)
    status_code: Mapped[int | None] = mapped_column(Integer)
    response_time: Mapped[int | None] = mapped_column(Integer)
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False, index=True)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    next_retry_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True, default=utcnow)
    error: Mapped[str | None] = mapped_column(Text)
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    resend_of: Mapped[str | None] = mapped_column(ForeignKey("webhook_deliveries.id", ondelete="CASCADE"))

    # Known to the unit of work, so an event and its delivery added together are inserted in order.
    event: Mapped[Event] = relationship()
    webhook: Mapped[Webhook] = relationship()
