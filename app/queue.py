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
import math
import threading
import time
from collections.abc import Callable
from datetime import timedelta

from flask import Flask, current_app, g, has_request_context
from redis import Redis
from rq import Queue, Retry, SimpleWorker
from rq.job import JobStatus
from rq.results import Result
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
RESULT_TTL = 120  # seconds a waited-for job's result (or failure) stays in Redis

# Jobs enqueued every interval (in seconds, read from the named setting) by whichever
# worker or embedded scheduler gets there first: name -> (queue, function, setting).
PERIODIC: dict[str, tuple[str, str, str]] = {
    "delete-expired-exports": (EXPORTS, "app.resumes.jobs.delete_expired_exports", "EXPORT_CLEANUP_INTERVAL"),
    "sweep-webhook-events": (WEBHOOKS, "app.webhooks.jobs.sweep", "WEBHOOK_SWEEP_INTERVAL"),
    "apply-subscription-period-ends": (DEFAULT, "app.account.jobs.apply_subscription_period_ends",
                                       "SUBSCRIPTION_PERIOD_INTERVAL"),
}


class JobFailed(Exception):
    """A job the caller waited for raised, or gave no result in time."""


class AppContextMixin:
    """Runs each job inside a fresh app context (its own database session)."""

    app: Flask

    def perform_job(self, job, queue):
        with self.app.app_context():
            # Log lines of the job carry the id of the request that enqueued it.
            g.request_id = job.meta.get("request_id") or f"job-{job.id}"
            return super().perform_job(job, queue)


class AppWorker(AppContextMixin, SimpleWorker):
    """``flask worker``: jobs run in the worker process itself, not in a fork per job.

    A fork costs tens of milliseconds (and a fresh database connection) for jobs
    that take a few: webhook deliveries went from 17 to over 100 a second. Jobs
    are plain functions that leave no state behind; a job's time-out is still
    enforced (SIGALRM, the worker's main thread).
    """

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

    def enqueue(self, queue: str, func: Callable | str, *args, retry_intervals=None, delay=None,
                coalesce: str | None = None, **kwargs):
        """Enqueue now. Prefer ``enqueue_after_commit`` from services.

        ``delay`` and each of ``retry_intervals`` (seconds) are waited at least,
        and at most a second more plus the scheduler's tick (1 s in a worker,
        0.2 s embedded).

        ``coalesce`` names a job that needs to run once however often it is
        asked for: while one waits (its Redis key lives, at most a minute),
        asking again enqueues nothing. The job calls ``started(coalesce)``
        first, so that what is asked for after that gets a run of its own.
        """
        if coalesce and not self.connection.set(f"coalesce:{coalesce}", "1", nx=True, ex=60):
            return None
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

    def call(self, queue: str, func: Callable | str, *args, wait: float, job_timeout: float, **kwargs):
        """Run ``func`` as a job now and wait up to ``wait`` seconds for what it returns.

        For work a request needs the answer of (an export). Raises JobFailed,
        whose message (for the log) says whether the job raised or took too long.
        """
        job = self.enqueue(queue, func, *args, job_timeout=math.ceil(job_timeout), result_ttl=RESULT_TTL,
                           failure_ttl=RESULT_TTL, **kwargs)
        result = job.latest_result(timeout=max(1, math.ceil(wait)))
        if result is None:
            if job.get_status(refresh=True) == JobStatus.QUEUED:
                job.cancel()  # no worker should spend time on an answer nobody waits for any more
            raise JobFailed(f"job {job.id} ({job.func_name}) gave no result within {wait:g} s")
        if result.type != Result.Type.SUCCESSFUL:
            raise JobFailed(f"job {job.id} ({job.func_name}) failed: {result.exc_string}")
        return result.return_value

    def started(self, coalesce: str) -> None:
        """Called by a coalesced job as it starts: later requests enqueue it again."""
        self.connection.delete(f"coalesce:{coalesce}")

    # Periodic jobs ----------------------------------------------------------
    def enqueue_due_periodic_jobs(self) -> None:
        """Enqueue each periodic job whose interval has passed.

        Every worker (and the embedded scheduler) calls this on each tick; a
        Redis key that lives for one interval, set only if absent, makes one of
        them the one that enqueues, so N workers still run a job once a period.
        """
        for name, (queue, func, interval_setting) in PERIODIC.items():
            interval = max(1, int(self.app.config[interval_setting]))
            if self.connection.set(f"periodic:{name}", "1", nx=True, ex=interval):
                try:
                    self.enqueue(queue, func)
                except Exception:  # the next interval tries again
                    log.exception("could not enqueue periodic job %s", name)

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
                self.enqueue_due_periodic_jobs()
            except Exception:  # keep scheduling; the next tick retries
                log.exception("embedded scheduler tick failed")
            time.sleep(0.2)

    def run_worker(self, burst: bool = False) -> None:
        """Run an RQ worker with its scheduler in this process (``flask worker``)."""
        if self.embedded:
            raise RuntimeError("REDIS_URL is not set: jobs already run inside the web process.")
        worker = AppWorker(list(QUEUE_NAMES), connection=self.connection, app=self.app)
        if not burst:
            threading.Thread(target=self._tick_periodic_forever, name="periodic-jobs", daemon=True).start()
        worker.work(with_scheduler=True, burst=burst, logging_level=self.app.config["LOG_LEVEL"])

    def _tick_periodic_forever(self) -> None:
        while True:
            try:
                with self.app.app_context():
                    self.enqueue_due_periodic_jobs()
            except Exception:  # Redis away for a moment: the next tick retries
                log.exception("periodic jobs tick failed")
            time.sleep(1)


def _for_rq(seconds: float) -> float:
    """The delay to give RQ for a job to wait ``seconds``.

    RQ stores scheduled times as whole seconds rounded down, so a 1 s delay
    given as such may run almost at once. Just under a second more makes the
    stored time the first whole second at or after the wanted one: a job never
    runs early, and at most a second (plus the scheduler's tick) late.
    """
    return seconds + 0.999 if seconds > 0 else 0


def init_app(app: Flask) -> None:
    """Give ``app`` its own queues (each app its own connection and embedded worker)."""
    Jobs().init_app(app)


def jobs() -> Jobs:
    """The current app's queues."""
    return current_app.extensions["jobs"]


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
