"""The one time limit of an outbound request (``app.integrations.outbound``), from connection to last byte.

Socket time-outs alone bound each wait, not their sum; so every connection the pools below open is
watched, and one watchdog thread shuts its socket down when the request's deadline passes.
"""
from __future__ import annotations

import heapq
import socket
import threading
import time

from urllib3 import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.connection import HTTPConnection, HTTPSConnection


class Deadline:
    """Shuts the connection's socket down when the time limit passes, waking any read blocked on it.

    It keeps a duplicate of the socket's descriptor: the original is detached when TLS wraps it, and a closed
    descriptor number could meanwhile belong to another connection of the process.
    """

    def __init__(self, expires: float):
        self.expires = expires
        self.passed = False
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._watched = False
        self._done = False

    def remaining(self) -> float:
        return self.expires - time.monotonic()

    def expired(self) -> bool:
        return self.passed or self.remaining() <= 0

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            if self._done:
                return
            self._sockets.append(sock.dup())
            if not self._watched:
                self._watched = True
                _WATCHDOG.add(self)

    def expire(self) -> None:
        with self._lock:
            if self._done:
                return
            self.passed = True
            for sock in self._sockets:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        with self._lock:
            self._done = True
            for sock in self._sockets:
                sock.close()
            self._sockets.clear()


class _Watchdog:
    """One thread for every deadline of the process (a thread per request costs more than the request):
    it sleeps until the earliest deadline and expires those that passed; closed ones are skipped."""

    def __init__(self):
        self._heap: list[tuple[float, int, Deadline]] = []
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def add(self, deadline: Deadline) -> None:
        with self._wake:
            heapq.heappush(self._heap, (deadline.expires, id(deadline), deadline))
            if self._thread is None or not self._thread.is_alive():  # also after a fork
                self._thread = threading.Thread(target=self._run, name="outbound-watchdog", daemon=True)
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._heap:
                    self._wake.wait()
                expires, _, deadline = self._heap[0]
                wait = expires - time.monotonic()
                if wait > 0:
                    self._wake.wait(wait)
                    continue
                heapq.heappop(self._heap)
            deadline.expire()


_WATCHDOG = _Watchdog()


class _Watched:
    def __init__(self, *args, deadline: Deadline, **kwargs):
        super().__init__(*args, **kwargs)
        self._deadline = deadline

    def _new_conn(self) -> socket.socket:
        sock = super()._new_conn()
        self._deadline.watch(sock)
        return sock


class _WatchedHTTPConnection(_Watched, HTTPConnection):
    pass


class _WatchedHTTPSConnection(_Watched, HTTPSConnection):
    pass


class HTTPPool(HTTPConnectionPool):
    ConnectionCls = _WatchedHTTPConnection


class HTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection
