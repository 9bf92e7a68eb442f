"""Request/response plumbing shared by every blueprint.

- ``X-Request-ID``: accepted (when sane) or generated, echoed, and put in every log line.
- ``X-API-Version`` on every response.
- Under ``/api``, a request that carries a body must carry JSON (415 otherwise),
  except on views marked ``@accepts_form``; this runs before any view, so
  nothing changes on a refused request.
- A body over ``MAX_CONTENT_LENGTH`` (an upload: its view's ``accepts_upload`` limit) is 413,
  chunked or not; a form post from another
  origin than ``BASE_URL`` is refused.
- Security headers on every response: a Content-Security-Policy without inline script
  that no page may frame, Referrer-Policy, and HSTS on HTTPS requests.
"""
from __future__ import annotations

import logging
import re
import secrets
import uuid
from urllib.parse import urlsplit

from flask import Flask, current_app, g, has_app_context, jsonify, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge

from app.common.negotiation import is_form_post, upload_limit
from app.common.wording import said
from app.config import API_VERSION
from app.errors import ApiError
from app.messages import N_

REQUEST_ID_PATTERN = r"[A-Za-z0-9._:-]{1,128}"  # what an incoming X-Request-ID must be to be kept
_REQUEST_ID = re.compile(REQUEST_ID_PATTERN)
# Scripts and styles only from our own files (a <style> element only with the response's nonce),
# images also as data: URLs (resume photos), and no page inside another site's frame.
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'{style_nonce}; "
                           "img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'{form_targets}; "
                           "frame-ancestors 'none'; base-uri 'none'")
HSTS_MAX_AGE = 63_072_000  # two years, as hstspreload.org asks


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, where a document nested deeper than the decoder can follow is malformed.

    The decoder raises RecursionError there; as a ValueError it takes Flask's own path for bad
    JSON (400 from ``get_json``, None with ``silent=True``), so no view and no rate-limit key
    function sees anything but "not JSON".
    """

    def loads(self, s, **kwargs):
        try:
            return super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None


def allow_form_target(url: str) -> None:
    """Let this response's form post lead to ``url``'s origin (CSP form-action also governs where the post's
    redirect goes: the consent page sends the person back to an agent's redirect URI)."""
    parts = urlsplit(url)
    source = f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else f"{parts.scheme}:"
    if re.fullmatch(r"[a-z][a-z0-9+.-]*:(//[A-Za-z0-9.:\[\]-]+)?", source):  # nothing that could end the policy
        g.form_targets = [*g.get("form_targets", []), source]


def csp_nonce() -> str:
    """This response's nonce for a <style> element (templates: ``nonce="{{ csp_nonce() }}"``)."""
    if "csp_nonce" not in g:
        g.csp_nonce = secrets.token_urlsafe(16)
    return g.csp_nonce


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


def _from_this_site() -> bool:
    """Whether a write came from a page of this site, as the browser says: its Origin header, else
    Sec-Fetch-Site (same-origin, or none for what the person typed), else the Referer's origin. A
    request with none of them comes from no browser page of another site (browsers send Origin on
    every cross-origin write) and is let through: API clients and scripts."""
    ours = _origin(current_app.config["BASE_URL"])
    origin = request.headers.get("Origin")
    if origin is not None:
        return origin.rstrip("/").lower() == ours
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None:
        return fetch_site.lower() in ("same-origin", "none")
    referer = request.headers.get("Referer")
    if referer is not None:
        return _origin(referer) == ours
    return True


def _bearer_api_request() -> bool:
    """Whether the request is to the API and carries a Bearer token (which then authenticates it alone)."""
    scheme = request.headers.get("Authorization", "").strip().partition(" ")[0]
    return scheme.lower() == "bearer" and (request.path == "/api" or request.path.startswith("/api/"))


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
        body["message"] = said(message)  # a msgid, in the reader's language
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
    app.add_template_global(csp_nonce)

    @app.before_request
    def assign_request_id():
        incoming = request.headers.get("X-Request-ID", "")
        # fullmatch: ``$`` would let a trailing newline through into the echoed header.
        g.request_id = incoming if _REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex

    @app.before_request
    def refuse_cross_site_writes():
        # Every write (POST, PUT, PATCH, DELETE) a browser may send with our cookie says where it came
        # from, whatever its body: a form with no fields and enctype="text/plain" sends no body at all,
        # and SameSite=Lax alone lets a sibling subdomain (same site), or a browser that does not enforce
        # it, through. A form on another site could also sign a visitor in to an account of its choosing
        # (login CSRF). What authenticates the request decides: an API request with a Bearer token is
        # authenticated by it, never by the cookie (app.auth.sessions), and another site's page can only
        # add one through a CORS preflight, which this API never grants. Any other Authorization header
        # exempts nothing: behind a proxy that asks for Basic credentials the browser adds them to every
        # request, another site's form post included, and pages always go by the cookie.
        # The site's origin is BASE_URL's, not the request's host: behind TRUSTED_PROXIES that host
        # comes from X-Forwarded-Host, which anyone facing gunicorn directly can choose.
        if request.method in SAFE_METHODS or _bearer_api_request():
            return
        if not _from_this_site():
            message = (N_("Form posts from another site are refused.") if is_form_post()
                       else N_("Requests from another site are refused."))
            raise ApiError("FORBIDDEN", message)

    @app.before_request
    def refuse_oversized_bodies():
        # By the declared length, before any view or rate-limit key reads the body: Werkzeug
        # raises 413 only when something reads it. An upload to a view marked accepts_upload has
        # that view's limit instead (Werkzeug's reader and form parser are told it too).
        limit = upload_limit()
        if limit is not None:
            request.max_content_length = limit
            too_large = ApiError("CONTENT_TOO_LARGE", "The upload is larger than %(megabytes)s MiB.",
                                 {"field": "file", "limit": limit}, values={"megabytes": f"{limit / 1048576:g}"})
        else:
            limit, too_large = current_app.config["MAX_CONTENT_LENGTH"], RequestEntityTooLarge()
        if limit is not None and (request.content_length or 0) > limit:
            raise too_large
        if limit is not None and request.content_length is None and _has_body():
            # Chunked: Werkzeug's reader stops silently at the limit, leaving a cut body (400 as bad
            # JSON). Read it now (cached for the view and the form parser); one more byte from the
            # server's stream tells a body of exactly the limit from a longer one.
            if len(request.get_data(cache=True)) >= limit and request.environ["wsgi.input"].read(1):
                raise too_large
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
        if response.status_code not in (429, 503):
            # Flask-Limiter adds it to every response of a limited route; it means "wait" only on a 429 or 503.
            response.headers.pop("Retry-After", None)
        response.headers["X-API-Version"] = API_VERSION
        response.headers["X-Request-ID"] = g.get("request_id") or uuid.uuid4().hex
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        nonce = g.get("csp_nonce")
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY.format(
            style_nonce=f" 'nonce-{nonce}'" if nonce else "",
            form_targets="".join(f" {source}" for source in g.get("form_targets", [])))
        response.headers["X-Frame-Options"] = "DENY"  # frame-ancestors for browsers without CSP 2
        # same-origin: share and reset tokens in our URLs never reach another site, and our own form
        # posts keep a real Origin header (no-referrer would make it "null").
        response.headers["Referrer-Policy"] = "same-origin"
        if request.is_secure:  # HTTPS, or X-Forwarded-Proto from a trusted proxy (ProxyFix)
            response.headers["Strict-Transport-Security"] = f"max-age={HSTS_MAX_AGE}"
        return response
