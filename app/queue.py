"""Background jobs on RQ: queue names, enqueue-after-commit, workers.

Production: ``REDIS_URL`` is set and separate ``flask worker`` processes (an RQ
``Worker`` with its scheduler, inside an app context) run the jobs.

Embedded default: no ``REDIS_URL``. The queues live in an in-process fakeredis
server (with its Lua support, which RQ's scripts need) and a daemon thread runs
an RQ ``SimpleWorker`` with a timer death penalty, while a second thread plays
RQ's scheduler. Jobs therefore keep the same semantics in both modes: delayed
jobs, ``Retry`` with intervals, time-outs, failed-job registry.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import timedelta

from flask import Flask, current_app, g, has_request_context
from redis import Redis
from rq import Queue, Retry, SimpleWorker, Worker
from rq.scheduler import RQScheduler
from rq.timeouts import TimerDeathPenalty
from sqlalchemy import event
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

DEFAULT = "default"
MAIL = "mail"
EXPORTS = "exports"
WEBHOOKS = "webhooks"
QUEUE_NAMES = (WEBHOOKS, MAIL, EXPORTS, DEFAULT)  # a worker serves them in this order

_PENDING = "pending_jobs"


class AppContextMixin:
    """Runs each job inside a fresh app context (its own database session)."""

    app: Flask

    def perform_job(self, job, queue):
        with self.app.app_context():
            # Log lines of the job carry the id of the request that enqueued it.
            g.request_id = job.meta.get("request_id") or f"job-{job.id}"
            return super().perform_job(job, queue)


class AppWorker(AppContextMixin, Worker):
    def __init__(self, *args, app: Flask, **kwargs):
        self.app = app
        super().__init__(*args, **kwargs)


class EmbeddedWorker(AppContextMixin, SimpleWorker):
    """A SimpleWorker that can live in a thread: no signals, a timer-based time-out."""

    death_penalty_class = TimerDeathPenalty

    def __init__(self, *args, app: Flask, **kwargs):
        self.app = app
        super().__init__(*args, **kwargs)

    def _install_signal_handlers(self):
        pass


class Jobs:
    """The app's queues. ``init_app`` picks Redis or the embedded server."""

    def __init__(self):
        self.app: Flask | None = None
        self.connection: Redis | None = None
        self.embedded = False
        self._embedded_started = False
        self._lock = threading.Lock()

    def init_app(self, app: Flask) -> None:
        self.app = app
        url = app.config["REDIS_URL"]
        if url:
            self.connection = Redis.from_url(url)
        else:
            import fakeredis

            self.embedded = True
            self.connection = fakeredis.FakeRedis(server=fakeredis.FakeServer())
        app.extensions["jobs"] = self

    def queue(self, name: str) -> Queue:
        if self.embedded:
            self._start_embedded()
        return Queue(name, connection=self.connection, default_timeout=self.app.config["JOB_TIMEOUT"])

    def enqueue(self, queue: str, func: Callable | str, *args, retry_intervals=None, delay=None, **kwargs):
        """Enqueue now. Prefer ``enqueue_after_commit`` from services.

        ``delay`` and each of ``retry_intervals`` (seconds) are kept to within
        half a second, plus the scheduler's tick (1 s in a worker, 0.2 s embedded).
        """
        options = {}
        if has_request_context() and g.get("request_id"):
            options["meta"] = {"request_id": g.request_id}
        if retry_intervals:
            options["retry"] = Retry(max=len(retry_intervals), interval=[_for_rq(i) for i in retry_intervals])
        q = self.queue(queue)
        if delay is not None:
            return q.enqueue_in(timedelta(seconds=_for_rq(delay.total_seconds())), func, *args,
                                **options, **kwargs)
        return q.enqueue(func, *args, **options, **kwargs)

    # The embedded worker -------------------------------------------------
    def _start_embedded(self) -> None:
        if self._embedded_started:
            return
        with self._lock:
            if self._embedded_started:
                return
            worker = EmbeddedWorker(list(QUEUE_NAMES), connection=self.connection, app=self.app)
            threading.Thread(target=worker.work, kwargs={"logging_level": "WARNING"},
                             name="rq-embedded-worker", daemon=True).start()
            threading.Thread(target=self._schedule_forever, name="rq-embedded-scheduler", daemon=True).start()
            self._embedded_started = True

    def _schedule_forever(self) -> None:
        scheduler = RQScheduler(list(QUEUE_NAMES), connection=self.connection)
        scheduler.prepare_registries(list(QUEUE_NAMES))
        while True:
            try:
                scheduler.enqueue_scheduled_jobs()
            except Exception:  # keep scheduling; the next tick retries
                log.exception("embedded scheduler tick failed")
            time.sleep(0.2)

    def run_worker(self, burst: bool = False) -> None:
        """Run an RQ worker with its scheduler in this process (``flask worker``)."""
        if self.embedded:
            raise RuntimeError("REDIS_URL is not set: jobs already run inside the web process.")
        worker = AppWorker(list(QUEUE_NAMES), connection=self.connection, app=self.app)
        worker.work(with_scheduler=True, burst=burst, logging_level=self.app.config["LOG_LEVEL"])


def _for_rq(seconds: float) -> float:
    """The delay to give RQ for a job to wait ``seconds``.

    RQ stores scheduled times as whole seconds rounded down, so a 1 s delay
    given as such may run at once; half a second more rounds to the nearest.
    """
    return seconds + 0.5 if seconds > 0 else 0


def init_app(app: Flask) -> None:
    """Give ``app`` its own queues (each app its own connection and embedded worker)."""
    Jobs().init_app(app)


def enqueue_after_commit(queue: str, func: Callable | str, *args, **kwargs) -> None:
    """Enqueue once the current database transaction commits; drop it on rollback.

    A failure to enqueue is logged and never undoes the committed change.
    """
    from app.extensions import db

    session = db.session()
    if not session.in_transaction():
        session.begin()  # else a rollback before any query would not drop the job
    session.info.setdefault(_PENDING, []).append((current_app._get_current_object(), queue, func, args, kwargs))


@event.listens_for(Session, "after_commit")
def _enqueue_pending(session: Session) -> None:
    pending = session.info.pop(_PENDING, [])
    for app, queue, func, args, kwargs in pending:
        try:
            app.extensions["jobs"].enqueue(queue, func, *args, **kwargs)
        except Exception:
            log.exception("could not enqueue %s on %s after commit", func, queue)


@event.listens_for(Session, "after_soft_rollback")
def _drop_pending(session: Session, previous_transaction) -> None:
    if previous_transaction.parent is None:
        session.info.pop(_PENDING, None)
