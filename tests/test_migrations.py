"""Migrations from an empty database produce the models' schema (no drift), on both databases."""
import logging
import os
import uuid

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import current_app
from flask_migrate import downgrade, upgrade
from sqlalchemy import create_engine, inspect, make_url, text

from app.config import database_url
from app.extensions import db

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database(request, tmp_path):
    """The URL of a brand-new, empty database; a PostgreSQL one is dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    if not TEST_DATABASE_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    server = create_engine(database_url(TEST_DATABASE_URL), isolation_level="AUTOCOMMIT")
    name = f"migrations_{uuid.uuid4().hex[:12]}"
    with server.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(database_url(TEST_DATABASE_URL)).set(database=name).render_as_string(hide_password=False)
    finally:
        with server.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        server.dispose()


@pytest.fixture
def migrated_app(make_app, empty_database):
    app = make_app(DATABASE_URL=empty_database, REDIS_URL=None)
    with app.app_context():
        yield app
        db.engine.dispose()


def schema_drift() -> list:
    """What autogenerate would still write: differences between the database and the models."""
    with db.engine.connect() as conn:
        options = {**current_app.extensions["migrate"].configure_args, "compare_server_default": True}
        return compare_metadata(MigrationContext.configure(conn, opts=options), db.metadata)


def tables() -> set[str]:
    return set(inspect(db.engine).get_table_names())


def test_migrations_from_an_empty_database_produce_the_models_schema(migrated_app):
    assert tables() == set()

    upgrade()

    assert tables() == set(db.metadata.tables) | {"alembic_version"}
    assert schema_drift() == []


def test_migrations_downgrade_to_an_empty_database_and_upgrade_again(migrated_app):
    upgrade()

    downgrade(revision="base")
    assert tables() == {"alembic_version"}

    upgrade()
    assert schema_drift() == []


def test_migrating_in_process_keeps_the_apps_log_level_and_request_ids(make_app, tmp_path, caplog):
    app = make_app(DATABASE_URL=f"sqlite:///{tmp_path / 'logs.db'}", REDIS_URL=None, LOG_LEVEL="INFO")
    with app.app_context():
        upgrade()

    with app.test_request_context(headers={"X-Request-ID": "req-after-migration"}):
        app.preprocess_request()
        logging.getLogger("app").info("logged after the migration")

    assert logging.getLogger().level == logging.INFO
    (record,) = [r for r in caplog.records if r.getMessage() == "logged after the migration"]
    assert record.request_id == "req-after-migration"
