"""Webhook use cases. Events: recorded here, in the caller's transaction (the outbox).

Delivering them (a dispatcher, signed posts with retries) is built with the
webhooks issue; until then the rows wait in ``events`` with ``dispatched_at``
null, which is exactly what the dispatcher will pick up.
"""
from __future__ import annotations

from app.extensions import db
from app.webhooks.models import Event

EVENT_TYPES = ("resume.created", "resume.updated", "resume.deleted", "resume.shared", "resume.exported",
               "user.registered", "user.profile_updated", "user.subscription_changed")


def record_event(event_type: str, user_id: str, data: dict) -> Event:
    """Add an event row to the current transaction (no commit: it lands with the change it reports)."""
    if event_type not in EVENT_TYPES:
        raise ValueError(f"unknown event type {event_type!r}")
    event = Event(type=event_type, user_id=user_id, data=data)
    db.session.add(event)
    return event
