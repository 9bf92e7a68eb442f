"""Resume exports: one document per format, all from the resume's template.

``render(fmt, source, options, photo)`` is the whole interface: it returns the
document's bytes or raises ``DocumentError``. Every document format
(``DOCUMENT_FORMATS``) honours the resume's ``sectionsVisibility`` (a hidden
section is absent) and renders any script, Chinese included.

- ``html``: ``rendering.render_document``: the template with its CSS inline,
  the accent, the page options as ``@page`` and the photo as a ``data:`` URI;
  nothing in it is fetched from anywhere (UTF-8).
- ``pdf`` (``pdf.py``): xhtml2pdf draws that same HTML, with a resource policy
  that lets it read only the fallback fonts and the ``data:`` photo.
- ``docx`` (``docx.py``) and ``txt`` (``text.py``) are laid out from the
  normalised content with the same date formatting as the templates; the
  template gives DOCX its design (``docx_profiles.py``).
- ``json``: the resume's data as a JSON Resume 1.2.1 document
  (``resumes/jsonresume.py``), every section, hidden ones too (it is the data,
  not a drawing of it; ``sectionsVisibility`` travels inside it). It needs no
  job: ``exports.export_resume`` writes it in the request.

Options: ``page_size`` and ``margin`` set the page of PDF, DOCX (and HTML's
print ``@page``); ``color_scheme`` "default" keeps the template's own accent,
the others replace it with the colour of ``ACCENTS``. Invalid options or an
unknown format are the caller's bug and raise ``ValueError``.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass

from app.resumes import rendering

DOCUMENT_FORMATS = ("pdf", "docx", "html", "txt")   # drawings of the resume: they honour sectionsVisibility
FORMATS = (*DOCUMENT_FORMATS, "json")
INLINE_FORMATS = ("json",)   # made in the request, without the exports queue
MEDIA_TYPES = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "html": "text/html; charset=utf-8",
    "txt": "text/plain; charset=utf-8",
    "json": "application/json",
}
EXTENSIONS = {fmt: f".{fmt}" for fmt in FORMATS}
PAGE_SIZES = tuple(rendering.PAGE_SIZES)
MARGINS = tuple(rendering.MARGINS_MM)
COLOR_SCHEMES = ("default", "blue", "green", "gray")
# The accent of each colour scheme; "default" is the template's own.
ACCENTS = {"blue": "#1d4ed8", "green": "#15803d", "gray": "#4b5563"}
PHOTO_MEDIA_TYPES = ("image/png", "image/jpeg")


@dataclass(frozen=True)
class Options:
    page_size: str = "A4"
    margin: str = "normal"
    color_scheme: str = "default"


@dataclass(frozen=True)
class Photo:
    data: bytes        # already fetched and verified as an image by the caller
    media_type: str    # "image/png" or "image/jpeg"

    def data_uri(self) -> str:
        return f"data:{self.media_type};base64,{base64.b64encode(self.data).decode('ascii')}"


@dataclass(frozen=True)
class Source:
    html_template: str
    css: str
    title: str
    content: dict | None      # contentJson
    visible: dict | None      # sectionsVisibility


class DocumentError(Exception):
    """The document could not be rendered (the message is for the log, not for clients)."""


def html_document(source: Source, options: Options, photo: Photo | None) -> str:
    """The resume as the self-contained HTML document every other drawing of it starts from."""
    try:
        return rendering.render_document(
            html_template=source.html_template, css=source.css, title=source.title,
            content=source.content, visible=source.visible, accent=ACCENTS.get(options.color_scheme),
            photo=photo.data_uri() if photo else None,
            page_size=options.page_size, margin=options.margin,
        )
    except rendering.TemplateRenderError as exc:
        raise DocumentError(str(exc)) from exc


def _check(fmt: str, options: Options, photo: Photo | None) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format: {fmt!r}")
    if (options.page_size not in PAGE_SIZES or options.margin not in MARGINS
            or options.color_scheme not in COLOR_SCHEMES):
        raise ValueError(f"invalid export options: {options!r}")
    if photo is not None and (photo.media_type not in PHOTO_MEDIA_TYPES or not photo.data):
        raise ValueError(f"invalid photo: {photo.media_type!r}, {len(photo.data)} bytes")


def render(fmt: str, source: Source, options: Options = Options(), photo: Photo | None = None) -> bytes:
    """The resume as a ``fmt`` document; raises DocumentError when it cannot be rendered."""
    _check(fmt, options, photo)
    # The renderers are imported on use: xhtml2pdf alone takes ~0.35 s to import, three times the
    # whole app's start-up, and only the export jobs need it.
    if fmt == "html":
        return html_document(source, options, photo).encode("utf-8")
    if fmt == "json":
        from app.resumes import jsonresume
        return jsonresume.document_bytes(source.content, source.title, visible=source.visible)
    if fmt == "txt":
        from app.resumes.documents import text
        return text.render_text(source).encode("utf-8")
    if fmt == "docx":
        from app.resumes.documents import docx
        return docx.render_docx(source, options, photo)
    from app.resumes.documents import pdf
    return pdf.render_pdf(html_document(source, options, photo))
