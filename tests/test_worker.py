"""``flask worker`` on a fresh disk: the PDF fonts are cut per document, so there is nothing to build and
no job lane waits. A real worker process on a redis-server of the test's own (the machine's is never
touched), with an empty ``PDF_FONT_DIR``."""
from __future__ import annotations

import ctypes
import platform
import shutil
import signal
import time
from pathlib import Path

import pytest
import redis

from app.queue import LANES
from tests.processes import RedisServer, Workers, children_of, worker_env

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs the redis-server program")


def test_a_fresh_worker_sends_a_verification_mail_without_building_fonts_first(make_app, test_env, mailbox,
                                                                               tmp_path):
    """A new worker takes the mail job at once: it builds no font beside its lanes and cuts none before a
    PDF asks. (What it measures is what the worker did, not seconds: under CI's load a fresh process
    takes its while to import, and a clock here failed a worker that had done nothing wrong.)"""
    fonts = tmp_path / "fonts"
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    workers = Workers(worker_env(test_env, redis_server.url, PDF_FONT_DIR=str(fonts)), tmp_path / "worker.log")
    try:
        client = make_app(REDIS_URL=redis_server.url).test_client()
        worker = workers.start()
        response = client.post("/api/register", json={"email": "fresh@example.com", "name": "Ada",
                                                      "password": "correct horse 9"})
        assert response.status_code == 201
        mailbox.wait_for("fresh@example.com", timeout=60)
        assert not children_of(worker.pid)  # no font build beside the lanes: nothing to build
        assert not list(fonts.glob("*.ttf"))  # and nothing cut before a PDF asks for it
        workers.stop_all()
        assert worker.returncode == 0, workers.output()
    finally:
        workers.stop_all()
        redis_server.stop()


def _threads_of(pid: int) -> list[int]:
    return sorted(int(task.name) for task in Path(f"/proc/{pid}/task").iterdir())


def _signal_thread(pid: int, tid: int, signum: int) -> None:
    """tgkill(2): the signal goes to that one thread, as the kernel may pick any thread for a kill(2)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.syscall(234, pid, tid, signum) != 0:  # SYS_tgkill on x86-64
        raise OSError(ctypes.get_errno(), "tgkill failed")


@pytest.mark.skipif(platform.machine() != "x86_64", reason="calls tgkill by its x86-64 number")
def test_a_worker_stops_on_sigterm_whichever_thread_receives_it(test_env, tmp_path):
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    workers = Workers(worker_env(test_env, redis_server.url), tmp_path / "worker.log")
    try:
        worker = workers.start()
        connection = redis.Redis.from_url(redis_server.url)
        deadline = time.monotonic() + 30
        while connection.scard("rq:workers") < len(LANES) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert connection.scard("rq:workers") == len(LANES), workers.output()
        lane_thread = next(tid for tid in _threads_of(worker.pid) if tid != worker.pid)
        _signal_thread(worker.pid, lane_thread, signal.SIGTERM)
        assert worker.wait(timeout=10) == 0, workers.output()
        assert connection.scard("rq:workers") == 0  # each lane told the dashboard it stopped
    finally:
        workers.stop_all()
        redis_server.stop()
