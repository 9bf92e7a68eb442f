"""Servers and load of bench/api.py: gunicorn processes on loopback and a load generator process.

The load generator runs in its own process (it must not share a GIL with the
servers or with the script): ``concurrency`` threads, each with one
``http.client.HTTPConnection`` sending the same GET for a fixed time.
"""
from __future__ import annotations

import http.client
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKERS = 2


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A gunicorn master in its own process group (so that stopping it stops its workers)."""

    def __init__(self, name: str, target: str, env: dict[str, str], workdir: Path):
        self.name, self.port = name, free_port()
        self.log = workdir / f"gunicorn-{name}.log"
        # The deployed settings (gunicorn.conf.py) with a loopback bind and a fixed worker model (sync:
        # gunicorn would switch to gthread with the deployed threads).
        command = [sys.executable, "-m", "gunicorn", "--config", str(ROOT / "gunicorn.conf.py"),
                   "--bind", f"127.0.0.1:{self.port}", "--workers", str(WORKERS), "--worker-class", "sync",
                   "--threads", "1",
                   target]
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)

    def wait_ready(self, path: str, headers: dict[str, str], timeout: float = 30.0) -> bytes:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
            try:
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                body = response.read()
                if response.status == 200:
                    return body
                raise RuntimeError(f"{self.name}: GET {path} answered {response.status}: {body[:300]!r}")
            except (ConnectionError, socket.timeout):
                time.sleep(0.2)
            finally:
                conn.close()
        raise RuntimeError(f"{self.name} did not start; its log ends with:\n{self.tail()}")

    def tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        stop_group(self.proc)


def stop_group(proc: subprocess.Popen, grace: float = 10) -> None:
    """SIGTERM to a process started in a session of its own and its whole group, SIGKILL after ``grace``."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)
    except ProcessLookupError:  # already gone, workers included
        proc.wait(timeout=5)


def _drive(port: int, path: str, headers: dict[str, str], concurrency: int, warmup: float, seconds: float,
           results) -> None:
    """Runs in its own process: ``concurrency`` threads, each on its own connection, for a fixed time.

    Counts the 200 responses completed inside [warmup, warmup + seconds]. The
    connection is kept and reused; gunicorn's sync workers close it after each
    response and http.client then reconnects.
    """
    start = time.perf_counter() + 0.2  # let every thread be ready
    window = (start + warmup, start + warmup + seconds)
    per_thread = []

    def worker():
        counts, latencies = Counter(), []
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while time.perf_counter() < start:
            time.sleep(0.005)
        while True:
            t0 = time.perf_counter()
            if t0 >= window[1]:
                break
            try:
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException) as exc:
                status = type(exc).__name__
                conn.close()
            t1 = time.perf_counter()
            if window[0] <= t1 < window[1]:
                counts[status] += 1
                if status == 200:
                    latencies.append(t1 - t0)
        conn.close()
        per_thread.append((counts, latencies))

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(concurrency)]
    cpu0 = time.process_time()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=warmup + seconds + 30)
    cpu = time.process_time() - cpu0
    counts, latencies = Counter(), []
    for c, lat in per_thread:
        counts.update(c)
        latencies.extend(lat)
    results.send({"counts": dict(counts), "seconds": seconds,
                  "median_latency": statistics.median(latencies) if latencies else None,
                  "client_cpu": cpu / (warmup + seconds + 0.2)})
    results.close()


def drive(port: int, path: str, headers: dict[str, str], concurrency: int, warmup: float, seconds: float) -> dict:
    """Load ``path`` on 127.0.0.1:``port`` from a fresh process; returns what ``_drive`` counted.

    ``counts`` maps a status (or an exception name) to the responses completed in the
    measured window; ``client_cpu`` is the load generator's CPU time over wall time.
    """
    ctx = multiprocessing.get_context("spawn")
    receiver, sender = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_drive, args=(port, path, headers, concurrency, warmup, seconds, sender), daemon=True)
    proc.start()
    sender.close()
    try:
        if not receiver.poll(warmup + seconds + 60):
            raise RuntimeError("the load generator did not report")
        result = receiver.recv()
        proc.join(timeout=10)
        return result
    finally:
        if proc.is_alive():
            proc.terminate()
            proc.join(timeout=5)
