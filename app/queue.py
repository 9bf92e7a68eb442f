"""Background jobs on RQ: queue names, enqueue-after-commit, waiting for a job's answer.

Production: ``REDIS_URL`` is set and separate ``flask worker`` processes
(``app/worker.py``) run the jobs. Embedded default: no ``REDIS_URL``; the
queues live in an in-process fakeredis server (with its Lua support, which
RQ's scripts need) and the same lanes and scheduler run as threads of the web
process, so jobs keep the same semantics in both modes: delayed jobs, ``Retry``
with intervals, time-outs, failed-job registry.

A request never waits long on Redis: the connection the app enqueues on has
short time-outs (``REDIS_SOCKET_TIMEOUT``), and after a failure the queues
count as unavailable for ``REDIS_RETRY_AFTER`` seconds, during which
``enqueue`` fails at once with ``QueueUnavailable``. What that loses is found
again by the periodic jobs (the webhook sweep reads the outbox).
"""
from __future__ import annotations

import logging
import math
import threading
import time
import uuid
from collections.abc import Callable
from typing import Protocol
from datetime import timedelta

from flask import Flask, current_app, g, has_request_context
from redis import Redis
from redis.backoff import NoBackoff
from redis.retry import Retry as RedisRetry
from redis.exceptions import ConnectionError as RedisConnectionError, TimeoutError as RedisTimeoutError
from rq import Queue, Retry
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.results import Result
from sqlalchemy import event
from sqlalchemy.orm import Session

from app.extensions import db

log = logging.getLogger(__name__)

DEFAULT = "default"
MAIL = "mail"
EXPORTS = "exports"
WEBHOOKS = "webhooks"
AI = "ai"
QUEUE_NAMES = (WEBHOOKS, MAIL, EXPORTS, AI, DEFAULT)
# Each lane is a worker of its own (a thread of ``flask worker``), so that a slow webhook receiver
# or mail server never holds up an export a person is waiting for (nor a model's slow answer an export).
LANES: dict[str, tuple[str, ...]] = {"exports": (EXPORTS,), "ai": (AI,), "webhooks": (WEBHOOKS,),
                                     "general": (MAIL, DEFAULT)}

_PENDING = "pending_jobs"
RESULT_TTL = 120  # seconds a waited-for job's result (or failure) stays in Redis
COALESCE_TTL = 60  # seconds a coalesced job's key may stand without its job starting

# Jobs enqueued every interval (in seconds, read from the named setting) by whichever
# worker or embedded scheduler gets there first: name -> (queue, function, setting).
PERIODIC: dict[str, tuple[str, str, str]] = {
    "delete-expired-exports": (EXPORTS, "app.resumes.jobs.delete_expired_exports", "EXPORT_CLEANUP_INTERVAL"),
    "sweep-webhook-events": (WEBHOOKS, "app.webhooks.jobs.sweep", "WEBHOOK_SWEEP_INTERVAL"),
    "sweep-mail-outbox": (MAIL, "app.events.mail.sweep", "MAIL_SWEEP_INTERVAL"),
    "apply-subscription-period-ends": (DEFAULT, "app.billing.jobs.apply_subscription_period_ends",
                                       "SUBSCRIPTION_PERIOD_INTERVAL"),
    "purge-deleted-resumes": (DEFAULT, "app.resumes.jobs.purge_deleted_resumes", "TRASH_PURGE_INTERVAL"),
    "delete-expired-idempotency-keys": (DEFAULT, "app.common.idempotency.delete_expired",
                                        "IDEMPOTENCY_CLEANUP_INTERVAL"),
    "delete-old-webhook-logs": (DEFAULT, "app.webhooks.jobs.delete_old_logs", "WEBHOOK_LOG_CLEANUP_INTERVAL"),
}


class JobFailed(Exception):
    """A job the caller waited for raised ("failed": ``error`` is the last line of what it raised),
    gave no result in time ("timeout"), or could not be queued or waited for ("queue")."""

    def __init__(self, message: str, kind: str = "failed", error: str = ""):
        super().__init__(message)
        self.kind = kind
        self.error = error


class QueueUnavailable(Exception):
    """Redis did not answer (now, or within the last ``REDIS_RETRY_AFTER`` seconds)."""


class Abandoned(Exception):
    """A job whose caller stopped waiting before a worker took it: it is not run."""


def run_while_awaited(answer_by: float, func: str, *args, **kwargs):
    """A waited-for job (``Jobs.call``): runs ``func`` only while someone still waits for its answer."""
    if time.time() > answer_by:
        raise Abandoned(f"{func}: nobody waits for this answer any more")
    module, _, name = func.rpartition(".")
    import importlib

    return getattr(importlib.import_module(module), name)(*args, **kwargs)


class Jobs:
    """The app's queues. ``init_app`` picks Redis or the embedded server."""

    def __init__(self, embedded_worker: Callable[[Flask], EmbeddedWorker] | None = None):
        self.app: Flask | None = None
        self._make_embedded_worker = embedded_worker
        self.connection: Redis | None = None  # short time-outs: what requests enqueue on
        self.waiting: Redis | None = None  # long reads: waiting for a job's answer
        self.embedded = False
        self._server = None
        self._embedded_started = False
        self._embedded_worker = None
        self._unavailable_until = 0.0
        self._lock = threading.Lock()

    def init_app(self, app: Flask) -> None:
        self.app = app
        url, config = app.config["REDIS_URL"], app.config
        if url:
            self.connection = Redis.from_url(url, **request_connection_options(config))
            self.waiting = Redis.from_url(url, **{**request_connection_options(config),
                                                  "socket_timeout": config["EXPORT_WAIT_SECONDS"] + 5})
        else:
            import fakeredis

            self.embedded = True
            self._server = fakeredis.FakeServer()
            self.connection = self.waiting = fakeredis.FakeRedis(server=self._server)
        app.extensions["jobs"] = self

    def worker_connection(self) -> Redis:
        """A connection for RQ workers of their own: RQ raises its read time-out above its blocking pop."""
        if self.embedded:
            import fakeredis

            return fakeredis.FakeRedis(server=self._server)
        timeout = self.app.config["REDIS_SOCKET_TIMEOUT"]
        return Redis.from_url(self.app.config["REDIS_URL"], socket_connect_timeout=max(timeout, 1))

    def queue(self, name: str) -> Queue:
        if self.embedded:
            self._start_embedded()
        return Queue(name, connection=self.connection, default_timeout=self.app.config["JOB_TIMEOUT"])

    def enqueue(self, queue: str, func: Callable | str, *args, retry_intervals=None, delay=None,
                coalesce: str | None = None, **kwargs):
        """Enqueue now. Prefer ``enqueue_after_commit`` from services. Raises QueueUnavailable.

        ``delay`` and each of ``retry_intervals`` (seconds) are waited at least,
        and at most a second more plus the scheduler's tick.

        ``coalesce`` names a job that needs to run once however often it is
        asked for: while one waits, asking again enqueues nothing. The job calls
        ``started(coalesce)`` first, so that what is asked for after that gets a
        run of its own.
        """
        with self._redis():
            options = {}
            if coalesce:
                options["job_id"] = job_id = uuid.uuid4().hex
                if not self._claim_coalesced(coalesce, job_id):
                    return None
            if has_request_context() and g.get("request_id"):
                options["meta"] = {"request_id": g.request_id}
            if retry_intervals:
                options["retry"] = Retry(max=len(retry_intervals), interval=[_for_rq(i) for i in retry_intervals])
            q = self.queue(queue)
            if delay is not None:
                return q.enqueue_in(timedelta(seconds=_for_rq(delay.total_seconds())), func, *args,
                                    **options, **kwargs)
            return q.enqueue(func, *args, **options, **kwargs)

    def _claim_coalesced(self, name: str, job_id: str) -> bool:
        """Whether a coalesced job ``job_id`` should be enqueued: no job of that name waits.

        The key names the job that stands behind it. A key whose job never made
        it into Redis (the enqueue failed after the key was set, e.g. a time-out
        whose command Redis applied later) or no longer waits is taken over.
        """
        key = f"coalesce:{name}"
        if self.connection.set(key, job_id, nx=True, ex=COALESCE_TTL):
            return True
        holder = self.connection.get(key)
        if holder:
            try:
                status = Job.fetch(holder.decode(), connection=self.connection).get_status()
            except NoSuchJobError:
                status = None
            if status in (JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED):
                return False
        self.connection.set(key, job_id, ex=COALESCE_TTL)
        return True

    def call(self, queue: str, func: str, *args, wait: float, job_timeout: float, **kwargs):
        """Run ``func`` (a dotted name) as a job now and wait up to ``wait`` seconds for what it returns.

        For work a request needs the answer of (an export). Raises JobFailed,
        whose message (for the log) says whether the job raised, took too long
        or could not be queued. A job still queued when the wait ends is
        cancelled, and a worker that takes it later does not run it.
        """
        answer_by = time.time() + wait
        try:
            job = self.enqueue(queue, run_while_awaited, answer_by, func, *args, job_timeout=math.ceil(job_timeout),
                               result_ttl=RESULT_TTL, failure_ttl=RESULT_TTL, ttl=math.ceil(wait) + 1, **kwargs)
        except QueueUnavailable as exc:
            raise JobFailed(f"{func} could not be queued: {exc}", "queue") from None
        try:
            with self._redis():
                # On a connection whose read time-out outlasts the wait (XREAD BLOCK).
                result = Result.fetch_latest(Job(job.id, connection=self.waiting), serializer=job.serializer,
                                             timeout=max(1, math.ceil(answer_by - time.time())))
        except QueueUnavailable as exc:
            raise JobFailed(f"job {job.id} ({func}): Redis stopped answering: {exc}", "queue") from None
        if result is None:
            try:
                with self._redis():
                    if job.get_status(refresh=True) == JobStatus.QUEUED:
                        job.cancel()  # no worker should spend time on an answer nobody waits for any more
            except QueueUnavailable:
                pass  # the job's own deadline keeps a worker from running it
            raise JobFailed(f"job {job.id} ({func}) gave no result within {wait:g} s", "timeout")
        if result.type != Result.Type.SUCCESSFUL:
            last = (result.exc_string or "").strip().splitlines()[-1:] or [""]
            raise JobFailed(f"job {job.id} ({func}) failed: {result.exc_string}", "failed", last[0])
        return result.return_value

    def started(self, coalesce: str) -> None:
        """Called by a coalesced job as it starts: later requests enqueue it again."""
        self.connection.delete(f"coalesce:{coalesce}")

    def _redis(self):
        return _Guard(self)

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
            self._embedded_started = True
            if self._make_embedded_worker is None:
                raise RuntimeError("this app's queues were set up without an embedded worker (queue.init_app)")
            self._embedded_worker = self._make_embedded_worker(self.app)
            self._embedded_worker.start()

    def shutdown(self) -> None:
        """Stop the embedded worker's scheduler and lanes (they finish the job in hand): for an app that
        is done with, e.g. one a test built, whose periodic jobs must not go on against a shared database."""
        if self._embedded_worker is not None:
            self._embedded_worker.stop()


class _Guard:
    """Turns Redis errors into QueueUnavailable, and refuses at once while Redis counts as unavailable."""

    def __init__(self, jobs: Jobs):
        self.jobs = jobs

    def __enter__(self):
        if time.monotonic() < self.jobs._unavailable_until:
            raise QueueUnavailable("Redis did not answer a moment ago")

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and issubclass(exc_type, (RedisConnectionError, RedisTimeoutError)):
            self.jobs._unavailable_until = time.monotonic() + self.jobs.app.config["REDIS_RETRY_AFTER"]
            raise QueueUnavailable(f"{exc_type.__name__}: {exc}") from exc
        return False


def request_connection_options(config) -> dict:
    """redis-py options for Redis as requests use it (the queues, the rate limiter): a short time-out
    and no retries (redis-py retries three times by default, which would quadruple every wait)."""
    timeout = config["REDIS_SOCKET_TIMEOUT"]
    return {"socket_timeout": timeout, "socket_connect_timeout": timeout, "retry": RedisRetry(NoBackoff(), 0)}


def _for_rq(seconds: float) -> float:
    """The delay to give RQ for a job to wait ``seconds``.

    RQ stores scheduled times as whole seconds rounded down, so a 1 s delay
    given as such may run almost at once. Just under a second more makes the
    stored time the first whole second at or after the wanted one: a job never
    runs early, and at most a second (plus the scheduler's tick) late.
    """
    return seconds + 0.999 if seconds > 0 else 0


class EmbeddedWorker(Protocol):
    """What runs the jobs of the embedded default (``app.worker.WorkerProcess``): started on the first
    enqueue, stopped by ``Jobs.shutdown``."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


def init_app(app: Flask, embedded_worker: Callable[[Flask], EmbeddedWorker] | None = None) -> None:
    """Give ``app`` its own queues (each app its own connection and embedded worker). Without
    ``REDIS_URL`` the jobs run in this process, by the worker ``embedded_worker(app)`` makes (the
    factory hands it ``app.worker``'s: the worker imports this module, never the reverse)."""
    Jobs(embedded_worker).init_app(app)


def jobs() -> Jobs:
    """The current app's queues."""
    return current_app.extensions["jobs"]


def enqueue_after_commit(queue: str, func: Callable | str, *args, **kwargs) -> None:
    """Enqueue once the current database transaction commits; drop it on rollback.

    A failure to enqueue is logged and never undoes the committed change.
    """

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
        except QueueUnavailable as exc:
            log.warning("could not enqueue %s on %s after commit: %s", func, queue, exc)
        except Exception:
            log.exception("could not enqueue %s on %s after commit", func, queue)


@event.listens_for(Session, "after_soft_rollback")
def _drop_pending(session: Session, previous_transaction) -> None:
    if previous_transaction.parent is None:
        session.info.pop(_PENDING, None)
