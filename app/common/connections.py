"""What a request costs the database in round trips: no ping before it, no transaction for a read.

- **A pooled connection the server closed is replaced at checkout, without a round trip.** An idle
  connection has nothing to read; if its socket is readable, PostgreSQL has said goodbye (a restart,
  ``idle_session_timeout``, a proxy that went away) or the socket is closed. The pool then discards it
  and hands out a fresh one (SQLAlchemy's documented use of ``DisconnectionError`` in a ``checkout``
  listener). This replaces ``pool_pre_ping``, which spent a round trip on every request for the same
  answer. A connection lost without a word (a host gone from the network) fails its first statement
  instead, as it would fail the ping: the request answers 503 and SQLAlchemy invalidates the pool.
- **A request whose view writes nothing runs without a transaction** (``@writes_nothing``). psycopg
  sends a ``BEGIN`` of its own before a transaction's first statement and the session's end sends
  ``ROLLBACK``: two round trips that buy a read nothing, since under READ COMMITTED (PostgreSQL's
  default, and the app's) every statement reads its own snapshot whether in a transaction or not. The
  request's session gets its connection in DBAPI autocommit (SQLAlchemy's ``AUTOCOMMIT`` isolation
  level, set when the session procures the connection); the pool restores the default level when the
  connection comes back. A write in such a request raises instead of committing by the statement.
"""
from __future__ import annotations

import select

from flask import Flask, current_app, g, has_app_context
from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Session

from app.common import statement_watch
from app.extensions import db

_READ_ONLY = "writes_nothing"  # a ``flask.g`` key: this request may not write (g, not the session's
# ``info``: g ends with its app context, while a session left behind by a context that never tore
# down could be handed, flag and all, to a later context that happens to get the same id)


def init_app(app: Flask) -> None:
    """Install the checkout check and the bound on each round trip (``statement_watch``) on a
    PostgreSQL engine. Call after ``db.init_app``."""
    with app.app_context():
        engine = db.engine
    postgresql = engine.dialect.name == "postgresql"
    if engine.dialect.driver == "psycopg":  # the driver config.database_url chooses; it exposes the socket
        event.listen(engine, "checkout", _replace_if_closed)
        app.extensions["statement_watch"] = statement_watch.install(
            engine, app.config["DATABASE_STATEMENT_TIMEOUT"])
    # SQLite's driver sends no BEGIN before a read, so autocommit would save nothing there (and its
    # reset costs a PRAGMA); the guard against writes applies on both.
    app.extensions["autocommit_reads"] = postgresql


def writes_nothing(view):
    """Mark a view that never writes: a request to it (authenticated by a session cookie, which
    reads only) runs without a transaction. Any write in it raises RuntimeError (a 500), so a view
    that starts writing must lose the mark."""
    view.writes_nothing = True
    return view


def read_without_transaction() -> None:
    """Give the request's session an autocommit connection on PostgreSQL and refuse writes in it.
    Call before the session's first statement (the connection's level is set as it is procured)."""
    g.setdefault(_READ_ONLY, True)
    if current_app.extensions.get("autocommit_reads"):
        db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})


def _replace_if_closed(dbapi_connection, _record, _proxy) -> None:
    try:
        poller = select.poll()
        poller.register(dbapi_connection.pgconn.socket, select.POLLIN)
        closed = bool(poller.poll(0))
    except Exception:  # noqa: BLE001 - psycopg has no socket left for a lost connection
        closed = True
    if closed:
        raise sa_exc.DisconnectionError("the database closed this pooled connection")


def _read_only() -> bool:
    return has_app_context() and g.get(_READ_ONLY, False)


@event.listens_for(Session, "do_orm_execute")
def _refuse_statement_writes(state) -> None:
    if (state.is_insert or state.is_update or state.is_delete) and _read_only():
        raise RuntimeError("a view marked @writes_nothing wrote to the database")


@event.listens_for(Session, "before_flush")
def _refuse_flushes(session, _context, _instances) -> None:
    if _read_only():
        raise RuntimeError("a view marked @writes_nothing flushed changes to the database")
