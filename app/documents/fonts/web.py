"""Fonts for the resume as a web page (the HTML export, the share page), so that a reader without them
installed sees the text: the same faces as the PDF, cut to the characters the page draws.

``prepare(html)`` marks the runs as the PDF does (``scripts.mark_runs``: a span per run of a script,
``dir="rtl"`` on a block that starts right to left) and cuts a face for each kind of run and weight
(``cuts.cut``). A browser shapes text itself, so the cuts of the scripts that join or stack keep
their OpenType rules; Chinese, Japanese and Korean are cut in their region's forms. ``WebFonts.css``
writes the ``@font-face`` rules with the addresses a caller gives each cut: ``data:`` URIs for the
HTML export (a file that must carry what it needs: ``inline_css``), the app's own route for the share
page (cached by the browser: the cut's name is made of its content). Each run's rule names its face
first and the generic family after it, so a character the face lacks still falls back to the
reader's fonts. Nothing is fetched from anywhere else.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from app.content.language import RIGHT_TO_LEFT
from app.documents.fonts import characters, cuts, faces, scripts

# The scripts a browser shapes with the font's own rules: their cuts keep GSUB and GPOS.
_SHAPED = characters.JOINED | {"hebrew", characters.EMOJI}


@dataclass
class WebFonts:
    html: str                                   # the page's HTML with its runs marked
    cuts: list[tuple[str, bool, Path]] = field(default_factory=list)   # (family, bold, file)
    kinds: dict[str, str] = field(default_factory=dict)                # kind of run -> family
    serif: bool = False

    def css(self, address: Callable[[Path], str]) -> str:
        """The ``@font-face`` rules (``address(cut)`` is each cut's URL) and a rule per kind of run."""
        rules = [f'@font-face {{ font-family: "{family}"; src: url("{address(path)}") format("truetype"); '
                 f"font-weight: {'bold' if bold else 'normal'}; font-display: swap; }}"
                 for family, bold, path in self.cuts]
        generic = "serif" if self.serif else "sans-serif"
        rules += [f'.{scripts.class_of(kind)} {{ font-family: "{family}", {generic}; }}'
                  for kind, family in sorted(self.kinds.items())]
        return "\n".join(rules) + ("\n" if rules else "")

    def named(self, name: str) -> Path | None:
        """The cut called ``name`` (a route serving them looks it up here), or None."""
        return next((path for _family, _bold, path in self.cuts if path.name == name), None)


def prepare(html: str, css: str = "", language: str | None = None) -> WebFonts:
    """The page's runs marked and the cuts its text needs. ``css`` is the template's (whether its body
    text is serif); ``language`` the resume's (else the document's ``<html lang>``)."""
    fragment = "<body" not in html  # the share page's body, not a whole document
    serif = faces.serif_template(f"<style>{css}</style>" if css else html)
    # The share page's body is marked as the export's is, right to left when the resume is: numbers and
    # e-mails in it are then isolated (+971 50 123 4567 keeps its order among Arabic words).
    direction = ' dir="rtl"' if language in RIGHT_TO_LEFT else ""
    marked, marks = scripts.mark_runs(f"<body{direction}>{html}</body>" if fragment else html, serif, printing=False)
    if fragment:
        marked = marked.split(">", 1)[1].rsplit("</body>", 1)[0]  # the body tag may have gained a class
    found = WebFonts(marked, serif=serif)
    if not marks.kinds:
        return found
    # A browser draws the characters no face has with the reader's own fonts (or its own box).
    found.kinds = {kind: family for kind, family in faces.families(marks, serif, language or faces.language_of(html)).items()
                   if kind != scripts.MISSING}
    shaped = {family for kind, family in found.kinds.items() if kind in _SHAPED}
    for family, codes in sorted(faces.codes_by_family(marks, found.kinds).items()):
        for bold in (False, True):
            path = cuts.cut(cuts.face(family, bold), codes, layout=family in shaped or None)
            found.cuts.append((family, bold, path))
    return found


def data_uri(path: Path) -> str:
    return "data:font/ttf;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def inline_css(document: str) -> str:
    """A whole HTML document (the export) with its runs marked and its fonts inside it, as ``data:``
    URIs in a ``<style>`` at the end of its head; as it was when it needs none."""
    found = prepare(document)
    if not found.cuts:
        return found.html
    head, marker, rest = found.html.partition("</head>")
    if not marker:
        return found.html
    return f"{head}<style>\n{found.css(data_uri)}</style>\n{marker}{rest}"
