"""Bench of webhook deliveries: prints a speed ratio against a baseline measured in the same run.

    .venv/bin/python bench/webhooks.py [--events 300] [--samples 20] [--rotated]

1. Throughput: ``--events`` events wait in the queue; one ``flask worker``
   (an RQ worker, as deployed) then dispatches and delivers them to a receiver
   on loopback (its own process). Deliveries per second, from the first
   arrival to the last, divided by a plain ``requests.post`` loop sending
   bodies of the same size to the same receiver. Goal: at least 0.5.
   With ``--rotated`` the secret has just been rotated, so every delivery is
   signed with both secrets (two ``webhook-signature`` entries).
2. Latency: with the worker idle, the median time from an API call that
   causes an event (``POST /api/resumes``) to the event's arrival.

Needs the ``redis-server`` program: the script starts its own on a free port
(the machine's Redis is never touched), with a temporary SQLite database.
See docs/bench.md.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GOAL = 0.5


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def arrivals(path: Path) -> list[tuple[float, str]]:
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        at, _, event_id = line.partition(" ")
        rows.append((float(at), event_id))
    return rows


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = predicate()
        if result:
            return result
        time.sleep(0.01)
    raise RuntimeError(f"timed out waiting for {what}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=300, help="events delivered in the throughput run")
    parser.add_argument("--samples", type=int, default=20, help="API calls timed for the latency")
    parser.add_argument("--rotated", action="store_true",
                        help="rotate the secret first: every delivery carries two signatures")
    args = parser.parse_args(argv)
    if not 20 <= args.events <= 20_000 or not 3 <= args.samples <= 500:
        parser.error("--events must be in [20, 20000] and --samples in [3, 500]")
    if shutil.which("redis-server") is None:
        print("bench/webhooks.py needs the redis-server program on PATH.", file=sys.stderr)
        return 2

    import requests
    from flask_migrate import upgrade

    from app import create_app
    from app.auth import registration
    from app.auth import service as auth
    from app.config import config_for
    from app.extensions import db
    from app.resumes import service as resumes
    from app.resumes.models import Template
    from app.webhooks import service as webhooks
    from app.webhooks.delivery import envelope

    processes: list[subprocess.Popen] = []
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
    with tempfile.TemporaryDirectory(prefix="resume-webhook-bench-") as tmp:
        tmp_path = Path(tmp)
        try:
            redis_port, receiver_port = free_port(), free_port()
            processes.append(subprocess.Popen(
                ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", tmp], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            log = tmp_path / "arrivals.log"
            receiver = subprocess.Popen([sys.executable, str(ROOT / "bench" / "receiver.py"), str(receiver_port),
                                         str(log)], stdout=subprocess.PIPE, text=True)
            processes.append(receiver)
            receiver.stdout.readline()  # "ready"
            receiver_url = f"http://127.0.0.1:{receiver_port}/hook"
            env = {"SECRET_KEY": secrets.token_urlsafe(48), "DATABASE_URL": f"sqlite:///{tmp}/bench.db",
                   "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0", "STORAGE_DIR": f"{tmp}/storage",
                   "LOG_LEVEL": "WARNING", "WEBHOOK_ALLOW_PRIVATE_TARGETS": "1",
                   "RATELIMIT_AUTHENTICATED": "1000000 per minute"}
            app = create_app(config_for("production", env))
            wait_for(lambda: _redis_up(app), 10, "redis-server")
            with app.app_context():
                upgrade()
                user = registration.new_user(email="bench@example.com", name="Bench", password_hash=None,
                                             verified=True)
                user.subscription.type = "ENTERPRISE"
                db.session.commit()
                webhook = webhooks.create_webhook(user, {"url": receiver_url, "events": ["resume.created"]})
                if args.rotated:
                    webhooks.rotate_secret(user, webhook.id)
                template_id = db.session.scalar(db.select(Template.id).limit(1))
                _, cookie = auth.start_session(user, replaces=None, ip_address="127.0.0.1", user_agent="bench")
                # The events wait in the queue: no worker runs yet.
                for i in range(args.events):
                    resumes.create_resume(user, {"title": f"Event {i}", "templateId": template_id})
                sample_body = json.dumps(envelope(db.session.scalars(
                    db.select(webhooks.Event).limit(1)).one()), separators=(",", ":")).encode()
                db.session.remove()

            worker_env = {**{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")},
                          **env, "FLASK_APP": "app"}
            print(f"Webhook bench: one flask worker (RQ), receiver on loopback, {os.cpu_count()} CPUs, "
                  f"Python {platform.python_version()}")
            processes.append(subprocess.Popen([sys.executable, "-m", "flask", "worker"], cwd=ROOT, env=worker_env,
                                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            done = wait_for(lambda: len(arrivals(log)) >= args.events and arrivals(log), 600, "the deliveries")
            times = sorted(at for at, _ in done[:args.events])
            worker_rate = (len(times) - 1) / (times[-1] - times[0])

            headers = {"Content-Type": "application/json"}
            started = time.perf_counter()
            for _ in range(args.events):
                requests.post(receiver_url, data=sample_body, headers=headers, timeout=30)
            plain_rate = args.events / (time.perf_counter() - started)

            client = app.test_client()
            client.set_cookie(app.config["AUTH_COOKIE_NAME"], cookie)
            latencies = []
            for i in range(args.samples):
                seen = len(arrivals(log))
                t0 = time.time()
                response = client.post("/api/resumes", json={"title": f"Latency {i}", "templateId": template_id})
                if response.status_code != 201:
                    raise RuntimeError(f"POST /api/resumes: {response.status_code}")
                at = wait_for(lambda: len(arrivals(log)) > seen and arrivals(log)[-1][0], 30, "an event")
                latencies.append(at - t0)

            ratio = worker_rate / plain_rate
            print(f"\nThroughput, {args.events} events of {len(sample_body):,} B"
                  f"{', signed with two secrets (rotated)' if args.rotated else ''}")
            print(f"  one worker: dispatch + signed delivery   {worker_rate:8.1f} deliveries/s")
            print(f"  plain requests.post loop                 {plain_rate:8.1f} posts/s")
            print(f"  ratio {ratio:.2f}   goal ≥ {GOAL}: {'met' if ratio >= GOAL else 'not met'}")
            print(f"\nLatency, API call → arrival at the receiver ({args.samples} calls, worker idle)")
            print(f"  median {statistics.median(latencies) * 1000:7.1f} ms   "
                  f"max {max(latencies) * 1000:7.1f} ms")
            return 0
        finally:
            for process in reversed(processes):
                if process.poll() is None:
                    process.terminate()
                    try:
                        process.wait(timeout=10)
                    except subprocess.TimeoutExpired:
                        process.kill()


def _redis_up(app) -> bool:
    try:
        return app.extensions["jobs"].connection.ping()
    except Exception:
        return False


if __name__ == "__main__":
    sys.exit(main())
