"""The S3-compatible storage adapter (``STORAGE_BACKEND=s3``): exports as objects in ``S3_BUCKET``.

One boto3 client per app (clients are thread-safe), built from the settings
``config.py`` read, with short connect/read time-outs and few attempts: a store
that cannot be reached fails a request in seconds with StorageUnavailable
instead of holding a web worker. Objects are named ``{S3_PREFIX}/{key}``. The
app reads an object and serves it itself at ``STORAGE_URL`` (``/files``), under
the same signed, expiring token as the local adapter (``Storage.download_url``),
so the bucket stays private and no presigned S3 address is ever handed out.
"""
from __future__ import annotations

from collections.abc import Mapping

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from app.integrations.store import Storage, StorageUnavailable

# What S3 (and the compatible services) answer for an object that is not there.
_MISSING = {"NoSuchKey", "404", "NotFound"}


def make_client(cfg: Mapping):
    """A boto3 S3 client from the app's settings; credentials left unset fall back to boto3's own chain
    (an instance or task role)."""
    session = boto3.session.Session(aws_access_key_id=cfg["AWS_ACCESS_KEY_ID"],
                                    aws_secret_access_key=cfg["AWS_SECRET_ACCESS_KEY"],
                                    aws_session_token=cfg["AWS_SESSION_TOKEN"],
                                    region_name=cfg["AWS_DEFAULT_REGION"])
    config = Config(connect_timeout=cfg["S3_CONNECT_TIMEOUT"], read_timeout=cfg["S3_READ_TIMEOUT"],
                    retries={"mode": "standard", "total_max_attempts": cfg["S3_MAX_ATTEMPTS"]},
                    s3={"addressing_style": cfg["S3_ADDRESSING_STYLE"]})
    return session.client("s3", endpoint_url=cfg["AWS_ENDPOINT_URL_S3"], config=config)


class S3Storage(Storage):
    def __init__(self, client, bucket: str, prefix: str, base_url: str, secret_key: str):
        super().__init__(base_url, secret_key)
        self.client = client
        self.bucket = bucket
        self.prefix = f"{prefix.strip('/')}/" if prefix.strip("/") else ""

    @classmethod
    def from_config(cls, cfg: Mapping) -> S3Storage:
        return cls(make_client(cfg), cfg["S3_BUCKET"], cfg["S3_PREFIX"], cfg["STORAGE_URL"], cfg["SECRET_KEY"])

    def object_key(self, key: str) -> str:
        return self.prefix + self.checked(key)

    def save(self, key: str, data: bytes) -> None:
        name = self.object_key(key)
        try:
            self.client.put_object(Bucket=self.bucket, Key=name, Body=data)  # all or nothing
        except (BotoCoreError, ClientError) as exc:
            raise self._unavailable("save", name, exc) from None

    def read(self, key: str) -> bytes:
        name = self.object_key(key)
        try:
            return self.client.get_object(Bucket=self.bucket, Key=name)["Body"].read()
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in _MISSING:
                raise FileNotFoundError(name) from None
            raise self._unavailable("read", name, exc) from None
        except BotoCoreError as exc:
            raise self._unavailable("read", name, exc) from None

    def delete(self, key: str) -> None:
        name = self.object_key(key)
        try:
            self.client.delete_object(Bucket=self.bucket, Key=name)  # S3 answers 204 for a missing object too
        except (BotoCoreError, ClientError) as exc:
            raise self._unavailable("delete", name, exc) from None

    def _unavailable(self, operation: str, name: str, exc: Exception) -> StorageUnavailable:
        # For the log only: botocore's message names the endpoint and the error, never the credentials.
        return StorageUnavailable(f"S3 {operation} of s3://{self.bucket}/{name} failed: {exc}")
