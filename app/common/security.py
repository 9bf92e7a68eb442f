"""Small security helpers: random tokens, their stored hashes, safe redirects."""
from __future__ import annotations

import hashlib
import secrets
from urllib.parse import urljoin, urlsplit


def new_token() -> str:
    """256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def hash_token(raw: str) -> str:
    """What is stored for a token: SHA-256 (tokens are random, so no salt or stretching is needed)."""
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def same_origin_url(target: str | None, base_url: str) -> str:
    """``target`` as an absolute URL if it stays on ``base_url``'s origin, else ``base_url + "/"``.

    Accepts a path (``/resumes?x=1``) or an absolute URL of the same scheme,
    host and port. Scheme-relative (``//evil``), backslash tricks and control
    characters fall back to the home page.
    """
    home = base_url.rstrip("/") + "/"
    if not target or not isinstance(target, str) or len(target) > 2048:
        return home
    if any(ord(c) < 0x20 or c == "\\" for c in target):
        return home
    base = urlsplit(home)
    if target.startswith("/") and not target.startswith("//"):
        return urljoin(home, target)
    parts = urlsplit(target)
    if (parts.scheme, parts.netloc) == (base.scheme, base.netloc):
        return target
    return home
