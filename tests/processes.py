"""Real processes: a redis-server of the test's own, ``flask worker`` processes, and the Procfile's web and mcp.

The machine's shared Redis is never stopped or frozen: a test that needs a
Redis outage starts its own server on a free port and stops (SIGTERM),
freezes (SIGSTOP) or kills it.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import redis
import requests

from tests.router import Router
from tests.support import PASSWORD, free_port, wait_until

ROOT = Path(__file__).resolve().parent.parent


class RedisServer:
    """A redis-server of this test's own, on a free port; it keeps nothing on disk."""

    def __init__(self, tmp: Path):
        self.port, self.tmp, self.process = free_port(), tmp, None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                                         "--save", "", "--appendonly", "no", "--dir", str(self.tmp)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url, socket_timeout=1)
        wait_until(lambda: answers(client), timeout=10)

    def freeze(self) -> None:
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.thaw()
            self.process.terminate()
            self.process.wait(timeout=10)


def answers(client) -> bool:
    try:
        return client.ping()
    except Exception:
        return False


class Workers:
    """``flask worker`` processes, configured by ``env``, logging to one file."""

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
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def children_of(pid: int) -> list[int]:
    """The live child processes of ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def worker_env(test_env: dict, redis_url: str, **extra) -> dict:
    return {**os.environ, **test_env, "FLASK_APP": "app", "REDIS_URL": redis_url, **extra}


def gunicorn_for(test_env: dict, tmp_path_factory, **kwargs) -> Gunicorn:
    """A Gunicorn on the test app's database and settings, logging under pytest's temporary directory."""
    return Gunicorn({**os.environ, **test_env}, tmp_path_factory.mktemp("gunicorn") / "gunicorn.log", **kwargs)


class _Served:
    """A server process of the test's own on a free port (``url``), logging to ``log``; stopped on exit."""

    url: str
    log: Path
    process: subprocess.Popen | None
    ready_path = "/healthz"

    def signed_in(self, email: str, password: str = PASSWORD) -> requests.Session:
        """A ``requests`` session with the cookie of a sign-in as ``email``."""
        session = requests.Session()
        # A connection of its own for each request: gunicorn closes a kept-alive connection after 2 s idle,
        # and a request sent on one just as it closes is reset (a browser resends it; requests does not).
        # Seen in CI: a tab signed in, idle while seven others signed in, then its racing save was reset.
        session.headers["Connection"] = "close"
        answer = session.post(f"{self.url}/api/auth/signin", json={"email": email, "password": password},
                              timeout=30)
        assert answer.status_code == 200, answer.text
        return session

    def _answers(self) -> bool:
        assert self.process.poll() is None, "the server exited: " + self.log.read_text(errors="replace")[-2000:]
        try:
            with urllib.request.urlopen(f"{self.url}{self.ready_path}", timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    def __exit__(self, *_exc) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Gunicorn(_Served):
    """``gunicorn wsgi:app`` as the Procfile starts it, on a free port, configured by ``env`` (the test
    app's database): ``workers`` processes of ``threads`` threads each."""

    def __init__(self, env: dict, log: Path, *, workers: int = 1, threads: int = 1):
        self.port, self.log, self.process = free_port(), log, None
        self.env = {**env, "PORT": str(self.port), "WEB_CONCURRENCY": str(workers), "TRUSTED_PROXIES": "0"}
        self.threads = threads
        self.url = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Gunicorn:
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "wsgi:app", "--bind", f"127.0.0.1:{self.port}",
                 "--threads", str(self.threads)], cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        wait_until(self._answers, timeout=30, interval=0.2)
        return self


def uvicorn_for(test_env: dict, tmp_path_factory, target: str = "app.mcp.asgi:embedded", **env) -> Uvicorn:
    """A Uvicorn serving ``target`` on the test app's database and settings."""
    return Uvicorn({**os.environ, **test_env, **env}, tmp_path_factory.mktemp("uvicorn") / "uvicorn.log", target)


class Uvicorn(_Served):
    """``uvicorn <target>`` as the Procfile's ``mcp`` process (``app.mcp.asgi:app``) or ``make run``
    (``app.mcp.asgi:embedded``) start it, on a free port; BASE_URL is its own address unless ``env`` says."""

    ready_path = "/.well-known/oauth-protected-resource/mcp"  # served by both targets

    def __init__(self, env: dict, log: Path, target: str):
        self.port, self.log, self.process, self.target = free_port(), log, None, target
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {"BASE_URL": self.url, **env, "TRUSTED_PROXIES": "0"}

    def __enter__(self) -> Uvicorn:
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", self.target, "--host", "127.0.0.1", "--port", str(self.port),
                 "--no-access-log"], cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        wait_until(self._answers, timeout=60, interval=0.2)
        return self


class Deployment(_Served):
    """The Procfile's ``web`` (gunicorn) and ``mcp`` (uvicorn ``app.mcp.asgi:app``) processes behind a router
    that sends ``/mcp`` to one and the rest to the other (tests/router.py), as docs/operations.md deploys
    them: ``url`` is the router's, and both processes have it as their BASE_URL."""

    def __init__(self, env: dict, directory: Path, *, workers: int = 2, threads: int = 4):
        self.web = Gunicorn(env, directory / "gunicorn.log", workers=workers, threads=threads)
        self.mcp = Uvicorn(env, directory / "uvicorn.log", "app.mcp.asgi:app")
        self.router = Router(self.web.port, self.mcp.port)
        self.url = self.router.url
        self.web.env["BASE_URL"] = self.mcp.env["BASE_URL"] = self.url
        self.log = directory / "gunicorn.log"

    def __enter__(self) -> Deployment:
        self.router.__enter__()
        try:
            self.web.__enter__()
            self.mcp.__enter__()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc) -> None:
        for part in (self.mcp, self.web):
            if part.process is not None:
                part.__exit__(*exc)
        self.router.__exit__(*exc)


def deployment_for(test_env: dict, tmp_path_factory, **env) -> Deployment:
    """The web and mcp processes behind a router, on the test app's database and settings plus ``env``."""
    return Deployment({**os.environ, **test_env, **env}, tmp_path_factory.mktemp("deployment"))
