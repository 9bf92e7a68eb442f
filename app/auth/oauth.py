"""OAuth 2.0 sign-in with GitHub and Google, through authlib's Flask client (``app.extensions.oauth``).

A provider is offered only when its client id and secret are configured. Its endpoints come from the
configuration (``GITHUB_*_URL``, ``GOOGLE_*_URL``), so no discovery document is fetched.

The authorization request carries a ``state`` bound to the browser and a PKCE (S256) challenge; authlib
keeps both, with the redirect URI and our same-origin callback address, in Flask's signed session
cookie (``rs_state``: HttpOnly, SameSite=Lax, Secure under HTTPS). The callback exchanges the code and
reads the profile into a ``Profile``; what to do with it is ``service.sign_in_with_provider``'s, or, for a
flow started by a signed-in user to link an account (its state carries ``link_user_id``),
``service.link_provider``'s.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from authlib.common.errors import AuthlibBaseError
from flask import Flask, current_app, redirect, request, session
from flask.sessions import SecureCookieSessionInterface

from app.errors import ApiError
from app.extensions import oauth

log = logging.getLogger(__name__)

PROVIDERS = {"github": "GitHub", "google": "Google"}  # name → label on the login page
SCOPES = {"github": "read:user user:email", "google": "openid email profile"}
# Pending sign-ins a browser keeps per provider: each is a few hundred bytes of the state cookie, and a
# browser drops a cookie over 4 KiB (which would fail every sign-in with a state mismatch).
MAX_PENDING = 4


class OAuthFailure(Exception):
    """The provider's answer cannot sign anybody in (denied, bad state, failed exchange, unusable profile).

    ``link_user_id`` and ``callback_url`` are the pending flow's when its state was found: a failed link
    goes back to the page that started it rather than to the login page."""

    def __init__(self, message: str, *, link_user_id: str | None = None, callback_url: str | None = None):
        super().__init__(message)
        self.link_user_id = link_user_id
        self.callback_url = callback_url


@dataclass(frozen=True)
class Profile:
    """What a provider tells about its account. ``email_verified`` says whether the provider vouches
    that the account owns ``email`` (only then may it find, link or create a user)."""

    provider: str
    account_id: str
    email: str | None
    email_verified: bool
    name: str | None
    image: str | None


@dataclass(frozen=True)
class Completion:
    """A finished authorization: the profile, the callback address kept at the start, and the id of the
    user who started a link flow (None for a sign-in)."""

    profile: Profile
    callback_url: str
    link_user_id: str | None = None


class StateCookieSession(SecureCookieSessionInterface):
    """Flask's signed cookie session (it holds pending OAuth sign-ins only), ``Secure`` when the request
    came over HTTPS like the ``sid`` cookie: ``SESSION_COOKIE_SECURE`` is one value for every request."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return request.is_secure or super().get_cookie_secure(app)


def init_app(app: Flask) -> None:
    """Register a client for each provider with a client id and secret (``oauth`` is bound already)."""
    app.session_interface = StateCookieSession()
    cfg = app.config
    for provider in PROVIDERS:
        key = provider.upper()
        if not (cfg[f"{key}_CLIENT_ID"] and cfg[f"{key}_CLIENT_SECRET"]):
            continue
        oauth.register(
            provider, client_id=cfg[f"{key}_CLIENT_ID"], client_secret=cfg[f"{key}_CLIENT_SECRET"],
            authorize_url=cfg[f"{key}_AUTHORIZE_URL"], access_token_url=cfg[f"{key}_TOKEN_URL"],
            client_kwargs={"scope": SCOPES[provider], "code_challenge_method": "S256",
                           # Both providers document the secret in the form body.
                           "token_endpoint_auth_method": "client_secret_post",
                           "default_timeout": cfg["OAUTH_TIMEOUT"]})


def configured_providers() -> list[str]:
    """The providers offered by the current app, in a stable order."""
    return [name for name in PROVIDERS if oauth.create_client(name) is not None]


def _client(provider: str):
    """The provider's client. Raises NOT_FOUND for a provider that is not configured."""
    client = oauth.create_client(provider) if provider in PROVIDERS else None
    if client is None:
        raise ApiError("NOT_FOUND", "This sign-in provider is not available.")
    return client


def require_provider(provider: str) -> None:
    """Raises NOT_FOUND unless the provider is configured."""
    _client(provider)


def redirect_uri(provider: str) -> str:
    """The callback address to register with the provider."""
    return f"{current_app.config['BASE_URL']}/api/auth/callback/{provider}"


def authorize_redirect(provider: str, callback_url: str, link_user_id: str | None = None):
    """A 302 to the provider's authorization page; ``callback_url`` (already same-origin) is kept with the
    state for the callback, and so is ``link_user_id`` when a signed-in user starts linking an account
    (the callback then links instead of signing in). Raises NOT_FOUND for a provider that is not configured."""
    client = _client(provider)
    uri = redirect_uri(provider)
    authorization = client.create_authorization_url(uri)
    _drop_oldest_pending(client.framework.name)
    # What the callback needs, and no more: authlib's ``authorize_redirect`` would also keep the whole
    # authorization URL and Google's nonce (which would make it verify the ID token against Google's
    # keys: the profile is read from the userinfo endpoint with the access token instead).
    extra = {"link_user_id": link_user_id} if link_user_id else {}
    client.save_authorize_data(state=authorization["state"], redirect_uri=uri,
                               code_verifier=authorization["code_verifier"], callback_url=callback_url, **extra)
    return redirect(authorization["url"], 302)


def _drop_oldest_pending(name: str) -> None:
    # authlib keeps each pending sign-in under "_state_<client name>_<state>" with an "exp".
    prefix = f"_state_{name}_"
    pending = sorted((key for key in session if key.startswith(prefix)),
                     key=lambda key: (session[key] or {}).get("exp", 0))
    for key in pending[:max(0, len(pending) - MAX_PENDING + 1)]:
        session.pop(key)


def complete(provider: str) -> Completion:
    """Finish the sign-in (or link) this callback request answers: check the state, exchange the code
    (with the PKCE verifier), read the profile. Returns it with what was kept at the start.

    Raises NOT_FOUND for a provider that is not configured, OAuthFailure for everything else.
    """
    client = _client(provider)
    state = request.args.get("state")
    pending = client.framework.get_state_data(session, state) if state else None
    if not pending:  # another browser's callback, a replay, or a forged one (login CSRF)
        raise OAuthFailure("missing or unknown state")
    kept = {"link_user_id": pending.get("link_user_id") or None,
            "callback_url": pending.get("callback_url") or f"{current_app.config['BASE_URL']}/"}
    try:
        token = client.authorize_access_token()  # checks the state again, and spends it
        profile = _read_profile(provider, client, token)
    except AuthlibBaseError as exc:  # the provider's error parameter, a refused exchange
        raise OAuthFailure(f"{exc.error}: {exc.description or ''}".strip(), **kept) from exc
    except (requests.RequestException, ValueError) as exc:  # unreachable, not JSON
        raise OAuthFailure(f"{type(exc).__name__}: {exc}", **kept) from exc
    except OAuthFailure as exc:  # an unusable profile
        raise OAuthFailure(str(exc), **kept) from exc
    finally:
        # A state works once, whatever happened (authlib spends it only when the provider sent a code).
        client.framework.clear_state_data(session, state)
    return Completion(profile, kept["callback_url"], kept["link_user_id"])


def _get_json(client, url: str, token: dict):
    response = client.get(url, token=token, headers={"Accept": "application/json"})
    if response.status_code != 200:
        raise OAuthFailure(f"GET {url} answered {response.status_code}")
    return response.json()


def _read_profile(provider: str, client, token: dict) -> Profile:
    cfg = current_app.config
    if provider == "github":
        user = _get_json(client, cfg["GITHUB_USERINFO_URL"], token)
        if not isinstance(user, dict) or user.get("id") in (None, ""):
            raise OAuthFailure("GitHub profile without an id")
        # GitHub's profile email is the public one the user chose to show, which GitHub does not
        # promise is (still) verified: the emails API says. The profile's address counts when it is
        # listed there as verified, else the primary verified one.
        emails = _get_json(client, cfg["GITHUB_EMAILS_URL"], token)
        if not isinstance(emails, list):
            raise OAuthFailure("GitHub emails is not a list")
        verified = {_text(e.get("email")).lower(): e for e in emails
                    if isinstance(e, dict) and e.get("verified") is True}
        email, is_verified = _text(user.get("email")).lower() or None, False
        if email and email in verified:
            is_verified = True
        else:
            primary = next((address for address, e in verified.items() if address and e.get("primary") is True), None)
            if primary:
                email, is_verified = primary, True
        return Profile(provider, str(user["id"]), email, is_verified,
                       _text(user.get("name")) or _text(user.get("login")) or None, _image(user.get("avatar_url")))
    info = _get_json(client, cfg["GOOGLE_USERINFO_URL"], token)
    if not isinstance(info, dict) or not _text(info.get("sub")):
        raise OAuthFailure("Google profile without a sub")
    return Profile(provider, _text(info["sub"]), _text(info.get("email")).lower() or None,
                   info.get("email_verified") in (True, "true"), _text(info.get("name")) or None,
                   _image(info.get("picture")))


def _text(value) -> str:
    return value.strip() if isinstance(value, str) else ""


def _image(value) -> str | None:
    """An avatar address as the profile API accepts one (http(s), at most 2,048 characters), else None."""
    url = _text(value)
    try:
        acceptable = 0 < len(url) <= 2048 and urlsplit(url).scheme in ("http", "https")
    except ValueError:  # not a URL at all
        acceptable = False
    return url if acceptable else None
