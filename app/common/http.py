"""Request/response plumbing shared by every blueprint.

- ``X-Request-ID``: accepted (when sane) or generated, echoed, and put in every log line.
- ``X-API-Version`` on every response.
- Under ``/api``, a request that carries a body must carry JSON (415 otherwise),
  except on views marked ``@accepts_form``; this runs before any view, so
  nothing changes on a refused request.
"""
from __future__ import annotations

import logging
import re
import uuid

from flask import Flask, current_app, g, has_app_context, has_request_context, jsonify, request
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge

from app.config import API_VERSION
from app.errors import ApiError

REQUEST_ID_PATTERN = r"[A-Za-z0-9._:-]{1,128}"  # what an incoming X-Request-ID must be to be kept
_REQUEST_ID = re.compile(REQUEST_ID_PATTERN)
FORM_TYPES = {"application/x-www-form-urlencoded", "multipart/form-data"}


def accepts_form(*, error_redirect):
    """Mark a JSON API view that also takes form posts (sign-in, sign-out; the token endpoint for OAuth clients).

    A form post that fails is answered with a 302 to ``error_redirect(code)``,
    or in the JSON error envelope when ``error_redirect`` is None (not a browser form).
    """

    def decorate(view):
        view.form_error_redirect = error_redirect
        return view

    return decorate


def form_error_redirect():
    """The error redirect of this request's view when it is a browser form post, else None."""
    if not has_request_context() or request.endpoint is None or not is_form_post():
        return None
    view = current_app.view_functions.get(request.endpoint)
    return getattr(view, "form_error_redirect", None)


def json_errors(view):
    """Mark a view outside ``/api`` whose errors are answered in the JSON envelope (file downloads)."""
    view.json_errors = True
    return view


def wants_json_errors() -> bool:
    """Whether this request's errors get the JSON envelope (every ``/api`` path, and marked views)."""
    if request.path == "/api" or request.path.startswith("/api/"):
        return True
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
    return getattr(view, "json_errors", False)


def is_form_post() -> bool:
    return request.mimetype in FORM_TYPES


def _has_body() -> bool:
    return bool(request.content_length) or "chunked" in request.headers.get("Transfer-Encoding", "").lower()


def json_body(schema, **load_kwargs) -> dict:
    """Parse the request body as a JSON object and load it with ``schema``.

    Raises ApiError VALIDATION_ERROR for malformed JSON, a non-object body or
    anything the schema refuses.
    """
    if not _has_body():
        raise ApiError("VALIDATION_ERROR", "A JSON object body is required.", {"field": "body"})
    try:
        data = request.get_json(force=True)
    except BadRequest:  # not 413: a body over the limit keeps its own error
        raise ApiError("VALIDATION_ERROR", "The body is not valid JSON.", {"field": "body"}) from None
    if not isinstance(data, dict):
        raise ApiError("VALIDATION_ERROR", "The body must be a JSON object.", {"field": "body"})
    return schema.load(data, **load_kwargs)


def ok(data=None, *, message: str | None = None, status: int = 200, meta: dict | None = None):
    """The success envelope."""
    body: dict = {"success": True}
    if data is not None:
        body["data"] = data
    if message is not None:
        body["message"] = message
    if meta is not None:
        body["meta"] = meta
    response = jsonify(body)
    response.status_code = status
    return response


class RequestIdFilter(logging.Filter):
    """Puts the request id (a job's: its enqueuing request's) on every log record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = g.get("request_id", "-") if has_app_context() else getattr(
            record, "request_id", "-")
        return True


def configure_logging(app: Flask) -> None:
    handler = logging.StreamHandler()
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"))
    root = logging.getLogger()
    if not any(isinstance(f, RequestIdFilter) for h in root.handlers for f in h.filters):
        root.addHandler(handler)
    root.setLevel(app.config["LOG_LEVEL"])


def install_request_hooks(app: Flask) -> None:
    @app.before_request
    def assign_request_id():
        incoming = request.headers.get("X-Request-ID", "")
        # fullmatch: ``$`` would let a trailing newline through into the echoed header.
        g.request_id = incoming if _REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex

    @app.before_request
    def refuse_cross_site_forms():
        # SameSite=Lax keeps our cookie off cross-site posts, but a form on another site could
        # still sign a visitor in to an account of its choosing (login CSRF). JSON needs CORS.
        # A request with an Authorization header is no such form (another site's page can only add
        # one through a CORS preflight, which this API never grants), and it is authenticated by
        # that header, never by the cookie (app.auth.sessions).
        origin = request.headers.get("Origin")
        if request.method == "POST" and is_form_post() and origin and "Authorization" not in request.headers \
                and origin.rstrip("/") != request.host_url.rstrip("/"):
            raise ApiError("FORBIDDEN", "Form posts from another site are refused.")

    @app.before_request
    def refuse_oversized_bodies():
        # By the declared length, before any view or rate-limit key reads the body: Werkzeug
        # raises 413 only when something reads it.
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        if limit is not None and (request.content_length or 0) > limit:
            raise RequestEntityTooLarge()
        if is_form_post():
            # Parse forms now: a field over Werkzeug's form memory limit is a 413 here, not an
            # error inside a rate-limit key function (which would only half-read the stream).
            request.form

    @app.before_request
    def require_json_bodies():
        if not request.path.startswith("/api/") or not _has_body():
            return None
        view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
        if request.mimetype == "application/json":
            return None
        if view is not None and hasattr(view, "form_error_redirect") and is_form_post():
            return None
        raise ApiError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json.")

    @app.after_request
    def stamp_response(response):
        if response.status_code != 429:
            # Flask-Limiter adds it to every response of a limited route; it means "wait" only on a 429.
            response.headers.pop("Retry-After", None)
        response.headers["X-API-Version"] = API_VERSION
        response.headers["X-Request-ID"] = g.get("request_id") or uuid.uuid4().hex
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response
