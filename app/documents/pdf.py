"""PDF: xhtml2pdf draws the resume's HTML document.

Fonts. The templates name system fonts, which xhtml2pdf maps to the PDF's
built-in Helvetica, Times and Courier: these draw Windows-1252 only, and
xhtml2pdf has no per-glyph fallback. So the text they cannot draw is set, run
by run, in Noto Sans CJK (``scripts.py`` marks the runs, ``fonts.py`` builds
the faces once per machine from their PyPI packages), in the weight of the text
around it: Latin text keeps the template's fonts, bold Chinese is the bold
face. Blocks with CJK text break their lines between characters, by the rules
of ``linebreak.py``. A document whose text is all Windows-1252 is drawn as the
template wrote it. The faces are embedded as subsets; xhtml2pdf parses a face
once per process (a few hundred ms the first time) and reuses it.

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

import io
import logging
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from xhtml2pdf import pisa
from xhtml2pdf.config.resources import ResourceAccessPolicy

from app.documents import fonts, linebreak, scripts
from app.documents.options import DocumentError
from app.documents.templating import PHOTO_URI

FONT_DIR = fonts.font_dir()
FONT_SUFFIXES = (".ttf",)
# What link_callback answers for a refused reference: an empty inline resource, fetched from nowhere.
REFUSED = "data:,"


def _face_rules(families: set[str]) -> str:
    # Every style of each family named: xhtml2pdf maps a style left out to whichever face of the
    # family it registered last (italic text would be bold). A declaration costs a read of the file
    # (xhtml2pdf hashes it), so only the families a document uses are declared.
    rules = []
    for face in (face for face in fonts.FACES if face.family in families):
        weight = "bold" if face.bold else "normal"
        for style in ("normal", "italic"):  # no italic faces: an italic run keeps the upright one
            rules.append(f'@font-face {{ font-family: "{face.family}"; src: url("{face.file}"); '
                         f"font-weight: {weight}; font-style: {style}; }}")
    return "\n".join(rules)


def font_css(kinds: frozenset[str], serif: bool) -> str:
    """The fallback faces the marked runs (``kinds``: their classes) need, and their families;
    after the template CSS and !important, so they win."""
    families = {scripts.CJK_CLASS: fonts.CJK, scripts.LATIN_CLASS: fonts.SERIF if serif else fonts.SANS}
    used = {families[kind] for kind in kinds}
    return _face_rules(used) + "\n" + "".join(
        f'.{kind} {{ font-family: "{families[kind]}" !important; }}\n' for kind in sorted(kinds))


WRAP_CSS = f".{scripts.CJK_WRAP_CLASS} {{ -pdf-word-wrap: CJK; }}\n"


_BODY_FONT = re.compile(r"(?:^|[\s,}])(?:body|html|\*)\s*\{[^}]*?font-family\s*:\s*([^;}]+)", re.IGNORECASE)
_SERIF = re.compile(r"\b(times|georgia|garamond|palatino|cambria|baskerville|book antiqua|serif)\b", re.IGNORECASE)


def serif_template(html: str) -> bool:
    """Whether the document's body text is in a serif family (the last body rule of its styles says)."""
    families = _BODY_FONT.findall(html.partition("</head>")[0])
    if not families:
        return False
    family = families[-1].lower().replace("sans-serif", "")
    return bool(_SERIF.search(family)) and "sans" not in family


POLICY = ResourceAccessPolicy.server(base_dir=None, extra_roots=(FONT_DIR,), allow_remote=False)

# xhtml2pdf warns on every document about CSS it does not implement and about our @page
# override; those lines would bury the log. Its errors still show (and fail the render).
logging.getLogger("xhtml2pdf").setLevel(logging.ERROR)


def font_path(uri: str) -> Path | None:
    """The fallback font file ``uri`` names (a bare name, a path or a ``file:`` URL), or None."""
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
    """What xhtml2pdf may fetch for ``uri``: a fallback font, the photo's data URI, or nothing."""
    uri = uri.strip() if isinstance(uri, str) else ""
    if uri.startswith("data:"):
        return uri if PHOTO_URI.match(uri) else REFUSED
    path = font_path(uri)
    return str(path) if path else REFUSED


def with_fallback_font(html: str) -> str:
    """The document with its runs and blocks marked (``scripts.py``) and the fallback faces and
    line breaking declared last in its head; as it was when nothing needs them."""
    html, kinds, wrapped = scripts.mark_runs(html)
    if not (kinds or wrapped):
        return html
    head, marker, rest = html.partition("</head>")
    if not marker:
        raise DocumentError("the document has no head to add the font to")
    css = WRAP_CSS if wrapped else ""
    if kinds:
        fonts.ensure_built()
        css = font_css(kinds, serif_template(head)) + css
    return f"{head}<style>\n{css}</style>\n{marker}{rest}"


def render_pdf(html: str) -> bytes:
    """The PDF of a document from ``templating.render_document``; raises DocumentError."""
    html = with_fallback_font(html)
    linebreak.install()
    out = io.BytesIO()
    try:
        result = pisa.CreatePDF(html, dest=out, link_callback=link_callback, resource_policy=POLICY)
    except Exception as exc:  # xhtml2pdf raises whatever its layout code trips over
        raise DocumentError(f"xhtml2pdf failed: {type(exc).__name__}: {exc}") from exc
    if result.err:
        raise DocumentError(f"xhtml2pdf reported {result.err} error(s)")
    return out.getvalue()
