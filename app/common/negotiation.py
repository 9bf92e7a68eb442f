"""How a request wants its errors answered: the view markers and the questions errors.py asks of them.

Kept apart from ``app.common.http`` (which raises ``ApiError``) so that the error registrar depends
on nothing that depends on it: this module imports only Flask.
"""
from __future__ import annotations

from flask import current_app, has_request_context, request

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


def accepts_upload(*, max_bytes: int):
    """Mark a JSON API view that also takes a ``multipart/form-data`` upload of up to ``max_bytes``
    (the whole body; ``MAX_CONTENT_LENGTH`` still bounds its JSON bodies). Its errors stay JSON."""

    def decorate(view):
        view.form_error_redirect = None
        view.upload_limit = max_bytes
        return view

    return decorate


def upload_limit() -> int | None:
    """The body limit of this request when it is an upload to a view marked ``accepts_upload``."""
    if not has_request_context() or request.endpoint is None or request.mimetype != "multipart/form-data":
        return None
    return getattr(current_app.view_functions.get(request.endpoint), "upload_limit", None)


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
