"""Mails leave through the database (issue 24 point 4): one asked for while Redis is down arrives once
Redis is back, exactly once, and one whose worker was killed while sending it arrives once too.

Each test starts its own ``redis-server`` on a free port (the machine's shared one is never stopped),
its own SMTP server and ``flask worker`` processes, on a database of its own (``own_database``, as the
webhook fault tests have it). Sweeps run every second with a grace of one second.
"""
from __future__ import annotations

import asyncio
import os
import shutil
import signal
import threading
import time
from contextlib import contextmanager

import pytest

from app.events.models import OutboxMail
from tests.processes import RedisServer, Workers
from tests.support import PASSWORD, Mailbox, start_smtp_server, wait_until
from tests.webhooks.test_resilience import own_database, own_query  # noqa: F401  (a fixture)

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs the redis-server program")

FAST = {"MAIL_SWEEP_INTERVAL": "1", "MAIL_SWEEP_GRACE": "1", "MAIL_LEASE": "3", "MAIL_TIMEOUT": "2"}
EMAIL = "own@example.com"


class HeldMailbox(Mailbox):
    """A mailbox that can hold a sender at MAIL FROM until released, and says when one is held."""

    def __init__(self):
        super().__init__()
        self.hold, self.held = threading.Event(), threading.Event()

    async def handle_MAIL(self, server, session, envelope, address, options):
        if self.hold.is_set():
            self.held.set()
            while self.hold.is_set():
                await asyncio.sleep(0.05)
        envelope.mail_from = address
        return "250 OK"


@contextmanager
def own_mail_stack(test_env, make_app, tmp_path, database):
    """(app, workers, redis, mailbox): a Redis, an SMTP server and a database of the test's own, a user
    EMAIL, no worker started yet."""
    from flask_migrate import upgrade

    from app.auth import registration
    from app.auth.passwords import hash_password
    from app.extensions import db

    mailbox = HeldMailbox()
    smtp = start_smtp_server(mailbox)
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    settings = {**FAST, "DATABASE_URL": database, "REDIS_URL": redis_server.url, "MAIL_SERVER": "127.0.0.1",
                "MAIL_PORT": str(smtp.port)}
    workers = Workers({**os.environ, **test_env, "FLASK_APP": "app", **settings}, tmp_path / "worker.log")
    app = make_app(env=test_env, **settings)
    try:
        with app.app_context():
            upgrade()
            registration.new_user(email=EMAIL, name="Ada", password_hash=hash_password(PASSWORD), verified=True)
            db.session.commit()
        yield app, workers, redis_server, mailbox
    finally:
        mailbox.hold.clear()
        workers.stop_all()
        redis_server.stop()
        smtp.stop()
        with app.app_context():
            db.engine.dispose()


def resets(mailbox) -> list:
    return [m for m in mailbox.to(EMAIL) if "password" in m["Subject"].lower()]


def test_a_mail_asked_for_while_redis_is_down_arrives_once_it_is_back(
        test_env, make_app, tmp_path, own_database):  # noqa: F811
    with own_mail_stack(test_env, make_app, tmp_path, own_database) as (app, workers, redis_server, mailbox):
        workers.start()
        client = app.test_client()
        redis_server.stop()

        answer = client.post("/api/forgot-password", json={"email": EMAIL})
        assert answer.status_code == 200                     # the request does not wait for Redis
        assert own_query(app, lambda s: s.query(OutboxMail).count()) == 1   # the mail is in the database
        time.sleep(1.5)
        assert resets(mailbox) == []

        redis_server.start()

        def arrived() -> bool:
            if workers.processes[-1].poll() is not None:   # a worker that gave up on Redis is replaced,
                workers.start()                            # as the platform's supervisor would
            return len(resets(mailbox)) >= 1
        try:
            wait_until(arrived, timeout=45)
        except AssertionError:
            raise AssertionError(workers.log.read_text()[-3000:]) from None
        time.sleep(3)                                      # the sweeps go on: nothing is sent twice
        assert len(resets(mailbox)) == 1
        assert own_query(app, lambda s: [m.sent_at is not None for m in s.query(OutboxMail)]) == [True]


def test_a_mail_whose_worker_was_killed_while_sending_it_arrives_once(
        test_env, make_app, tmp_path, own_database):  # noqa: F811
    with own_mail_stack(test_env, make_app, tmp_path, own_database) as (app, workers, redis_server, mailbox):
        worker = workers.start()
        mailbox.hold.set()
        assert app.test_client().post("/api/forgot-password", json={"email": EMAIL}).status_code == 200
        assert mailbox.held.wait(30), workers.output()[-3000:]   # the worker is in the middle of sending it
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
        mailbox.hold.clear()
        assert resets(mailbox) == []

        workers.start()
        try:
            wait_until(lambda: len(resets(mailbox)) >= 1, timeout=45)  # after the lease (3 s) lapses
        except AssertionError:
            raise AssertionError(workers.output()[-3000:]) from None
        time.sleep(3)
        assert len(resets(mailbox)) == 1
        mail_id, sent_at, attempts = own_query(app, lambda s: next(
            (m.id, m.sent_at, m.attempts) for m in s.query(OutboxMail)))
        assert sent_at is not None and attempts == 2
        assert resets(mailbox)[0]["Message-ID"].startswith(f"<{mail_id}@")  # the same message, if it were sent twice
