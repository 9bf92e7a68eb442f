"""``record_event``: an event row in the current transaction, relayed once it commits."""
from __future__ import annotations

from app.common.models import new_id, utcnow
from app.events.models import Event
from app.extensions import db
from app.queue import WEBHOOKS, enqueue_after_commit

EVENT_TYPES = ("resume.created", "resume.updated", "resume.deleted", "resume.shared", "resume.exported",
               "user.registered", "user.profile_updated", "user.subscription_changed", "ai.content_generated",
               "ai.analysis_completed")
# The job that reads the outbox (app.webhooks.jobs.relay), by the name RQ stores, and its coalescing key:
# however many events wait, one relay at a time.
RELAY, RELAY_JOB = "webhook-relay", "app.webhooks.jobs.relay"


def record_event(event_type: str, user_id: str, data: dict) -> Event:
    """Add an event row to the current transaction (no commit: it lands with the change it reports),
    and its relay to the jobs enqueued once that transaction commits. Raises ValueError for a type
    not in ``EVENT_TYPES``."""
    if event_type not in EVENT_TYPES:
        raise ValueError(f"unknown event type {event_type!r}")
    event = Event(id=new_id(), type=event_type, user_id=user_id, data=data, created_at=utcnow())
    db.session.add(event)
    enqueue_after_commit(WEBHOOKS, RELAY_JOB, coalesce=RELAY)
    return event
