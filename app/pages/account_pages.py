"""``/account``: a person's name and avatar, preferences, password, two-factor sign-in, the provider
accounts that sign them in and their passkeys (``static/js/account/passkeys.js``). ``/settings`` is the
preferences section of the same page.

The page is rendered with the account's current values (``service.account_of``, what
``GET /api/account`` answers); every change goes through the JSON API (``static/js/account/``), so
its validation and limits apply here as to any client. A saved language or theme reloads the page in it.

Two-factor set-up: ``POST /api/account/two-factor/setup`` starts a set-up that waits for its first code
(two-factor stays off, so leaving or reloading the page locks nobody out); the first code the app gives
(``POST /api/account/two-factor/confirm``) turns it on and answers the backup codes, shown then. The QR
code is drawn here on the server with segno (``/account/two-factor/qr.svg``, an SVG from our own origin,
as the Content-Security-Policy wants), from the secret waiting for its first code, and only until it is
confirmed (``credentials.setup_uri``; also for two-factor turned on at once by ``PUT
/api/account/security`` and not confirmed yet): a reloaded page shows the same set-up, and once confirmed
the secret is never shown again. The set-up is the session's that started it: another browser session
signed in to the account is shown neither the key nor the QR code. Backup codes made in this session are
shown on every load until "I have saved them" (``credentials.backup_codes_shown``).

Security changes need a recent sign-in (sudo mode, ``app.auth.sudo``): a change the API refuses with
REAUTHENTICATION_REQUIRED opens the "Confirm it is you" dialog (``_account_reauth.html``,
``static/js/account/reauth.js``) and is made again once the session re-authenticated.

The avatar is an address elsewhere, and the Content-Security-Policy lets images come from our origin only
(``img-src 'self' data:``), so ``/account/avatar`` fetches it for the page: through the SSRF-guarded
``outbound.request`` with the photo's settings (as the export does), and only when Pillow recognises a PNG,
JPEG, GIF or WebP of bounded size, answered with the media type Pillow found (never the remote one). The page
adds ``?v=`` a hash of the address, so a changed address is fetched again despite the five-minute cache.
"""
from __future__ import annotations

import hashlib
import io
import logging
import zoneinfo

import segno
from flask import current_app, make_response, redirect
from flask_babel import gettext
from flask_login import current_user
from PIL import Image

from app import i18n
from app.account import service
from app.agents import grants
from app.auth import credentials, sudo
from app.auth.oauth import PROVIDERS
from app.errors import NotFound
from app.integrations import outbound
from app.pages.shell import render_page, signed_in_page
from app.pages.views import bp
from app.users.models import THEMES

log = logging.getLogger(__name__)

# Pillow's format names of the images a browser shows everywhere, with the media type served for each.
AVATAR_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WEBP": "image/webp"}
AVATAR_MAX_PIXELS = 16_000_000  # width x height: more is a decompression bomb, not a face


def _setup_minutes() -> int:
    """How long a two-factor set-up waits for its first code, in minutes (the page says it)."""
    return int(current_app.config["TWO_FACTOR_SETUP_LIFETIME"].total_seconds() // 60)


def _time_zones(current: str) -> list[str]:
    """IANA names people pick (Region/City, and UTC), with the account's own even if it is another."""
    zones = {zone for zone in zoneinfo.available_timezones()
             if "/" in zone and not zone.startswith(("Etc/", "SystemV/", "posix/", "right/"))}
    return sorted(zones | {"UTC", current})


@bp.get("/account")
@signed_in_page
def account_page():
    account = service.account_of(current_user)
    session = sudo.current()
    session_id = session.id if session else None
    setup_secret = credentials.setup_secret(current_user, session_id)
    return render_page(
        "pages/account.html", scripts="account", account=account, languages=i18n.LANGUAGES, themes=THEMES,
        time_zones=_time_zones(account.preferences["timezone"]),
        has_password=current_user.password_hash is not None,
        two_factor_enabled=current_user.two_factor_enabled,
        two_factor_pending=credentials.two_factor_pending(current_user),
        two_factor_set_up=setup_secret is not None and not current_user.two_factor_enabled,
        setup_secret=setup_secret, setup_minutes=_setup_minutes(),
        setup_elsewhere=credentials.setup_elsewhere(current_user, session_id),
        backup_codes=credentials.backup_codes_shown(current_user, session),
        providers=PROVIDERS, avatar_version=avatar_version(account.avatar),
        mcp_url=current_app.config["BASE_URL"] + "/mcp",
        agent_scopes={scope: gettext(label) for scope, label in grants.SCOPES.items()})


def avatar_version(url: str | None) -> str | None:
    """A short hash of the avatar address: the ``v`` of the image's address on the page (a cache key)."""
    return hashlib.sha256(url.encode()).hexdigest()[:16] if url else None


def fetch_avatar(url: str) -> tuple[bytes, str] | None:
    """The image at ``url`` and its media type, or None when it cannot be had safely.

    The bytes are passed on as they are (a GIF keeps its frames) but only after Pillow has identified and
    verified them as one of ``AVATAR_TYPES``, and the media type is Pillow's, so the browser never gets
    something else labelled as an image.
    """
    config = current_app.config
    try:
        response = outbound.request("GET", url, allow_private=config["PHOTO_ALLOW_PRIVATE_TARGETS"],
                                    timeout=config["PHOTO_FETCH_TIMEOUT"], max_bytes=config["PHOTO_MAX_BYTES"],
                                    headers={"Accept": ", ".join(AVATAR_TYPES.values())})
    except outbound.OutboundError as exc:
        log.info("avatar not fetched: %s", exc)
        return None
    if response.status != 200:
        log.info("avatar not fetched: status %s", response.status)
        return None
    try:
        with Image.open(io.BytesIO(response.body), formats=list(AVATAR_TYPES)) as image:
            kind, pixels = image.format, image.width * image.height
            image.verify()
    except Exception as exc:  # noqa: BLE001 - whatever a broken or hostile file makes Pillow raise, it is no avatar
        log.info("avatar not used: %s", exc)
        return None
    if kind not in AVATAR_TYPES or pixels > AVATAR_MAX_PIXELS:
        return None
    return response.body, AVATAR_TYPES[kind]


@bp.get("/account/avatar")
@signed_in_page
def account_avatar():
    found = fetch_avatar(current_user.avatar) if current_user.avatar else None
    if found is None:  # the page falls back to the initial
        raise NotFound(message="No avatar can be shown.")
    body, media_type = found
    response = make_response(body)
    response.mimetype = media_type
    response.headers["Cache-Control"] = "private, max-age=300"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@bp.get("/settings")
@signed_in_page
def settings_page():
    return redirect("/account#preferences", 302)


@bp.get("/account/two-factor/qr.svg")
@signed_in_page
def two_factor_qr():
    session = sudo.current()
    uri = credentials.setup_uri(current_user, session.id if session else None)
    if uri is None:  # two-factor off, confirmed, or set up by another session: its secret is not shown here
        raise NotFound(message="No two-factor set-up is waiting for confirmation.")
    out = io.BytesIO()
    # Dark on white whatever the theme: scanners expect it. Error correction M survives a glare.
    segno.make(uri, error="m").save(out, kind="svg", scale=5, border=4, dark="#000", light="#fff",
                                    xmldecl=False, svgns=True, title="QR code")
    response = make_response(out.getvalue())
    response.mimetype = "image/svg+xml"
    response.headers["Cache-Control"] = "no-store"
    return response
