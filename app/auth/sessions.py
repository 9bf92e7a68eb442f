"""Server-side sessions on Flask-Login.

The ``sid`` cookie holds a random value; the ``auth_sessions`` table keeps only
its hash. Flask-Login's ``request_loader`` turns the cookie into the current
user; nothing is kept in Flask's own (signed-cookie) session.
"""
from __future__ import annotations

from datetime import datetime

from flask import Flask, current_app, g, redirect, request, url_for

from app.auth import service
from app.errors import Unauthenticated
from app.extensions import login_manager


def init_app(app: Flask) -> None:
    login_manager.init_app(app)
    login_manager.session_protection = None  # our cookie is already bound to a server row
    login_manager.user_loader(lambda _auth_id: None)  # flask.session never holds a user
    login_manager.request_loader(_load_user_from_request)
    login_manager.unauthorized_handler(_unauthorized)


def _load_user_from_request(req):
    raw = req.cookies.get(current_app.config["AUTH_COOKIE_NAME"])
    if not raw or len(raw) > 256:
        return None
    loaded = service.load_session(raw)
    if loaded is None:
        return None
    user, g.session_expires_at = loaded
    return user


def _unauthorized():
    if request.path.startswith("/api/"):
        raise Unauthenticated()
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
