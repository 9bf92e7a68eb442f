"""Fixtures: one app and schema per session, a clean database and limiter per test.

Two modes, chosen by the environment:
- embedded default: SQLite file, in-process jobs (fakeredis), memory rate limits;
- ``TEST_DATABASE_URL`` / ``TEST_REDIS_URL``: the real PostgreSQL and Redis. With
  Redis, jobs are run by a real ``flask worker`` process started here.

Under pytest-xdist (``make test`` runs ``-n 2``) each worker process is a whole session of its own:
its own SQLite file, or its own PostgreSQL database (``<name>_gw1`` beside ``<name>``, created here)
and Redis database number (the URL's plus the worker's number), so that no worker empties another's.

Services commit (jobs on other threads and processes must see the data), so
each test ends by emptying every table rather than rolling back.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from sqlalchemy import create_engine, make_url, text

from tests.documents import renders
from tests.support import PASSWORD, Mailbox, start_smtp_server, wait_until

from app import create_app
from app.config import config_for, database_url
from app.queue import LANES, QUEUE_NAMES

ROOT = Path(__file__).resolve().parent.parent

# The files that keep one pytest-xdist worker longest (seconds of a worker in `make test`, read off
# --junitxml on 2026-12-07; most of the waiting ones wait on processes, Redis or a browser), run first: with
# --dist loadfile a worker takes a whole file at a time, in the order collected, so a long file collected
# last would keep one worker busy while the others have finished.
LONGEST_FIRST = (
    "documents/test_layout.py",            # 197 s: 288 PDFs
    "importing/test_recovery.py",          # 159 s
    "test_queue_faults.py",                # 117 s: Redis stopped and frozen, workers killed
    "common/test_contract_signed_in.py",   # 113 s
    "common/test_openapi.py",              # 85 s
    "browser/test_accessibility.py",       # 77 s
    "browser/test_side.py",                # 66 s
    "browser/test_editor_undo.py",         # 63 s
    "browser/test_editor.py",              # 59 s
    "browser/test_editor_conflicts.py",    # 50 s
    "webhooks/test_worker_kill.py",        # 45 s: a worker killed mid-batch
    "browser/test_public_pages.py",        # 43 s
)


def pytest_collection_modifyitems(config, items):
    """The longest files first (``LONGEST_FIRST``), the rest in the order collected."""
    rank = {name: index for index, name in enumerate(LONGEST_FIRST)}
    tests = Path(__file__).resolve().parent

    def place(item) -> int:
        return rank.get(Path(str(item.fspath)).relative_to(tests).as_posix(), len(rank))

    items.sort(key=place)  # stable: a file's tests keep their order


def _worker_services() -> None:
    """Point this xdist worker at a PostgreSQL database and a Redis database of its own (before any test
    module reads the variables): the first worker keeps the ones given."""
    number = int((os.environ.get("PYTEST_XDIST_WORKER") or "gw0")[2:])
    if number == 0:
        return
    if os.environ.get("TEST_DATABASE_URL"):
        url = make_url(database_url(os.environ["TEST_DATABASE_URL"]))
        own = f"{url.database}_gw{number}"
        server = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
        with server.connect() as conn:
            if not conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": own}).first():
                conn.execute(text(f'CREATE DATABASE "{own}"'))
        server.dispose()
        os.environ["TEST_DATABASE_URL"] = url.set(database=own).render_as_string(hide_password=False)
    if os.environ.get("TEST_REDIS_URL"):
        redis_url = urlsplit(os.environ["TEST_REDIS_URL"])
        base = int(redis_url.path.strip("/") or 0)
        os.environ["TEST_REDIS_URL"] = urlunsplit(redis_url._replace(path=f"/{base + number}"))


_worker_services()
TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL")
REFERENCE_TABLES = {"templates"}  # shipped by migrations; kept between tests


@pytest.fixture(scope="session", autouse=True)
def _shared_renders(tmp_path_factory):
    """The PDFs several test files read, rendered once per run for all xdist workers (documents/renders.py)."""
    base = tmp_path_factory.getbasetemp()
    renders.use_directory((base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared-renders")


@pytest.fixture(scope="session")
def mailbox():
    handler = Mailbox()
    controller = start_smtp_server(handler)
    handler.port = controller.port
    yield handler
    controller.stop()


@pytest.fixture(scope="session")
def fake_openai():
    """A fake OpenAI-compatible model service the app (and its worker) writes with (tests/ai)."""
    from tests.ai.fake_openai import FakeOpenAI

    service = FakeOpenAI()
    yield service
    service.close()


@pytest.fixture(scope="session")
def test_env(tmp_path_factory, mailbox, fake_openai) -> dict[str, str]:
    """The environment the app (and a worker process) are configured from."""
    env = {
        **fake_openai.settings(),
        "AI_TIMEOUT_SECONDS": "3",  # the fake answers at once, unless a test makes it hang
        "APP_ENV": "testing",
        "SECRET_KEY": "test-secret-key-not-for-production",
        "DATABASE_URL": TEST_DATABASE_URL or f"sqlite:///{tmp_path_factory.mktemp('db') / 'test.db'}",
        "STORAGE_DIR": str(tmp_path_factory.mktemp("storage")),
        "MAIL_SERVER": "127.0.0.1",
        "MAIL_PORT": str(mailbox.port),
        "LOG_LEVEL": "WARNING",
        "PHOTO_ALLOW_PRIVATE_TARGETS": "1",  # avatars served by test servers on loopback
        "WEBHOOK_ALLOW_PRIVATE_TARGETS": "1",  # webhook receivers too
    }
    if TEST_REDIS_URL:
        env["REDIS_URL"] = TEST_REDIS_URL
        # The machine's Redis is never the fault under test (fault tests start their own and set their
        # time-out): on a CI machine busy with two passes, 0.3 s is too short to tell it from an outage.
        env["REDIS_SOCKET_TIMEOUT"] = "2"
    return env


def _reset_database(url: str) -> None:
    if url.startswith(("postgres://", "postgresql")):
        engine = create_engine(url.replace("postgres://", "postgresql+psycopg://", 1)
                               .replace("postgresql://", "postgresql+psycopg://", 1))
        with engine.begin() as conn:
            conn.execute(text("DROP SCHEMA public CASCADE"))
            conn.execute(text("CREATE SCHEMA public"))
        engine.dispose()


@pytest.fixture(scope="session")
def app(test_env):
    from flask_migrate import upgrade

    _reset_database(test_env["DATABASE_URL"])
    application = create_app(config_for("testing", test_env))
    with application.app_context():
        upgrade()
        if TEST_REDIS_URL:
            application.extensions["jobs"].connection.flushdb()
    return application


@pytest.fixture(scope="session")
def worker_process(app, test_env, tmp_path_factory):
    """A real ``flask worker`` (RQ worker + scheduler) when Redis is configured."""
    if not TEST_REDIS_URL:
        yield None
        return
    log = tmp_path_factory.mktemp("worker") / "worker.log"
    env = {**os.environ, **test_env, "FLASK_APP": "app"}
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "flask", "worker"], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT)
    # Every lane's worker has said hello to Redis before the first test enqueues: on a CI machine busy
    # with two passes, the import alone can take longer than a test's wait for its job.
    from rq import Worker

    def ready() -> bool:
        if proc.poll() is not None:
            pytest.fail(f"flask worker exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        return len(Worker.all(connection=app.extensions["jobs"].connection)) >= len(LANES)

    wait_until(ready, timeout=90)
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def drain_jobs(app, timeout: float = 20.0) -> None:
    """Wait for queued and running jobs to finish; forget scheduled retries."""
    from rq import Queue
    from rq.registry import ScheduledJobRegistry, StartedJobRegistry

    conn = app.extensions["jobs"].connection

    def idle():
        return all(Queue(name, connection=conn).count == 0
                   and StartedJobRegistry(name, connection=conn).count == 0 for name in QUEUE_NAMES)

    try:
        wait_until(idle, timeout)
    except AssertionError:
        busy = {name: (Queue(name, connection=conn).get_job_ids(),
                       StartedJobRegistry(name, connection=conn).get_job_ids()) for name in QUEUE_NAMES}
        raise AssertionError(f"jobs still queued or running after {timeout} s (queue: (queued, started)): "
                             f"{ {name: ids for name, ids in busy.items() if ids != ([], [])} }") from None
    for name in QUEUE_NAMES:
        registry = ScheduledJobRegistry(name, connection=conn)
        for job_id in registry.get_job_ids():
            registry.remove(job_id, delete_job=True)


@pytest.fixture(autouse=True)
def _clean(app, worker_process, mailbox):
    from app.extensions import db, limiter

    yield
    try:
        drain_jobs(app)
    finally:  # a drain that times out fails its own test, not every test after it
        with app.app_context():
            db.session.rollback()
            for table in reversed(db.metadata.sorted_tables):
                if table.name not in REFERENCE_TABLES:
                    db.session.execute(table.delete())
            db.session.commit()
        limiter.reset()
        mailbox.clear()
        shutil.rmtree(app.config["STORAGE_DIR"], ignore_errors=True)  # stored exports


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def make_user(app):
    """Create a user directly through the service: ``make_user(email=..., verified=...)``."""
    from app.auth import registration
    from app.auth.passwords import hash_password
    from app.extensions import db

    counter = iter(range(10_000))

    def factory(email: str | None = None, *, name: str = "Ada Lovelace", password: str = PASSWORD,
                verified: bool = True) -> dict:
        email = email or f"user{next(counter)}@example.com"
        with app.app_context():
            user = registration.new_user(email=email, name=name, password_hash=hash_password(password),
                                         verified=verified)
            db.session.commit()
            return {"id": user.id, "email": user.email, "name": name, "password": password}

    return factory


@pytest.fixture
def login(client):
    """Sign ``client`` in as a user from ``make_user``; returns the sign-in response."""

    def do_login(user: dict, **extra):
        response = client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"],
                                                         **extra})
        assert response.status_code == 200, response.get_json()
        return response

    return do_login


@pytest.fixture
def owner(make_user, login):
    """A user (named Ada Lovelace) signed in on ``client``."""
    user = make_user()
    login(user)
    return user


@pytest.fixture
def query(app):
    """Run ``fn(session)`` inside an app context and return its result."""
    from app.extensions import db

    def run(fn):
        with app.app_context():
            return fn(db.session)

    return run


@pytest.fixture
def make_app(test_env):
    """Build another app: ``make_app(name="testing", env=test_env, config=None, **variables)`` (None drops a
    variable; ``config`` sets what no variable does).

    Flask-Limiter keeps one storage per ``Limiter`` and the newest app replaces
    it, so the session app's limiter state is put back afterwards.
    """
    import logging

    from app.extensions import db, limiter

    saved, root_level = dict(vars(limiter)), logging.getLogger().level

    built, engines = [], []

    def build(name: str = "testing", env: dict | None = None, config: dict | None = None, **variables):
        env = {k: v for k, v in {**(test_env if env is None else env), **variables}.items() if v is not None}
        built.append(create_app({**config_for(name, env), **(config or {})}))
        with built[-1].app_context():  # now, before a test adds a teardown of its own that raises
            engines.extend(db.engines.values())
        return built[-1]

    yield build
    for other in built:  # its in-process worker must not go on sweeping the shared database by its own settings
        other.extensions["jobs"].shutdown()
    for engine in engines:  # nor its pool keep connections open: PostgreSQL's 100 would run out in a long pass
        engine.dispose()
    vars(limiter).update(saved)
    logging.getLogger().setLevel(root_level)


# Resumes: fixtures of tests/resumes, tests/content and tests/documents -------------------------------
@pytest.fixture
def templates(client):
    """Shipped template ids by tier: {"basic": [...], "premium": [...]}."""
    items = client.get("/api/templates").get_json()["data"]
    return {tier: [t["id"] for t in items if t["tier"] == tier] for tier in ("basic", "premium")}


@pytest.fixture
def create(client, templates):
    """POST a resume as the signed-in client; returns the response."""

    def do_create(**fields):
        body = {"title": "Backend engineer", "templateId": templates["basic"][0], **fields}
        return client.post("/api/resumes", json=body)

    return do_create


@pytest.fixture
def resume_id(owner, create):
    response = create()
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]["id"]
