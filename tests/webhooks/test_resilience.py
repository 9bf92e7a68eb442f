"""At-least-once delivery against a real Redis and real worker processes that die.

Each test starts its own ``redis-server`` on a free port (the machine's shared
one is never stopped) and ``flask worker`` processes on it, with a sweep every
second and a grace of one second, so that what a killed process or a Redis
outage lost is found again quickly.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.webhooks.models import Delivery
from tests.support import Receiver, free_port, wait_until

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs the redis-server program")

ROOT = Path(__file__).resolve().parents[2]
FAST_SWEEPS = {"WEBHOOK_SWEEP_INTERVAL": "1", "WEBHOOK_SWEEP_GRACE": "1"}


class RedisServer:
    """A redis-server of this test's own, on a free port; it keeps nothing on disk."""

    def __init__(self, tmp: Path):
        self.port, self.tmp, self.process = free_port(), tmp, None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                                         "--save", "", "--appendonly", "no", "--dir", str(self.tmp)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        client = redis.Redis.from_url(self.url)
        wait_until(lambda: _answers(client), timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def _answers(client) -> bool:
    try:
        return client.ping()
    except Exception:
        return False


class Workers:
    """``flask worker`` processes on the test's Redis."""

    def __init__(self, env: dict, log: Path):
        self.env, self.log, self.processes = env, log, []

    def start(self) -> subprocess.Popen:
        with open(self.log, "ab") as out:
            process = subprocess.Popen([sys.executable, "-m", "flask", "worker"], cwd=ROOT, env=self.env,
                                       stdout=out, stderr=subprocess.STDOUT)
        self.processes.append(process)
        return process

    def stop_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()


@pytest.fixture
def stack(test_env, make_app, tmp_path, make_user):
    """(app, client signed in, workers, redis, receiver) on a Redis of the test's own."""
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    env = {**os.environ, **test_env, "FLASK_APP": "app", "REDIS_URL": redis_server.url, **FAST_SWEEPS}
    workers = Workers(env, tmp_path / "worker.log")
    receiver = Receiver()
    app = make_app(REDIS_URL=redis_server.url, **FAST_SWEEPS)
    try:
        workers.start()
        user = make_user()
        client = app.test_client()
        client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
        response = client.post("/api/webhooks", json={"url": receiver.url, "events": ["resume.created"]})
        assert response.status_code == 201, response.get_json()
        yield app, client, workers, redis_server, receiver
    finally:
        workers.stop_all()
        redis_server.stop()
        receiver.close()


def create_resume(client, title: str) -> str:
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    response = client.post("/api/resumes", json={"title": title, "templateId": template})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]["id"]


def delivered_resumes(receiver) -> set[str]:
    return {json.loads(r["body"])["data"]["resume"]["id"] for r in receiver.requests}


def test_a_pending_retry_survives_a_killed_worker(stack, query):
    app, client, workers, redis_server, receiver = stack
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


def test_events_made_while_redis_is_down_are_delivered_once_it_is_back(stack, query):
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
