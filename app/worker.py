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
"""
from __future__ import annotations

import logging
import signal
import threading
import time
import uuid

from flask import Flask, g
from rq import SimpleWorker
from rq.scheduler import RQScheduler
from rq.timeouts import TimerDeathPenalty

from app.queue import LANES, QUEUE_NAMES

log = logging.getLogger(__name__)

SCHEDULER_TICK = 0.25  # seconds between looks for due delayed jobs and periodic jobs
SCHEDULER_LOCK = "app:scheduler-lock"
SCHEDULER_LOCK_MS = 3000  # a killed worker's scheduler duty passes on after this
SIGNAL_LOOK = 0.2  # seconds between the main thread's looks for a signal another thread received
STOP_GRACE = 25  # seconds a stopping worker lets running jobs finish (a PaaS allows about 30)
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
        super().__init__(*args, **kwargs)

    def _install_signal_handlers(self):
        pass  # the process's main thread handles signals (WorkerProcess.run)

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
