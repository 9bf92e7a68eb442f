"""Webhook use cases: registrations, relaying the event outbox, and signed delivery.

Every event is a row its producer wrote into the outbox (``app.events.outbox.record_event``) in
the transaction of the change it reports. Once that transaction commits, a ``relay`` job (one at a
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
from datetime import datetime

from flask import current_app
from sqlalchemy import or_, select

from app.common.models import new_id, plausible_id, utcnow
from app.errors import ApiError, InvalidField
from app.events.models import Event
from app.events.outbox import EVENT_TYPES
from app.extensions import db
from app.integrations import outbound
from app.queue import WEBHOOKS, enqueue_after_commit, jobs
from app.webhooks.delivery import DELIVER_JOB, RETRY_INTERVALS, SECRET_PREFIX
from app.webhooks.models import Delivery, Webhook
from app.webhooks.relay import (  # noqa: F401  (the room's one door)
    DeliveryFailed, delete_old_logs, deliver, relay, sweep,
)

log = logging.getLogger(__name__)

# What a webhook may subscribe to: every type the outbox records.
SUBSCRIBABLE = EVENT_TYPES
TEST_EVENT = "webhook.test"
MAX_WEBHOOKS = 10


# Registrations -----------------------------------------------------------------------
def check_target(url: str) -> None:
    """Raises VALIDATION_ERROR (``url``) for an address that resolves to a refused network."""
    try:
        outbound.check_url(url, allow_private=current_app.config["WEBHOOK_ALLOW_PRIVATE_TARGETS"])
    except outbound.TargetRefused as exc:
        raise InvalidField("url", exc.template, values=exc.values) from None
    except outbound.OutboundError:
        raise InvalidField("url", "The host name does not resolve.") from None


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
        raise ApiError("WEBHOOK_LIMIT_EXCEEDED", "At most %(limit)s webhooks per account.", {"limit": MAX_WEBHOOKS},
                       values={"limit": MAX_WEBHOOKS})
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
        raise InvalidField("since", "Must not be in the future.")
    retention = current_app.config["WEBHOOK_LOG_RETENTION"]
    if since < now - retention:
        raise InvalidField("since", "At most %(days)s days back (the log's retention).",
                           values={"days": retention.days})
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
