"""The outbox's tables: a row per event, and one per mail, written in the transaction of the change that
makes them."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.common.models import JSONDocument, UTCDateTime, id_column, utcnow
from app.extensions import db


class Event(db.Model):
    """What happened (``type``, ``data`` as the contract shapes it), for the webhooks of ``user_id``.

    ``dispatched_at`` is set once the event has been turned into deliveries.
    """

    __tablename__ = "events"

    id: Mapped[str] = id_column()
    type: Mapped[str] = mapped_column(String(64), nullable=False)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False)
    data: Mapped[dict] = mapped_column(JSONDocument, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    dispatched_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)

    # Never read: it tells the unit of work that a user's row goes in before its events (a new user's
    # ``user.registered`` is flushed with the user). Named, not imported: the users room imports this one.
    user = relationship("User", viewonly=False, lazy="raise")


class OutboxMail(db.Model):
    """A mail to send, written in the transaction of the change that asks for it and sent by a worker
    (``app.events.mail``): ``job`` is the function that writes and sends it (a dotted path), ``arg`` its
    one argument (a user's or a webhook's id). ``sent_at`` is set once it left; a worker holds
    ``lease_until`` while it sends; ``next_attempt_at`` is when it is due (None: given up)."""

    __tablename__ = "outbox_mails"

    id: Mapped[str] = id_column()
    job: Mapped[str] = mapped_column(String(128), nullable=False)
    arg: Mapped[str] = mapped_column(String(64), nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    attempts: Mapped[int] = mapped_column(Integer, default=0, nullable=False)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_error: Mapped[str | None] = mapped_column(Text)
