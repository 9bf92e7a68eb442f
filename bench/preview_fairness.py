"""Bench of previews under another user's load: one user's one-page preview while another user keeps
asking for heavy ones.

    .venv/bin/python bench/preview_fairness.py [--runs 20] [--heavy-clients 2]

A light user saves a one-page resume (a new summary each run) and fetches its preview: GET
/api/resumes/<id>/preview and the PNG of page 1, timed together from the client. First with the
server idle, then while a heavy user's clients (``--heavy-clients`` threads) keep saving a resume
of 50 jobs, each described by one unbroken 4,800-character word, and asking for its preview with
every combination of options, one after the other without a pause. The heavy user's answers are
counted by status code (a preview too heavy to draw within PREVIEW_TIMEOUT answers 422
PREVIEW_TOO_HEAVY).

Goal (issue 24): the light user's p95 under load is at most 2 times its idle p95.

The app runs on its embedded default (SQLite, the in-process worker) with bench/preview.py's
server: werkzeug's threaded server in a child process.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.preview import environment, free_port, wait_for_server  # noqa: E402

GOAL_RATIO = 2.0
OPTIONS = [{"pageSize": size, "margin": margin, "colorScheme": scheme}
           for size, margin, scheme in itertools.product(("A4", "Letter"), ("narrow", "normal", "wide"),
                                                         ("default", "blue", "green", "gray"))]


def light_content() -> dict:
    return {"personalInfo": {"name": "Lee Light", "email": "lee@example.com",
                             "summary": "Backend engineer who keeps services fast."},
            "workExperience": [{"company": "Acme", "position": "Engineer", "startDate": "2020-01",
                                "endDate": "2023-06", "description": "Built the billing service."}]}


def heavy_content(run: int) -> dict:
    word = "x" * 4800
    return {"personalInfo": {"name": "Hugh Heavy", "summary": f"Run {run}."},
            "workExperience": [{"company": f"Company {i}", "position": "Engineer", "startDate": "2020-01",
                                "endDate": "2021-01", "description": word} for i in range(50)]}


def seed(tmp: str, port: int, secret: str) -> dict[str, tuple[str, str, str]]:
    """Two users, each with a resume and a session: {"light"|"heavy": (resume id, cookie name, value)}."""
    from flask_migrate import upgrade

    from app import create_app
    from app.auth import registration
    from app.auth import service as auth
    from app.config import config_for
    from app.extensions import db
    from app.resumes import service as resumes
    from app.resumes.models import Template

    app = create_app(config_for("production", environment(tmp, port, secret)))
    seeded = {}
    with app.app_context():
        upgrade()
        template = db.session.scalar(db.select(Template).where(Template.name == "Horizon"))
        for who in ("light", "heavy"):  # their content is saved through the API (validated as the editor's)
            user = registration.new_user(email=f"{who}@example.com", name=who, password_hash=None, verified=True)
            db.session.commit()
            resume_id = resumes.create_resume(user, {"title": who, "templateId": template.id}).id
            _, cookie = auth.start_session(user, replaces=None, ip_address="127.0.0.1", user_agent="bench")
            seeded[who] = (resume_id, app.config["AUTH_COOKIE_NAME"], cookie)
        db.session.remove()
        db.engine.dispose()
    app.extensions["jobs"].shutdown()
    return seeded


class Client:
    def __init__(self, url: str, resume_id: str, cookie: tuple[str, str]):
        self.url, self.resume_id = url, resume_id
        self.headers = {"Cookie": f"{cookie[0]}={cookie[1]}", "Origin": url}

    def call(self, method: str, path: str, body: dict | None = None, timeout: float = 300) -> tuple[int, bytes]:
        data = json.dumps(body).encode() if body is not None else None
        headers = dict(self.headers, **({"Content-Type": "application/json"} if data else {}))
        request = urllib.request.Request(f"{self.url}{path}", data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def save(self, content: dict) -> None:
        status, body = self.call("PUT", f"/api/resumes/{self.resume_id}", {"contentJson": content})
        if status != 200:
            raise RuntimeError(f"save answered {status}: {body[:300]!r}")

    def preview(self, options: dict) -> tuple[int, float]:
        """(status, seconds) of GET /preview and, when it answers 200, page 1's image."""
        query = "&".join(f"{k}={v}" for k, v in options.items())
        started = time.perf_counter()
        status, body = self.call("GET", f"/api/resumes/{self.resume_id}/preview?{query}")
        if status == 200:
            page = json.loads(body)["data"]["pages"][0]["url"]
            image_status, _ = self.call("GET", page)
            if image_status != 200:
                status = image_status
        return status, time.perf_counter() - started


def light_runs(client: Client, runs: int, label: str, at_least: float = 0) -> list[float]:
    """``runs`` saves and previews, more while ``at_least`` seconds have not passed."""
    times = []
    content = light_content()
    until = time.monotonic() + at_least
    for run in itertools.count():
        if run >= runs and time.monotonic() >= until:
            break
        content["personalInfo"]["summary"] = f"Backend engineer, {label} run {run}."
        client.save(content)
        status, seconds = client.preview({"pageSize": "A4"})
        if status != 200:
            raise RuntimeError(f"the light user's preview answered {status}")
        times.append(seconds)
    return times


def heavy_load(client: Client, stop: threading.Event, answers: list, worker: int) -> None:
    for run in itertools.count():
        if stop.is_set():
            return
        client.save(heavy_content(run * 100 + worker))
        for options in OPTIONS[worker::3][:4]:  # a few of the 24 combinations per saved version
            if stop.is_set():
                return
            answers.append(client.preview(options))


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="light previews per phase (default 20)")
    parser.add_argument("--heavy-clients", type=int, default=2, help="the heavy user's concurrent clients")
    parser.add_argument("--seconds", type=float, default=60, help="the loaded phase lasts at least this long")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="resume-preview-fairness-") as tmp:
        port, secret = free_port(), secrets.token_urlsafe(48)
        seeded = seed(tmp, port, secret)
        server = subprocess.Popen([sys.executable, str(ROOT / "bench" / "preview.py"), "--serve", tmp, str(port),
                                   secret], cwd=ROOT)
        try:
            url = f"http://127.0.0.1:{port}"
            wait_for_server(url)
            light, heavy = (Client(url, seeded[who][0], seeded[who][1:]) for who in ("light", "heavy"))
            heavy.save(heavy_content(0))
            light_runs(light, 3, "warm-up")
            idle = light_runs(light, args.runs, "idle")
            stop, answers = threading.Event(), []
            threads = [threading.Thread(target=heavy_load, args=(heavy, stop, answers, n), daemon=True)
                       for n in range(args.heavy_clients)]
            for thread in threads:
                thread.start()
            time.sleep(2)  # the heavy renders are under way
            started = time.monotonic()
            loaded = light_runs(light, args.runs, "loaded", at_least=args.seconds)
            elapsed = time.monotonic() - started
            stop.set()
            for thread in threads:
                thread.join(timeout=120)
        finally:
            server.terminate()
            server.wait(timeout=10)

    ratio = p95(loaded) / p95(idle)
    print(f"Preview fairness bench: embedded default, werkzeug threaded server, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}")
    print(f"A one-page resume, {len(idle)} and {len(loaded)} saves and previews (GET /preview + page 1's PNG); "
          f"the other user: {args.heavy_clients} clients saving 50 jobs of one 4,800-character word each")
    print(f"  idle        p50 {statistics.median(idle) * 1000:8.1f} ms   p95 {p95(idle) * 1000:8.1f} ms")
    print(f"  under load  p50 {statistics.median(loaded) * 1000:8.1f} ms   p95 {p95(loaded) * 1000:8.1f} ms   "
          f"({elapsed:.1f} s for the phase)")
    statuses = Counter(status for status, _ in answers)
    slowest = max((seconds for _, seconds in answers), default=0)
    print(f"  the heavy user's previews meanwhile: {len(answers)} answered, "
          f"by status {dict(sorted(statuses.items()))}, "
          f"the slowest in {slowest:.1f} s")
    print(f"  p95 under load / idle p95: {ratio:.2f} (goal ≤ {GOAL_RATIO:g}: "
          f"{'met' if ratio <= GOAL_RATIO else 'not met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
