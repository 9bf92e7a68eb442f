"""Small jobs for tests/test_queue.py, importable as ``tests.jobs`` by a ``flask worker`` process.

Each attempt appends the wall-clock time to a Redis list on the job's own
connection, so the test process can read when every attempt ran in both modes
(the embedded fakeredis server and a real Redis shared with a worker process).
"""
from __future__ import annotations

import time

from rq import get_current_job


def _record_attempt(key: str) -> int:
    connection = get_current_job().connection
    connection.rpush(key, repr(time.time()))
    return connection.llen(key)


def record(key: str) -> int:
    """Succeeds at once; returns the attempt number."""
    return _record_attempt(key)


def fail_first(key: str, failures: int) -> int:
    """Fails the first ``failures`` attempts, then succeeds."""
    attempt = _record_attempt(key)
    if attempt <= failures:
        raise RuntimeError(f"attempt {attempt} fails on purpose")
    return attempt


def always_fail(key: str) -> None:
    _record_attempt(key)
    raise RuntimeError("this job always fails")


def current_request_id() -> str | None:
    """The request id the job's log lines carry."""
    from flask import g

    return g.get("request_id")


def sleep_then_record(key: str, seconds: float) -> int:
    """Takes ``seconds``, then records its attempt: a job still running when its worker is stopped."""
    time.sleep(seconds)
    return _record_attempt(key)
