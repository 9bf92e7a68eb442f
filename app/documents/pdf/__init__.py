"""PDF: xhtml2pdf draws the resume's HTML document.

Fonts. The templates name system fonts, which xhtml2pdf maps to the PDF's
built-in Helvetica, Times and Courier: these draw Windows-1252 only, and
xhtml2pdf has no per-glyph fallback. So the text they cannot draw is set, run
by run, in a fallback face for its script (``fonts/scripts.py`` marks the runs), in
the weight of the text around it: Latin text keeps the template's fonts, bold
Chinese is the bold face. Each face is cut to the characters the document draws
with it (``fonts/cuts.py``), from the font packages as installed: no build step.
Blocks with CJK text break their lines between characters, by the rules of
``linebreak.py``; Devanagari, Tamil and Thai runs are shaped by HarfBuzz
(``shaping.py``); a block whose text starts right to left is laid out right to
left, its Arabic letters joined. A document whose text is all Windows-1252 is
drawn as the template wrote it.

The faces a render registers with ReportLab are process-wide; they are removed
again when the render ends (``_fonts_of_this_render``), so that a long-lived
process does not keep one per document it ever printed. Renders of this module
take turns (``RENDERING``) for that reason.

Resources. The HTML comes from template data, so it must not make the renderer
fetch anything. ``link_callback`` lets through the fallback fonts and a
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

import contextlib
import io
import logging
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

from xhtml2pdf import pisa
from xhtml2pdf.config.resources import ResourceAccessPolicy

from app.documents.fonts import cuts, faces, scripts
from app.documents.pdf import linebreak, shaping
from app.documents.options import DocumentError
from app.documents.templating import PHOTO_URI

FONT_SUFFIXES = (".ttf",)
# What link_callback answers for a refused reference: an empty inline resource, fetched from nowhere.
REFUSED = "data:,"
RENDERING = threading.Lock()

# xhtml2pdf warns on every document about CSS it does not implement and about our @page
# override; those lines would bury the log. Its errors still show (and fail the render).
logging.getLogger("xhtml2pdf").setLevel(logging.ERROR)


def font_css(marks: scripts.Marks, serif: bool, language: str | None = None) -> str:
    """The faces the marked runs need, each cut to their characters, and the rules that set each
    kind of run in its family; after the template CSS and !important, so they win."""
    rules = []
    named = faces.families(marks, serif, language)
    words = faces.words_by_family(marks, named)
    for family, codes in sorted(faces.codes_by_family(marks, named).items()):
        for bold in (False, True):
            path = cuts.cut(cuts.face(family, bold), codes, words=words.get(family, frozenset()))
            weight = "bold" if bold else "normal"
            # Every style named: xhtml2pdf maps a style left out to whichever face of the family it
            # registered last (italic text would be bold). No italic faces: italic keeps the upright.
            for style in ("normal", "italic"):
                rules.append(f'@font-face {{ font-family: "{family}"; src: url("{path.name}"); '
                             f"font-weight: {weight}; font-style: {style}; }}")
    for kind, family in sorted(named.items()):
        rules.append(f'.{scripts.class_of(kind)} {{ font-family: "{family}" !important; }}')
    return "\n".join(rules) + "\n"


WRAP_CSS = f".{scripts.CJK_WRAP_CLASS} {{ -pdf-word-wrap: CJK; }}\n"
# Letters that join (Arabic) or stack (Devanagari, Tamil, Thai) are never spaced apart: xhtml2pdf spaces
# a whole paragraph by its block's letter-spacing (a heading's), so the block is unspaced.
JOINED_CSS = f".{scripts.JOINED_CLASS} {{ letter-spacing: 0 !important; }}\n"


def font_path(uri: str) -> Path | None:
    """The fallback font file ``uri`` names (a bare name, a path or a ``file:`` URL), or None."""
    parts = urlsplit(uri)
    if parts.scheme not in ("", "file") or parts.netloc not in ("", "localhost"):
        return None
    name = unquote(parts.path)
    if not name:
        return None
    directory = cuts.font_dir()
    try:
        path = (directory / name).resolve()  # an absolute name replaces the directory
    except (OSError, ValueError):
        return None
    if path.parent != directory.resolve() or path.suffix.lower() not in FONT_SUFFIXES or not path.is_file():
        return None
    return path


def link_callback(uri: str, rel: str | None = None) -> str:
    """What xhtml2pdf may fetch for ``uri``: a fallback font, the photo's data URI, or nothing."""
    uri = uri.strip() if isinstance(uri, str) else ""
    if uri.startswith("data:"):
        return uri if PHOTO_URI.match(uri) else REFUSED
    path = font_path(uri)
    return str(path) if path else REFUSED


def with_fallback_font(html: str, notes: dict | None = None) -> str:
    """The document with its runs and blocks marked (``fonts/scripts.py``) and the fallback faces and
    line breaking declared last in its head; as it was when nothing needs them. ``notes`` gets, as
    "missing", the characters no face draws (printed as boxes)."""
    serif = faces.serif_template(html.partition("</head>")[0])
    html, marks = scripts.mark_runs(html, serif)
    if notes is not None:
        notes["missing"] = marks.missing
    if not (marks.kinds or marks.wrapped or marks.missing):
        return html
    head, marker, rest = html.partition("</head>")
    if not marker:
        raise DocumentError("the document has no head to add the font to")
    css = (WRAP_CSS if marks.wrapped else "") + (JOINED_CSS if marks.joined else "")
    if marks.kinds or marks.missing:
        css = font_css(marks, serif, faces.language_of(head)) + css
    return f"{head}<style>\n{css}</style>\n{marker}{rest}"


@contextlib.contextmanager
def _fonts_of_this_render():
    """Removes the TrueType faces registered while the block ran from ReportLab's and xhtml2pdf's
    process-wide registries (each document's faces are cut to it: kept, they would pile up)."""
    from reportlab.lib import fonts as families_map
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from xhtml2pdf import context

    before = set(pdfmetrics._fonts)
    mappings = dict(families_map._tt2ps_map), dict(families_map._ps2tt_map)
    try:
        yield
    finally:
        for name in set(pdfmetrics._fonts) - before:
            font = pdfmetrics._fonts.get(name)
            if isinstance(font, TTFont):
                del pdfmetrics._fonts[name]
                pdfmetrics._dynFaceNames.pop(font.face.name, None)
                context._embedded_font_source.pop(name, None)
        families_map._tt2ps_map.clear()
        families_map._tt2ps_map.update(mappings[0])
        families_map._ps2tt_map.clear()
        families_map._ps2tt_map.update(mappings[1])


def render_pdf(html: str, notes: dict | None = None) -> bytes:
    """The PDF of a document from ``templating.render_document``; raises DocumentError. ``notes``: as
    ``with_fallback_font``'s."""
    with RENDERING:
        html = with_fallback_font(html, notes)
        linebreak.install()
        shaping.install()
        out = io.BytesIO()
        policy = ResourceAccessPolicy.server(base_dir=None, extra_roots=(cuts.font_dir(),), allow_remote=False)
        with _fonts_of_this_render():
            try:
                result = pisa.CreatePDF(html, dest=out, link_callback=link_callback, resource_policy=policy)
            except Exception as exc:  # xhtml2pdf raises whatever its layout code trips over
                raise DocumentError(f"xhtml2pdf failed: {type(exc).__name__}: {exc}", reason="layout") from exc
        if result.err:
            raise DocumentError(f"xhtml2pdf reported {result.err} error(s)")
        return out.getvalue()
