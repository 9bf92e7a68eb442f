"""Fonts per run of script: the text the template's fonts cannot draw goes to the fallback font.

xhtml2pdf has no per-glyph font fallback: a paragraph in Helvetica draws a
Chinese character as a box. Before the render, ``mark_runs`` rewrites the
document's body text:

- a run of CJK characters (ideographs, kana, Hangul, CJK and fullwidth
  punctuation) is wrapped in ``<span class="pdf-cjk">``;
- any other word with a letter outside Windows-1252 (what the built-in PDF
  fonts draw) in ``<span class="pdf-latin">``: "Łódź" or "Ελένη" is set whole
  in the Latin fallback rather than mixing two fonts inside one word;
- the nearest block around a CJK run, or around a piece of 25 or more
  characters without a space (a URL, an e-mail), gets the class
  ``pdf-cjk-wrap``, which lays its lines out with ``linebreak.py`` (breaks
  between CJK characters, at spaces between Latin words, never before 。，、 or
  after （, and a URL after a ``/`` or ``-`` rather than mid-word).

Everything else keeps the template's fonts, sizes, weights and styles: the
fallback span only changes the family, so a CJK run inside a bold heading is set
in the fallback's bold face. Attributes, the head, styles and scripts are left
as they are; text is re-escaped as it is written back.
"""
from __future__ import annotations

import re
from html import escape
from html.parser import HTMLParser

CJK_CLASS = "pdf-cjk"          # a CJK run: the CJK fallback face
LATIN_CLASS = "pdf-latin"      # another word the built-in fonts cannot draw: the Latin fallback
CJK_WRAP_CLASS = "pdf-cjk-wrap"  # a block holding CJK text: CJK line breaking

_CJK = (
    "\u1100-\u11ff"  # Hangul jamo
    "\u2e80-\u2fdf"  # CJK radicals, Kangxi radicals
    "\u3000-\u33ff"  # CJK symbols and punctuation, kana, bopomofo, enclosed, compatibility
    "\u3400-\u4dbf\u4e00-\u9fff"  # ideographs
    "\uac00-\ud7a3"  # Hangul syllables
    "\uf900-\ufaff\ufe30-\ufe4f"  # compatibility ideographs and forms
    "\uff00-\uffef"  # halfwidth and fullwidth forms
)
CJK_RUN = re.compile(f"[{_CJK}]+")
# A CJK run, or a word (letters, digits, marks) or any other single character.
LONG_PIECE = re.compile(r"[^\s\u3000]{25,}")
_WORD = f"[^\\W_{_CJK}]+"  # letters and digits, CJK excluded (a CJK run is its own token)
_TOKEN = re.compile(f"([{_CJK}]+)|({_WORD}(?:['\u2019]{_WORD})*)|(.)", re.DOTALL)

# Elements whose text is laid out as one paragraph: the nearest of these gets the CJK line breaking.
BLOCKS = frozenset({
    "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "td", "th", "dt", "dd", "section",
    "header", "footer", "article", "aside", "main", "nav", "address", "blockquote", "figure",
    "figcaption", "pre", "body",
})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                   "track", "wbr"})
_RAW = frozenset({"style", "script"})


def drawable(text: str) -> bool:
    """Whether the built-in PDF fonts (Windows-1252) draw every character of ``text``."""
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def split_runs(text: str) -> list[tuple[str, bool, bool]]:
    """``text`` as (piece, needs the fallback font, is CJK) runs, neighbours of a kind merged."""
    runs: list[tuple[str, bool, bool]] = []
    for match in _TOKEN.finditer(text):
        piece = match.group(0)
        cjk = match.group(1) is not None
        fallback = cjk or not drawable(piece)
        if runs and runs[-1][1] == fallback and runs[-1][2] == cjk:
            runs[-1] = (runs[-1][0] + piece, fallback, cjk)
        else:
            runs.append((piece, fallback, cjk))
    return runs


class _Marker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.stack: list[tuple[str, int]] = []  # open elements: (tag, index of its start tag in out)
        self.starts: dict[int, tuple[str, list]] = {}  # index in out -> (tag, attrs) of each start tag
        self.marked: set[int] = set()
        self.in_body = False
        self.raw = False
        self.kinds: set[str] = set()  # the fallback classes used (CJK_CLASS, LATIN_CLASS)

    def handle_decl(self, decl: str) -> None:
        self.out.append(f"<!{decl}>")

    def handle_comment(self, data: str) -> None:
        self.out.append(f"<!--{data}-->")

    def handle_pi(self, data: str) -> None:
        self.out.append(f"<?{data}>")

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.out.append(self.get_starttag_text())

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "body":
            self.in_body = True
        self.raw = tag in _RAW
        self.out.append(self.get_starttag_text())
        self.starts[len(self.out) - 1] = (tag, attrs)
        if tag not in _VOID:
            self.stack.append((tag, len(self.out) - 1))

    def handle_endtag(self, tag: str) -> None:
        self.raw = False
        self.out.append(f"</{tag}>")
        for depth in range(len(self.stack) - 1, -1, -1):  # close up to the matching element
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                break

    def handle_data(self, data: str) -> None:
        if self.raw or not self.in_body:
            self.out.append(data)
            return
        if LONG_PIECE.search(data):
            self._mark_block()
        if drawable(data):
            self.out.append(escape(data, quote=False))
            return
        pieces = []
        for piece, fallback, cjk in split_runs(data):
            if fallback:
                name = CJK_CLASS if cjk else LATIN_CLASS
                self.kinds.add(name)
                pieces.append(f'<span class="{name}">{escape(piece, quote=False)}</span>')
                if cjk:
                    self._mark_block()
            else:
                pieces.append(escape(piece, quote=False))
        self.out.append("".join(pieces))

    def _mark_block(self) -> None:
        for tag, index in reversed(self.stack):
            if tag in BLOCKS:
                self.marked.add(index)
                return

    def result(self) -> str:
        for index in self.marked:
            tag, attrs = self.starts[index]
            self.out[index] = _with_class(tag, attrs, CJK_WRAP_CLASS)
        return "".join(self.out)


def _with_class(tag: str, attrs: list, name: str) -> str:
    """A start tag written again from its attributes, with ``name`` added to its class."""
    parts = [tag]
    seen = False
    for key, value in attrs:
        if key == "class":
            value = f"{value or ''} {name}".strip()
            seen = True
        parts.append(key if value is None else f'{key}="{escape(value, quote=True)}"')
    if not seen:
        parts.append(f'class="{name}"')
    return "<" + " ".join(parts) + ">"


def mark_runs(html: str) -> tuple[str, frozenset[str], bool]:
    """The document with its runs and blocks marked; the fallback classes its runs use (empty when
    none needs a fallback font), and whether some block was marked for ``linebreak.py``."""
    if drawable(html) and not LONG_PIECE.search(html):
        return html, frozenset(), False
    marker = _Marker()
    marker.feed(html)
    marker.close()
    return marker.result(), frozenset(marker.kinds), bool(marker.marked)
