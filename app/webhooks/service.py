"""Webhook use cases: registrations, the event outbox, relay and signed delivery.

Every event is a row written in the transaction of the change it reports
(``record_event``). Once that transaction commits, a ``relay`` job (one at a
time however many events wait: the job is coalesced) claims the waiting
events in batches, creates one delivery (a log row) per active webhook of the
user that subscribes to the type, and posts them: the same bytes it signed,
the same event id on every attempt. A failed first attempt goes to a
``deliver`` job, retried after 1, 2 and 4 seconds by RQ's scheduler. A
periodic ``sweep`` re-enqueues what a Redis outage or a killed process lost:
events never relayed, deliveries never attempted, retries never run. Delivery
is therefore at least once.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from flask import current_app
from sqlalchemy import or_, select, update

from app.common.models import new_id, plausible_id, utcnow
from app.common.schemas import format_timestamp
from app.config import API_VERSION
from app.errors import ApiError
from app.extensions import db
from app.integrations import outbound
from app.queue import WEBHOOKS, enqueue_after_commit, jobs
from app.webhooks.models import Delivery, Event, Webhook

log = logging.getLogger(__name__)

EVENT_TYPES = ("resume.created", "resume.updated", "resume.deleted", "resume.shared", "resume.exported",
               "user.registered", "user.profile_updated", "user.subscription_changed")
# What a webhook may subscribe to: the contract's types (the ai.* ones are not emitted yet).
SUBSCRIBABLE = EVENT_TYPES + ("ai.analysis_completed", "ai.content_generated")
TEST_EVENT = "webhook.test"
MAX_WEBHOOKS = 10
SUCCESS_STATUSES = frozenset({200, 201, 202, 204})
RETRY_INTERVALS = (1, 2, 4)  # seconds before the 2nd, 3rd and 4th attempt
MAX_ATTEMPTS = len(RETRY_INTERVALS) + 1
USER_AGENT = "ResumeService-Webhooks/1.0"
RELAY, RELAY_JOB = "webhook-relay", "app.webhooks.jobs.relay"
RELAY_BATCH = 100  # events claimed per transaction
RELAY_BUDGET = 10.0  # seconds a relay job works before it hands over to a new one
RELAY_THREADS = 8  # first attempts of a batch posted at once: one slow receiver does not hold up the rest


# The outbox ------------------------------------------------------------------------
def record_event(event_type: str, user_id: str, data: dict) -> Event:
    """Add an event row to the current transaction (no commit: it lands with the change it reports),
    and its dispatch to the jobs enqueued once that transaction commits."""
    if event_type not in EVENT_TYPES:
        raise ValueError(f"unknown event type {event_type!r}")
    event = Event(id=new_id(), type=event_type, user_id=user_id, data=data, created_at=utcnow())
    db.session.add(event)
    enqueue_after_commit(WEBHOOKS, RELAY_JOB, coalesce=RELAY)
    return event


def envelope(event: Event) -> dict:
    """What a receiver gets: the contract's envelope around the event's data."""
    return {"id": event.id, "type": event.type, "created": format_timestamp(event.created_at), "data": event.data,
            "api_version": API_VERSION}


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """``sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">``, keyed with the webhook's secret."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


# Registrations -----------------------------------------------------------------------
def check_target(url: str) -> None:
    """Raises VALIDATION_ERROR (``url``) for an address that resolves to a refused network."""
    try:
        outbound.check_url(url, allow_private=current_app.config["WEBHOOK_ALLOW_PRIVATE_TARGETS"])
    except outbound.TargetRefused as exc:
        raise ApiError("VALIDATION_ERROR", f"url: {exc}", {"field": "url"}) from None
    except outbound.OutboundError:
        raise ApiError("VALIDATION_ERROR", "url: The host name does not resolve.", {"field": "url"}) from None


def list_webhooks(user) -> list[Webhook]:
    return list(db.session.scalars(select(Webhook).where(Webhook.user_id == user.id)
                                   .order_by(Webhook.created_at, Webhook.id)))


def get_owned_webhook(user, webhook_id: str) -> Webhook:
    """The user's webhook. Raises WEBHOOK_NOT_FOUND for an unknown id and for another user's."""
    webhook = db.session.get(Webhook, webhook_id) if plausible_id(webhook_id) else None
    if webhook is None or webhook.user_id != user.id:
        raise ApiError("WEBHOOK_NOT_FOUND", "This webhook does not exist.", {"webhookId": webhook_id})
    return webhook


def create_webhook(user, data: dict) -> Webhook:
    """Register a webhook (a secret is generated when none is given). Commits.
    Raises VALIDATION_ERROR (refused address), WEBHOOK_LIMIT_EXCEEDED (10 per user)."""
    check_target(data["url"])
    count = db.session.scalar(select(db.func.count(Webhook.id)).where(Webhook.user_id == user.id))
    if count >= MAX_WEBHOOKS:
        raise ApiError("WEBHOOK_LIMIT_EXCEEDED", f"At most {MAX_WEBHOOKS} webhooks per account.",
                       {"limit": MAX_WEBHOOKS})
    webhook = Webhook(user_id=user.id, url=data["url"], events=_unique(data["events"]),
                      secret=data.get("secret") or "whsec_" + secrets.token_urlsafe(24),
                      active=data.get("active", True))
    db.session.add(webhook)
    db.session.commit()
    return webhook


def update_webhook(user, webhook_id: str, data: dict) -> Webhook:
    """Apply the given fields. Commits. Raises WEBHOOK_NOT_FOUND, VALIDATION_ERROR (refused address)."""
    webhook = get_owned_webhook(user, webhook_id)
    if "url" in data and data["url"] != webhook.url:
        check_target(data["url"])
        webhook.url = data["url"]
    if "events" in data:
        webhook.events = _unique(data["events"])
    for field in ("secret", "active"):
        if field in data:
            setattr(webhook, field, data[field])
    db.session.commit()
    return webhook


def delete_webhook(user, webhook_id: str) -> None:
    """Delete the webhook and its log. Commits. Raises WEBHOOK_NOT_FOUND."""
    db.session.delete(get_owned_webhook(user, webhook_id))
    db.session.commit()


def delivery_log(user, webhook_id: str, limit: int) -> list[Delivery]:
    """The webhook's latest deliveries, newest first. Raises WEBHOOK_NOT_FOUND."""
    webhook = get_owned_webhook(user, webhook_id)
    # Deliveries made together (a relay batch) are ordered by their events.
    return list(db.session.scalars(select(Delivery).join(Event).where(Delivery.webhook_id == webhook.id)
                                   .order_by(Delivery.created_at.desc(), Event.created_at.desc(), Delivery.id.desc())
                                   .limit(limit)))


def send_test(user, webhook_id: str) -> Delivery:
    """Post a ``webhook.test`` event to the webhook now and return its log entry after the first attempt
    (later attempts follow as for any event). Commits. Raises WEBHOOK_NOT_FOUND."""
    webhook = get_owned_webhook(user, webhook_id)
    now = utcnow()
    event = Event(id=new_id(), type=TEST_EVENT, user_id=user.id, created_at=now, dispatched_at=now,
                  data={"webhook": {"id": webhook.id, "url": webhook.url},
                        "message": "A test delivery from the Resume Service."})
    delivery = Delivery(id=new_id(), webhook_id=webhook.id, event_id=event.id, event_type=TEST_EVENT,
                        url=webhook.url, created_at=now)
    db.session.add_all([event, delivery])
    db.session.commit()
    delivery_id = delivery.id
    jobs().enqueue(WEBHOOKS, "app.webhooks.jobs.deliver", delivery_id, retry_intervals=RETRY_INTERVALS)
    # RQ keeps no result of an attempt that will be retried, so wait for the log row instead.
    deadline = time.monotonic() + current_app.config["WEBHOOK_TIMEOUT"] + 5
    while True:
        db.session.expire_all()
        delivery = db.session.get(Delivery, delivery_id)
        if delivery.attempts >= 1 or time.monotonic() > deadline:
            db.session.rollback()  # the read transaction of the last look
            return delivery
        time.sleep(0.05)


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


# Jobs' work ---------------------------------------------------------------------------
def relay() -> int:
    """Dispatch waiting events and make their first attempts, a batch at a time (a job, coalesced:
    however many events were recorded meanwhile, one relay runs). Returns the number of deliveries.

    Each event is claimed with a conditional update, so that relays running at once never dispatch
    it twice; its deliveries (one per active webhook of its user subscribed to its type) are written
    leased in the same transaction. The posts of a batch run in a thread pool; the results are
    recorded together; a failed one is handed to a ``deliver`` job for its retries.
    """
    jobs().started(RELAY)
    # Rows stay readable after each commit (no reload of every delivery, event and webhook).
    db.session().expire_on_commit = False
    deadline = time.monotonic() + RELAY_BUDGET
    total = 0
    while True:
        deliveries = _claim_batch()
        if deliveries is None:
            return total
        total += len(deliveries)
        _first_attempts(deliveries)
        if time.monotonic() > deadline:
            jobs().enqueue(WEBHOOKS, RELAY_JOB, coalesce=RELAY)  # the rest in a new job
            return total


def _claim_batch() -> list[Delivery] | None:
    """Claim up to RELAY_BATCH waiting events and create their deliveries (committed, leased): one per
    active webhook of the event's user, subscribed to its type and registered before it. None when
    no event waits."""
    now = utcnow()
    events = list(db.session.scalars(select(Event).where(Event.dispatched_at.is_(None))
                                     .order_by(Event.created_at).limit(RELAY_BATCH)))
    if not events:
        db.session.rollback()
        return None
    hooks: dict[str, list[Webhook]] = {}
    for webhook in db.session.scalars(select(Webhook).where(Webhook.user_id.in_({e.user_id for e in events}),
                                                            Webhook.active.is_(True))):
        hooks.setdefault(webhook.user_id, []).append(webhook)
    # Claimed in one statement; an event another relay claimed first is not returned.
    claimed = set(db.session.scalars(
        update(Event).where(Event.id.in_([e.id for e in events]), Event.dispatched_at.is_(None))
        .values(dispatched_at=now).returning(Event.id).execution_options(synchronize_session=False)))
    deliveries = []
    for event in events:
        if event.id not in claimed:
            continue
        for webhook in hooks.get(event.user_id, ()):
            # A webhook hears of what happens after it is registered, not of events still waiting then.
            if event.type in webhook.events and webhook.created_at <= event.created_at:
                deliveries.append(Delivery(id=new_id(), webhook=webhook, event=event, event_type=event.type,
                                           url=webhook.url, created_at=now, lease_until=_lease_end(now)))
    db.session.add_all(deliveries)
    db.session.commit()
    return deliveries


def _first_attempts(deliveries: list[Delivery]) -> None:
    config = current_app.config
    requests = [_signed_request(delivery) for delivery in deliveries]
    with ThreadPoolExecutor(RELAY_THREADS) as pool:
        results = list(pool.map(lambda request: _post(*request, timeout=config["WEBHOOK_TIMEOUT"],
                                                      allow_private=config["WEBHOOK_ALLOW_PRIVATE_TARGETS"]),
                                requests))
    failed = [d.id for d, result in zip(deliveries, results) if _record(d, *result) == "failed"]
    db.session.commit()
    for delivery_id in failed:
        # The rest of the schedule: 1 s from now, then RQ's Retry for the 2 s and 4 s ones.
        jobs().enqueue(WEBHOOKS, "app.webhooks.jobs.deliver", delivery_id,
                       delay=timedelta(seconds=RETRY_INTERVALS[0]), retry_intervals=RETRY_INTERVALS[1:])


class DeliveryFailed(Exception):
    """An attempt did not succeed and attempts are left: raised so that RQ schedules the retry."""


def deliver(delivery_id: str) -> str:
    """One attempt of a delivery (a job); the log row is updated after it. Raises DeliveryFailed when
    it failed with attempts left, so that RQ retries the job. Returns what happened."""
    now = utcnow()
    # The lease: only one attempt of a delivery at a time, and none once it is done.
    claimed = db.session.execute(
        update(Delivery).where(Delivery.id == delivery_id, Delivery.delivered_at.is_(None),
                               Delivery.attempts < MAX_ATTEMPTS,
                               or_(Delivery.lease_until.is_(None), Delivery.lease_until < now))
        .values(lease_until=_lease_end(now))).rowcount
    db.session.commit()
    if not claimed:
        return "nothing to do"
    delivery = db.session.get(Delivery, delivery_id)
    outcome = _attempt(delivery)
    if outcome == "failed" and delivery.attempts < MAX_ATTEMPTS:
        raise DeliveryFailed(f"attempt {delivery.attempts} failed: {delivery.error}")
    return outcome


def _lease_end(now):
    return now + timedelta(seconds=current_app.config["WEBHOOK_TIMEOUT"] + 30)


def _attempt(delivery: Delivery) -> str:
    """Post a leased delivery once and record the result on its row (committed).
    Returns "delivered" or "failed"."""
    config = current_app.config
    result = _post(*_signed_request(delivery), timeout=config["WEBHOOK_TIMEOUT"],
                   allow_private=config["WEBHOOK_ALLOW_PRIVATE_TARGETS"])
    outcome = _record(delivery, *result)
    db.session.commit()
    return outcome


def _signed_request(delivery: Delivery) -> tuple[str, bytes, dict]:
    """The delivery's URL, body and headers: the body is signed as it will be sent, byte for byte."""
    body = json.dumps(envelope(delivery.event), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    timestamp = int(time.time())
    return delivery.webhook.url, body, {
        "Content-Type": "application/json", "X-Service-Timestamp": str(timestamp),
        "X-Service-Signature": sign(delivery.webhook.secret, timestamp, body)}


def _post(url: str, body: bytes, headers: dict, *, timeout: float,
          allow_private: bool) -> tuple[int | None, int | None, str | None]:
    """One post (safe in a thread: no app or database): (status, elapsed ms, error or None)."""
    try:
        response = outbound.request("POST", url, body=body, headers=headers, timeout=timeout,
                                    allow_private=allow_private, max_bytes=64 * 1024, user_agent=USER_AGENT)
    except outbound.OutboundTimeout:
        return None, int(timeout * 1000), f"No answer within {timeout:g} s."
    except outbound.ResponseTooLarge as exc:
        if exc.status in SUCCESS_STATUSES:
            return exc.status, None, None
        return exc.status, None, "The answer was larger than 64 KiB."
    except outbound.OutboundError as exc:
        return None, None, str(exc) or type(exc).__name__
    if response.status not in SUCCESS_STATUSES:
        return response.status, response.elapsed_ms, f"HTTP {response.status}: the receiver did not accept the event."
    return response.status, response.elapsed_ms, None


def _record(delivery: Delivery, status: int | None, elapsed: int | None, error: str | None) -> str:
    """Write an attempt's result on the delivery's row (the caller commits). Returns "delivered" or "failed"."""
    now = utcnow()
    delivery.attempts += 1
    delivery.status_code, delivery.response_time, delivery.last_attempt_at = status, elapsed, now
    delivery.lease_until = None
    delivery.error = error
    if error is None:
        delivery.delivered_at, delivery.next_retry_at = now, None
    elif delivery.attempts < MAX_ATTEMPTS:
        delivery.next_retry_at = now + timedelta(seconds=RETRY_INTERVALS[delivery.attempts - 1])
    else:
        delivery.next_retry_at = None
    return "delivered" if error is None else "failed"


def sweep(now=None) -> dict[str, int]:
    """Re-enqueue what was lost: events not dispatched, deliveries never attempted or whose retry did
    not run, for longer than WEBHOOK_SWEEP_GRACE seconds. Returns the counts."""
    now = now or utcnow()
    # What the normal path is still expected to do within the grace is left alone.
    stale = now - timedelta(seconds=current_app.config["WEBHOOK_SWEEP_GRACE"])
    events = list(db.session.scalars(select(Event.id).where(Event.dispatched_at.is_(None), Event.created_at < stale)
                                     .limit(500)))
    deliveries = list(db.session.scalars(select(Delivery.id).where(
        Delivery.delivered_at.is_(None), Delivery.attempts < MAX_ATTEMPTS,
        or_(Delivery.lease_until.is_(None), Delivery.lease_until < now),
        or_((Delivery.attempts == 0) & (Delivery.created_at < stale),
            (Delivery.next_retry_at.is_not(None)) & (Delivery.next_retry_at < stale))).limit(500)))
    db.session.rollback()
    if events:
        jobs().enqueue(WEBHOOKS, RELAY_JOB, coalesce=RELAY)
    for delivery_id in deliveries:
        jobs().enqueue(WEBHOOKS, "app.webhooks.jobs.deliver", delivery_id, retry_intervals=RETRY_INTERVALS)
    return {"events": len(events), "deliveries": len(deliveries)}
