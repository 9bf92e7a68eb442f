"""Posting webhook deliveries: the signed request, one post, its result on the log row, leases, and
the pool that posts many at once while the job's own thread records each result as it comes.

A delivery is leased (``lease_until``) while an attempt of it runs: jobs take a lease only where none
is held, so at most one attempt of a delivery runs at a time, whichever job (relay, sweep, deliver)
makes it. A lease lasts one post (WEBHOOK_TIMEOUT, which bounds the whole request) and a small
margin, so what a killed worker held is free again soon after.

Each result also tells on its webhook: a success ends its run of failures, a failure starts one
(``failing_since``: the sweep disables a webhook whose run has lasted WEBHOOK_DISABLE_AFTER), and a
``410 Gone`` disables it at once. Those changes are applied once the results are committed, each
in a short transaction of its own (``settle``), so that no job holds a webhook's row while it
records results.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import logging
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from datetime import datetime, timedelta
from functools import lru_cache

from flask import current_app
from redis.exceptions import RedisError
from sqlalchemy import update
from sqlalchemy.orm.attributes import set_committed_value

from app.common.models import utcnow
from app.common.schemas import format_timestamp
from app.config import API_VERSION
from app.events.mail import queue_mail
from app.events.models import Event
from app.extensions import db
from app.integrations import outbound
from app.queue import WEBHOOKS, QueueUnavailable, jobs
from app.webhooks.models import Delivery, Webhook

log = logging.getLogger(__name__)

SUCCESS_STATUSES = frozenset({200, 201, 202, 204})
GONE = 410  # the receiver says the endpoint is gone for good: the webhook is disabled at once
DISABLED_GONE, DISABLED_FAILING = "gone", "failing"  # Webhook.disabled_reason
DISABLED_MAIL_JOB = "app.webhooks.jobs.send_disabled_email"
_SETTLE = "webhook_changes"  # session.info: the webhook changes recorded results call for
RETRY_INTERVALS = (1, 2, 4)  # seconds before the 2nd, 3rd and 4th attempt
MAX_ATTEMPTS = len(RETRY_INTERVALS) + 1
USER_AGENT = "ResumeService-Webhooks/1.0"
DELIVER_JOB = "app.webhooks.jobs.deliver"
POST_THREADS = 8  # posts at once: one slow receiver does not hold up the rest
LEASE_MARGIN = 5  # seconds a lease outlasts a post's time-out: enough to record its result


def envelope(event: Event) -> dict:
    """What a receiver gets: the contract's envelope around the event's data."""
    return {"id": event.id, "type": event.type, "created": format_timestamp(event.created_at), "data": event.data,
            "api_version": API_VERSION}


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """``sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">``, keyed with the webhook's secret string
    (its UTF-8 bytes): X-Service-Signature, the contract's signature."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


SECRET_PREFIX = "whsec_"


@lru_cache(maxsize=1024)
def standard_key(secret: str) -> bytes:
    """The HMAC key of the Standard Webhooks signature. A ``whsec_<base64>`` secret (what the service
    generates) is keyed, as the spec says, with the decoded bytes; any other secret, one the user
    chose, with its UTF-8 bytes as given (its receivers verify with those raw bytes). Base64 means
    the standard alphabet, padding optional: a ``whsec_`` secret that is not such is used as given."""
    if secret.startswith(SECRET_PREFIX):
        encoded = secret[len(SECRET_PREFIX):]
        try:
            key = base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True)
        except (binascii.Error, ValueError):
            key = b""
        if key:
            return key
    return secret.encode()


def sign_standard(secret: str, event_id: str, timestamp: int, body: bytes) -> str:
    """``v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">``: the Standard Webhooks
    ``webhook-signature`` (https://www.standardwebhooks.com/), keyed with ``standard_key``."""
    digest = hmac.new(standard_key(secret), f"{event_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def lease_end(now: datetime) -> datetime:
    """When a lease taken at ``now`` lapses: after one post and the recording of its result."""
    return now + timedelta(seconds=current_app.config["WEBHOOK_TIMEOUT"] + LEASE_MARGIN)


def submit_deadline(started: float) -> float:
    """The ``time.monotonic()`` after which a job started at ``started`` starts no more posts: one
    started then still ends, and is recorded, within the job's time-out (JOB_TIMEOUT)."""
    config = current_app.config
    return started + max(1.0, config["JOB_TIMEOUT"] - config["WEBHOOK_TIMEOUT"] - LEASE_MARGIN)


def post_leased(deliveries: list[Delivery], lease: datetime, *, submit_until: float) -> int:
    """Post deliveries this job has leased (each until ``lease``), POST_THREADS at a time, and record
    each result on its row as soon as its post completes (one commit for those that complete
    together), so that a killed worker loses at most the posts in flight. Returns how many it posted.

    Just before its post starts, a delivery's lease is renewed for one post, only if it is still
    ``lease``: one that lapsed while waiting for a thread and that another job took is skipped.
    After ``submit_until`` (``time.monotonic()``) no post starts; the leases of those left are
    released, for the sweep. A failure with attempts left gets its next attempt as a ``deliver``
    job, on the retry schedule. Runs in the job's thread, which owns the database session; the
    threads only post.
    """
    config = current_app.config
    options = {"timeout": config["WEBHOOK_TIMEOUT"], "allow_private": config["WEBHOOK_ALLOW_PRIVATE_TARGETS"]}
    waiting, running, posted = deque(deliveries), {}, 0
    with ThreadPoolExecutor(POST_THREADS) as pool:
        while waiting or running:
            failed = []
            if running:
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    delivery = running.pop(future)
                    if record(delivery, *future.result()) == "failed" and delivery.attempts < MAX_ATTEMPTS:
                        failed.append(delivery)
            starting = []
            if waiting and time.monotonic() > submit_until:
                _release([delivery.id for delivery in waiting], lease)
                waiting.clear()
            elif waiting:
                starting = _renew([waiting.popleft() for _ in range(min(POST_THREADS - len(running), len(waiting)))],
                                  lease)
            db.session.commit()  # the results just recorded and the leases of the posts about to start
            settle()
            for delivery in failed:
                schedule_retry(delivery)
            for delivery in starting:
                running[pool.submit(post, *signed_request(delivery), **options)] = delivery
                posted += 1
    return posted


def _renew(group: list[Delivery], lease: datetime) -> list[Delivery]:
    """Those of ``group`` still leased until ``lease``, now leased for one post from now (not committed)."""
    if not group:
        return []
    renewed = set(db.session.scalars(
        update(Delivery).where(Delivery.id.in_([d.id for d in group]), Delivery.lease_until == lease)
        .values(lease_until=lease_end(utcnow())).returning(Delivery.id).execution_options(synchronize_session=False)))
    return [delivery for delivery in group if delivery.id in renewed]


def _release(delivery_ids: list[str], lease: datetime) -> None:
    db.session.execute(update(Delivery).where(Delivery.id.in_(delivery_ids), Delivery.lease_until == lease)
                       .values(lease_until=None).execution_options(synchronize_session=False))


def schedule_retry(delivery: Delivery) -> None:
    """Enqueue the next attempt of a delivery whose attempt just failed (attempts left): after the
    schedule's interval for it, then RQ's ``Retry`` for the rest. A failure to enqueue is logged:
    the sweep finds a retry that did not run."""
    made = delivery.attempts
    try:
        jobs().enqueue(WEBHOOKS, DELIVER_JOB, delivery.id, delay=timedelta(seconds=RETRY_INTERVALS[made - 1]),
                       retry_intervals=RETRY_INTERVALS[made:])
    except (QueueUnavailable, RedisError) as exc:
        log.warning("could not enqueue the retry of delivery %s: %s", delivery.id, exc)


def attempt(delivery: Delivery) -> str:
    """Post a leased delivery once and record the result on its row (committed).
    Returns "delivered" or "failed"."""
    config = current_app.config
    result = post(*signed_request(delivery), timeout=config["WEBHOOK_TIMEOUT"],
                  allow_private=config["WEBHOOK_ALLOW_PRIVATE_TARGETS"])
    outcome = record(delivery, *result)
    db.session.commit()
    settle()
    return outcome


def signed_request(delivery: Delivery) -> tuple[str, bytes, dict]:
    """The delivery's URL, body and headers: the body is signed as it will be sent, byte for byte,
    twice: the contract's X-Service-Signature, and the Standard Webhooks headers (``webhook-id`` is
    the event id, the same on every attempt; both timestamps are the same second). Within
    WEBHOOK_SECRET_OVERLAP of a rotation ``webhook-signature`` holds two signatures, space-separated,
    the new secret's first; X-Service-Signature is the new secret's only."""
    body = json.dumps(envelope(delivery.event), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    webhook = delivery.webhook
    timestamp, secret, event_id = int(time.time()), webhook.secret, delivery.event_id
    signatures = sign_standard(secret, event_id, timestamp, body)
    if webhook.previous_secret and webhook.previous_secret_expires_at and webhook.previous_secret_expires_at > utcnow():
        signatures += " " + sign_standard(webhook.previous_secret, event_id, timestamp, body)
    return webhook.url, body, {
        "Content-Type": "application/json", "X-Service-Timestamp": str(timestamp),
        "X-Service-Signature": sign(secret, timestamp, body),
        "webhook-id": event_id, "webhook-timestamp": str(timestamp), "webhook-signature": signatures}


def post(url: str, body: bytes, headers: dict, *, timeout: float,
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


def record(delivery: Delivery, status: int | None, elapsed: int | None, error: str | None) -> str:
    """Write an attempt's result on the delivery's row and free its lease (the caller commits, then
    calls ``settle`` for what the result changes on the webhook). Returns "delivered", "failed"
    (retried while attempts are left) or "stopped" (no retry: a 410, which disables the webhook, or a
    webhook the service disabled)."""
    now = utcnow()
    webhook = delivery.webhook
    delivery.attempts += 1
    delivery.status_code, delivery.response_time, delivery.last_attempt_at = status, elapsed, now
    delivery.lease_until = None
    delivery.error = error
    if error is None:
        delivery.delivered_at, delivery.next_retry_at = now, None
        if webhook.failing_since is not None:  # the run of failures ends
            _note(webhook, "failing_since", None, now)
        return "delivered"
    if webhook.failing_since is None:  # a run of failures starts
        _note(webhook, "failing_since", now, now)
    if status == GONE or webhook.disabled_reason is not None:
        delivery.next_retry_at = None
        if status == GONE:
            delivery.error = "HTTP 410: the endpoint is gone; the webhook was disabled."
            _note(webhook, "disabled_reason", DISABLED_GONE, now)
        return "stopped"
    if delivery.attempts < MAX_ATTEMPTS:
        delivery.next_retry_at = now + timedelta(seconds=RETRY_INTERVALS[delivery.attempts - 1])
    else:
        delivery.next_retry_at = None
    return "failed"


def _note(webhook: Webhook, field: str, value, now: datetime) -> None:
    """Remember a change of ``webhook`` for ``settle``, and show it on the loaded row at once (so the
    next result of the same webhook in this job does not ask for it again)."""
    db.session.info.setdefault(_SETTLE, []).append((webhook.id, field, value, now))
    set_committed_value(webhook, field, value)


def settle() -> None:
    """Apply the webhook changes of the results just committed, each in a transaction of its own.
    A run of failures is started only where none runs and ended only where one does, so that jobs
    recording results of the same webhook at once agree."""
    for webhook_id, field, value, now in db.session.info.pop(_SETTLE, ()):
        if field == "disabled_reason":
            disable(webhook_id, value, now)
            continue
        started = Webhook.failing_since.is_(None) if value is not None else Webhook.failing_since.isnot(None)
        db.session.execute(update(Webhook).where(Webhook.id == webhook_id, started).values(failing_since=value)
                           .execution_options(synchronize_session=False))
        db.session.commit()


def disable(webhook_id: str, reason: str, now: datetime) -> bool:
    """Switch a webhook off for ``reason`` (DISABLED_GONE, DISABLED_FAILING), stop its pending retries
    and mail its owner, once: only the call that switches an active webhook off mails. Commits.
    Returns whether this call switched it off."""
    # The retries first: a row another job is recording is waited for before the webhook's row is locked.
    db.session.execute(update(Delivery).where(Delivery.webhook_id == webhook_id, Delivery.delivered_at.is_(None),
                                              Delivery.next_retry_at.isnot(None))
                       .values(next_retry_at=None).execution_options(synchronize_session=False))
    disabled = db.session.execute(
        update(Webhook).where(Webhook.id == webhook_id, Webhook.active.is_(True))
        .values(active=False, disabled_reason=reason, disabled_at=now)
        .execution_options(synchronize_session=False)).rowcount == 1
    if disabled:
        queue_mail(DISABLED_MAIL_JOB, webhook_id)
    db.session.commit()
    if disabled:
        log.warning("webhook %s disabled: %s", webhook_id, reason)
    return disabled
