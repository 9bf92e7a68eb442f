"""A bound on every round trip to PostgreSQL, so that a database that stops answering with connections
open (a frozen server, a network that drops packets) costs a request seconds, not forever.

PostgreSQL ends a slow statement itself after ``DATABASE_STATEMENT_TIMEOUT`` seconds (the connection's
``statement_timeout``, set at connect). A server that answers nothing cannot do that, and the kernel on
its side still acknowledges what is sent, so no TCP time-out fires either. Here each round trip the
app makes through SQLAlchemy (a statement, a commit, a rollback, the pool's reset) is registered with a
deadline ``CUT_AFTER`` seconds later than the server's own; one watcher thread per process looks every
``TICK`` seconds and shuts down the socket of a round trip past its deadline. The call waiting on it
then fails at once with psycopg's OperationalError, which the app answers ``503 SERVICE_UNAVAILABLE``
(``app.common.database``), and SQLAlchemy drops the connection from its pool. New connections are
bounded by libpq's ``connect_timeout`` (``DATABASE_CONNECT_TIMEOUT``). Once the database answers
again, the next connection works: nothing to restart.

So a request on a frozen database answers 503 within ``DATABASE_STATEMENT_TIMEOUT`` + ``CUT_AFTER``
seconds (12 by default) when its connection was open, or ``DATABASE_CONNECT_TIMEOUT`` (5) when it had
to open one. Registering costs a dictionary entry per round trip. Migrations run without the bound
(``paused``): a long data migration is no outage.
"""
from __future__ import annotations

import contextlib
import itertools
import logging
import os
import socket
import threading
import time

log = logging.getLogger(__name__)

CUT_AFTER = 2.0   # seconds past the server's statement_timeout: its own error comes first when it can
TICK = 0.25       # seconds between the watcher's looks


class StatementWatch:
    """The deadlines of the round trips in progress, and the thread that enforces them."""

    def __init__(self, bound: float):
        self.bound = bound
        self.enabled = True
        self._open: dict[int, tuple[float, object]] = {}
        self._ids = itertools.count()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @contextlib.contextmanager
    def watching(self, dbapi_connection):
        """Bound one round trip on ``dbapi_connection`` (a psycopg connection)."""
        if not self.enabled:
            yield
            return
        self._ensure_thread()
        key = next(self._ids)
        self._open[key] = (time.monotonic() + self.bound, dbapi_connection)
        try:
            yield
        finally:
            self._open.pop(key, None)

    @contextlib.contextmanager
    def paused(self):
        """No bound inside (a migration's statements may take as long as they need)."""
        was, self.enabled = self.enabled, False
        try:
            yield
        finally:
            self.enabled = was

    def _ensure_thread(self) -> None:
        # Started on first use, in the process that uses it: a thread started before gunicorn forks
        # would not exist in its workers.
        if self._thread is not None and self._thread.is_alive():
            return
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._watch, name="statement-watch", daemon=True)
                self._thread.start()

    def _watch(self) -> None:
        while True:
            time.sleep(TICK)
            now = time.monotonic()
            for key, (deadline, connection) in self._open.copy().items():  # a copy: others add and remove
                if deadline <= now and self._open.pop(key, None) is not None:
                    log.warning("database: no answer within %.0f s; the connection is cut", self.bound)
                    _cut(connection)


def _cut(dbapi_connection) -> None:
    """Shut the connection's socket down both ways: whoever waits on it gets an error at once."""
    try:
        descriptor = os.dup(dbapi_connection.pgconn.socket)
    except Exception:  # noqa: BLE001 - psycopg has no socket left: the connection is gone already
        return
    with socket.socket(fileno=descriptor) as sock:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


def install(engine, statement_timeout: float) -> StatementWatch:
    """Bound every round trip of ``engine``'s psycopg dialect (statements, commits, rollbacks)."""
    watch = StatementWatch(statement_timeout + CUT_AFTER)
    dialect = engine.dialect

    def bounded(method, connection_of):
        def call(*args, **kwargs):
            with watch.watching(connection_of(args)):
                return method(*args, **kwargs)
        return call

    cursor_connection = lambda args: args[0].connection  # noqa: E731  (cursor, statement, ...)
    dbapi_connection = lambda args: args[0]  # noqa: E731  (dbapi_connection)
    for name, connection_of in (("do_execute", cursor_connection), ("do_execute_no_params", cursor_connection),
                                ("do_executemany", cursor_connection), ("do_commit", dbapi_connection),
                                ("do_rollback", dbapi_connection)):
        setattr(dialect, name, bounded(getattr(dialect, name), connection_of))
    return watch
