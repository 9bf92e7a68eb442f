"""``flask worker`` on a fresh disk: the PDF fonts are cut per document, so there is nothing to build and
no job lane waits. A real worker process on a redis-server of the test's own (the machine's is never
touched), with an empty ``PDF_FONT_DIR``."""
from __future__ import annotations

import shutil
import time

import pytest

from tests.processes import RedisServer, Workers, children_of, worker_env

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs the redis-server program")


def test_a_verification_mail_leaves_within_seconds_of_a_fresh_workers_start(make_app, test_env, mailbox,
                                                                            tmp_path):
    fonts = tmp_path / "fonts"
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    workers = Workers(worker_env(test_env, redis_server.url, PDF_FONT_DIR=str(fonts)), tmp_path / "worker.log")
    try:
        client = make_app(REDIS_URL=redis_server.url).test_client()
        started = time.monotonic()
        worker = workers.start()
        response = client.post("/api/register", json={"email": "fresh@example.com", "name": "Ada",
                                                      "password": "correct horse 9"})
        assert response.status_code == 201
        mailbox.wait_for("fresh@example.com", timeout=10)
        assert time.monotonic() - started < 10, workers.output()
        assert not children_of(worker.pid)  # no font build beside the lanes: nothing to build
        assert not list(fonts.glob("*.ttf"))  # and nothing cut before a PDF asks for it
        workers.stop_all()
        assert worker.returncode == 0, workers.output()
    finally:
        workers.stop_all()
        redis_server.stop()
