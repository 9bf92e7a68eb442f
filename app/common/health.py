"""Readiness: whether the services a request needs answer (``/readyz``)."""
from __future__ import annotations

from flask import current_app
from sqlalchemy import text

from app.extensions import db

OK, UNAVAILABLE = "ok", "unavailable"


def readiness() -> dict[str, str]:
    """Each service's state, ``ok`` or ``unavailable``: the database, and Redis where one is configured."""
    checks = {}
    try:
        db.session.execute(text("SELECT 1"))
        checks["database"] = OK
    except Exception:  # any failure to answer is "unavailable", never an error page
        db.session.rollback()
        checks["database"] = UNAVAILABLE
    if current_app.config["REDIS_URL"]:
        try:
            current_app.extensions["jobs"].connection.ping()
            checks["redis"] = OK
        except Exception:
            checks["redis"] = UNAVAILABLE
    return checks
