"""PDF: xhtml2pdf draws the resume's HTML document.

Fonts. The templates name system fonts, which xhtml2pdf maps to the PDF's
built-in Helvetica, Times and Courier: these draw Windows-1252 only, and
xhtml2pdf has no per-glyph fallback, so a Chinese name in a Helvetica paragraph
would come out as boxes. A document whose text is all Windows-1252 keeps the
template's fonts; any other document is switched, whole, to the bundled
WenQuanYi Micro Hei (``app/static/fonts/``, Latin, accented Latin and CJK;
Apache-2.0, see its licence file there), embedded as a subset. The face has one
weight: bold and italic text use it too rather than a font without the glyphs.
xhtml2pdf builds a font file once per process and reuses it in every later
document (about 70 ms the first time, a few ms after).

Resources. The HTML comes from template data, so it must not make the renderer
fetch anything. ``link_callback`` lets through the bundled fonts and a
``data:image/png`` / ``data:image/jpeg`` base64 URI (the photo) and turns
every other reference into an empty ``data:`` URI, so nothing is requested or
read. Because some of xhtml2pdf's fetches do not go through ``link_callback``
(its own documentation says so), the render also runs under xhtml2pdf's
``ResourceAccessPolicy.server`` limits (size, nesting, 60 s) with the network
refused and local reads confined to the font directory.

Failures: an exception from xhtml2pdf, or errors counted in its result, raise
DocumentError. A refused resource is not a failure: the document is drawn
without it.
"""
from __future__ import annotations

import io
import logging
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from xhtml2pdf import pisa
from xhtml2pdf.config.resources import ResourceAccessPolicy

from app.resumes.documents import DocumentError
from app.resumes.rendering import PHOTO_URI

FONT_DIR = Path(__file__).resolve().parents[2] / "static" / "fonts"
FONT_FILE = "wqy-microhei.ttf"
FONT_FAMILY = "WenQuanYi Micro Hei"
FONT_SUFFIXES = (".ttf",)
# What link_callback answers for a refused reference: an empty inline resource, fetched from nowhere.
REFUSED = "data:,"

# The bundled font for every element; after the template CSS and !important, so it wins.
FONT_CSS = (
    f'@font-face {{ font-family: "{FONT_FAMILY}"; src: url("{FONT_FILE}"); }}\n'
    f'* {{ font-family: "{FONT_FAMILY}" !important; }}\n'
)
POLICY = ResourceAccessPolicy.server(base_dir=None, extra_roots=(FONT_DIR,), allow_remote=False)

# xhtml2pdf warns on every document about CSS it does not implement and about our @page
# override; those lines would bury the log. Its errors still show (and fail the render).
logging.getLogger("xhtml2pdf").setLevel(logging.ERROR)


def font_path(uri: str) -> Path | None:
    """The bundled font file ``uri`` names (a bare name, a path or a ``file:`` URL), or None."""
    parts = urlsplit(uri)
    if parts.scheme not in ("", "file") or parts.netloc not in ("", "localhost"):
        return None
    name = unquote(parts.path)
    if not name:
        return None
    try:
        path = (FONT_DIR / name).resolve()  # an absolute name replaces FONT_DIR
    except (OSError, ValueError):
        return None
    if path.parent != FONT_DIR or path.suffix.lower() not in FONT_SUFFIXES or not path.is_file():
        return None
    return path


def link_callback(uri: str, rel: str | None = None) -> str:
    """What xhtml2pdf may fetch for ``uri``: a bundled font, the photo's data URI, or nothing."""
    uri = uri.strip() if isinstance(uri, str) else ""
    if uri.startswith("data:"):
        return uri if PHOTO_URI.match(uri) else REFUSED
    path = font_path(uri)
    return str(path) if path else REFUSED


class _BodyText(HTMLParser):
    """The text a document draws: its body's character data, references decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._in_body = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "body":
            self._in_body = True

    def handle_data(self, data: str) -> None:
        if self._in_body:
            self.parts.append(data)


def needs_bundled_font(html: str) -> bool:
    """Whether some text of the document is outside Windows-1252, what the built-in PDF fonts draw."""
    parser = _BodyText()
    parser.feed(html)
    parser.close()
    try:
        "".join(parser.parts).encode("cp1252")
    except UnicodeEncodeError:
        return True
    return False


def with_bundled_font(html: str) -> str:
    """The document with a last style element that draws all of it in the bundled font."""
    head, marker, rest = html.partition("</head>")
    if not marker:
        raise DocumentError("the document has no head to add the font to")
    return f"{head}<style>\n{FONT_CSS}</style>\n{marker}{rest}"


def render_pdf(html: str) -> bytes:
    """The PDF of a document from ``rendering.render_document``; raises DocumentError."""
    if needs_bundled_font(html):
        html = with_bundled_font(html)
    out = io.BytesIO()
    try:
        result = pisa.CreatePDF(html, dest=out, link_callback=link_callback, resource_policy=POLICY)
    except Exception as exc:  # xhtml2pdf raises whatever its layout code trips over
        raise DocumentError(f"xhtml2pdf failed: {type(exc).__name__}: {exc}") from exc
    if result.err:
        raise DocumentError(f"xhtml2pdf reported {result.err} error(s)")
    return out.getvalue()
