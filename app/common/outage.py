"""When the database cannot be reached: recognise it, close sessions safely, and never answer bare.

- ``database_unavailable(exc)`` (``app.common.database``): the errors that mean "the database is down
  or unreachable right now" (errors.py answers them ``503 SERVICE_UNAVAILABLE`` with ``Retry-After``),
  as opposed to a bug in a query (``500 INTERNAL_ERROR``).
- A teardown that closes the request's session without raising: closing rolls back, and a rollback
  on a connection that died mid-request raises after the response is made.
- ``ErrorBackstop``: the outermost WSGI layer. Anything that still escapes Flask leaves as the JSON
  envelope with ``X-Request-ID``, never the WSGI server's own HTML page.
"""
from __future__ import annotations

import json
import logging
import re
import uuid
from http import HTTPStatus

from flask import Flask, g
from sqlalchemy import exc as sa_exc

from app.common.database import database_unavailable, outage_summary
from app.common.http import REQUEST_ID_PATTERN
from app.config import API_VERSION
from app.errors import ApiError, ServiceUnavailable
from app.extensions import db

log = logging.getLogger(__name__)


def init_app(app: Flask) -> None:
    """Install the safe session teardown, keep an error's own Retry-After, and wrap the app in the
    backstop. Call after ``db.init_app`` (teardowns run last-registered first, so this one closes
    the session first), before ``limiter.init_app`` (after-request hooks run last-registered first,
    so this one runs after the limiter's), and after any other WSGI middleware (the backstop must
    be the outermost layer)."""
    app.teardown_appcontext(_close_session)
    app.after_request(_keep_the_errors_retry_after)
    app.wsgi_app = ErrorBackstop(app.wsgi_app)


def _keep_the_errors_retry_after(response):
    # Flask-Limiter stretches Retry-After to its window's reset on every response of a limited
    # route (up to 15 minutes on sign-in); an error's own value (a 503's: when the service may be
    # back) is the one to obey.
    retry_after = g.pop("error_retry_after", None)
    if retry_after is not None:
        response.headers["Retry-After"] = retry_after
    return response


def _close_session(_exc: BaseException | None) -> None:
    try:
        db.session.remove()
    except sa_exc.SQLAlchemyError as exc:
        # The connection died with a transaction open: SQLAlchemy has invalidated it (the pool
        # reconnects on the next checkout); a second remove() only forgets the session.
        log.warning("database session closed on a broken connection: %s", type(exc).__name__)
        db.session.remove()


class ErrorBackstop:
    """WSGI middleware: an exception that escapes the Flask app (a teardown, a WSGI layer) is
    answered with the JSON error envelope, ``503 SERVICE_UNAVAILABLE`` when the database is
    unreachable, else ``500 INTERNAL_ERROR``.

    The request id is fixed here before the app runs, so the app's log lines and this answer
    carry the same one. The app's own ``start_response`` is held back until the app returns, so
    an error raised after it (Flask's teardown runs after the response is made) can still replace
    the status line.
    """

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app
        self._request_id = re.compile(REQUEST_ID_PATTERN)

    def __call__(self, environ, start_response):
        request_id = environ.get("HTTP_X_REQUEST_ID", "")
        if not self._request_id.fullmatch(request_id):
            request_id = environ["HTTP_X_REQUEST_ID"] = uuid.uuid4().hex
        held: list = []

        def hold(status, headers, exc_info=None):
            held[:] = [status, headers]

            def write(data):  # the legacy write() callable: the status line must go first
                real_write = start_response(*held)
                held.clear()
                return real_write(data) if real_write else None

            return write

        try:
            body = self.wsgi_app(environ, hold)
        except Exception as exc:  # noqa: BLE001 - the last place anything can be answered
            return self._answer(environ, start_response, request_id, exc)
        if held:
            start_response(*held)
        return body

    @staticmethod
    def _answer(environ, start_response, request_id: str, exc: Exception):
        method, path = environ.get("REQUEST_METHOD"), environ.get("PATH_INFO")
        extra = {"request_id": request_id}
        unavailable = database_unavailable(exc)
        if unavailable:
            log.error("database unavailable on %s %s (outside the app): %s", method, path, outage_summary(exc),
                      extra=extra)
            error = ServiceUnavailable()
        else:
            log.error("unhandled error outside the app on %s %s", method, path, exc_info=exc, extra=extra)
            error = ApiError("INTERNAL_ERROR", "An unexpected error occurred. Quote the X-Request-ID header "
                                               "when you report it.")
        body = json.dumps({"error": error.message, "code": error.code}).encode()
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                   ("X-Request-ID", request_id), ("X-API-Version", API_VERSION), ("Cache-Control", "no-store"),
                   ("X-Content-Type-Options", "nosniff"), *error.headers.items()]
        start_response(f"{error.status} {HTTPStatus(error.status).phrase}", headers)
        return [body]
