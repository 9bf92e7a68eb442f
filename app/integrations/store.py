"""The storage interface every adapter implements (``Storage``), and what it raises.

The signed download addresses are the same for every adapter, so they live here, once: each
carries a token (itsdangerous, with the app's secret key) naming the file, the name to save it as
and an expiry, so that a tampered address is refused and an expired one is gone.
"""
from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from itsdangerous import BadSignature, URLSafeSerializer

# Keys are ours (``exports/<user id>/<export id>.pdf``), but a served key comes from a URL.
_KEY = re.compile(r"^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*\.[a-z0-9]{1,8}$")


class LinkInvalid(Exception):
    """A download address whose signature does not match (tampered or forged)."""


class LinkExpired(Exception):
    """A genuine download address past its expiry."""


class StorageUnavailable(OSError):
    """The store could not be reached or refused the operation; the message (for the log) says why."""


@dataclass(frozen=True)
class Download:
    """What a verified download address grants: a stored file and the name to save it as."""

    key: str
    filename: str


class Storage(ABC):
    """Where exports are kept. ``save``/``read``/``delete`` raise OSError (StorageUnavailable when the
    store cannot be reached); the signed download addresses are the same for every adapter."""

    def __init__(self, base_url: str, secret_key: str):
        self.base_url = base_url.rstrip("/")
        self._signer = URLSafeSerializer(secret_key, salt="storage-download")

    @staticmethod
    def checked(key: str) -> str:
        """``key`` when it is one of ours; raises ValueError (a served key comes from a URL)."""
        if not _KEY.match(key):
            raise ValueError(f"not a storage key: {key!r}")
        return key

    @abstractmethod
    def save(self, key: str, data: bytes) -> None:
        """Store ``data`` under ``key`` (replacing a file of that key); a failed save leaves no file."""

    @abstractmethod
    def read(self, key: str) -> bytes:
        """The stored bytes; raises FileNotFoundError."""

    @abstractmethod
    def delete(self, key: str) -> None:
        """Remove the file; a missing one is not an error."""

    def download_url(self, key: str, *, filename: str, expires_at: datetime) -> str:
        """An address that serves the file as an attachment named ``filename`` until ``expires_at``."""
        token = self._signer.dumps({"k": key, "f": filename, "e": int(expires_at.timestamp())})
        return f"{self.base_url}/{key}?token={token}"

    def verify(self, key: str, token: str, now: datetime) -> Download:
        """The download a served address grants. Raises LinkInvalid or LinkExpired."""
        try:
            claims = self._signer.loads(token)
        except BadSignature:
            raise LinkInvalid() from None
        if not isinstance(claims, dict) or claims.get("k") != key or not isinstance(claims.get("e"), int):
            raise LinkInvalid()
        if datetime.fromtimestamp(claims["e"], timezone.utc) <= now:
            raise LinkExpired()
        return Download(key=key, filename=str(claims.get("f") or Path(key).name))
