"""The delivery log's retention: a periodic job on the general lane deletes the entries older than
WEBHOOK_LOG_RETENTION_DAYS that have no attempt to come, then the events that old no entry names.
An old entry that a newer re-send names stays as long as that re-send does."""
from datetime import timedelta

from sqlalchemy import select, update

from tests.conftest import drain_jobs
from tests.support import wait_until
from tests.webhooks import test_webhooks as shared
from tests.webhooks.test_replay import settled
from tests.webhooks.test_webhooks import create_resume, logs

from app.common.models import new_id, utcnow
from app.events.models import Event
from app.queue import DEFAULT, PERIODIC
from app.webhooks.models import Delivery

receiver, hook = shared.receiver, shared.hook  # the fixtures
JOB = "delete-old-webhook-logs"


def age(query, entry_ids, days=31):
    """Make the log entries (and their events) ``days`` old."""
    def run(session):
        then = utcnow() - timedelta(days=days)
        session.execute(update(Delivery).where(Delivery.id.in_(entry_ids)).values(created_at=then))
        events = select(Delivery.event_id).where(Delivery.id.in_(entry_ids)).scalar_subquery()
        session.execute(update(Event).where(Event.id.in_(events)).values(created_at=then))
        session.commit()
    query(run)


def run_cleanup(app):
    """Let the periodic job come due: the next tick enqueues it for a worker."""
    jobs = app.extensions["jobs"]
    jobs.connection.delete(f"periodic:{JOB}")
    with app.app_context():
        jobs.enqueue_due_periodic_jobs()


def entry_ids(client, hook_id):
    return {entry["id"] for entry in logs(client, hook_id, limit=100)}


def wait_for_log(client, hook_id, expected: set):
    """Wait until the log lists exactly ``expected`` (a worker runs the job when it comes to it)."""
    wait_until(lambda: entry_ids(client, hook_id) == expected, timeout=10)


def test_the_job_runs_on_the_general_lane_every_hour(app):
    lane, function, setting = PERIODIC[JOB]
    assert (lane, function, app.config[setting]) == (DEFAULT, "app.webhooks.jobs.delete_old_logs", 3600)
    assert app.config["WEBHOOK_LOG_RETENTION"] == timedelta(days=30)


def test_entries_past_retention_go_with_their_events_and_the_rest_stay(app, client, owner, hook, receiver, query):
    create_resume(client, "Old and delivered")
    create_resume(client, "Old with a retry to come")
    create_resume(client, "Recent")
    receiver.wait_for(3)
    recent, pending, old = settled(client, hook["id"], 3)  # newest first
    age(query, [old["id"], pending["id"]])
    query(lambda s: (s.execute(update(Delivery).where(Delivery.id == pending["id"]).values(
        delivered_at=None, attempts=1, next_retry_at=utcnow() + timedelta(hours=1))), s.commit()))
    orphan = new_id()  # an event no webhook heard of (its user had none then), as old

    def add_orphan(session):
        then = utcnow() - timedelta(days=31)
        session.add(Event(id=orphan, type="resume.created", user_id=owner["id"], data={}, created_at=then,
                          dispatched_at=then))
        session.commit()
    query(add_orphan)

    run_cleanup(app)

    wait_for_log(client, hook["id"], {recent["id"], pending["id"]})
    left = query(lambda s: set(s.scalars(select(Event.id))))
    assert old["event_id"] not in left and orphan not in left
    assert {recent["event_id"], pending["event_id"]} <= left


def test_an_old_entry_stays_while_a_newer_re_send_names_it(app, client, hook, receiver, query):
    create_resume(client)
    receiver.wait_for(1)
    [original] = settled(client, hook["id"], 1)
    resends = []
    for _ in range(2):
        response = client.post(f"/api/webhooks/{hook['id']}/logs/{original['id']}/resend")
        assert response.status_code == 202
        resends.append(response.get_json()["data"]["id"])
    settled(client, hook["id"], 3)
    # A re-send of the first re-send: a chain original <- first <- chained.
    response = client.post(f"/api/webhooks/{hook['id']}/logs/{resends[0]}/resend")
    assert response.status_code == 202
    chained = response.get_json()["data"]["id"]
    settled(client, hook["id"], 4)
    age(query, [original["id"], *resends])  # the chained re-send is recent

    run_cleanup(app)

    # The second re-send was a leaf: gone. The chain stays whole for its recent end.
    wait_for_log(client, hook["id"], {original["id"], resends[0], chained})
    drain_jobs(app)  # nothing more goes
    assert entry_ids(client, hook["id"]) == {original["id"], resends[0], chained}

    age(query, [chained])
    run_cleanup(app)

    wait_for_log(client, hook["id"], set())
    assert query(lambda s: s.get(Event, original["event_id"])) is None
