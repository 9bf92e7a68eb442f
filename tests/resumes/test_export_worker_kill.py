"""An export whose worker is killed (SIGKILL) while it renders: another worker renders it again within
seconds, and the waiting request answers with the file, not EXPORT_FAILED at the end of its wait.

Real processes: a ``redis-server`` of the test's own (tests/processes.py) and ``flask worker`` processes
on it; the request waits in a thread of this process, through the Flask test client. The worker is
killed as soon as RQ's StartedJobRegistry shows the render job started, and the test checks that the
job had not finished then. Runs in both passes (the database is the session's, SQLite or PostgreSQL).
"""
from __future__ import annotations

import shutil
import signal
import threading
import time
from urllib.parse import urlsplit

import pytest
from rq import Worker
from rq.job import Job
from rq.registry import StartedJobRegistry

from tests.processes import Workers, worker_env
from tests.test_queue_faults import redis_server  # noqa: F401  (a redis-server of the test's own)
from tests.support import wait_until

from app.queue import EXPORTS, LANES

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs the redis-server program")

WAIT = 30  # EXPORT_WAIT_SECONDS of the app and its workers
ANSWER_WITHIN = 20  # seconds from the request to its answer: well before the wait runs out
RENDER_JOB = "app.resumes.jobs.render_export"
SENTENCE = ("Designed and ran the billing platform's settlement services in Python and PostgreSQL, "
            "cutting the nightly batch from four hours to twenty minutes. ")
# Many pages of text: the render takes long enough for its worker to be killed in the middle of it.
LONG = {
    "personalInfo": {"name": "Grace Hopper", "email": "grace@example.com", "phone": "+1 555 0100",
                     "address": "Arlington, VA", "summary": SENTENCE * 6},
    "workExperience": [{"company": f"Company {i}", "position": "Senior Software Engineer",
                        "startDate": f"{1990 + i}-01", "endDate": f"{1991 + i}-06",
                        "description": "\n".join([SENTENCE * 3] * 4)} for i in range(30)],
    "education": [{"school": "Yale University", "degree": "PhD Mathematics", "startDate": "1930-09",
                   "endDate": "1934-06"}],
    "skills": ["Python", "PostgreSQL", "COBOL", "Compilers"],
    "projects": [],
}


@pytest.fixture
def workers(test_env, redis_server, tmp_path):
    group = Workers(worker_env(test_env, redis_server.url, EXPORT_WAIT_SECONDS=str(WAIT)), tmp_path / "worker.log")
    yield group
    group.stop_all()


def start_ready(workers: Workers, connection):
    """Start a ``flask worker`` and wait until each of its lanes has said hello to Redis."""
    before = {worker.name for worker in Worker.all(connection=connection)}
    process = workers.start()

    def ready():
        assert process.poll() is None, workers.output()[-4000:]
        return len({w.name for w in Worker.all(connection=connection)} - before) >= len(LANES)

    wait_until(ready, timeout=60, interval=0.1)
    return process


def rendering(connection) -> Job | None:
    """The export's render job once a worker runs it (the exports queue also runs the periodic clean-up
    of expired files; a job enters the registry a moment before its status says started)."""
    started = StartedJobRegistry(EXPORTS, connection=connection).get_job_ids(cleanup=False)
    return next((job for job in Job.fetch_many(started, connection=connection)
                 if job and RENDER_JOB in job.args and job.get_status(refresh=False) == "started"), None)


def test_an_export_whose_worker_is_killed_is_rendered_by_another_and_answered_with_the_file(
        make_app, make_user, redis_server, workers):
    app = make_app(REDIS_URL=redis_server.url, EXPORT_WAIT_SECONDS=str(WAIT))
    connection = app.extensions["jobs"].connection
    user = make_user()
    client = app.test_client()
    assert client.post("/api/auth/signin", json={"email": user["email"],
                                                 "password": user["password"]}).status_code == 200
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    response = client.post("/api/resumes", json={"title": "Killed", "templateId": template, "contentJson": LONG})
    assert response.status_code == 201, response.get_json()
    resume_id = response.get_json()["data"]["id"]
    first = start_ready(workers, connection)
    answer = {}

    def export():
        t0 = time.monotonic()
        answer["response"] = client.post(f"/api/resumes/{resume_id}/export", json={"format": "pdf"})
        answer["elapsed"] = time.monotonic() - t0

    request = threading.Thread(target=export)
    started_at = time.monotonic()
    request.start()
    render = wait_until(lambda: rendering(connection), timeout=20, interval=0.005)
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    killed_after = time.monotonic() - started_at
    # Killed in the middle of the render: it had not finished.
    assert render.get_status(refresh=True) == "started"
    time.sleep(1)
    start_ready(workers, connection)

    request.join(timeout=WAIT + 15)
    assert not request.is_alive()
    response, elapsed = answer["response"], answer["elapsed"]
    print(f"\nworker killed {killed_after:.2f} s into the export; answered {response.status_code} "
          f"after {elapsed:.1f} s")
    assert response.status_code == 201, (response.get_json(), workers.output()[-4000:])
    assert elapsed < ANSWER_WITHIN
    parts = urlsplit(response.get_json()["data"]["downloadUrl"])
    download = client.get(f"{parts.path}?{parts.query}")
    assert download.status_code == 200 and download.data.startswith(b"%PDF")
