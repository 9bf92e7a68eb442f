"""What a render takes: the resume's source (template, content, visibility), the page options and
the photo, checked by the caller (``app.documents.render`` raises ValueError on invalid ones), and
what it raises. Every renderer imports these from here, never the package itself."""
from __future__ import annotations

import base64
from dataclasses import dataclass

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
# CSS page-size keywords, and the sizes in millimetres (width, height) for formats drawn without CSS.
PAGE_KEYWORDS = {"A4": "A4", "Letter": "letter"}
PAGE_SIZES_MM = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
MARGINS_MM = {"narrow": 10, "normal": 16, "wide": 25}
PAGE_SIZES = tuple(PAGE_KEYWORDS)
MARGINS = tuple(MARGINS_MM)
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

