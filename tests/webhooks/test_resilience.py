"""At-least-once delivery against a real Redis and real worker processes that die.

Each test starts its own ``redis-server`` on a free port (the machine's shared
one is never stopped) and ``flask worker`` processes on it, on a database of
its own (a SQLite file, or a new database on the PostgreSQL server of
``TEST_DATABASE_URL``): no other worker of the test run relays or sweeps its
events. Here with a sweep every second and a grace of one second, so that what
a killed process or a Redis outage lost is found again quickly.
"""
import json
import os
import shutil
import signal
import time
import uuid
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, make_url, text

from tests.processes import RedisServer, Workers
from tests.support import PASSWORD, Receiver, wait_until

from app.config import database_url
from app.webhooks.models import Delivery

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs the redis-server program")

FAST_SWEEPS = {"WEBHOOK_SWEEP_INTERVAL": "1", "WEBHOOK_SWEEP_GRACE": "1"}


@pytest.fixture
def own_database(test_env, tmp_path):
    """The URL of a new, empty database of the test's own; a PostgreSQL one is dropped afterwards."""
    if not test_env["DATABASE_URL"].startswith("postgres"):
        yield f"sqlite:///{tmp_path / 'own.db'}"
        return
    server = create_engine(database_url(test_env["DATABASE_URL"]), isolation_level="AUTOCOMMIT")
    name = f"webhooks_{uuid.uuid4().hex[:12]}"
    with server.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(database_url(test_env["DATABASE_URL"])).set(database=name).render_as_string(
            hide_password=False)
    finally:
        with server.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        server.dispose()


@contextmanager
def own_stack(test_env, make_app, tmp_path, database, receiver, events, settings):
    """(app, client signed in, webhook id, workers, redis) on a Redis and a database of the test's own,
    the app and its workers configured by ``test_env`` and ``settings``; no worker started yet."""
    from flask_migrate import upgrade

    from app.auth import registration
    from app.auth.passwords import hash_password
    from app.extensions import db

    redis_server = RedisServer(tmp_path)
    redis_server.start()
    settings = {**settings, "DATABASE_URL": database, "REDIS_URL": redis_server.url}
    workers = Workers({**os.environ, **test_env, "FLASK_APP": "app", **settings}, tmp_path / "worker.log")
    app = make_app(env=test_env, **settings)
    try:
        with app.app_context():
            upgrade()
            registration.new_user(email="own@example.com", name="Ada", password_hash=hash_password(PASSWORD),
                                  verified=True)
            db.session.commit()
        client = app.test_client()
        client.post("/api/auth/signin", json={"email": "own@example.com", "password": PASSWORD})
        response = client.post("/api/webhooks", json={"url": receiver.url, "events": events})
        assert response.status_code == 201, response.get_json()
        yield app, client, response.get_json()["data"]["id"], workers, redis_server
    finally:
        workers.stop_all()
        redis_server.stop()
        with app.app_context():
            db.engine.dispose()


def own_query(app, fn):
    """``fn(session)`` on the app's database, in an app context of its own."""
    from app.extensions import db

    with app.app_context():
        try:
            return fn(db.session)
        finally:
            db.session.rollback()


@pytest.fixture
def stack(test_env, make_app, tmp_path, own_database):
    """(app, client signed in, workers, redis, receiver): a worker running, fast sweeps."""
    receiver = Receiver()
    try:
        with own_stack(test_env, make_app, tmp_path, own_database, receiver, ["resume.created"],
                       FAST_SWEEPS) as (app, client, _webhook_id, workers, redis_server):
            workers.start()
            yield app, client, workers, redis_server, receiver
    finally:
        receiver.close()


def create_resume(client, title: str) -> str:
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    response = client.post("/api/resumes", json={"title": title, "templateId": template})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]["id"]


def delivered_resumes(receiver) -> set[str]:
    return {json.loads(r["body"])["data"]["resume"]["id"] for r in receiver.requests}


def test_a_pending_retry_survives_a_killed_worker(stack):
    app, client, workers, redis_server, receiver = stack

    def query(fn):
        return own_query(app, fn)
    receiver.statuses = [500, 200]
    resume_id = create_resume(client, "Retried")
    receiver.wait_for(1)
    # The first attempt failed and is logged; its retry waits in Redis for the scheduler.
    wait_until(lambda: query(lambda s: s.query(Delivery).one().next_retry_at) is not None)
    from rq.registry import ScheduledJobRegistry

    registry = ScheduledJobRegistry("webhooks", connection=app.extensions["jobs"].connection)
    wait_until(lambda: registry.count == 1)
    workers.processes[0].send_signal(signal.SIGKILL)
    workers.processes[0].wait(timeout=10)

    workers.start()
    requests = receiver.wait_for(2, timeout=30)
    assert {json.loads(r["body"])["id"] for r in requests} == {json.loads(requests[0]["body"])["id"]}
    assert delivered_resumes(receiver) == {resume_id}
    wait_until(lambda: query(lambda s: s.query(Delivery).one().delivered_at) is not None)
    assert query(lambda s: s.query(Delivery).one().attempts) == 2


def test_events_made_while_redis_is_down_are_delivered_once_it_is_back(stack):
    app, client, workers, redis_server, receiver = stack
    before = create_resume(client, "Before")
    wait_until(lambda: delivered_resumes(receiver) == {before})

    redis_server.stop()
    during = [create_resume(client, f"During {i}") for i in range(3)]  # the API keeps answering
    assert client.get("/api/resumes").get_json()["meta"]["total"] == 4
    time.sleep(1)
    assert delivered_resumes(receiver) == {before}

    redis_server.start()

    def delivered_all() -> bool:
        if workers.processes[-1].poll() is not None:  # a worker that gave up on Redis is replaced,
            workers.start()                           # as the platform's supervisor would
        return delivered_resumes(receiver) == {before, *during}

    try:
        wait_until(delivered_all, timeout=45)
    except AssertionError:
        raise AssertionError(f"worker exit codes {[p.poll() for p in workers.processes]}; log:\n"
                             + workers.log.read_text()[-3000:]) from None
