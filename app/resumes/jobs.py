"""Resume jobs (exports, the cleanups): plain ids in, re-read state, raise on failure."""
from __future__ import annotations

import logging

from app import documents
from app.resumes import exports, trash

log = logging.getLogger(__name__)


def render_export(resume_id: str, fmt: str, options: dict) -> tuple[bytes, list[dict]]:
    """The live resume rendered as ``fmt``, and the characters it prints as boxes
    (``documents.render_noted``); the waiting request stores it. Raises on any failure
    (a deleted resume, a template that cannot render), which the request reports as EXPORT_FAILED; a
    document that cannot be drawn raises a DocumentError whose message starts with its reason
    (``exports.failure_message`` reads it), after logging the resume and the cause."""
    source, avatar = exports.export_source(resume_id)
    photo = exports.fetch_photo(avatar) if options.get("includePhoto") and avatar else None
    try:
        return documents.render_noted(fmt, source, documents.Options(
            page_size=options["pageSize"], margin=options["margin"], color_scheme=options["colorScheme"]), photo)
    except documents.DocumentError as exc:
        log.error("export of resume %s as %s could not be drawn (%s): %s", resume_id, fmt, exc.reason, exc)
        raise documents.DocumentError(f"{exports.REASON}{exc.reason}: {exc}", exc.reason) from exc


def delete_expired_exports() -> int:
    """Periodic: delete expired export files and give their bytes back to their owners."""
    return exports.delete_expired()


def purge_deleted_resumes() -> int:
    """Periodic: delete resumes that have been in the trash longer than its 30 days, with their files."""
    return trash.purge()
