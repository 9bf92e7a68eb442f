"""Exports on the S3 adapter (STORAGE_BACKEND=s3), against moto's S3 server on loopback.

The export tests' fixtures run here on an app configured for S3: ``client`` is
overridden, so ``owner``, ``create``, ``resume`` and ``export`` all go through it.
"""
import io
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

import boto3
import pytest
from pypdf import PdfReader

from tests.resumes.test_exports import (_set_storage_used, download, export, resume,  # noqa: F401 (fixtures)
                                        storage_used, stored_files)
from tests.support import wait_until

from app.config import ConfigError, config_for
from app.events.models import Event
from app.resumes.models import Export

PREFIX = "tenant-a/"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def s3_endpoint(tmp_path_factory):
    """moto's S3 server as its own process on a free loopback port, for the whole session."""
    port = _free_port()
    log = tmp_path_factory.mktemp("moto") / "moto.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                                stdout=out, stderr=subprocess.STDOUT)
    endpoint = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: proc.poll() is not None or _answers(endpoint), timeout=30)
        assert proc.poll() is None, log.read_text()
        yield endpoint
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _variables(endpoint: str, bucket: str) -> dict[str, str]:
    return {"STORAGE_BACKEND": "s3", "S3_BUCKET": bucket, "S3_PREFIX": PREFIX, "AWS_ENDPOINT_URL_S3": endpoint,
            "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1"}


@pytest.fixture
def bucket(s3_endpoint):
    """A fresh bucket, seen through boto3 directly (not through the app)."""
    s3 = boto3.client("s3", endpoint_url=s3_endpoint, aws_access_key_id="test", aws_secret_access_key="test",
                      region_name="us-east-1")
    name = f"exports-{uuid.uuid4().hex[:12]}"
    s3.create_bucket(Bucket=name)

    class Bucket:
        def keys(self) -> list[str]:
            return [o["Key"] for o in s3.list_objects_v2(Bucket=name).get("Contents", [])]

        def get(self, key: str) -> bytes:
            return s3.get_object(Bucket=name, Key=key)["Body"].read()

        def delete(self, key: str) -> None:
            s3.delete_object(Bucket=name, Key=key)

    found = Bucket()
    found.name = name
    return found


@pytest.fixture
def s3_app(make_app, s3_endpoint, bucket):
    return make_app(**_variables(s3_endpoint, bucket.name))


@pytest.fixture
def client(s3_app):
    return s3_app.test_client()


def _closed_port_endpoint() -> str:
    return f"http://127.0.0.1:{_free_port()}"  # nothing listens there any more


def _object_key(url: str) -> str:
    return PREFIX + urlsplit(url).path.split("/files/", 1)[1]


# Configuration ------------------------------------------------------------------------
def test_s3_without_a_bucket_refuses_to_start():
    with pytest.raises(ConfigError, match="STORAGE_BACKEND=s3 needs S3_BUCKET"):
        config_for("testing", {"STORAGE_BACKEND": "s3"})


def test_an_unknown_storage_backend_refuses_to_start():
    with pytest.raises(ConfigError, match="STORAGE_BACKEND must be one of local, s3, got 'gcs'"):
        config_for("testing", {"STORAGE_BACKEND": "gcs"})


@pytest.mark.parametrize("variables,message", [
    ({"S3_ADDRESSING_STYLE": "dns"}, "S3_ADDRESSING_STYLE must be one of auto, path, virtual"),
    ({"S3_READ_TIMEOUT": "0"}, "must be at least 1"),
    ({"S3_MAX_ATTEMPTS": "two"}, "S3_MAX_ATTEMPTS must be an integer"),
])
def test_bad_s3_settings_refuse_to_start(variables, message):
    with pytest.raises(ConfigError, match=message):
        config_for("testing", {"STORAGE_BACKEND": "s3", "S3_BUCKET": "exports", **variables})


# Exports stored as objects ----------------------------------------------------------------
def test_a_pdf_export_is_an_object_in_the_bucket_and_downloads_through_files(s3_app, client, owner, export,
                                                                             bucket, query):
    response = export("pdf")
    assert response.status_code == 201, response.get_json()
    result = response.get_json()["data"]
    assert result["downloadUrl"].startswith(s3_app.config["STORAGE_URL"] + "/exports/")
    key = _object_key(result["downloadUrl"])
    assert bucket.keys() == [key] and key.startswith(f"{PREFIX}exports/{owner['id']}/")
    stored = bucket.get(key)
    assert len(stored) == result["fileSize"] == storage_used(query, owner["id"])
    assert stored_files(s3_app) == []  # nothing on the local disk

    file = download(client, result["downloadUrl"])
    assert file.status_code == 200 and file.data == stored
    assert file.headers["Content-Type"] == "application/pdf"
    assert file.headers["Content-Disposition"] == "attachment; filename=Backend_Engineer_2024.pdf"
    assert "张伟" in PdfReader(io.BytesIO(file.data)).pages[0].extract_text()


def test_any_app_with_the_same_settings_serves_the_file(make_app, s3_endpoint, bucket, export):
    url = export("txt").get_json()["data"]["downloadUrl"]
    another_process = make_app(**_variables(s3_endpoint, bucket.name))  # e.g. a web process started later
    file = download(another_process.test_client(), url)
    assert file.status_code == 200 and file.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert "Café Nord" in file.data.decode()


def test_a_tampered_s3_download_address_is_refused_with_403(client, export):
    url = export("txt").get_json()["data"]["downloadUrl"]
    response = download(client, url[:-3] + ("AAA" if not url.endswith("AAA") else "BBB"))
    assert response.status_code == 403 and response.get_json()["code"] == "DOWNLOAD_LINK_INVALID"


def test_an_expired_s3_download_address_is_refused_with_410(s3_app, client, export):
    url = export("txt").get_json()["data"]["downloadUrl"]
    s3_app.extensions["clock"].advance(hours=24, seconds=1)
    response = download(client, url)
    assert response.status_code == 410 and response.get_json()["code"] == "DOWNLOAD_LINK_EXPIRED"


def test_a_missing_object_is_not_found(client, export, bucket):
    url = export("txt").get_json()["data"]["downloadUrl"]
    bucket.delete(_object_key(url))
    response = download(client, url)
    assert response.status_code == 404 and response.get_json()["code"] == "NOT_FOUND"


# The cleanup and the quota ------------------------------------------------------------------
def test_the_cleanup_deletes_expired_objects_and_frees_the_space(s3_app, owner, export, bucket, query):
    from app.resumes import exports

    gone = export("txt").get_json()["data"]
    kept = export("html").get_json()["data"]
    assert len(bucket.keys()) == 2

    def expire_the_txt(session):
        session.query(Export).filter_by(format="txt").update(
            {"expires_at": datetime.now(timezone.utc) - timedelta(seconds=1)})
        session.commit()

    query(expire_the_txt)
    # The service itself (in Redis mode the test's worker process has local storage, not this bucket).
    with s3_app.app_context():
        assert exports.delete_expired() == 1
    assert bucket.keys() == [_object_key(kept["downloadUrl"])]
    assert _object_key(gone["downloadUrl"]) not in bucket.keys()
    assert storage_used(query, owner["id"]) == kept["fileSize"]


def test_a_full_storage_is_still_refused_with_429_and_nothing_stored(owner, export, bucket, query):
    _set_storage_used(query, owner["id"], 10 * 1024 * 1024 - 100)
    response = export("pdf")
    assert response.status_code == 429 and response.get_json()["code"] == "SUBSCRIPTION_LIMIT_EXCEEDED"
    assert bucket.keys() == [] and storage_used(query, owner["id"]) == 10 * 1024 * 1024 - 100


# Share-page downloads -----------------------------------------------------------------------
def test_a_share_download_works_on_an_s3_app(s3_app, client, resume, bucket):  # noqa: F811
    token = client.post(f"/api/resumes/{resume}/share", json={"allowDownload": True}).get_json()["data"]["token"]
    pdf = s3_app.test_client().get(f"/share/{token}/download")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert "张伟" in PdfReader(io.BytesIO(pdf.data)).pages[0].extract_text()
    assert bucket.keys() == []  # rendered for the visitor, not stored


# An unreachable store -------------------------------------------------------------------------
def test_an_unreachable_store_fails_the_export_quickly_and_counts_nothing(make_app, s3_endpoint, owner, resume,
                                                                          query, caplog):
    unreachable = make_app(**{**_variables(s3_endpoint, "exports"), "AWS_ENDPOINT_URL_S3": _closed_port_endpoint()})
    client = unreachable.test_client()
    client.post("/api/auth/signin", json={"email": owner["email"], "password": owner["password"]})
    started = time.monotonic()
    response = client.post(f"/api/resumes/{resume}/export", json={"format": "txt"})
    elapsed = time.monotonic() - started
    assert response.status_code == 500
    assert response.get_json() == {"error": "The export could not be stored. Try again in a moment.",
                                   "code": "EXPORT_FAILED"}
    assert elapsed < 5, elapsed
    assert storage_used(query, owner["id"]) == 0
    assert query(lambda s: s.query(Export).count() + s.query(Event).filter_by(type="resume.exported").count()) == 0
    assert any("could not be stored" in r.getMessage() and "S3 save" in r.getMessage() for r in caplog.records)


def test_a_store_that_never_answers_fails_the_export_within_its_time_outs(make_app, s3_endpoint, owner, resume,
                                                                          query):
    with socket.socket() as silent:  # accepts connections (the kernel's backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        hung = make_app(**{**_variables(s3_endpoint, "exports"), "S3_READ_TIMEOUT": "1",
                           "AWS_ENDPOINT_URL_S3": f"http://127.0.0.1:{silent.getsockname()[1]}"})
        client = hung.test_client()
        client.post("/api/auth/signin", json={"email": owner["email"], "password": owner["password"]})
        started = time.monotonic()
        response = client.post(f"/api/resumes/{resume}/export", json={"format": "txt"})
        elapsed = time.monotonic() - started
    assert response.status_code == 500 and response.get_json()["code"] == "EXPORT_FAILED"
    # Two attempts, each botocore's 1 s wait for "100 Continue" and the 1 s read time-out, and a back-off.
    assert elapsed < 8, elapsed
    assert storage_used(query, owner["id"]) == 0 and query(lambda s: s.query(Export).count()) == 0


def test_an_unreachable_store_answers_a_download_with_503_in_the_envelope(make_app, s3_endpoint, bucket, export):
    url = export("txt").get_json()["data"]["downloadUrl"]
    unreachable = make_app(**{**_variables(s3_endpoint, bucket.name), "AWS_ENDPOINT_URL_S3": _closed_port_endpoint()})
    response = download(unreachable.test_client(), url)
    assert response.status_code == 503 and response.headers["Retry-After"] == "30"
    assert response.get_json() == {"error": "The file cannot be read right now. Try again in a moment.",
                                   "code": "STORAGE_UNAVAILABLE"}


def test_the_cleanup_keeps_rows_and_bytes_while_the_store_is_unreachable(make_app, s3_endpoint, s3_app, owner,
                                                                         export, bucket, query):
    from app.integrations.store import StorageUnavailable
    from app.resumes import exports

    size = export("txt").get_json()["data"]["fileSize"]
    # The exporting app's own cleanup job (its scheduler's first tick, late on a loaded machine)
    # would otherwise delete the expired file through the reachable store before the call below.
    s3_app.extensions["jobs"].shutdown()
    query(lambda s: (s.query(Export).update({"expires_at": datetime.now(timezone.utc) - timedelta(seconds=1)}),
                     s.commit()))
    unreachable = make_app(**{**_variables(s3_endpoint, bucket.name), "AWS_ENDPOINT_URL_S3": _closed_port_endpoint()})
    with unreachable.app_context(), pytest.raises(StorageUnavailable):
        exports.delete_expired()
    assert storage_used(query, owner["id"]) == size and query(lambda s: s.query(Export).count()) == 1
    assert len(bucket.keys()) == 1  # deleted by the next run, once the store answers
