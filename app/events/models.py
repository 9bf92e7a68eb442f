"""The outbox's table: a row per event, written in the transaction of the change it reports."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
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
