"""Mails leave through the database, as webhook events do (issue 24 point 4).

``queue_mail(job, arg)`` writes a row in the transaction of the change that asks for the mail (a
registration, a reset request, a disabled webhook), so that the mail exists exactly when the change
does, and asks a worker to send it once that transaction commits (``send``, on the mail queue). If
Redis is down then, the row waits: the periodic ``sweep`` (every ``MAIL_SWEEP_INTERVAL`` seconds,
once Redis and a worker are back) sends every mail due for longer than ``MAIL_SWEEP_GRACE`` seconds.

Each send claims its row first, with a lease, in one conditional update: two workers (a job and a
sweep, or a retry) never send the same mail at once, and a mail marked sent is never sent again. A
worker killed while sending leaves its lease to lapse (``MAIL_LEASE`` seconds, 120: the SMTP time-out
fits well inside it), and the sweep sends the mail then.
The one case left is a worker killed after the mail server accepted the mail and before the row is
marked sent (a few milliseconds): the mail is sent twice, with the same ``Message-ID`` (the row's
id, ``integrations.mail.OUTBOX_ID``), which is as close to exactly once as SMTP allows. A failed
attempt is tried again after each of ``MAIL_JOB_RETRIES`` (RQ's retry, or the sweep), then given up
(logged).

``job`` names the function that writes the mail (``app.auth.jobs.send_verification_email``), so that
this room needs none of the rooms above it; the function re-reads what it mails about and returns
False when there is nothing to send any more (a user verified meanwhile), which counts as done.
"""
from __future__ import annotations

import importlib
import logging
from datetime import timedelta

from flask import current_app
from sqlalchemy import delete, or_, select, update

from app.common.models import new_id, utcnow
from app.events.models import OutboxMail
from app.extensions import db
from app.integrations.mail import OUTBOX_ID
from app.queue import MAIL, enqueue_after_commit

log = logging.getLogger(__name__)

SEND_JOB = "app.events.mail.send"
SWEEP_BATCH = 100
KEEP_SENT = timedelta(days=7)         # sent rows are deleted by the sweep after this
DUE_TOLERANCE = timedelta(seconds=1)  # RQ runs a retry at or after its time; clocks differ a little


class MailFailed(Exception):
    """An attempt failed and attempts are left: raised so that RQ schedules the retry."""


def queue_mail(job: str, arg: str) -> OutboxMail:
    """Add a mail to the current transaction (no commit) and its send to the jobs enqueued once the
    transaction commits."""
    now = utcnow()
    mail = OutboxMail(id=new_id(), job=job, arg=arg, created_at=now, next_attempt_at=now, attempts=0)
    db.session.add(mail)
    enqueue_after_commit(MAIL, SEND_JOB, mail.id, retry_intervals=current_app.config["MAIL_JOB_RETRIES"])
    return mail


def send(mail_id: str, due_by=None) -> str:
    """Send one mail if it is due (by ``due_by``: now, give or take the clocks), unsent and not being sent
    (a job). Claims it first. Raises MailFailed when the attempt failed with attempts left. Returns what
    happened."""
    now = utcnow()
    # A first attempt is due whatever the clocks say (the web process that wrote the row may be ahead of
    # this worker's); a retry only at its time, so that a late job never makes one ahead of schedule.
    due = or_(OutboxMail.attempts == 0, OutboxMail.next_attempt_at <= (due_by or now + DUE_TOLERANCE))
    claimed = db.session.execute(
        update(OutboxMail).where(OutboxMail.id == mail_id, _sendable(now), due)
        .values(lease_until=now + timedelta(seconds=current_app.config["MAIL_LEASE"]),
                attempts=OutboxMail.attempts + 1)
        .execution_options(synchronize_session=False)).rowcount
    db.session.commit()
    if not claimed:
        return "nothing to do"
    return _attempt(db.session.get(OutboxMail, mail_id))


def _sendable(now):
    return OutboxMail.sent_at.is_(None) & OutboxMail.next_attempt_at.isnot(None) & or_(
        OutboxMail.lease_until.is_(None), OutboxMail.lease_until < now)


def _attempt(mail: OutboxMail) -> str:
    module, _, name = mail.job.rpartition(".")
    retries = current_app.config["MAIL_JOB_RETRIES"]
    token = OUTBOX_ID.set(mail.id)
    try:
        getattr(importlib.import_module(module), name)(mail.arg)
    except Exception as exc:  # noqa: BLE001 - any failure of the mail server or the template
        db.session.rollback()
        given_up = mail.attempts > len(retries)
        db.session.execute(update(OutboxMail).where(OutboxMail.id == mail.id).values(
            lease_until=None, last_error=str(exc)[:500],
            next_attempt_at=None if given_up else utcnow() + timedelta(seconds=retries[mail.attempts - 1]))
            .execution_options(synchronize_session=False))
        db.session.commit()
        if given_up:
            log.error("mail %s (%s) given up after %d attempts: %s", mail.id, mail.job, mail.attempts, exc)
            return "given up"
        raise MailFailed(f"attempt {mail.attempts} failed: {exc}") from None
    finally:
        OUTBOX_ID.reset(token)
    db.session.execute(update(OutboxMail).where(OutboxMail.id == mail.id)
                       .values(sent_at=utcnow(), lease_until=None, last_error=None)
                       .execution_options(synchronize_session=False))
    db.session.commit()
    return "sent"


def sweep() -> int:
    """Periodic: send the mails due for longer than MAIL_SWEEP_GRACE seconds and not being sent (their
    job was lost in a Redis outage, or its worker killed), then delete sent rows older than KEEP_SENT.
    Returns how many it sent."""
    now = utcnow()
    stale = now - timedelta(seconds=current_app.config["MAIL_SWEEP_GRACE"])
    due = list(db.session.scalars(select(OutboxMail.id).where(_sendable(now), OutboxMail.next_attempt_at < stale)
                                  .order_by(OutboxMail.next_attempt_at).limit(SWEEP_BATCH)))
    db.session.execute(delete(OutboxMail).where(OutboxMail.sent_at < now - KEEP_SENT)
                       .execution_options(synchronize_session=False))
    db.session.commit()
    sent = 0
    for mail_id in due:
        try:
            sent += send(mail_id, due_by=stale) == "sent"
        except MailFailed as exc:  # its next attempt is scheduled in the row; a later sweep makes it
            log.warning("sweep: mail %s failed again: %s", mail_id, exc)
    return sent
