"""The worker: one RQ worker per lane, and the scheduler, as threads of one process.

``flask worker`` runs it as its own process; the embedded default runs the same
threads inside the web process. Each lane (``app.queue.LANES``) has a worker of
its own, so a slow webhook receiver never holds up an export someone waits for.

Why threads of one process rather than RQ's scheduler process and a fork per
job: a ``kill -9`` takes every part with it (nothing is left holding the
scheduler's locks), the scheduler here is a loop that outlives any Redis
outage instead of a child that dies with the first error, and a fork per job
made short jobs several times slower. Job time-outs are enforced by RQ's timer
death penalty, which cannot interrupt a job blocked inside a C call; the export
wait has its own deadline (``app.queue.run_while_awaited``).

A job in hand is leased: its entry in RQ's StartedJobRegistry expires JOB_LEASE
seconds ahead, and a thread of the process renews it every LEASE_RENEW seconds
while the job runs. A job whose lease lapsed lost its worker (``kill -9``, a
crash): the scheduler puts it back at the front of its queue, at most
RERUNS_AFTER_LOST_WORKER times, for a live worker to run again (jobs are safe
to run twice); after that RQ's own clean-up fails it (or retries it by its
``Retry``).
"""
from __future__ import annotations

import logging
import signal
import threading
import time
import uuid

from flask import Flask, g
from redis import Redis
from rq import Queue, SimpleWorker
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.scheduler import RQScheduler
from rq.timeouts import TimerDeathPenalty
from rq.utils import as_text, current_timestamp, parse_composite_key

from app.queue import LANES, QUEUE_NAMES

log = logging.getLogger(__name__)

SCHEDULER_TICK = 0.25  # seconds between looks for due delayed jobs and periodic jobs
SCHEDULER_LOCK = "app:scheduler-lock"
SCHEDULER_LOCK_MS = 3000  # a killed worker's scheduler duty passes on after this
SIGNAL_LOOK = 0.2  # seconds between the main thread's looks for a signal another thread received
STOP_GRACE = 25  # seconds a stopping worker lets running jobs finish (a PaaS allows about 30)
# RQ's SimpleWorker sends no heartbeat while a job runs, and its StartedJobRegistry entry lasts the job's time-out
# plus 60 s, swept every 10 minutes: a killed worker's job would wait that long. Here it waits JOB_LEASE seconds.
JOB_LEASE = 5  # seconds a job's lease lasts from its last renewal (whole seconds: RQ's registry scores)
LEASE_RENEW = 1.0  # seconds between renewals: a job's thread may hold the interpreter for 3 s unnoticed
RERUNS_AFTER_LOST_WORKER = 1  # a job that took two workers down with it (out of memory, say) fails instead
LOST_WORKERS = "lost_workers"  # job meta: how many times the job was queued again after its worker died
# One process moves due jobs at a time (the lock's holder renews it each tick), so no job is enqueued twice.
_HOLD_LOCK = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""


class LaneWorker(SimpleWorker):
    """An RQ worker that can live in a thread, running each job inside a fresh app context."""

    death_penalty_class = TimerDeathPenalty
    max_connection_wait_time = 2.0  # back to work within about two seconds of Redis returning

    def __init__(self, *args, app: Flask, **kwargs):
        self.app = app
        self._in_hand: Job | None = None  # the job whose lease renew_lease renews
        self._lease = threading.Lock()
        super().__init__(*args, **kwargs)

    def _install_signal_handlers(self):
        pass  # the process's main thread handles signals (WorkerProcess.run)

    def get_heartbeat_ttl(self, job: Job) -> int:
        return JOB_LEASE  # the lease of a job in hand (RQ's StartedJobRegistry score)

    def execute_job(self, job, queue):
        with self._lease:
            self._in_hand = job
        try:
            return super().execute_job(job, queue)
        finally:
            with self._lease:
                self._in_hand = None

    def cleanup_execution(self, job, pipeline):
        # Under the lock: a renewal either went through before the job's entry is removed, or sees no job.
        with self._lease:
            self._in_hand = None
            super().cleanup_execution(job, pipeline)

    def renew_lease(self) -> bool:
        """Renew the lease of the job in hand (RQ's heartbeats of the worker, execution and job);
        whether there was one."""
        with self._lease:
            if self._in_hand is None or self.execution is None:
                return self._in_hand is not None
            self.maintain_heartbeats(self._in_hand)
            return True

    def clean_registries(self):
        # RQ's maintenance (at a worker's start, then every few minutes) fails a started job whose registry
        # entry expired (AbandonedJobError); a lapsed lease is first the scheduler's to queue again.
        requeue_lost_jobs(self.connection, [queue.name for queue in self.queues])
        super().clean_registries()

    def perform_job(self, job, queue):
        with self.app.app_context():
            # Log lines of the job carry the id of the request that enqueued it.
            g.request_id = job.meta.get("request_id") or f"job-{job.id}"
            return super().perform_job(job, queue)


class WorkerProcess:
    """The lanes and the scheduler of one worker process (or of the embedded default)."""

    def __init__(self, app: Flask, *, embedded: bool = False, burst: bool = False):
        self.app, self.embedded, self.burst = app, embedded, burst
        self.jobs = app.extensions["jobs"]
        self.stopping = threading.Event()
        self.workers: dict[str, LaneWorker] = {}
        self._threads: list[threading.Thread] = []
        self._token = uuid.uuid4().hex

    def start(self) -> None:
        for lane, queues in LANES.items():
            self._spawn(f"rq-lane-{lane}", self._run_lane, lane, queues)
        lanes = list(self._threads)
        self._spawn("rq-leases", self._renew_leases, lanes)
        if not self.burst:
            self._spawn("rq-scheduler", self._schedule_forever)

    def run(self) -> None:
        """``flask worker``: run until SIGTERM or SIGINT (or, with ``burst``, until the queues are empty)."""
        signal.signal(signal.SIGTERM, self._request_stop)
        signal.signal(signal.SIGINT, self._request_stop)
        self.start()
        if self.burst:
            for thread in self._threads:
                while thread.is_alive():
                    thread.join(SIGNAL_LOOK)
            return
        # Waking now and then, not one endless wait: the kernel may hand SIGTERM to any thread, and then
        # Python runs the handler only once the main thread comes back from its wait.
        while not self.stopping.wait(SIGNAL_LOOK):
            pass
        self._let_running_jobs_finish()

    def _spawn(self, name: str, target, *args) -> None:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    # Lanes ------------------------------------------------------------------------
    def _run_lane(self, lane: str, queues: tuple[str, ...]) -> None:
        """Keep a worker on ``queues`` for as long as the process runs: RQ's loop quits on some Redis
        errors (a read time-out, an error during its maintenance); a new worker then takes over."""
        connection = self.jobs.worker_connection()
        while not self.stopping.is_set():
            try:
                worker = LaneWorker(list(queues), connection=connection, app=self.app)  # talks to Redis
                self.workers[lane] = worker
                worker.work(burst=self.burst, logging_level="WARNING" if self.embedded
                            else self.app.config["LOG_LEVEL"], with_scheduler=False)
            except Exception as exc:
                log.error("the %s lane's worker stopped: %s: %s", lane, type(exc).__name__, exc)
            if self.burst:
                return
            if not self.stopping.is_set():
                log.warning("the %s lane's worker stopped; a new one starts in a second", lane)
                self.stopping.wait(1)

    def _renew_leases(self, lanes: list[threading.Thread]) -> None:
        """Renew the lease of each lane's job in hand every LEASE_RENEW seconds, also while a stopping
        worker lets its jobs finish; ends once the worker stops (or its burst lanes end) with no job in hand."""
        while True:
            held = False
            for lane, worker in list(self.workers.items()):
                try:
                    held = worker.renew_lease() or held
                except Exception as exc:  # Redis away: the next renewal tries again
                    log.warning("could not renew the lease of the %s lane's job: %s: %s", lane,
                                type(exc).__name__, exc)
                    held = True
            if not held and (self.stopping.is_set() or not any(thread.is_alive() for thread in lanes)):
                return
            time.sleep(LEASE_RENEW)

    def _request_stop(self, signum, frame) -> None:
        if self.stopping.is_set():
            raise SystemExit(1)  # a second signal: stop now
        log.info("worker stopping (signal %s): running jobs may finish", signum)
        self.stop()

    def stop(self) -> None:
        """No new job starts and the scheduler stops; a job in hand finishes."""
        for worker in self.workers.values():
            worker._stop_requested = True
        self.stopping.set()

    def _let_running_jobs_finish(self) -> None:
        deadline = time.monotonic() + STOP_GRACE
        while time.monotonic() < deadline and any(w.get_state() == "busy" for w in self.workers.values()):
            time.sleep(0.1)
        for worker in self.workers.values():
            try:
                worker.register_death()  # idle ones are still blocked in their pop: tell the dashboard now
            except Exception:
                pass

    # The scheduler --------------------------------------------------------------
    def _schedule_forever(self) -> None:
        """Move due delayed jobs and retries to their queues, and enqueue due periodic jobs, every tick.

        A loop that logs and carries on through any error, so a Redis outage
        delays scheduling only by as long as it lasts.
        """
        connection = self.jobs.connection
        scheduler = RQScheduler(list(QUEUE_NAMES), connection=connection)
        scheduler.prepare_registries(list(QUEUE_NAMES))
        hold_lock = connection.register_script(_HOLD_LOCK)
        failing = False
        while not self.stopping.is_set():
            try:
                if hold_lock(keys=[SCHEDULER_LOCK], args=[self._token, SCHEDULER_LOCK_MS]):
                    scheduler.enqueue_scheduled_jobs()
                    requeue_lost_jobs(connection, QUEUE_NAMES)
                with self.app.app_context():
                    self.jobs.enqueue_due_periodic_jobs()
                if failing:
                    log.warning("scheduler: Redis answers again")
                failing = False
            except Exception as exc:
                if not failing:  # once per outage, not every tick
                    log.error("scheduler: %s: %s; retrying every tick", type(exc).__name__, exc)
                failing = True
            self.stopping.wait(SCHEDULER_TICK)


def requeue_lost_jobs(connection: Redis, queue_names) -> int:
    """Put each job whose lease lapsed (its worker died) back at the front of its queue, if it has been
    put back fewer than RERUNS_AFTER_LOST_WORKER times; RQ's registry clean-up fails the others at once
    (a failed result, so a request waiting for one answers now), or retries them by their ``Retry``.

    A job is taken from the registry with a ZREM before it is queued again: of several schedulers,
    or a worker finishing it just now, only the one that removed it acts. Returns how many were queued.
    """
    now = current_timestamp()
    with connection.pipeline(transaction=False) as pipeline:
        for name in queue_names:
            pipeline.zrangebyscore(Queue(name, connection=connection).started_job_registry.key, 0, now)
        expired = dict(zip(queue_names, pipeline.execute()))
    rerun = 0
    for name, entries in expired.items():
        if not entries:
            continue
        queue = Queue(name, connection=connection)
        registry, left = queue.started_job_registry, False
        for entry in entries:
            job_id, _ = parse_composite_key(as_text(entry))
            try:
                job = Job.fetch(job_id, connection=connection)
            except NoSuchJobError:
                job = None
            reruns = job.meta.get(LOST_WORKERS, 0) if job else RERUNS_AFTER_LOST_WORKER
            if reruns >= RERUNS_AFTER_LOST_WORKER or job.get_status(refresh=False) != JobStatus.STARTED:
                left = True
                continue
            if not connection.zrem(registry.key, entry):
                continue
            job.meta[LOST_WORKERS] = reruns + 1
            queue.enqueue_job(job, at_front=True)
            rerun += 1
            log.warning("job %s (%s) on %s lost its worker: queued again", job.id, job.func_name, name)
        if left:
            registry.cleanup(timestamp=now)  # only what was seen expired: not a lease that lapsed since
    return rerun
