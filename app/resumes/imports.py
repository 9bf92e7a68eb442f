"""Import use cases: a JSON Resume document, or a file (JSON Resume, PDF, DOCX), becomes a new resume.

Both end in ``app.resumes.service.create_resume``, so an import is a create: the plan's resume
limit (429 SUBSCRIPTION_LIMIT_EXCEEDED), the template's tier (400 INVALID_TEMPLATE), the content
size (413 CONTENT_TOO_LARGE) and the ``resume.created`` event all apply. The answer names what
was not kept (``dropped``): JSON Resume paths for a document (``jsonresume.to_content``), our
content paths for a PDF or DOCX (``cleaning.keep_valid``). Its ``report`` adds what was cut to fit a
field (the rest of the text, ``cleaning.cut_to_fit``) and what the reading was unsure of
(``structure.parse``'s notes); it is kept with the resume (``ResumeImport``) for the editor, which
shows it until its owner dismisses it (``import_report``, ``dismiss_report``).

A file is known by its bytes, not its name or declared type: ``%PDF-`` within its first KiB is a
PDF; a ZIP with ``word/document.xml`` a DOCX; UTF-8 text starting with ``{`` JSON. Anything else is
``415 UNSUPPORTED_MEDIA_TYPE``. What cannot be read is ``422 IMPORT_UNREADABLE`` with
``details.reason``; every reader busy, ``503 SERVICE_UNAVAILABLE``. The reading itself is the
importers' (``app.importing.reading``): this module says what it means to the person importing.
"""
from __future__ import annotations

import json
from pathlib import PurePath
from typing import Callable

from flask import Flask, current_app

from app.content import cleaning, jsonresume, language
from app.content.schema import ContentSchema
from app.billing import usage
from app.errors import ApiError, InvalidField
from app.importing import reading, sandbox
from app.resumes import service
from app.resumes.models import Resume, ResumeImport, ResumeImportPage
from app.users.models import User
from app.extensions import db
from app.messages import N_

MAX_UPLOAD_BYTES = 10 * 1024 * 1024      # the whole multipart body (413 past it, before it is read)
DEFAULT_TITLE = "Imported resume"
KINDS = {"pdf": "PDF", "docx": "DOCX", "json": "JSON Resume"}
ACCEPTED = ("application/json", "application/pdf",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
MESSAGES = {
    "encrypted": N_("This PDF is protected by a password: save a copy without one and import that."),
    "corrupt": N_("This file could not be read as a %(kind)s."),
    "too_many_pages": N_("This PDF has more than %(pages)s pages."),
    "too_long": N_("This document holds more than %(characters)s characters of text."),
    "too_large": N_("This document needs more memory to read than an import may use."),
    "timeout": N_("This document took longer than %(seconds)s seconds to read."),
    "no_text": N_("This document has no text to read (a scanned page?): import a PDF with its text, or a DOCX."),
    "zip_bomb": N_("This DOCX unpacks to more than %(megabytes)s MB."),
    "too_many_parts": N_("This DOCX holds %(parts)s parts; a Word document has far fewer (at most %(limit)s are "
                         "read)."),
    "too_many_lines": N_("This document has more than %(lines)s lines or paragraphs of text; a resume has far "
                         "fewer."),
    "not_json_resume": N_("This JSON file is not a JSON Resume document (https://jsonresume.org)."),
}
# The limits the messages name.
LIMITS = {"pages": sandbox.MAX_PAGES, "characters": sandbox.MAX_CHARS, "seconds": sandbox.TIMEOUT_SECONDS,
          "megabytes": reading.MAX_UNPACKED_BYTES // (1024 * 1024), "lines": sandbox.MAX_LINES}


def init_app(app: Flask, *, assist: Callable[[User, reading.Reading], reading.Reading] | None = None) -> None:
    """Give the app's file imports a second reader: ``assist(user, reading)`` answers the reading to keep."""
    app.extensions["import_assist"] = assist


def import_document(user: User, document, *, title: str | None = None, template_id: str | None = None,
                    fallback_title: str = "") -> tuple[Resume, list[str], ResumeImport]:
    """A JSON Resume document as a new resume, titled ``title``, else the document's own title, the
    person's name or ``fallback_title``. Raises VALIDATION_ERROR (``jsonResume``) and as ``create_resume``."""
    usage.check_room_for_a_resume(user)  # before any reading: a refused import costs nothing
    try:
        return _import_json_resume(user, document, title, template_id, fallback_title)
    except jsonresume.NotJsonResume as exc:
        raise ApiError("VALIDATION_ERROR", str(exc), exc.details) from None


def _import_json_resume(user: User, document, title: str | None, template_id: str | None,
                        fallback_title: str, file_name: str = "") -> tuple[Resume, list[str], ResumeImport]:
    cut: list[dict] = []
    try:
        content, dropped = jsonresume.to_content(document, cut)
    except jsonresume.TooLarge as exc:
        raise ApiError("CONTENT_TOO_LARGE", str(exc), exc.details) from None
    content, refused = cleaning.keep_valid(content)     # to_content keeps only what validates: nothing, so far
    found = reading.Reading(content, dropped + refused, cut)
    known = jsonresume.settings(document)
    title = title or known.get("title") or content["personalInfo"]["name"] or fallback_title
    return _create(user, found, "json", file_name, title, template_id, known.get("sectionsVisibility"))


def import_file(user: User, filename: str, data: bytes, *, title: str | None = None,
                template_id: str | None = None) -> tuple[Resume, list[str], ResumeImport]:
    """A file as a new resume; a PDF's or DOCX's reading goes through the app's second reader, if any
    (``init_app``), which never raises. Raises VALIDATION_ERROR (an empty file), UNSUPPORTED_MEDIA_TYPE,
    IMPORT_UNREADABLE, SERVICE_UNAVAILABLE (every reader busy) and as ``create_resume``."""
    if not data:
        raise InvalidField("file", "The file is empty.")
    usage.check_room_for_a_resume(user)  # before any reading: a refused import costs nothing
    kind = reading.sniff(data)
    if kind is None:
        raise ApiError("UNSUPPORTED_MEDIA_TYPE", "Import a PDF, a DOCX or a JSON Resume (.json) file.",
                       {"field": "file", "accepted": list(ACCEPTED)})
    stem = PurePath(filename or "").stem.strip()
    if kind == "json":
        try:
            return _import_json_resume(user, _json_document(data), title, template_id, stem, _file_name(filename))
        except jsonresume.NotJsonResume:
            raise _unreadable("not_json_resume", kind) from None
    found = read_document(kind, data)
    assist = current_app.extensions.get("import_assist")
    if assist is not None:
        found = assist(user, found)
    found.content["language"] = language.guess(found.content)  # shown in the editor, where the user can change it
    name = (found.content.get("personalInfo") or {}).get("name", "")
    return _create(user, found, kind, _file_name(filename), title or name or stem, template_id)


def _file_name(filename: str) -> str:
    return PurePath((filename or "").replace("\\", "/")).name[:255]


def read_document(kind: str, data: bytes) -> reading.Reading:
    """What a PDF (``kind`` "pdf") or DOCX says, as valid ``contentJson``, with what was read but not
    kept, cut or guessed. Raises IMPORT_UNREADABLE and SERVICE_UNAVAILABLE."""
    try:
        return reading.read_all(kind, data)
    except reading.Unreadable as exc:
        raise _unreadable(exc.reason, kind, **exc.values) from None
    except sandbox.Busy:
        raise ApiError("SERVICE_UNAVAILABLE", "Too many files are being imported right now; try again shortly.",
                       headers={"Retry-After": "5"}) from None


def _json_document(data: bytes):
    try:
        return json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _unreadable("corrupt", "json") from None


def _unreadable(reason: str, kind: str, **values) -> ApiError:
    return ApiError("IMPORT_UNREADABLE", MESSAGES.get(reason, MESSAGES["corrupt"]), {"field": "file", "reason": reason},
                    values={**LIMITS, "kind": KINDS[kind], **values})


def default_template_id() -> str:
    """The first basic template, in the order the dashboard's picker shows them."""
    for template in service.list_templates():
        if template.tier == "basic":
            return template.id
    raise ApiError("INVALID_TEMPLATE", "No template is available.", {"templateId": None})


def _create(user: User, found: reading.Reading, source: str, file_name: str, title: str | None,
            template_id: str | None, visible: dict | None = None) -> tuple[Resume, list[str], ResumeImport]:
    data = {"title": (title or "").strip()[:200] or DEFAULT_TITLE, "templateId": template_id or default_template_id(),
            "contentJson": ContentSchema().load(found.content)}
    if visible:
        data["sectionsVisibility"] = visible
    report = ResumeImport(source=source, file_name=file_name,
                          report={"dropped": found.dropped, "cut": found.cut, "unsure": found.unsure,
                                  "pages": len(found.pages)})

    def keep_report(resume: Resume) -> None:
        report.resume = resume
        db.session.add(report)
        db.session.add_all(ResumeImportPage(report=report, number=number, png=png)
                           for number, png in enumerate(found.pages, start=1))

    return service.create_resume(user, data, also=keep_report), found.dropped, report


def import_report(user: User, resume_id: str) -> ResumeImport:
    """The report of the import that made the resume. Raises RESUME_NOT_FOUND, RESUME_NOT_OWNED and
    NOT_FOUND (made otherwise, or its report dismissed)."""
    resume = service.get_owned_resume(user, resume_id)
    report = db.session.get(ResumeImport, resume.id)
    if report is None:
        raise ApiError("NOT_FOUND", "This resume has no import report: it was not imported, or the report was "
                                    "dismissed.")
    return report


def import_page(user: User, resume_id: str, number: int) -> bytes:
    """Page ``number`` of the imported PDF as a PNG. Raises as ``import_report``, and NOT_FOUND for a
    page the file did not have (a DOCX has none)."""
    report = import_report(user, resume_id)
    page = db.session.get(ResumeImportPage, (report.resume_id, number))
    if page is None:
        raise ApiError("NOT_FOUND", "The imported file has no such page.", {"page": number})
    return page.png


def dismiss_report(user: User, resume_id: str) -> None:
    """Forget the import's report and the file's pages (the editor stops showing them). Commits. Raises
    as ``import_report``."""
    db.session.delete(import_report(user, resume_id))
    db.session.commit()
