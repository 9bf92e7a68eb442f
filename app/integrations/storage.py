"""File storage for exports: an interface and its adapters, chosen by ``STORAGE_BACKEND``.

Callers see only ``Storage``: ``save``, ``read``, ``delete``, ``download_url``
and ``verify``. ``local`` (the embedded default) keeps files under
``STORAGE_DIR``; ``s3`` keeps them as objects in an S3-compatible bucket
(``app/integrations/s3.py``), so that any web process serves any file and a
restart loses none. Either way the addresses handed out are under
``STORAGE_URL`` and served by the app itself (``app/pages/files.py``): each
carries a signed token (itsdangerous, with the app's secret key) naming the
file, the name to save it as and an expiry, so that a tampered address is
refused and an expired one is gone. The signing lives here, once, for every
adapter.
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


class LocalStorage(Storage):
    def __init__(self, root: str | Path, base_url: str, secret_key: str):
        super().__init__(base_url, secret_key)
        self.root = Path(root)

    def path(self, key: str) -> Path:
        return self.root / self.checked(key)

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


def init_app(app: Flask) -> None:
    cfg = app.config
    if cfg["STORAGE_BACKEND"] == "s3":
        from app.integrations.s3 import S3Storage  # boto3 is imported only by apps that use it

        adapter: Storage = S3Storage.from_config(cfg)
    else:
        adapter = LocalStorage(cfg["STORAGE_DIR"], cfg["STORAGE_URL"], cfg["SECRET_KEY"])
    app.extensions["storage"] = adapter


def storage() -> Storage:
    return current_app.extensions["storage"]
