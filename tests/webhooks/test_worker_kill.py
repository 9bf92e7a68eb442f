"""A worker killed with SIGKILL in the middle of a batch of deliveries, with the DEFAULT settings.

The test has processes of its own: a ``redis-server`` on a free port, ``flask worker``
processes on it, and a database of its own (a SQLite file, or a new database on the
PostgreSQL server of ``TEST_DATABASE_URL``), so that no other worker of the test run
(the session's embedded one, or its ``flask worker``) sweeps what the killed one left.
"""
import json
import shutil
import signal
import time
from collections import Counter

import pytest
from sqlalchemy import select

from app.webhooks.delivery import POST_THREADS
from app.webhooks.models import Delivery
from tests.support import Receiver, wait_until
from tests.webhooks.test_resilience import own_database, own_query, own_stack  # noqa: F401 (a fixture)

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs the redis-server program")

EVENTS = 50
RECEIVER_DELAY = 0.3  # seconds the receiver takes to answer each post
GOAL = 60.0  # seconds from the new worker's start to the last event's arrival
DEFAULTED = ("WEBHOOK_TIMEOUT", "WEBHOOK_SWEEP_INTERVAL", "WEBHOOK_SWEEP_GRACE", "JOB_TIMEOUT")


@pytest.fixture
def stack(test_env, make_app, tmp_path, own_database):
    """(app, client signed in, webhook id, workers, receiver): default settings, no worker started yet."""
    receiver = Receiver(delay=RECEIVER_DELAY)
    env = {k: v for k, v in test_env.items() if k not in DEFAULTED}
    try:
        with own_stack(env, make_app, tmp_path, own_database, receiver, ["resume.updated"], {}) as (
                app, client, webhook_id, workers, _redis):
            workers.env = {k: v for k, v in workers.env.items() if k not in DEFAULTED}
            yield app, client, webhook_id, workers, receiver
    finally:
        receiver.close()


def event_ids(requests) -> list[str]:
    return [json.loads(r["body"])["id"] for r in requests]


def test_a_worker_killed_mid_batch_loses_no_logged_delivery_and_the_rest_arrive_within_a_minute(stack):
    app, client, webhook_id, workers, receiver = stack
    assert (app.config["WEBHOOK_SWEEP_INTERVAL"], app.config["WEBHOOK_SWEEP_GRACE"]) == (10, 10)  # the defaults
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    resume = client.post("/api/resumes", json={"title": "Killed", "templateId": template}).get_json()["data"]["id"]
    for i in range(EVENTS):  # they wait in the outbox: no worker runs yet
        assert client.put(f"/api/resumes/{resume}", json={"title": f"Version {i}"}).status_code == 200

    def logged_delivered() -> set[str]:
        return own_query(app, lambda s: set(s.scalars(select(Delivery.event_id)
                                                      .where(Delivery.delivered_at.is_not(None)))))

    first = workers.start()
    wait_until(lambda: len(logged_delivered()) >= 10, timeout=60, interval=0.02)
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    killed_at = time.monotonic()
    before = logged_delivered()  # what the log said when the worker died
    assert 10 <= len(before) < EVENTS, f"{len(before)} logged: the kill was not mid-batch"

    started = time.monotonic()
    workers.start()
    wait_until(lambda: len(set(event_ids(receiver.requests))) == EVENTS, timeout=GOAL + 30, interval=0.1)
    requests = list(receiver.requests)
    last = max(r["at"] for r in requests)
    after_kill = [r for r in requests if r["at"] > killed_at]
    counts = Counter(event_ids(requests))
    duplicates = sum(n - 1 for n in counts.values())
    # The new worker's post of each event (the last one: a post the killed worker had sent may be read after).
    redelivered = {}
    for request in after_kill:
        redelivered[json.loads(request["body"])["id"]] = request["at"]
    spread = max(redelivered.values()) - min(redelivered.values())
    print(f"\n{len(before)} of {EVENTS} logged delivered before the kill; {len(redelivered)} posted again in "
          f"{spread:.2f} s; last event {last - started:.1f} s after the new worker started; "
          f"{duplicates} duplicate posts")

    assert last - started <= GOAL
    assert not set(event_ids(after_kill)) & before  # logged as delivered: never posted again
    assert duplicates <= POST_THREADS  # at most the posts in flight when the worker died
    # Redelivered together, not one at a time.
    assert spread < len(redelivered) * RECEIVER_DELAY / 3

    def log_complete():
        entries = client.get(f"/api/webhooks/{webhook_id}/logs?limit=100").get_json()["data"]
        return len(entries) == EVENTS and all("delivered_at" in entry for entry in entries) and entries

    entries = wait_until(log_complete, timeout=10)
    assert {e["status_code"] for e in entries} == {200} and all(e["next_retry_at"] is None for e in entries)
