"""Bench of the API while exports are rendering: prints the list latency under load against idle.

    .venv/bin/python bench/exports_under_load.py [--exports 20] [--seconds 15] [--worker-class gthread]
                                                [--slow-receiver 0] [--database-url URL] [--redis-url URL]

The production shape: gunicorn with the deployed settings (gunicorn.conf.py,
2 processes) and one ``flask worker`` process on Redis. A signed-in user's
``GET /api/resumes?page=1&limit=10`` is timed one request after another:
first with nothing else running (idle), then while ``--exports`` clients each
post PDF exports one after another (every export request waits for its render
job). Ratio: median list latency under load / median idle. Goal: at most 3.

``--slow-receiver S`` also registers a webhook for ``resume.exported`` on a
receiver that answers after S seconds, so the worker's webhook deliveries are
slow while exports run (they must not hold exports up). ``--worker-class sync``
measures gunicorn's sync workers instead, the design before this one.

Without ``--database-url`` the database is a temporary SQLite file; without
``--redis-url`` a redis-server of the script's own runs on a free port. A
PostgreSQL URL must name an empty scratch database (its tables are dropped at
the end). See docs/bench.md.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.api import PASSED_THROUGH, _drop_tables, _tables  # noqa: E402
from bench.export import TWO_PAGES  # noqa: E402
from bench.load import free_port, stop_group  # noqa: E402

LIST_PATH = "/api/resumes?page=1&limit=10"
GOAL = 3.0
PASSWORD = "bench horse 42"


class Process:
    """A child process in its own process group, logging to a file."""

    def __init__(self, name: str, command: list[str], env: dict, workdir: Path):
        self.name, self.log = name, workdir / f"{name}.log"
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        stop_group(self.proc, grace=30)  # the worker lets running jobs finish


def request(port: int, method: str, path: str, cookie: str, body: dict | None = None,
            conn: http.client.HTTPConnection | None = None, timeout: float = 60) -> tuple[int, bytes]:
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Cookie": cookie}
    payload = None
    if body is not None:
        payload = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=payload, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        if own:
            conn.close()


def list_latencies(port: int, cookie: str, *, count: int | None = None, until: float | None = None) -> list[float]:
    """Time the list one request after another, on one kept-alive connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    samples = []
    try:
        while (count is None or len(samples) < count) and (until is None or time.monotonic() < until):
            t0 = time.perf_counter()
            status, body = request(port, "GET", LIST_PATH, cookie, conn=conn)
            if status != 200:
                raise RuntimeError(f"GET {LIST_PATH}: {status} {body[:200]!r}")
            samples.append(time.perf_counter() - t0)
            time.sleep(0.01)
    finally:
        conn.close()
    return samples


def export_loop(port: int, cookie: str, resume_id: str, until: float, results: list) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    while time.monotonic() < until:
        t0 = time.perf_counter()
        try:
            status, body = request(port, "POST", f"/api/resumes/{resume_id}/export", cookie,
                                   {"format": "pdf"}, conn=conn)
        except (OSError, http.client.HTTPException) as exc:
            status, body = type(exc).__name__, b""
            conn.close()
        results.append((status, time.perf_counter() - t0, body[:200]))
    conn.close()


def slow_receiver(delay: float) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            time.sleep(delay)
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def seed(env: dict) -> tuple[str, list[str]]:
    """A verified ENTERPRISE user (no storage limit) with ten two-page resumes: (cookie, resume ids)."""
    from flask_migrate import upgrade

    from app import create_app
    from app.auth import registration
    from app.billing import service as billing
    from app.auth.passwords import hash_password
    from app.config import config_for
    from app.extensions import db

    app = create_app(config_for("production", env))
    with app.app_context():
        upgrade()
        registration.new_user(email="bench@example.com", name="Grace Hopper", password_hash=hash_password(PASSWORD),
                              verified=True)
        db.session.commit()
        billing.grant_enterprise("bench@example.com")
        db.session.remove()
    client = app.test_client()
    response = client.post("/api/auth/signin", json={"email": "bench@example.com", "password": PASSWORD})
    assert response.status_code == 200, response.get_json()
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    ids = []
    for i in range(10):
        response = client.post("/api/resumes", json={"title": f"Resume {i}", "templateId": template,
                                                     "contentJson": TWO_PAGES})
        assert response.status_code == 201, response.get_json()
        ids.append(response.get_json()["data"]["id"])
    cookie = f"{app.config['AUTH_COOKIE_NAME']}={client.get_cookie(app.config['AUTH_COOKIE_NAME']).value}"
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    return cookie, ids


def wait_ready(port: int, server: Process, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            break
        try:
            if request(port, "GET", "/healthz", "")[0] == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{server.name} did not start:\n{server.tail()}")


def describe(samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered) * 1000:7.1f} ms   p90 {p90 * 1000:7.1f} ms   ({len(ordered)} requests)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--exports", type=int, default=20, help="concurrent export clients (default 20)")
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds of export load (default 15)")
    parser.add_argument("--worker-class", default="gthread", choices=("gthread", "sync"),
                        help="gunicorn worker class (default: the deployed gthread)")
    parser.add_argument("--slow-receiver", type=float, default=0.0,
                        help="seconds a webhook receiver for resume.exported takes to answer (default: no webhook)")
    parser.add_argument("--database-url", help="an EMPTY scratch PostgreSQL database (default: temporary SQLite)")
    parser.add_argument("--redis-url", help="a scratch Redis database, flushed (default: a redis-server of its own)")
    args = parser.parse_args(argv)
    if not 1 <= args.exports <= 100 or not 1 <= args.seconds <= 300:
        parser.error("--exports must be in [1, 100] and --seconds in [1, 300]")

    processes: list[Process] = []
    with tempfile.TemporaryDirectory(prefix="resume-bench-") as tmp:
        workdir = Path(tmp)
        url = args.database_url or f"sqlite:///{workdir / 'bench.db'}"
        if args.database_url and _tables(url):
            print("The database already has tables. Give an empty scratch database.", file=sys.stderr)
            return 2
        try:
            redis_url = args.redis_url
            if not redis_url:
                if not shutil.which("redis-server"):
                    parser.error("no --redis-url and no redis-server program")
                redis_port = free_port()
                processes.append(Process("redis", ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1",
                                                   "--save", "", "--appendonly", "no", "--dir", tmp], {}, workdir))
                redis_url = f"redis://127.0.0.1:{redis_port}/0"
                time.sleep(0.5)
            import redis

            redis.Redis.from_url(redis_url).flushdb()
            port = free_port()
            env = {"SECRET_KEY": secrets.token_urlsafe(48), "DATABASE_URL": url, "REDIS_URL": redis_url,
                   "STORAGE_DIR": str(workdir / "storage"), "LOG_LEVEL": "WARNING",
                   "BASE_URL": f"http://127.0.0.1:{port}", "WEBHOOK_ALLOW_PRIVATE_TARGETS": "1",
                   "RATELIMIT_AUTHENTICATED": "1000000 per minute", "PORT": str(port)}
            print(f"Exports under load: {'PostgreSQL' if args.database_url else 'SQLite'}, gunicorn "
                  f"{args.worker_class}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
            cookie, resume_ids = seed(env)
            receiver = None
            if args.slow_receiver:
                receiver = slow_receiver(args.slow_receiver)
                from app import create_app
                from app.config import config_for

                client = create_app(config_for("production", env)).test_client()
                client.set_cookie("sid", cookie.split("=", 1)[1])
                response = client.post("/api/webhooks", json={
                    "url": f"http://127.0.0.1:{receiver.server_address[1]}/", "events": ["resume.exported"]})
                assert response.status_code == 201, response.get_json()
            server_env = {**{k: v for k, v in os.environ.items() if k in PASSED_THROUGH}, **env}
            processes.append(Process("worker", [sys.executable, "-m", "flask", "--app", "wsgi", "worker"],
                                     server_env, workdir))
            web = Process("web", [sys.executable, "-m", "gunicorn", "--config", str(ROOT / "gunicorn.conf.py"),
                                  "--bind", f"127.0.0.1:{port}", "--worker-class", args.worker_class,
                                  *(["--threads", "1"] if args.worker_class == "sync" else []), "wsgi:app"],
                          server_env, workdir)
            processes.append(web)
            wait_ready(port, web)
            # Warm both web processes and the worker (imports, the first render).
            list_latencies(port, cookie, count=50)
            status, body = request(port, "POST", f"/api/resumes/{resume_ids[0]}/export", cookie, {"format": "pdf"})
            if status != 201:
                raise RuntimeError(f"warm-up export: {status} {body[:300]!r}\n{processes[-2].tail()}")

            idle = list_latencies(port, cookie, until=time.monotonic() + 5)
            results: list = []
            until = time.monotonic() + args.seconds
            clients = [threading.Thread(target=export_loop, args=(port, cookie, resume_ids[i % 10], until, results),
                                        daemon=True) for i in range(args.exports)]
            for thread in clients:
                thread.start()
            time.sleep(1)  # every export client has a request in flight
            loaded = list_latencies(port, cookie, until=until)
            for thread in clients:
                thread.join(timeout=180)

            ok = [elapsed for status, elapsed, _ in results if status == 201]
            failed = [(status, body) for status, _, body in results if status != 201]
            print(f"\nGET {LIST_PATH}, one request after another")
            print(f"  idle                          {describe(idle)}")
            print(f"  during {args.exports} export clients     {describe(loaded)}")
            ratio = statistics.median(loaded) / statistics.median(idle)
            print(f"  ratio {ratio:.2f}   goal ≤ {GOAL:g}: {'met' if ratio <= GOAL else 'not met'}")
            print(f"\nPDF exports (two pages) during the load: {len(ok)} done, "
                  f"median {statistics.median(ok) * 1000:.0f} ms, max {max(ok) * 1000:.0f} ms"
                  + (f"; {len(failed)} NOT 201: {failed[:3]}" if failed else "") if ok else
                  f"\nno export succeeded: {failed[:3]}")
            if receiver:
                print(f"  (a webhook receiver answering after {args.slow_receiver:g} s got resume.exported)")
                receiver.shutdown()
            return 0
        finally:
            for process in reversed(processes):
                process.stop()
            if args.database_url:
                _drop_tables(url)


if __name__ == "__main__":
    sys.exit(main())
