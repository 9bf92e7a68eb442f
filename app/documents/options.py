"""What a render takes: the resume's source (template, content, visibility), the page options and
the photo, checked by the caller (``app.documents.render`` raises ValueError on invalid ones), and
what it raises. Every renderer imports these from here, never the package itself."""
from __future__ import annotations

import base64
from dataclasses import dataclass

from app.documents import templating

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
PAGE_SIZES = tuple(templating.PAGE_SIZES)
MARGINS = tuple(templating.MARGINS_MM)
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
    """The document could not be rendered (the message is for the log, not for clients). ``reason``
    says what a person can do about it: "template" (the template could not draw the resume), "layout"
    (a part of the resume does not fit a page), "render" (anything else)."""

    def __init__(self, message: str, reason: str = "render"):
        super().__init__(message)
        self.reason = reason


def html_document(source: Source, options: Options, photo: Photo | None) -> str:
    """The resume as the self-contained HTML document every other drawing of it starts from."""
    try:
        return templating.render_document(
            html_template=source.html_template, css=source.css, title=source.title,
            content=source.content, visible=source.visible, accent=ACCENTS.get(options.color_scheme),
            photo=photo.data_uri() if photo else None,
            page_size=options.page_size, margin=options.margin,
        )
    except templating.TemplateRenderError as exc:
        raise DocumentError(str(exc), reason="template") from exc
