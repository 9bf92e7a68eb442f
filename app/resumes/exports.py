"""Exports: a resume rendered to a file by a job, stored, and handed out by a signed address.

The render runs as a job on the ``exports`` queue (``jobs.render_export``); the
request waits for its bytes, then stores them and records the export and its
event in one transaction. Rendering never writes to storage, so a failed or
abandoned render leaves nothing behind. Stored files count toward the owner's
``storage_used`` (billing's usage service: a conditional update against the plan's limit) until
``delete_expired`` removes them.
"""
from __future__ import annotations

import io
import logging
import re
import unicodedata
from dataclasses import dataclass, field, replace
from datetime import datetime

from flask import current_app
from PIL import Image, UnidentifiedImageError
from sqlalchemy import delete

from app import documents
from app.billing import usage
from app.common.models import new_id, utcnow
from app.common.schemas import format_timestamp
from app.content import jsonresume
from app.errors import ApiError
from app.events.outbox import record_event
from app.extensions import db
from app.integrations import outbound
from app.integrations.storage import storage
from app.integrations.store import LinkExpired, LinkInvalid
from app.queue import EXPORTS, JobFailed, jobs
from app.resumes.models import Export, Resume
from app.resumes.service import get_owned_resume
from app.users.models import User
from app.messages import N_

log = logging.getLogger(__name__)

PHOTO_MAX_SIDE = 600  # pixels: the photo is shown at a few centimetres
_SEPARATORS = re.compile(r"_+")


@dataclass(frozen=True)
class ExportResult:
    download_url: str
    filename: str
    format: str
    file_size: int
    expires_at: datetime
    undrawn: list = field(default_factory=list)  # documents.undrawn: printed as boxes (a PDF)


def export_resume(user: User, resume_id: str, data: dict) -> ExportResult:
    """Render the user's resume as ``data["format"]`` with ``data["options"]``, store it, record it.

    Commits once (the export row, the storage count and the ``resume.exported``
    event). Raises RESUME_NOT_FOUND, RESUME_NOT_OWNED,
    SUBSCRIPTION_LIMIT_EXCEEDED (storage full before or after the render) and
    EXPORT_FAILED (the render failed or took longer than EXPORT_WAIT_SECONDS, or the file could not be
    stored). The file is stored before the transaction and deleted again when the transaction fails.
    """
    resume = get_owned_resume(user, resume_id)
    limit = usage.storage_limit(user)
    fmt, options = data["format"], data["options"]
    resume_id, title, user_id = resume.id, resume.title, user.id
    # A data format (JSON Resume) is written here from the row already read: no job to wait for.
    inline = _inline_document(resume, fmt) if fmt in documents.INLINE_FORMATS else None
    # Nothing is held while the job runs (up to EXPORT_WAIT_SECONDS): no snapshot, no lock.
    db.session.rollback()
    content, undrawn = (inline, []) if inline is not None else render(resume_id, fmt, options)
    return replace(store(user_id, resume_id, fmt, filename_for(title, fmt), content, limit), undrawn=undrawn)


def store(user_id: str, resume_id: str, fmt: str, filename: str, content: bytes, limit: int, *,
          event: bool = True) -> ExportResult:
    """Store a rendered file of the resume and record it (and, with ``event``, ``resume.exported``) in
    one commit; see ``export_resume``. A cover letter (``app.ai.letters``) is stored the same way."""
    export_id = new_id()
    export = Export(id=export_id, user_id=user_id, resume_id=resume_id, format=fmt,
                    filename=filename, storage_key=f"exports/{user_id}/{export_id}{documents.EXTENSIONS[fmt]}",
                    file_size=len(content), expires_at=utcnow() + current_app.config["EXPORT_LINK_LIFETIME"])
    # Stored before the count's update locks the user's row: a slow store (S3) never holds that lock.
    try:
        storage().save(export.storage_key, content)
    except OSError as exc:  # a full disk, an unreachable store: nothing is counted or recorded
        log.error("export of resume %s could not be stored: %s", resume_id, exc)
        raise ApiError("EXPORT_FAILED", "The export could not be stored. Try again in a moment.") from None
    try:
        usage.count_storage(user_id, export.file_size, limit)
        db.session.add(export)
        if event:
            record_event("resume.exported", user_id, {
                "resume": {"id": resume_id, "user_id": user_id},
                "export": {"format": fmt, "filename": export.filename, "file_size": export.file_size,
                           "expires_at": format_timestamp(export.expires_at)},
            })
        db.session.commit()
    except BaseException:  # over the limit after all, or the commit failed: no row will track the file
        _forget_file(export.storage_key)
        raise
    return ExportResult(download_url=download_url(export), filename=export.filename, format=export.format,
                        file_size=export.file_size, expires_at=export.expires_at)


REASON = "reason="  # how a render job's DocumentError names its reason (jobs.render_export)
_REASON = re.compile(re.escape(REASON) + r"(\w+):")


def failure_message(exc: JobFailed, fmt: str, wait: float) -> tuple[str, dict]:
    """What an export that failed tells the person, in words they can act on: why, and what to do (a msgid
    and the values of its places)."""
    reason = _REASON.search(exc.error or "")
    name = documents.EXTENSIONS[fmt].lstrip(".").upper()
    if exc.kind == "timeout" and wait == 1:
        return N_("The export took longer than 1 second and was stopped. The service may be busy: try again in a "
                  "minute; a very long resume may need a shorter one."), {}
    if exc.kind == "timeout":
        return (N_("The export took longer than %(seconds)s seconds and was stopped. The service may be busy: try "
                   "again in a minute; a very long resume may need a shorter one."), {"seconds": f"{wait:g}"})
    if exc.kind == "queue":
        return N_("The export could not be started: the service's job queue is not answering. Try again in a "
                  "minute."), {}
    if reason and reason.group(1) == "template":
        return N_("The resume's template could not draw it (the error is recorded for us). Choose another "
                  "template, then export again."), {}
    if reason and reason.group(1) == "layout":
        return N_("The %(format)s could not be laid out: a part of the resume is too large for a page, such as a "
                  "very long line or word. Shorten it or break it into lines, then export again."), {"format": name}
    if reason:
        return N_("The %(format)s could not be produced (the error is recorded for us). Export another format "
                  "meanwhile, or try again later."), {"format": name}
    return N_("The export stopped before it finished. Try again in a moment."), {}


def render(resume_id: str, fmt: str, options: dict) -> tuple[bytes, list[dict]]:
    """The document's bytes and the characters it prints as boxes, rendered by a job; raises
    EXPORT_FAILED with what went wrong in words a person can act on (``failure_message``); the resume
    and the cause go to the log."""
    wait = current_app.config["EXPORT_WAIT_SECONDS"]
    try:
        return jobs().call(EXPORTS, "app.resumes.jobs.render_export", resume_id, fmt, options,
                           wait=wait, job_timeout=wait + 5)
    except JobFailed as exc:
        log.error("export of resume %s as %s failed (%s): %s", resume_id, fmt, exc.kind, exc.error or exc)
        message, values = failure_message(exc, fmt, wait)
        raise ApiError("EXPORT_FAILED", message, values=values) from None


def _inline_document(resume: Resume, fmt: str) -> bytes:
    """The formats made without a job (``documents.INLINE_FORMATS``): JSON Resume."""
    return jsonresume.document_bytes(resume.content_json, resume.title, visible=resume.sections_visibility,
                                     last_modified=resume.updated_at)


def render_shared_pdf(share) -> tuple[bytes, str]:
    """A share's resume as a PDF with the default options, and its file name (nothing is stored).
    Raises EXPORT_FAILED."""
    resume_id, title = share.resume.id, share.resume.title
    db.session.rollback()  # nothing held while the job runs
    options = {"pageSize": "A4", "margin": "normal", "colorScheme": "default", "includePhoto": False}
    return render(resume_id, "pdf", options)[0], filename_for(title, "pdf")


def download_url(export: Export) -> str:
    return storage().download_url(export.storage_key, filename=export.filename, expires_at=export.expires_at)


def open_download(key: str, token: str) -> tuple[bytes, str, str]:
    """The file a download address grants: (bytes, filename, media type).

    Raises DOWNLOAD_LINK_INVALID (tampered), DOWNLOAD_LINK_EXPIRED, NOT_FOUND (file gone),
    STORAGE_UNAVAILABLE (the store cannot be read now; the cause goes to the log).
    """
    try:
        granted = storage().verify(key, token, utcnow())
        content = storage().read(granted.key)
    except LinkInvalid:
        raise ApiError("DOWNLOAD_LINK_INVALID", "This download address is not valid.") from None
    except LinkExpired:
        raise ApiError("DOWNLOAD_LINK_EXPIRED", "This download address has expired: export the resume again.") \
            from None
    except (FileNotFoundError, ValueError):
        raise ApiError("NOT_FOUND", "This file no longer exists.") from None
    except OSError as exc:
        log.error("download of %s failed: %s", key, exc)
        raise ApiError("STORAGE_UNAVAILABLE", "The file cannot be read right now. Try again in a moment.",
                       headers={"Retry-After": "30"}) from None
    fmt = next((f for f, ext in documents.EXTENSIONS.items() if key.endswith(ext)), None)
    return content, granted.filename, documents.MEDIA_TYPES.get(fmt, "application/octet-stream")


def filename_for(title: str, fmt: str) -> str:
    """A file name from the title, in its own script, in safe characters: ``Backend Engineer (2024)`` →
    ``Backend_Engineer_2024.pdf``, ``高级工程师 简历`` → ``高级工程师_简历.pdf``, ``Résumé`` → ``Résumé.pdf``
    (a download's ``Content-Disposition`` carries it as RFC 6266's ``filename*``)."""
    # Letters, marks (accents, vowel signs, viramas) and digits of any script stay; the rest is "_".
    kept = "".join(char if unicodedata.category(char)[0] in "LMN" else "_"
                   for char in unicodedata.normalize("NFC", title))
    stem = _SEPARATORS.sub("_", kept).strip("_")
    end = min(len(stem), 80)
    while 0 < end < len(stem) and unicodedata.category(stem[end])[0] == "M":
        end -= 1  # not between a letter and its accent or vowel sign
    return (stem[:end].rstrip("_") or "resume") + documents.EXTENSIONS[fmt]


def _forget_file(key: str) -> None:
    """Delete a stored file that no row will track; a failure is logged (the file is orphaned), not raised,
    so that it never hides the error being handled."""
    try:
        storage().delete(key)
    except OSError as exc:
        log.error("stored file %s could not be deleted: %s", key, exc)


# What the render job reads -----------------------------------------------------
def export_source(resume_id: str) -> tuple[documents.Source, str | None]:
    """The live resume's renderable parts and its owner's avatar address. Raises LookupError."""
    resume = db.session.scalar(Resume.live().where(Resume.id == resume_id))
    if resume is None:
        raise LookupError(f"resume {resume_id} does not exist or was deleted")
    avatar = db.session.scalar(db.select(User.avatar).where(User.id == resume.user_id))
    source = documents.Source(html_template=resume.template.html_template, css=resume.template.css_styles,
                              title=resume.title, content=resume.content_json, visible=resume.sections_visibility)
    return source, avatar


def fetch_photo(url: str) -> documents.Photo | None:
    """The image at ``url`` as a small PNG or JPEG, or None when it cannot be had safely.

    http(s) only, never a private address (unless PHOTO_ALLOW_PRIVATE_TARGETS),
    at most PHOTO_MAX_BYTES in PHOTO_FETCH_TIMEOUT seconds, and it must decode as
    an image; it is re-encoded, so nothing but pixels reaches the document.
    """
    config = current_app.config
    try:
        response = outbound.request("GET", url, allow_private=config["PHOTO_ALLOW_PRIVATE_TARGETS"],
                                    timeout=config["PHOTO_FETCH_TIMEOUT"], max_bytes=config["PHOTO_MAX_BYTES"],
                                    headers={"Accept": "image/png, image/jpeg"})
    except outbound.OutboundError as exc:
        log.info("photo not fetched: %s", exc)
        return None
    if response.status != 200:
        log.info("photo not fetched: status %s", response.status)
        return None
    try:
        with Image.open(io.BytesIO(response.body)) as image:
            if image.width * image.height > 40_000_000:  # a decompression bomb
                return None
            image.thumbnail((PHOTO_MAX_SIDE, PHOTO_MAX_SIDE))
            keep_alpha = image.mode in ("RGBA", "LA", "P")
            out = io.BytesIO()
            if keep_alpha:
                image.convert("RGBA").save(out, "PNG")
            else:
                image.convert("RGB").save(out, "JPEG", quality=88)
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as exc:
        log.info("photo not used: %s", exc)
        return None
    return documents.Photo(data=out.getvalue(), media_type="image/png" if keep_alpha else "image/jpeg")


# The cleanup -------------------------------------------------------------------
def delete_expired(batch: int = 200) -> int:
    """Delete expired exports' files and rows and give their bytes back. Commits per batch; returns the count.

    Safe to run twice at once: a row is counted back only by the run that deletes it. Files go first: a
    store that cannot be reached raises StorageUnavailable with the batch's rows (and their bytes) kept for
    the next run, so no file is ever left that no row tracks. An expired file is never served, so a row
    whose file is already gone harms nothing.
    """
    deleted = 0
    while True:
        expired = db.session.scalars(db.select(Export).where(Export.expires_at <= utcnow())
                                     .order_by(Export.expires_at).limit(batch)).all()
        if not expired:
            return deleted
        deleted += discard(expired)
        db.session.commit()
        db.session.expunge_all()


def discard(exports: list[Export]) -> int:
    """Delete these exports' files, then their rows, giving each deleted row's bytes back to its owner.
    Does not commit; returns how many rows this call deleted (a row another run deleted first is not
    counted back twice). Raises StorageUnavailable before any row is touched."""
    for export in exports:
        storage().delete(export.storage_key)
    deleted = 0
    for export in exports:
        gone = db.session.execute(delete(Export).where(Export.id == export.id)).rowcount
        if gone:
            usage.release_storage(export.user_id, export.file_size)
            deleted += 1
    return deleted
