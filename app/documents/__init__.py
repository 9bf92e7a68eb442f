"""Resume exports: one document per format, all from the resume's template.

``render(fmt, source, options, photo)`` is the whole interface: it returns the
document's bytes or raises ``DocumentError``. Every document format
(``DOCUMENT_FORMATS``) honours the resume's ``sectionsVisibility`` (a hidden
section is absent) and renders any script, Chinese included.

- ``html``: ``templating.render_document``: the template with its CSS inline,
  the accent, the page options as ``@page``, the photo as a ``data:`` URI, and
  the fallback fonts its text needs as ``data:`` URIs (``fonts/web.py``); nothing
  in it is fetched from anywhere (UTF-8).
- ``pdf`` (``pdf.py``): xhtml2pdf draws that same HTML, with a resource policy
  that lets it read only the fallback fonts and the ``data:`` photo.
- ``docx`` (``docx.py``) and ``txt`` (``text.py``) are laid out from the
  normalised content with the same date formatting as the templates; the
  template gives DOCX its design (``docx/profiles.py``).
- ``json``: the resume's data as a JSON Resume 1.2.1 document
  (``app/content/jsonresume``), every section, hidden ones too (it is the data,
  not a drawing of it; ``sectionsVisibility`` travels inside it). It needs no
  job: ``exports.export_resume`` writes it in the request.

Options: ``page_size`` and ``margin`` set the page of PDF, DOCX (and HTML's
print ``@page``); ``color_scheme`` "default" keeps the template's own accent,
the others replace it with the colour of ``ACCENTS``. Invalid options or an
unknown format are the caller's bug and raise ``ValueError``.
"""
from __future__ import annotations

import unicodedata

from app.documents.options import (  # noqa: F401  (the package's interface)
    ACCENTS, COLOR_SCHEMES, DOCUMENT_FORMATS, EXTENSIONS, FORMATS, INLINE_FORMATS, MARGINS, MEDIA_TYPES, PAGE_SIZES,
    PHOTO_MEDIA_TYPES, DocumentError, Options, Photo, Source,
)


def _check(fmt: str, options: Options, photo: Photo | None) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format: {fmt!r}")
    if (options.page_size not in PAGE_SIZES or options.margin not in MARGINS
            or options.color_scheme not in COLOR_SCHEMES):
        raise ValueError(f"invalid export options: {options!r}")
    if photo is not None and (photo.media_type not in PHOTO_MEDIA_TYPES or not photo.data):
        raise ValueError(f"invalid photo: {photo.media_type!r}, {len(photo.data)} bytes")


def undrawn(characters: str) -> list[dict]:
    """Characters no font of the service draws (``render_noted``) as ``{"character", "codePoint",
    "name"}``, in reading order."""
    return [{"character": char, "codePoint": f"U+{ord(char):04X}", "name": unicodedata.name(char, "")}
            for char in characters]


def html_document(source: Source, options: Options, photo: Photo | None) -> str:
    """The resume as the self-contained HTML document every other drawing of it starts from
    (``templating.html_document``)."""
    from app.documents import templating  # on use: Jinja is no part of a process that only draws pictures
    return templating.html_document(source, options, photo)


def pdf_of_html(html: str) -> bytes:
    """A PDF drawn by xhtml2pdf from an HTML document of one's own (a cover letter), with the same fonts
    and resource policy as a resume's; raises DocumentError."""
    from app.documents import pdf  # on use, as in ``render``
    return pdf.render_pdf(html)


def render(fmt: str, source: Source, options: Options = Options(), photo: Photo | None = None) -> bytes:
    """The resume as a ``fmt`` document; raises DocumentError when it cannot be rendered."""
    return render_noted(fmt, source, options, photo)[0]


def render_noted(fmt: str, source: Source, options: Options = Options(),
                 photo: Photo | None = None) -> tuple[bytes, list[dict]]:
    """``render``, and the characters the document prints as boxes, no font of the service drawing them
    (a PDF's: ``undrawn``; none for the other formats, whose readers draw them with their own fonts)."""
    _check(fmt, options, photo)
    if fmt != "pdf":
        return _render(fmt, source, options, photo), []
    from app.documents import pdf  # on use, as in ``_render``
    notes: dict = {}
    data = pdf.render_pdf(html_document(source, options, photo), notes)
    return data, undrawn(notes.get("missing", ""))


def _render(fmt: str, source: Source, options: Options, photo: Photo | None) -> bytes:
    # The renderers are imported on use: xhtml2pdf alone takes ~0.35 s to import, three times the
    # whole app's start-up, and only the export jobs need it.
    if fmt == "html":
        from app.documents.fonts import web as webfonts  # the fonts its text needs, inside the file
        return webfonts.inline_css(html_document(source, options, photo)).encode("utf-8")
    if fmt == "json":
        from app.content import jsonresume
        return jsonresume.document_bytes(source.content, source.title, visible=source.visible)
    if fmt == "txt":
        from app.documents import text
        return text.render_text(source).encode("utf-8")
    if fmt == "docx":
        from app.documents import docx
        return docx.render_docx(source, options, photo)
    from app.documents import pdf
    return pdf.render_pdf(html_document(source, options, photo))
