"""Every error's response: an ``ApiError``, a marshmallow error, a werkzeug HTTP error or anything
unexpected becomes the contract's envelope ``{"error", "code", "details"}`` under ``/api``, a small
HTML page for pages, or a redirect back to the form a browser posted.

Which of these a request gets is read from the view markers (``app.common.negotiation``); an
unexpected error rolls the session back and is logged with the request id, and a database or job
queue that cannot be reached is ``503 SERVICE_UNAVAILABLE`` (``app.common.database`` tells those
from a bad query).
"""
from __future__ import annotations

import logging

from flask import Flask, g, jsonify, make_response, redirect, render_template, request
from marshmallow import ValidationError as SchemaValidationError
from werkzeug.exceptions import HTTPException

from app.common.database import database_unavailable, outage_summary, rollback_session
from app.common.negotiation import form_error_redirect, wants_json_errors
from app.common.wording import said
from app.errors import HTTP_CODES, ApiError, ServiceUnavailable, from_schema_error
from app.queue import QueueUnavailable

log = logging.getLogger(__name__)


def render(err: ApiError):
    # Browser forms that post to the JSON API (sign-in) get a redirect back to the form.
    error_redirect = form_error_redirect()
    if error_redirect is not None:
        return redirect(error_redirect(err.code), 302)
    field = err.details.get("field") if isinstance(err.details, dict) else None
    message = said(err.template, field, err.values)
    if wants_json_errors():
        body = {"error": message, "code": err.code}
        if err.details:
            body["details"] = err.details
            if isinstance(err.details.get("errors"), dict):  # a VALIDATION_ERROR's every field, in the same words
                body["details"] = {**err.details, "errors": {path: said(words)
                                                             for path, words in err.details["errors"].items()}}
        response = jsonify(body)
    else:
        response = make_response(render_template("pages/error.html", status=err.status, code=err.code,
                                                 message=message))
    response.status_code = err.status
    response.headers.update(err.headers)
    if "Retry-After" in err.headers:
        g.error_retry_after = err.headers["Retry-After"]  # put back after the limiter's (app.common.outage)
    return response


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def handle_api_error(err: ApiError):
        return render(err)

    @app.errorhandler(SchemaValidationError)
    def handle_schema_error(err: SchemaValidationError):
        return render(from_schema_error(err))

    @app.errorhandler(HTTPException)
    def handle_http_error(err: HTTPException):
        status = err.code or 500
        code, message = HTTP_CODES.get(status, ("INTERNAL_ERROR" if status >= 500 else "VALIDATION_ERROR",
                                                err.name))
        api_error = ApiError(code, message)
        response = render(api_error)
        if response.status_code != 302:
            response.status_code = status
            # Keep the exception's own headers (Allow on 405, Retry-After on 429).
            for name, value in err.get_headers():
                if name.lower() != "content-type":
                    response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def handle_unexpected(err: Exception):
        rollback_session()
        if isinstance(err, QueueUnavailable):  # the job queue's Redis, for a request that cannot do without it
            log.error("job queue unavailable on %s %s: %s", request.method, request.path, err)
            return render(ServiceUnavailable())
        if database_unavailable(err):
            log.error("database unavailable on %s %s: %s", request.method, request.path, outage_summary(err))
            return render(ServiceUnavailable())
        log.exception("unhandled error on %s %s", request.method, request.path)
        return render(ApiError("INTERNAL_ERROR", "An unexpected error occurred. Quote the X-Request-ID "
                               "header when you report it."))
