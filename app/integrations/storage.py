"""File storage for exports: an interface and its local-filesystem adapter.

Callers see only ``Storage``: ``save``, ``read``, ``delete`` and
``download_url``. The local adapter keeps files under ``STORAGE_DIR`` and hands
out addresses under ``STORAGE_URL`` that the app itself serves
(``app/pages/files.py``); each address carries a signed token (itsdangerous,
with the app's secret key) naming the file, the name to save it as and an
expiry, so that a tampered address is refused and an expired one is gone. An
S3-compatible adapter would implement the same four methods with presigned
URLs, and callers would not change.
"""
from __future__ import annotations

import os
import re
import tempfile
from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from flask import Flask, current_app
from itsdangerous import BadSignature, URLSafeSerializer

# Keys are ours (``exports/<user id>/<export id>.pdf``), but a served key comes from a URL.
_KEY = re.compile(r"^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*\.[a-z0-9]{1,8}$")


class LinkInvalid(Exception):
    """A download address whose signature does not match (tampered or forged)."""


class LinkExpired(Exception):
    """A genuine download address past its expiry."""


@dataclass(frozen=True)
class Download:
    """What a verified download address grants: a stored file and the name to save it as."""

    key: str
    filename: str


class Storage(ABC):
    @abstractmethod
    def save(self, key: str, data: bytes) -> None:
        """Store ``data`` under ``key`` (replacing a file of that key)."""

    @abstractmethod
    def read(self, key: str) -> bytes:
        """The stored bytes; raises FileNotFoundError."""

    @abstractmethod
    def delete(self, key: str) -> None:
        """Remove the file; a missing one is not an error."""

    @abstractmethod
    def download_url(self, key: str, *, filename: str, expires_at: datetime) -> str:
        """An address that serves the file as an attachment named ``filename`` until ``expires_at``."""


class LocalStorage(Storage):
    def __init__(self, root: str | Path, base_url: str, secret_key: str):
        self.root = Path(root)
        self.base_url = base_url.rstrip("/")
        self._signer = URLSafeSerializer(secret_key, salt="storage-download")

    def path(self, key: str) -> Path:
        if not _KEY.match(key):
            raise ValueError(f"not a storage key: {key!r}")
        return self.root / key

    def save(self, key: str, data: bytes) -> None:
        target = self.path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        # Written beside the target and renamed: a reader never sees half a file.
        fd, partial = tempfile.mkstemp(dir=target.parent, prefix=".partial-")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(partial, target)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise

    def read(self, key: str) -> bytes:
        return self.path(key).read_bytes()

    def delete(self, key: str) -> None:
        self.path(key).unlink(missing_ok=True)

    def download_url(self, key: str, *, filename: str, expires_at: datetime) -> str:
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


def init_app(app: Flask) -> None:
    app.extensions["storage"] = LocalStorage(app.config["STORAGE_DIR"], app.config["STORAGE_URL"],
                                             app.config["SECRET_KEY"])


def storage() -> Storage:
    return current_app.extensions["storage"]
