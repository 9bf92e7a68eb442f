"""``flask worker`` on a fresh disk: the PDF fonts are not built, and no job lane waits for them.

A real worker process on a redis-server of the test's own (the machine's is never touched). The
fonts' build is held at its start by the test, which holds the build's file lock on an empty
``PDF_FONT_DIR``: as a long build would, without spending minutes of CPU.
"""
from __future__ import annotations

import fcntl
import shutil
import time

import pytest

from tests.processes import RedisServer, Workers, children_of, worker_env
from tests.support import wait_until

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs the redis-server program")


def test_a_verification_mail_leaves_while_the_pdf_fonts_are_still_being_built(make_app, test_env, mailbox,
                                                                              tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    workers = Workers(worker_env(test_env, redis_server.url, PDF_FONT_DIR=str(fonts)), tmp_path / "worker.log")
    try:
        with open(fonts / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # a build under way, nothing of it done yet
            client = make_app(REDIS_URL=redis_server.url).test_client()
            started = time.monotonic()
            worker = workers.start()
            response = client.post("/api/register", json={"email": "fresh@example.com", "name": "Ada",
                                                          "password": "correct horse 9"})
            assert response.status_code == 201
            mailbox.wait_for("fresh@example.com", timeout=10)
            assert time.monotonic() - started < 10, workers.output()
            # The build runs beside the lanes, in a child process of the worker's, waiting for the lock.
            wait_until(lambda: children_of(worker.pid), timeout=5)
            builders = children_of(worker.pid)
            workers.stop_all()
            assert worker.returncode == 0, workers.output()
            wait_until(lambda: not any(children_of(pid) or _alive(pid) for pid in builders), timeout=10)
        assert not list(fonts.glob("*.ttf"))  # it was stopped with the worker, before building anything
    finally:
        workers.stop_all()
        redis_server.stop()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
