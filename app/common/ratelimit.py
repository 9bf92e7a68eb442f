"""Rate-limit helpers shared by the API and the pages."""
from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager

from flask import current_app, g, request
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import HTTPException

from app.common.negotiation import is_form_post
from app.errors import ApiError
from app.extensions import limiter


def configured(name: str) -> Callable[[], str]:
    """The limit ``RATELIMIT_<name>`` from configuration, read per request."""
    return lambda: current_app.config[f"RATELIMIT_{name}"]


def email_key() -> str:
    """The body's email (JSON or form), lower-cased; the client address when there is none.

    Never raises: Flask-Limiter takes any error in a key function for a storage
    outage and falls back to per-process memory (empty: a locked-out email could
    guess again). An unreadable body (413) is refused by the view when it reads
    it; JSON nested too deeply is no JSON here (``app.common.http.JSONProvider``).
    """
    try:
        data = request.form if is_form_post() else request.get_json(silent=True, force=True)
    except HTTPException:
        data = None
    email = data.get("email") if hasattr(data, "get") else None
    return email.strip().lower() if isinstance(email, str) and email.strip() else get_remote_address()


def address_and_token_key() -> str:
    """Client address and the share token in the path: share password attempts."""
    return f"{get_remote_address()}:{(request.view_args or {}).get('token', '')}"


def failed(flag: str) -> Callable:
    """A ``deduct_when`` that counts only requests marked by ``counting_failures(flag)``."""
    return lambda _response: g.get(flag, False)


@contextmanager
def counting_failures(flag: str, *codes: str):
    """Mark the request as failed (``g.<flag>``) when an ApiError with one of ``codes`` (any, if none) leaves."""
    try:
        yield
    except ApiError as exc:
        if not codes or exc.code in codes:
            setattr(g, flag, True)
        raise


def share_password_limit(**options):
    """Wrong share passwords: per client address and share token, counting failures only.

    One counter for every place a share password is tried (the JSON view, the page's form,
    comments): a shared limit, so the scope leaves the endpoint out of the key.
    """
    return limiter.shared_limit(configured("SHARE_PASSWORD"), scope="share-password", key_func=address_and_token_key,
                                deduct_when=failed("share_password_failed"), **options)
