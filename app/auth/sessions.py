"""Server-side sessions and bearer tokens on Flask-Login.

The ``sid`` cookie holds a random value; the ``auth_sessions`` table keeps only
its hash. Flask-Login's ``request_loader`` turns the cookie into the current
user; nothing is kept in Flask's own (signed-cookie) session.

An API request with an ``Authorization`` header is authenticated by it alone: it
must carry a valid bearer access token (``app.auth.tokens``), else the request
is refused with 401 and ``WWW-Authenticate: Bearer error="invalid_token"``, even
when a session cookie came along. Each bearer request counts against the plan's
API request limit.

The user is resolved in a hook that runs before the rate limiter's (``load_user_before_limits``), so
that a database that cannot be reached answers 503 rather than passing for a limiter storage outage.
"""
from __future__ import annotations

from datetime import datetime

from flask import Flask, current_app, g, redirect, request, url_for
from flask_login import current_user

from app.auth import service
from app.billing import usage
from app.common import connections
from app.errors import ApiError, Unauthenticated
from app.extensions import login_manager
from app.messages import N_

INVALID_TOKEN = {"WWW-Authenticate": 'Bearer error="invalid_token"'}


def load_user_before_limits(app: Flask) -> None:
    """Resolve the signed-in user in a hook of its own; install it before Flask-Limiter's hook.

    The limiter's key function reads ``current_user``, and the limiter takes any exception there
    for an outage of its storage (it logs one, moves its counters to memory and lets the request
    through). Resolved here first, a database error reaches the error handlers instead (503).
    """
    app.before_request(_load_user_first)


def reads_no_user(view):
    """Mark a view that never reads the signed-in user (/healthz): no session look-up runs before it,
    so a database outage cannot fail it."""
    view.reads_no_user = True
    return view


def _load_user_first():
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
    if request.endpoint == "static" or getattr(view, "reads_no_user", False):
        return
    if getattr(view, "writes_nothing", False) and _authorization_header() is None:
        # The cookie's look-up only reads (a bearer request counts itself: a write), so the whole
        # request can go without a transaction.
        connections.read_without_transaction()
    current_user._get_current_object()
    if "user_load_error" in g:
        raise g.user_load_error


def init_app(app: Flask) -> None:
    login_manager.init_app(app)
    login_manager.session_protection = None  # our cookie is already bound to a server row
    login_manager.user_loader(lambda _auth_id: None)  # flask.session never holds a user
    login_manager.request_loader(_load_user_from_request)
    login_manager.unauthorized_handler(_unauthorized)
    # After the limiter's hook (the user is loaded by then: load_user_before_limits), before any view.
    app.before_request(_refuse_bad_authorization)


def ignores_authorization(view):
    """Mark a view that reads no user and authenticates by its body (the token endpoint): its
    ``Authorization`` header (OAuth clients may send their own credentials) is neither checked nor counted."""
    view.ignores_authorization = True
    return view


def _authorization_header() -> str | None:
    """The request's Authorization header on the API, unless its view ignores it. Pages (and file
    downloads) go by the cookie: a proxy's own Authorization (Basic, in front of a staging site)
    must not sign anybody out of them."""
    header = request.headers.get("Authorization")
    if header is None or not (request.path == "/api" or request.path.startswith("/api/")):
        return None
    if request.endpoint is None:
        return header
    view = current_app.view_functions.get(request.endpoint)
    return None if getattr(view, "ignores_authorization", False) else header


def _load_user_from_request(req):
    # Never raises: Flask-Limiter loads the user inside its own hook (for its key) and takes any
    # exception there for a storage outage. A refusal is kept in ``g.auth_error`` and raised by
    # ``_refuse_bad_authorization``; a failure (the database is down) in ``g.user_load_error``,
    # raised by ``_load_user_first``. Either way the request goes on as anonymous, and the error
    # pages render without a second look-up.
    try:
        return _load_user(req)
    except Exception as exc:  # noqa: BLE001 - re-raised by _load_user_first
        g.user_load_error = exc
        return None


def _load_user(req):
    header = _authorization_header()
    if header is not None:
        return _load_bearer_user(header)
    raw = req.cookies.get(current_app.config["AUTH_COOKIE_NAME"])
    if not raw or len(raw) > 256:
        return None
    loaded = service.load_session(raw)
    if loaded is None:
        return None
    user, g.session_expires_at, g.auth_session_id, g.authenticated_at = loaded
    g.authenticated_by = "session"
    return user


def _load_bearer_user(header: str):
    scheme, _, raw = header.strip().partition(" ")
    loaded = service.load_bearer(raw.strip()) if scheme.lower() == "bearer" else None
    if loaded is None:
        g.auth_error = Unauthenticated(message=N_("The access token is missing, malformed, expired or revoked."),
                                       headers=INVALID_TOKEN)
        return None
    user, expires_at = loaded
    try:
        usage.count_api_request(user)
    except ApiError as exc:
        g.auth_error = exc
        return None
    g.session_expires_at = expires_at
    g.authenticated_by = "bearer"
    return user


def _refuse_bad_authorization():
    if _authorization_header() is None:
        return  # the cookie path: nothing to do before the view
    current_user._get_current_object()  # loads (and counts) the bearer user, if not done yet
    if "auth_error" in g:
        raise g.auth_error


def _unauthorized():
    if "auth_error" in g:
        raise g.auth_error
    if request.path.startswith("/api/"):
        raise Unauthenticated(headers={"WWW-Authenticate": "Bearer"})
    return redirect(url_for("pages.login", callbackUrl=request.full_path.rstrip("?")))


def current_cookie() -> str | None:
    return request.cookies.get(current_app.config["AUTH_COOKIE_NAME"])


def set_cookie(response, raw: str, expires: datetime) -> None:
    """The session cookie: HttpOnly, SameSite=Lax, Secure under HTTPS, expiring with the session."""
    response.set_cookie(current_app.config["AUTH_COOKIE_NAME"], raw, expires=expires, path="/",
                        httponly=True, samesite="Lax", secure=request.is_secure)


def clear_cookie(response) -> None:
    response.delete_cookie(current_app.config["AUTH_COOKIE_NAME"], path="/", httponly=True, samesite="Lax",
                           secure=request.is_secure)
