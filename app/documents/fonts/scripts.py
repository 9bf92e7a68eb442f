"""Fonts per run of script: the text the template's fonts cannot draw goes to a fallback font.

xhtml2pdf has no per-glyph font fallback: a paragraph in Helvetica draws a
Chinese or Arabic character as a box. Before the render, ``mark_runs`` rewrites
the document's body text:

- a run of one script the built-in fonts lack (``KINDS``: CJK; Arabic; Hebrew;
  Devanagari; Tamil; Thai, the spaces between its words included) is wrapped in
  ``<span class="pdf-<kind>">``;
- any other word with a letter outside Windows-1252 (what the built-in PDF
  fonts draw) in ``<span class="pdf-latin">``: "Łódź" or "Ελένη" is set whole
  in the Latin fallback rather than mixing two fonts inside one word;
- the nearest block around a CJK or Thai run, or around a piece of 25 or more
  characters without a space (a URL, an e-mail), gets the class
  ``pdf-cjk-wrap``, which lays its lines out with ``pdf/linebreak.py`` (breaks
  between CJK characters, between Thai words, at spaces between Latin words,
  never before 。，、 or after （, and a URL after a ``/`` or ``-`` rather than
  mid-word);
- a block whose text starts right to left (its first letter is Arabic or
  Hebrew, as HTML's ``dir="auto"`` decides) gets ``dir="rtl"``: xhtml2pdf then
  orders each of its lines by the Unicode bidirectional algorithm from a
  right-to-left base, so Latin words and numbers inside it stand where a reader
  of Arabic expects them, and aligns it right unless the template aligns it.

Everything else keeps the template's fonts, sizes, weights and styles: the
fallback span only changes the family, so a CJK run inside a bold heading is set
in the fallback's bold face. Attributes, the head, styles and scripts are left
as they are; text is re-escaped as it is written back. ``Marks`` tells the
renderer which characters each kind of run holds, so that ``fonts/cuts.py`` cuts
each face to them.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from html import escape
from html.parser import HTMLParser

from app.content.characters import starts_right_to_left
from app.documents.fonts import characters, cuts
from app.documents.fonts.characters import CJK, IGNORED, JOINED, LATIN, MISSING, RIGHT_TO_LEFT, WRAPPED, drawable

CJK_WRAP_CLASS = "pdf-cjk-wrap"  # a block holding CJK text: CJK line breaking
JOINED_CLASS = "pdf-joined"  # a block holding letters that join or stack: no letter spacing
# What a run of a script takes in between its words: spaces, digits and common punctuation, where its
# face draws them. One run is one frag, which the bidirectional algorithm orders as a whole: split
# into frags around "2010 –", an Arabic date lost its spaces ("يناير2010 –حتى الآن").
_BETWEEN = frozenset(" \u00a00123456789.,:;-\u2013\u2014()/%+'\"!?")
_TRAILING = frozenset("0123456789.,:;!?%)")  # what a run may end with after its last letter
_SCRIPT_KINDS = frozenset(characters.SCRIPT_CODES)
CJK_RUN = re.compile("[" + "".join(f"{chr(start)}-{chr(end)}" for start, end in characters._CJK_BLOCKS) + "]+")
CJK_CLASS = f"pdf-{CJK}"
LATIN_CLASS = f"pdf-{LATIN}"
MISSING_CLASS = f"pdf-{MISSING}"
LONG_PIECE = re.compile(r"[^\s\u3000]{25,}")


ISOLATE, POP_ISOLATE = "\u2066", "\u2069"  # LEFT-TO-RIGHT ISOLATE, POP DIRECTIONAL ISOLATE
_LEFT_TO_RIGHT = re.compile(r"[0-9A-Za-z\u00c0-\u024f]")


def class_of(kind: str) -> str:
    return f"pdf-{kind}"


# Elements whose text is laid out as one paragraph: the nearest of these gets the CJK line breaking.
BLOCKS = frozenset({
    "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "td", "th", "dt", "dd", "section",
    "header", "footer", "article", "aside", "main", "nav", "address", "blockquote", "figure",
    "figcaption", "pre", "body",
})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                   "track", "wbr"})
_RAW = frozenset({"style", "script"})


def _word_char(char: str) -> bool:
    return char.isalnum() or unicodedata.category(char)[0] == "M"


def _absorb(text: str, kinds: list, serif: bool) -> None:
    """A script's run takes the spaces, digits and punctuation between two of its letters, and the
    digits or punctuation right after its last one, where its face draws them."""
    index = 0
    while index < len(text):
        if kinds[index] is not None:
            index += 1
            continue
        end = index
        while end < len(text) and kinds[end] is None:
            end += 1
        before = kinds[index - 1] if index else None
        after = kinds[end] if end < len(text) else None
        if before in _SCRIPT_KINDS:
            covered = cuts.coverage(characters.family(before, serif))
            take = 0
            for offset, char in enumerate(text[index:end]):
                if char not in _BETWEEN or ord(char) not in covered:
                    break
                if after == before and offset == end - index - 1 or char in _TRAILING:
                    take = offset + 1
            kinds[index:index + take] = [before] * take
        index = end


def _latin_words(text: str, kinds: list) -> None:
    """A word with a letter the built-in fonts lack is set whole in the Latin face: "Łódź" in one font,
    not two."""
    index = 0
    while index < len(text):
        if not _word_char(text[index]):
            index += 1
            continue
        end = index
        while end < len(text) and (_word_char(text[end]) or (
                text[end] in "'\u2019" and end + 1 < len(text) and _word_char(text[end + 1]))):
            end += 1
        word = kinds[index:end]
        if LATIN in word and all(kind in (None, LATIN) for kind in word):
            kinds[index:end] = [LATIN] * (end - index)
        index = end


def split_runs(text: str, serif: bool = False) -> list[tuple[str, str | None]]:
    """``text`` as (piece, the kind of fallback it needs or None) runs, neighbours of a kind merged
    (``characters.kinds``; ``IGNORED`` and ``MISSING`` pieces are runs of their own)."""
    kinds = characters.kinds(text, serif)
    _absorb(text, kinds, serif)
    _latin_words(text, kinds)
    runs: list[tuple[str, str | None]] = []
    for char, kind in zip(text, kinds):
        if runs and runs[-1][1] == kind:
            runs[-1] = (runs[-1][0] + char, kind)
        else:
            runs.append((char, kind))
    return runs


@dataclass
class Marks:
    """What ``mark_runs`` found: the characters of each kind of run, the blocks set for CJK breaking."""
    chars: dict[str, set[str]] = field(default_factory=dict)
    missing: str = ""  # the characters no face draws, once each, in their order (drawn as boxes)
    runs: dict[str, list[str]] = field(default_factory=dict)  # the runs of each shaped kind
    wrapped: bool = False
    joined: bool = False
    right_to_left: bool = False

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(self.chars)

    def __bool__(self) -> bool:
        return bool(self.chars or self.wrapped or self.right_to_left)


class _Marker(HTMLParser):
    def __init__(self, serif: bool, printing: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.serif = serif
        self.printing = printing  # for the PDF: ignored characters dropped, missing ones boxed
        self.out: list[str] = []
        self.stack: list[tuple[str, int]] = []  # open elements: (tag, index of its start tag in out)
        self.starts: dict[int, tuple[str, list]] = {}  # index in out -> (tag, attrs) of each start tag
        self.wrapped: set[int] = set()  # blocks set for CJK line breaking
        self.joined: set[int] = set()  # blocks holding letters that join or stack
        self.directed: dict[int, bool] = {}  # blocks whose direction their first letter decided
        self.in_body = False
        self.raw = False
        self.right_to_left = False  # the body is dir="rtl": the document is written right to left
        self.marks = Marks()

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
            self.right_to_left = ("dir", "rtl") in attrs
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
            self._mark(self.wrapped)
        if self._isolated(data):
            self.out.append(ISOLATE + "".join(self._pieces(data)) + POP_ISOLATE)
            return
        if drawable(data):
            self.out.append(escape(data, quote=False))
            if any(char.isalpha() for char in data):
                self._direct(False)
            return
        self._direct(starts_right_to_left(data))
        self.out.append("".join(self._pieces(data)))

    def _isolated(self, data: str) -> bool:
        """Whether ``data`` is left-to-right text (an e-mail, a phone number, an English word) in a
        document written right to left: isolated (LRI ... PDI), it keeps its own order inside the
        right-to-left line, where "+1 555 0100" would otherwise read "0100 555 1+"."""
        return (self.right_to_left and _LEFT_TO_RIGHT.search(data) is not None
                and not any(unicodedata.bidirectional(char) in ("R", "AL") for char in data))

    def _pieces(self, data: str) -> list[str]:
        pieces = []
        for piece, kind in split_runs(data, self.serif):
            if kind == IGNORED:
                pieces.append("" if self.printing else escape(piece, quote=False))
            elif kind == MISSING:
                self.marks.missing += "".join(char for char in dict.fromkeys(piece) if char not in self.marks.missing)
                pieces.append(f'<span class="{MISSING_CLASS}">{escape(piece, quote=False)}</span>'
                              if self.printing else escape(piece, quote=False))
            elif kind:
                self.marks.chars.setdefault(kind, set()).update(piece)
                if kind in RIGHT_TO_LEFT or kind in JOINED:  # shaped: their words go to the cut
                    self.marks.runs.setdefault(kind, []).append(piece)
                pieces.append(f'<span class="{class_of(kind)}">{escape(piece, quote=False)}</span>')
                if kind in WRAPPED:
                    self._mark(self.wrapped)
                if kind in JOINED:
                    self._mark(self.joined)
            else:
                pieces.append(escape(piece, quote=False))
        return pieces

    def _block(self) -> int | None:
        for tag, index in reversed(self.stack):
            if tag in BLOCKS:
                return index
        return None

    def _mark(self, blocks: set[int]) -> None:
        index = self._block()
        if index is not None:
            blocks.add(index)

    def _direct(self, right_to_left: bool | None) -> None:
        index = self._block()
        if right_to_left is not None and index is not None:
            self.directed.setdefault(index, right_to_left)

    def result(self) -> str:
        for index in sorted(self.wrapped | self.joined | set(self.directed)):
            tag, attrs = self.starts[index]
            classes = ([CJK_WRAP_CLASS] if index in self.wrapped else []) + (
                [JOINED_CLASS] if index in self.joined else [])
            rtl = self.directed.get(index) and tag != "body" and not any(key == "dir" for key, _ in attrs)
            self.out[index] = _start_tag(tag, attrs, classes, {"dir": "rtl"} if rtl else {})
            self.marks.right_to_left |= bool(rtl)
        self.marks.wrapped = bool(self.wrapped)
        self.marks.joined = bool(self.joined)
        return "".join(self.out)


def _start_tag(tag: str, attrs: list, classes: list[str], extra: dict[str, str]) -> str:
    """A start tag written again from its attributes, with ``classes`` added to its class and the
    attributes of ``extra`` added."""
    parts = [tag]
    seen = False
    for key, value in attrs:
        if key == "class" and classes:
            value = " ".join([value or "", *classes]).strip()
            seen = True
        parts.append(key if value is None else f'{key}="{escape(value, quote=True)}"')
    if classes and not seen:
        parts.append(f'class="{" ".join(classes)}"')
    parts.extend(f'{key}="{escape(value, quote=True)}"' for key, value in extra.items())
    return "<" + " ".join(parts) + ">"


def mark_runs(html: str, serif: bool = False, printing: bool = True) -> tuple[str, Marks]:
    """The document with its runs and blocks marked, and what was marked (false when nothing was).
    ``serif``: the template's body text is serif (Latin words then fall back to Noto Serif);
    ``printing``: for the PDF, where ignorable characters are left out and the ones no face draws
    are boxes (``MISSING_CLASS``); a browser is left to draw both itself."""
    if drawable(html) and not LONG_PIECE.search(html):
        return html, Marks()
    marker = _Marker(serif, printing)
    marker.feed(html)
    marker.close()
    return marker.result(), marker.marks
