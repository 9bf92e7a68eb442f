"""Job semantics that hold in both modes: the embedded worker (fakeredis + thread)
and real Redis with a ``flask worker`` process (``TEST_REDIS_URL``)."""
import time
import uuid
from datetime import timedelta

import pytest
from rq import Queue
from rq.job import Job, JobStatus
from rq.registry import FailedJobRegistry, ScheduledJobRegistry
from sqlalchemy import text

from app.extensions import db
from app.queue import DEFAULT, QUEUE_NAMES, enqueue_after_commit
from tests import jobs as test_jobs
from tests.support import wait_until


def new_key() -> str:
    return f"test-attempts:{uuid.uuid4().hex}"


def attempts(app, key: str) -> list[float]:
    """When each attempt of the job recording under ``key`` ran (epoch seconds)."""
    return [float(t) for t in app.extensions["jobs"].connection.lrange(key, 0, -1)]


def gaps(times: list[float]) -> list[float]:
    return [later - earlier for earlier, later in zip(times, times[1:])]


def waited_about(seconds: float, interval: float) -> bool:
    """Never early; up to a second late (RQ keeps whole seconds), plus a scheduler tick (1 s in a worker)."""
    return interval - 0.05 <= seconds <= interval + 2.2


def nothing_queued(app) -> bool:
    conn = app.extensions["jobs"].connection
    return all(Queue(name, connection=conn).count == 0 and ScheduledJobRegistry(name, connection=conn).count == 0
               for name in QUEUE_NAMES)


@pytest.mark.parametrize("queue_name", QUEUE_NAMES)
def test_a_job_on_every_queue_is_run(app, queue_name):
    key = new_key()
    app.extensions["jobs"].enqueue(queue_name, test_jobs.record, key)

    assert len(wait_until(lambda: attempts(app, key))) == 1


def test_a_job_enqueued_after_commit_waits_for_the_commit(app):
    key = new_key()
    with app.app_context():
        db.session.execute(text("SELECT 1"))
        enqueue_after_commit(DEFAULT, "tests.jobs.record", key)
        time.sleep(0.5)
        assert nothing_queued(app) and attempts(app, key) == []

        db.session.commit()

    assert len(wait_until(lambda: attempts(app, key))) == 1


def test_a_job_enqueued_in_a_rolled_back_transaction_never_runs(app):
    key = new_key()
    with app.app_context():
        db.session.execute(text("SELECT 1"))
        enqueue_after_commit(DEFAULT, "tests.jobs.record", key)
        db.session.rollback()
        db.session.execute(text("SELECT 1"))
        db.session.commit()  # a later transaction must not carry it along

    time.sleep(1.5)
    assert nothing_queued(app) and attempts(app, key) == []


def test_a_job_enqueued_before_any_query_is_dropped_by_a_rollback(app):
    key = new_key()
    with app.app_context():
        enqueue_after_commit(DEFAULT, "tests.jobs.record", key)
        db.session.rollback()
        db.session.commit()

    time.sleep(1.5)
    assert nothing_queued(app) and attempts(app, key) == []


def test_a_delayed_job_runs_about_one_second_later(app):
    key = new_key()
    enqueued_at = time.time()
    app.extensions["jobs"].enqueue(DEFAULT, test_jobs.record, key, delay=timedelta(seconds=1))

    (ran_at,) = wait_until(lambda: attempts(app, key), timeout=10)
    assert waited_about(ran_at - enqueued_at, 1)


def test_a_failing_job_is_retried_after_its_intervals_and_then_succeeds(app):
    key = new_key()
    job = app.extensions["jobs"].enqueue(DEFAULT, test_jobs.fail_first, key, 2, retry_intervals=(1, 2))

    times = wait_until(lambda: len(attempts(app, key)) >= 3 and attempts(app, key), timeout=15)
    first_gap, second_gap = gaps(times)
    assert waited_about(first_gap, 1) and waited_about(second_gap, 2), gaps(times)

    job = Job.fetch(job.id, connection=app.extensions["jobs"].connection)
    wait_until(lambda: job.get_status(refresh=True) == JobStatus.FINISHED)
    assert job.return_value() == 3


def test_a_job_that_keeps_failing_ends_in_the_failed_registry_after_its_retries(app):
    key = new_key()
    conn = app.extensions["jobs"].connection
    job = app.extensions["jobs"].enqueue(DEFAULT, test_jobs.always_fail, key, retry_intervals=(1,))

    job = Job.fetch(job.id, connection=conn)
    wait_until(lambda: job.get_status(refresh=True) == JobStatus.FAILED, timeout=10)
    assert len(attempts(app, key)) == 2
    assert job.id in FailedJobRegistry(DEFAULT, connection=conn).get_job_ids()
    assert "this job always fails" in job.latest_result().exc_string


def test_a_job_logs_with_the_request_id_of_the_request_that_enqueued_it(app):
    from flask import request

    with app.test_request_context("/api/register", headers={"X-Request-ID": "req-42"}):
        app.preprocess_request()
        assert request.headers["X-Request-ID"] == "req-42"
        from_request = app.extensions["jobs"].enqueue(QUEUE_NAMES[0], "tests.jobs.current_request_id")
    without_request = app.extensions["jobs"].enqueue(QUEUE_NAMES[0], "tests.jobs.current_request_id")

    assert from_request.latest_result(timeout=15).return_value == "req-42"
    assert without_request.latest_result(timeout=15).return_value == f"job-{without_request.id}"
