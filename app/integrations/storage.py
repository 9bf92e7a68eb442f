"""File storage for exports: an interface and its adapters, chosen by ``STORAGE_BACKEND``.

Callers see only ``Storage``: ``save``, ``read``, ``delete``, ``download_url``
and ``verify``. ``local`` (the embedded default) keeps files under
``STORAGE_DIR``; ``s3`` keeps them as objects in an S3-compatible bucket
(``app/integrations/s3.py``), so that any web process serves any file and a
restart loses none. Either way the addresses handed out are under
``STORAGE_URL`` and served by the app itself (``app/pages/files.py``): each
carries a signed token (itsdangerous, with the app's secret key) naming the
file, the name to save it as and an expiry, so that a tampered address is
refused and an expired one is gone. The interface and the signing, the same for every
adapter, are ``app/integrations/store.py``.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from flask import Flask, current_app

from app.integrations.store import Storage


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
