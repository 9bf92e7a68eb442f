"""Leases and the sweep: what a killed worker left is posted again once its lease lapses, never while
an attempt may still run, and a failed redelivery goes on with the retry schedule."""
import json
from datetime import datetime, timedelta, timezone

from tests.support import wait_until
from tests.webhooks.test_webhooks import hook, logs, receiver, verified  # noqa: F401 (fixtures)

from app.common.models import new_id
from app.events.models import Event
from app.webhooks.models import Delivery, Webhook


def left_delivery(query, hook, *, lease_until=None, attempts=0, next_retry_at=None) -> tuple[str, str]:
    """A delivery as a worker killed during its attempt leaves it: its event dispatched five minutes
    ago, its attempt never recorded. Returns (delivery id, event id)."""
    created = datetime.now(timezone.utc) - timedelta(minutes=5)
    delivery_id, event_id = new_id(), new_id()

    def write(session):
        webhook = session.get(Webhook, hook["id"])
        session.add(Event(id=event_id, type="resume.deleted", user_id=webhook.user_id,
                          data={"resume": {"id": "gone"}}, created_at=created, dispatched_at=created))
        session.flush()
        session.add(Delivery(id=delivery_id, webhook_id=webhook.id, event_id=event_id, event_type="resume.deleted",
                             url=webhook.url, created_at=created, attempts=attempts, lease_until=lease_until,
                             next_retry_at=next_retry_at or created))
        session.commit()

    query(write)
    return delivery_id, event_id


def sweep_now(app) -> None:
    """Have the workers run a sweep now, as its interval would."""
    jobs = app.extensions["jobs"]
    jobs.connection.delete("periodic:sweep-webhook-events")
    with app.app_context():
        jobs.enqueue_due_periodic_jobs()


def test_the_sweep_posts_what_a_killed_worker_left_once_its_lease_has_lapsed(app, client, hook, receiver, query):
    _delivery_id, event_id = left_delivery(query, hook, lease_until=datetime.now(timezone.utc) - timedelta(seconds=1))
    sweep_now(app)
    [request] = receiver.wait_for(1)
    assert verified(request)["id"] == event_id
    entry = wait_until(lambda: [e for e in logs(client, hook["id"]) if "delivered_at" in e])[0]
    assert (entry["event_id"], entry["attempts"], entry["status_code"]) == (event_id, 1, 200)


def test_a_delivery_whose_lease_runs_is_not_posted_again(app, hook, receiver, query):
    left_delivery(query, hook, lease_until=datetime.now(timezone.utc) + timedelta(seconds=30))
    with app.app_context():
        from app.webhooks import service

        counts = service.sweep()  # it posts what it claims before it returns
    assert counts["deliveries"] == 0 and receiver.requests == []


def test_a_failed_redelivery_goes_on_with_the_retry_schedule(app, client, hook, receiver, query):
    receiver.statuses = [503, 200]
    _delivery_id, event_id = left_delivery(query, hook)
    sweep_now(app)
    first, second = receiver.wait_for(2)
    assert json.loads(first["body"])["id"] == json.loads(second["body"])["id"] == event_id
    assert 1.0 <= second["at"] - first["at"] <= 3.5  # the retry after one second
    entry = wait_until(lambda: [e for e in logs(client, hook["id"]) if "delivered_at" in e])[0]
    assert (entry["attempts"], entry["status_code"]) == (2, 200)


def test_a_retry_job_that_runs_ahead_of_its_time_does_nothing(app, hook, receiver, query):
    # As when the sweep made the attempt a late retry job was for, and scheduled the next one itself.
    delivery_id, _ = left_delivery(query, hook, attempts=1,
                                   next_retry_at=datetime.now(timezone.utc) + timedelta(seconds=30))
    with app.app_context():
        from app.webhooks import service

        assert service.deliver(delivery_id) == "nothing to do"
    assert receiver.requests == []
    assert query(lambda s: s.get(Delivery, delivery_id).attempts) == 1
