"""The job side of webhooks: relaying the outbox's events into deliveries, each delivery's attempts,
the periodic sweep that finds what a crash or a Redis outage lost, and the log's clean-up (see
``app.webhooks.service`` for the whole story; ``app.webhooks.jobs`` are the RQ entry points).
"""
from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import delete, exists, or_, select, update
from sqlalchemy.orm import aliased, selectinload

from app.common.models import new_id, utcnow
from app.events.models import Event
from app.events.outbox import RELAY, RELAY_JOB
from app.extensions import db
from app.queue import WEBHOOKS, QueueUnavailable, jobs
from app.webhooks.delivery import (DISABLED_FAILING, MAX_ATTEMPTS, attempt, disable, lease_end, post_leased,
                                   submit_deadline)
from app.webhooks.models import Delivery, Webhook

log = logging.getLogger(__name__)

RELAY_BATCH = 100  # events claimed per transaction
RELAY_BUDGET = 10.0  # seconds a relay job works before it hands over to a new one
SWEEP_BATCH = 500  # lost deliveries a sweep claims at most
# RQ runs a retry at or after its time; a job a little early (clocks) still counts as on time.
DUE_TOLERANCE = timedelta(seconds=1)


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
