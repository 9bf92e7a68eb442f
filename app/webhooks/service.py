"""Webhook use cases: registrations, the event outbox, relay and signed delivery.

Every event is a row written in the transaction of the change it reports
(``record_event``). Once that transaction commits, a ``relay`` job (one at a
time however many events wait: the job is coalesced) claims the waiting
events in batches, creates one delivery (a log row) per active webhook of the
user that subscribes to the type, and posts them: the same bytes it signed,
the same event id on every attempt, each result recorded as its post
completes (``delivery.post_leased``). A failed first attempt goes to a
``deliver`` job, retried after 1, 2 and 4 seconds by RQ's scheduler. A
periodic ``sweep`` finds what a Redis outage or a killed process lost: it
enqueues a relay for events never relayed, and itself posts, in parallel, the
deliveries never attempted or whose retry did not run. Delivery is therefore
at least once.

Owners keep their endpoints working: a secret is rotated with an overlap
(``rotate_secret``: the old one still signs for WEBHOOK_SECRET_OVERLAP), an
event is sent again on request (``resend``, ``recover``: new log entries that
name the entry they re-send), and a webhook that is gone (a 410) or failing for
WEBHOOK_DISABLE_AFTER is disabled, its owner mailed (``delivery.disable``; the
sweep finds the failing ones) until a PUT switches it on again.
"""
from __future__ import annotations

import base64
import logging
import secrets
import time
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import delete, exists, or_, select, update
from sqlalchemy.orm import aliased, selectinload

from app.common.models import new_id, plausible_id, utcnow
from app.errors import ApiError
from app.extensions import db
from app.integrations import outbound
from app.queue import WEBHOOKS, QueueUnavailable, enqueue_after_commit, jobs
from app.webhooks.delivery import (DELIVER_JOB, DISABLED_FAILING, MAX_ATTEMPTS, RETRY_INTERVALS, SECRET_PREFIX,
                                   attempt, disable, lease_end, post_leased, submit_deadline)
from app.webhooks.models import Delivery, Event, Webhook

log = logging.getLogger(__name__)

EVENT_TYPES = ("resume.created", "resume.updated", "resume.deleted", "resume.shared", "resume.exported",
               "user.registered", "user.profile_updated", "user.subscription_changed", "ai.content_generated",
               "ai.analysis_completed")
# What a webhook may subscribe to: the contract's types, those not emitted yet included.
SUBSCRIBABLE = EVENT_TYPES + tuple(name for name in ("ai.analysis_completed", "ai.content_generated")
                                   if name not in EVENT_TYPES)
TEST_EVENT = "webhook.test"
MAX_WEBHOOKS = 10
RELAY, RELAY_JOB = "webhook-relay", "app.webhooks.jobs.relay"
RELAY_BATCH = 100  # events claimed per transaction
RELAY_BUDGET = 10.0  # seconds a relay job works before it hands over to a new one
SWEEP_BATCH = 500  # lost deliveries a sweep claims at most
# RQ runs a retry at or after its time; a job a little early (clocks) still counts as on time.
DUE_TOLERANCE = timedelta(seconds=1)


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


def generate_secret() -> str:
    """``whsec_`` and the base64 of 32 random bytes: the Standard Webhooks form, which its libraries
    take as it is (the key is the decoded bytes; X-Service-Signature is keyed with the whole string)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def create_webhook(user, data: dict) -> Webhook:
    """Register a webhook (a secret is generated when none is given). Commits.
    Raises VALIDATION_ERROR (refused address), WEBHOOK_LIMIT_EXCEEDED (10 per user)."""
    check_target(data["url"])
    count = db.session.scalar(select(db.func.count(Webhook.id)).where(Webhook.user_id == user.id))
    if count >= MAX_WEBHOOKS:
        raise ApiError("WEBHOOK_LIMIT_EXCEEDED", f"At most {MAX_WEBHOOKS} webhooks per account.",
                       {"limit": MAX_WEBHOOKS})
    webhook = Webhook(user_id=user.id, url=data["url"], events=_unique(data["events"]),
                      secret=data.get("secret") or generate_secret(),
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
    if "secret" in data:  # a replacement, not a rotation: the old secret stops signing at once
        webhook.secret, webhook.previous_secret, webhook.previous_secret_expires_at = data["secret"], None, None
    if "active" in data:
        webhook.active = data["active"]
        if data["active"]:  # switched on again: a fresh start (events from now on are delivered)
            webhook.disabled_reason = webhook.disabled_at = webhook.failing_since = None
    db.session.commit()
    return webhook


def rotate_secret(user, webhook_id: str, secret: str | None = None) -> Webhook:
    """Replace the webhook's secret with ``secret`` (generated when None); the replaced one still
    signs (a second ``webhook-signature``) for WEBHOOK_SECRET_OVERLAP. Only one previous secret is
    kept: a second rotation within the overlap drops the first one. Commits. Raises WEBHOOK_NOT_FOUND."""
    webhook = get_owned_webhook(user, webhook_id)
    webhook.previous_secret, webhook.secret = webhook.secret, secret or generate_secret()
    webhook.previous_secret_expires_at = utcnow() + current_app.config["WEBHOOK_SECRET_OVERLAP"]
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
                        url=webhook.url, created_at=now, next_retry_at=now)
    db.session.add_all([event, delivery])
    db.session.commit()
    delivery_id = delivery.id
    jobs().enqueue(WEBHOOKS, DELIVER_JOB, delivery_id, retry_intervals=RETRY_INTERVALS)
    # RQ keeps no result of an attempt that will be retried, so wait for the log row instead.
    deadline = time.monotonic() + current_app.config["WEBHOOK_TIMEOUT"] + 5
    while True:
        db.session.expire_all()
        delivery = db.session.get(Delivery, delivery_id)
        if delivery.attempts >= 1 or time.monotonic() > deadline:
            db.session.rollback()  # the read transaction of the last look
            return delivery
        time.sleep(0.05)


def resend(user, webhook_id: str, log_id: str) -> Delivery:
    """Send the event of a log entry (delivered or failed) again now, as a new log entry that names it
    (``resend_of``) and is retried like any. Commits. Raises WEBHOOK_NOT_FOUND, NOT_FOUND (no such
    entry of this webhook), WEBHOOK_DISABLED."""
    webhook = get_owned_webhook(user, webhook_id)
    original = db.session.get(Delivery, log_id) if plausible_id(log_id) else None
    if original is None or original.webhook_id != webhook.id:
        raise ApiError("NOT_FOUND", "This delivery log entry does not exist.", {"logId": log_id})
    _require_active(webhook)
    [delivery] = _resend_all(webhook, [original])
    return delivery


def recover(user, webhook_id: str, since: datetime) -> int:
    """Send again every event whose delivery failed (out of attempts, not delivered) since ``since``,
    once per event, leaving out events delivered or still being tried since (a re-send included).
    Commits. Returns how many it re-sent. Raises WEBHOOK_NOT_FOUND, VALIDATION_ERROR (``since`` in
    the future or before the log's retention), WEBHOOK_DISABLED."""
    webhook = get_owned_webhook(user, webhook_id)
    now = utcnow()
    if since > now:
        raise ApiError("VALIDATION_ERROR", "since: Must not be in the future.", {"field": "since"})
    retention = current_app.config["WEBHOOK_LOG_RETENTION"]
    if since < now - retention:
        raise ApiError("VALIDATION_ERROR", f"since: At most {retention.days} days back (the log's retention).",
                       {"field": "since"})
    _require_active(webhook)
    # Events delivered, or still being tried, since (a re-send's included): not re-sent.
    settled = select(Delivery.event_id).where(
        Delivery.webhook_id == webhook.id, or_(Delivery.delivered_at.isnot(None), Delivery.next_retry_at.isnot(None)))
    failed = db.session.scalars(
        select(Delivery).where(Delivery.webhook_id == webhook.id, Delivery.created_at >= since,
                               Delivery.delivered_at.is_(None), Delivery.next_retry_at.is_(None),
                               Delivery.attempts > 0, Delivery.event_id.not_in(settled))
        .order_by(Delivery.created_at.desc(), Delivery.id.desc()))
    latest: dict[str, Delivery] = {}
    for delivery in failed:  # newest first: an event's latest failed entry is the one re-sent
        latest.setdefault(delivery.event_id, delivery)
    return len(_resend_all(webhook, sorted(latest.values(), key=lambda d: d.created_at)))


def _require_active(webhook: Webhook) -> None:
    if not webhook.active:
        raise ApiError("WEBHOOK_DISABLED", "This webhook is disabled: switch it on (PUT with active: true) first.",
                       {"webhookId": webhook.id, "disabledReason": webhook.disabled_reason})


def _resend_all(webhook: Webhook, originals: list[Delivery]) -> list[Delivery]:
    """New deliveries of the events of ``originals``, each naming its original, their first attempts
    enqueued once committed (the sweep makes one whose job is lost). Commits."""
    now = utcnow()
    deliveries = [Delivery(id=new_id(), webhook_id=webhook.id, event_id=original.event_id,
                           event_type=original.event_type, url=webhook.url, created_at=now, next_retry_at=now,
                           resend_of=original.id) for original in originals]
    db.session.add_all(deliveries)
    for delivery in deliveries:
        enqueue_after_commit(WEBHOOKS, DELIVER_JOB, delivery.id, retry_intervals=RETRY_INTERVALS)
    db.session.commit()
    return deliveries


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


# Jobs' work ---------------------------------------------------------------------------
def relay() -> int:
    """Dispatch waiting events and make their first attempts, a batch at a time (a job, coalesced:
    however many events were recorded meanwhile, one relay runs). Returns the number of deliveries.

    Each event is claimed with a conditional update, so that relays running at once never dispatch
    it twice; its deliveries (one per active webhook of its user subscribed to its type) are written
    leased in the same transaction. The posts of a batch run in a thread pool and each result is
    recorded as its post completes; a failed one is handed to a ``deliver`` job for its retries.
    """
    jobs().started(RELAY)
    # Rows stay readable after each commit (no reload of every delivery, event and webhook).
    db.session().expire_on_commit = False
    started = time.monotonic()
    deadline = started + RELAY_BUDGET
    total = 0
    while True:
        claimed = _claim_batch()
        if claimed is None:
            return total
        deliveries, lease = claimed
        total += len(deliveries)
        post_leased(deliveries, lease, submit_until=submit_deadline(started))
        if time.monotonic() > deadline:
            jobs().enqueue(WEBHOOKS, RELAY_JOB, coalesce=RELAY)  # the rest in a new job
            return total


def _claim_batch() -> tuple[list[Delivery], datetime] | None:
    """Claim up to RELAY_BATCH waiting events and create their deliveries (committed, leased): one per
    active webhook of the event's user, subscribed to its type and registered before it. Returns
    them with the end of their lease, or None when no event waits."""
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
    lease = lease_end(now)
    deliveries = []
    for event in events:
        if event.id not in claimed:
            continue
        for webhook in hooks.get(event.user_id, ()):
            # A webhook hears of what happens after it is registered, not of events still waiting then.
            if event.type in webhook.events and webhook.created_at <= event.created_at:
                deliveries.append(Delivery(id=new_id(), webhook=webhook, event=event, event_type=event.type,
                                           url=webhook.url, created_at=now, next_retry_at=now, lease_until=lease))
    db.session.add_all(deliveries)
    db.session.commit()
    return deliveries, lease


class DeliveryFailed(Exception):
    """An attempt did not succeed and attempts are left: raised so that RQ schedules the retry."""


def deliver(delivery_id: str) -> str:
    """One attempt of a delivery (a job), if it is due and not leased; the log row is updated after it.
    Raises DeliveryFailed when it failed with attempts left, so that RQ retries the job. Returns what
    happened."""
    now = utcnow()
    # The lease: only one attempt of a delivery at a time, none once it is done, and none ahead of its
    # schedule (a retry the sweep already made leaves this job nothing to do).
    # A delivery stopped (next_retry_at null: its webhook was disabled) is not made either.
    claimed = db.session.execute(
        update(Delivery).where(_attempt_left(now), Delivery.id == delivery_id,
                               Delivery.next_retry_at <= now + DUE_TOLERANCE)
        .values(lease_until=lease_end(now))).rowcount
    db.session.commit()
    if not claimed:
        return "nothing to do"
    delivery = db.session.get(Delivery, delivery_id)
    outcome = attempt(delivery)
    if outcome == "failed" and delivery.attempts < MAX_ATTEMPTS:
        raise DeliveryFailed(f"attempt {delivery.attempts} failed: {delivery.error}")
    return outcome


def _attempt_left(now):
    """Not delivered, attempts left, and no attempt running (no lease held at ``now``)."""
    return (Delivery.delivered_at.is_(None) & (Delivery.attempts < MAX_ATTEMPTS)
            & or_(Delivery.lease_until.is_(None), Delivery.lease_until < now))


def sweep(now=None) -> dict[str, int]:
    """Take over what was lost, late by more than WEBHOOK_SWEEP_GRACE seconds: enqueue a relay for
    events not dispatched, and post the deliveries whose attempt is due (a first attempt, or a retry
    that did not run) and not leased (a killed worker's lease lapses after one post's time). Those
    are claimed with a lease, as ``deliver`` does, posted in parallel and each result recorded as it
    completes; a failure goes on with the retry schedule. First, it disables the webhooks whose every
    attempt has failed for WEBHOOK_DISABLE_AFTER (their retries stop). Commits. Returns the counts."""
    started = time.monotonic()
    db.session().expire_on_commit = False
    now = now or utcnow()
    failing = disable_failing(now)
    # What the normal path is still expected to do within the grace is left alone.
    stale = now - timedelta(seconds=current_app.config["WEBHOOK_SWEEP_GRACE"])
    events = list(db.session.scalars(select(Event.id).where(Event.dispatched_at.is_(None), Event.created_at < stale)
                                     .limit(500)))
    # A range of the next_retry_at index: only deliveries with an attempt to come have one.
    due = list(db.session.scalars(select(Delivery.id).where(Delivery.next_retry_at < stale, _attempt_left(now))
                                  .order_by(Delivery.next_retry_at).limit(SWEEP_BATCH)))
    deliveries, lease = [], lease_end(utcnow())
    if due:
        claimed = list(db.session.scalars(
            # The due test again: another sweep may have posted one since the look-up (its next attempt is
            # then in the future), and it must not be posted again ahead of its retry.
            update(Delivery).where(Delivery.id.in_(due), Delivery.next_retry_at < stale, _attempt_left(now))
            .values(lease_until=lease)
            .returning(Delivery.id).execution_options(synchronize_session=False)))
        deliveries = list(db.session.scalars(
            select(Delivery).where(Delivery.id.in_(claimed)).order_by(Delivery.next_retry_at)
            .options(selectinload(Delivery.event), selectinload(Delivery.webhook))))
    db.session.commit()
    post_leased(deliveries, lease, submit_until=submit_deadline(started))
    if events:
        try:
            jobs().enqueue(WEBHOOKS, RELAY_JOB, coalesce=RELAY)
        except QueueUnavailable as exc:  # the next sweep asks again
            log.warning("sweep: could not enqueue a relay: %s", exc)
    return {"events": len(events), "deliveries": len(deliveries), "disabled": failing}


def disable_failing(now: datetime) -> int:
    """Disable each active webhook whose current run of failures started WEBHOOK_DISABLE_AFTER ago or
    earlier (no success since), and mail its owner. Commits. Returns how many it disabled."""
    cutoff = now - current_app.config["WEBHOOK_DISABLE_AFTER"]
    failing = list(db.session.scalars(select(Webhook.id).where(Webhook.failing_since <= cutoff,
                                                               Webhook.active.is_(True))))
    db.session.rollback()  # the read transaction
    return sum(disable(webhook_id, DISABLED_FAILING, now) for webhook_id in failing)


def delete_old_logs(now=None) -> int:
    """Periodic: delete the log entries older than WEBHOOK_LOG_RETENTION with no attempt to come,
    then the dispatched events that old which no entry names any more. An entry that a newer re-send
    names stays while that re-send does (leaves first, so the re-sends' cascade never takes a newer
    entry with it). Commits. Returns how many log entries it deleted."""
    cutoff = (now or utcnow()) - current_app.config["WEBHOOK_LOG_RETENTION"]
    resend = aliased(Delivery)
    deleted = 0
    while True:  # one round per link of a re-send chain: few
        gone = db.session.execute(
            delete(Delivery).where(Delivery.created_at < cutoff, Delivery.next_retry_at.is_(None),
                                   ~exists().where(resend.resend_of == Delivery.id))
            .execution_options(synchronize_session=False)).rowcount
        deleted += gone
        if not gone:
            break
    db.session.execute(delete(Event).where(Event.created_at < cutoff, Event.dispatched_at.isnot(None),
                                           ~exists().where(Delivery.event_id == Event.id))
                       .execution_options(synchronize_session=False))
    db.session.commit()
    return deleted
