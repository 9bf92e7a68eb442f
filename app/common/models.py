"""Model building blocks: opaque ids, UTC timestamps, timestamp mixin."""
from __future__ import annotations

import re
import secrets
import sqlite3
from datetime import datetime, timedelta, timezone

from flask import current_app, has_app_context

from sqlalchemy import JSON, DateTime, Engine, String, TypeDecorator, event
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column


# A JSON document column: JSONB on PostgreSQL.
JSONDocument = JSON().with_variant(JSONB(), "postgresql")

_ID_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}")


def new_id() -> str:
    """An opaque, unguessable id: 96 random bits as 24 hex characters."""
    return secrets.token_hex(12)


def plausible_id(value: str) -> bool:
    """Whether ``value`` could be one of our ids; anything else is not looked up (a NUL would upset PostgreSQL)."""
    return bool(_ID_SHAPE.fullmatch(value))


class Clock:
    """The app's time source (``app.extensions["clock"]``). Tests move it with ``advance``."""

    def __init__(self):
        self.offset = timedelta(0)

    def now(self) -> datetime:
        return datetime.now(timezone.utc) + self.offset

    def advance(self, **delta) -> None:
        self.offset += timedelta(**delta)


def utcnow() -> datetime:
    """Now, in UTC, by the current app's clock."""
    if has_app_context():
        return current_app.extensions["clock"].now()
    return datetime.now(timezone.utc)


class UTCDateTime(TypeDecorator):
    """Timezone-aware UTC datetimes on every database (SQLite keeps none)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTCDateTime column")
        return value.astimezone(timezone.utc).replace(tzinfo=None)

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        return value.replace(tzinfo=timezone.utc)


def id_column() -> Mapped[str]:
    return mapped_column(String(24), primary_key=True, default=new_id)


class TimestampMixin:
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow, nullable=False)


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, _record) -> None:
    """SQLite: enforce foreign keys (ON DELETE CASCADE) and let the worker thread write beside requests."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        # In WAL mode NORMAL cannot corrupt the database; a power cut may lose the last commits.
        # FULL would fsync every commit, which the embedded default (development) does not need.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()


def render_migration_item(type_, obj, _autogen_context):
    """Alembic hook: write UTCDateTime as plain ``sa.DateTime()`` so migrations never import app code."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime()"
    return False
