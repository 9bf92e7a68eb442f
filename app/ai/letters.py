"""Cover letters exported like resumes: PDF, DOCX or TXT, stored behind the same signed, expiring link.

The letter is the text the person sends (typically one AI writing produced and they reviewed), laid out
simply: the name and contact details from the resume's ``personalInfo``, the date, then the text's
paragraphs. It renders as a job on the ``exports`` queue and is stored and counted like an export
(``exports.store``), without a ``resume.exported`` event: the resume itself was not exported.
"""
from __future__ import annotations

import html
import io
import logging
import re
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_date
from flask import current_app
from marshmallow import validate

from app import documents, i18n
from app.billing import usage
from app.common.schemas import InputSchema, StrictString
from app.errors import ApiError, InvalidField
from app.extensions import db
from app.queue import EXPORTS, JobFailed, jobs
from app.resumes import exports
from app.resumes.exports import ExportResult
from app.resumes.service import get_owned_resume
from app.users.models import User

log = logging.getLogger(__name__)

FORMATS = ("pdf", "docx", "txt")
TEXT_MAX = 10_000


class CoverLetterExportSchema(InputSchema):
    text = StrictString(required=True, validate=validate.Length(min=1, max=TEXT_MAX),
                        metadata={"description": "the letter; paragraphs separated by blank lines"})
    format = StrictString(required=True, validate=validate.OneOf(FORMATS))


def export_cover_letter(user: User, resume_id: str, data: dict) -> ExportResult:
    """Render ``data["text"]`` as a letter from the resume's person, store it, record it. Commits once.
    Raises RESUME_NOT_FOUND, RESUME_NOT_OWNED, VALIDATION_ERROR (blank text), SUBSCRIPTION_LIMIT_EXCEEDED
    (storage) and EXPORT_FAILED, as ``exports.export_resume``."""
    resume = get_owned_resume(user, resume_id)
    paragraphs = [re.sub(r"\s*\n\s*", "\n", part).strip() for part in re.split(r"\n\s*\n", data["text"])]
    paragraphs = [part for part in paragraphs if part]
    if not paragraphs:
        raise InvalidField("text", "The letter is empty.")
    limit = usage.storage_limit(user)
    info = (resume.content_json or {}).get("personalInfo") or {}
    preferences = user.preferences or {}
    letter = {"name": info.get("name") or user.name or "",
              "contacts": [info[key] for key in ("email", "phone", "address") if info.get(key)],
              "date": letter_date(preferences.get("language", "en"), preferences.get("timezone", "UTC")),
              "paragraphs": paragraphs}
    fmt, resume_id, title, user_id = data["format"], resume.id, resume.title, user.id
    db.session.rollback()  # nothing held while the job runs
    wait = current_app.config["EXPORT_WAIT_SECONDS"]
    try:
        content = jobs().call(EXPORTS, "app.ai.letters.render_letter", fmt, letter, wait=wait, job_timeout=wait + 5)
    except JobFailed as exc:
        log.error("cover letter of resume %s as %s failed: %s", resume_id, fmt, exc)
        raise ApiError("EXPORT_FAILED", "The cover letter could not be produced. Try again in a moment.") \
            from None
    return exports.store(user_id, resume_id, fmt, exports.filename_for(f"Cover letter {title}", fmt), content,
                         limit, event=False)


def letter_date(language: str, timezone: str) -> str:
    try:
        today = datetime.now(ZoneInfo(timezone)).date()
    except (ZoneInfoNotFoundError, ValueError):
        today = datetime.now(ZoneInfo("UTC")).date()
    if language in i18n.LOCALES and language != "en":
        return format_date(today, format="long", locale=i18n.LOCALES[language])  # 2026年12月6日, 6 décembre 2026
    return f"{today.day} {today.strftime('%B')} {today.year}"


# The render job ------------------------------------------------------------------
def render_letter(fmt: str, letter: dict) -> bytes:
    """The letter as ``fmt`` (pdf, docx, txt). Raises on failure (the request reports EXPORT_FAILED)."""
    if fmt == "txt":
        return letter_text(letter).encode("utf-8")
    if fmt == "docx":
        return _docx(letter)
    if fmt == "pdf":
        return documents.pdf_of_html(_html(letter))
    raise ValueError(f"unknown cover letter format {fmt!r}")


def letter_text(letter: dict) -> str:
    head = [line for line in (letter["name"], " | ".join(letter["contacts"])) if line]
    return "\n".join(head + ["", letter["date"], ""]) + "\n" + "\n\n".join(letter["paragraphs"]) + "\n"


def _html(letter: dict) -> str:
    def lines(text: str) -> str:
        return "<br/>".join(html.escape(line) for line in text.split("\n"))

    body = "".join(f"<p>{lines(paragraph)}</p>" for paragraph in letter["paragraphs"])
    contacts = html.escape(" | ".join(letter["contacts"]))
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"/><title>{html.escape(letter['name'])}</title>"
            "<style>@page { size: A4; margin: 2.2cm; } body { font-family: Helvetica; font-size: 11pt; "
            "line-height: 1.4; } h1 { font-size: 18pt; margin: 0; } .contacts { color: #444; margin: 2pt 0 18pt; }"
            " .date { margin-bottom: 14pt; } p { margin: 0 0 9pt; }</style></head><body>"
            f"<h1>{html.escape(letter['name'])}</h1><div class=\"contacts\">{contacts}</div>"
            f"<div class=\"date\">{html.escape(letter['date'])}</div>{body}</body></html>")


def _docx(letter: dict) -> bytes:
    from docx import Document
    from docx.shared import Pt

    document = Document()
    name = document.add_paragraph()
    run = name.add_run(letter["name"])
    run.bold, run.font.size = True, Pt(18)
    if letter["contacts"]:
        document.add_paragraph(" | ".join(letter["contacts"]))
    document.add_paragraph(letter["date"])
    for paragraph in letter["paragraphs"]:
        document.add_paragraph(paragraph)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
