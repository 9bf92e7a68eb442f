"""Whether an error means the database is out of reach, and rolling back safely when it may be.

What the error registrar (``app.errors``) asks about an unexpected exception; kept apart from
``app.common.outage`` (whose backstop renders errors) so that the registrar depends on nothing that
depends on it.
"""
from __future__ import annotations

import logging
import sqlite3

from sqlalchemy import exc as sa_exc
from sqlalchemy import select, update

from app.extensions import db

log = logging.getLogger("app.common.outage")  # the outage's log lines keep their logger name

# SQLite's OperationalError also means a bad query ("no such table"); only these are outages.
_SQLITE_UNAVAILABLE = ("unable to open database file", "database is locked", "disk i/o error")


def database_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` means the database cannot be reached (or is unusable) for now, so the
    request may be retried as it is: a refused or broken connection, an invalidated one, a pool
    with no connection to give in time, a locked or unopenable SQLite file."""
    if isinstance(exc, sa_exc.TimeoutError):
        return True
    if not isinstance(exc, sa_exc.DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    if not isinstance(exc, (sa_exc.OperationalError, sa_exc.InterfaceError)):
        return False
    if isinstance(exc.orig, sqlite3.Error):
        return str(exc.orig).lower().startswith(_SQLITE_UNAVAILABLE)
    # PostgreSQL: operational errors are the server's state (gone, shutting down, out of
    # connections, cancelled), never the query's text (that is ProgrammingError and its kin).
    return True


def outage_summary(exc: BaseException) -> str:
    """One log line's worth of a database error: the driver's first line, no traceback."""
    text = str(getattr(exc, "orig", None) or exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0] if text else '-'}"


def rollback_session() -> None:
    """Roll back the request's session before an error is answered; a rollback that fails on a
    dead connection is left to the teardown (``app.common.outage``) rather than raised."""
    try:
        db.session.rollback()
    except sa_exc.SQLAlchemyError:
        log.warning("rollback failed on a broken database connection")


def lock_row(column, value) -> None:
    """Lock the row whose ``column`` (a model's primary key) is ``value`` for the rest of the session's
    transaction, so that checks read after it and the writes they allow are not interleaved with another
    request's. PostgreSQL: ``SELECT … FOR UPDATE``. SQLite has no row locks, ignores ``FOR UPDATE``, and
    its driver begins a transaction only at the first write (reads before it see no transaction at all):
    an UPDATE that changes nothing takes the database's write lock there, waiting (``busy_timeout``) for
    a writer that holds it, and the reads after it see every commit made before."""
    if db.session.get_bind().dialect.name == "sqlite":
        db.session.execute(update(column.table).where(column == value).values({column.key: column}))
    else:
        db.session.execute(select(column).where(column == value).with_for_update())
