"""The PDF's text layer for shaped text: what search, copy and an applicant tracking system read.

A shaped word is drawn as the glyphs HarfBuzz chose (``shaping.py``), which are not its characters: a
conjunct is one glyph for three characters, Devanagari's vowel sign ि is drawn before the consonant it
follows, Tamil's ொ is split around its consonant, 👍🏽 is one glyph. A reader gets each glyph's code
through the font's ToUnicode map, in the order the glyphs come in the page's content. Two readers
decide what we draw: pdfium (Chrome's viewer, and the importer here) sorts the pieces of text of a
line by where they start and then turns runs of right-to-left characters around, as most PDFs draw
them in the order they are seen; a piece under a marked-content /ActualText reads as that text, and a
code with no text as its number. pdfminer (and the tools built on it) reads glyphs in the order they
are drawn.

Left to right (``_draw_ltr``), every glyph of a shaped word has a code of its own (``code``) for that
glyph, where HarfBuzz placed it *and the text it stands for*. The glyphs of a cluster (the characters
HarfBuzz drew together) share its text out in drawing order, one character each and the rest to the
last, so the codes read in order give the characters in the order they were typed. A cluster with
more glyphs than characters (கொ: three glyphs for two) leaves a glyph with no text; it is drawn inside
a span whose /ActualText is the cluster's text.

Right to left, a word stands in the line as one character of its own (a *token*, ``token``), which
xhtml2pdf's bidirectional algorithm places as a right-to-left letter. Drawn (``_draw``), it is set in a
mirrored text space from its right edge (``-1 0 0 1 x y Tm``), its letters in the order they were
typed, each a mirrored glyph of the cut (``fonts/composites.py``: a letter with its dots and marks, or a
ligature, is one glyph reading as its characters): the letters land where they belong, pdfminer reads
them in the order they were typed, and pdfium, which turns a mirrored right-to-left piece of text
around before it turns the line's right-to-left runs around, reads them as it reads any right-to-left
PDF. The pen is then put back on the line (Tm, and a TJ that only moves it), which needs to know where
it stands: the text object keeps the line's origin and how far the text drawn since has moved the pen.

A code carries its glyph's placement, so text the bidirectional algorithm cut into plain strings is
still drawn as shaped. Codes and tokens are per document (``reset``). The drawing itself is
``textdraw.py``'s.
"""
from __future__ import annotations

import functools
from typing import NamedTuple

from reportlab.pdfbase import ttfonts
from reportlab.pdfbase.ttfonts import ShapedStr, TTFont
from xhtml2pdf import bidi as xbidi
from xhtml2pdf import reportlab_paragraph as engine

PRIVATE_START = 0xF0000  # glyph codes: plane 15 (private use), which no font's character map has
TOKEN_START = 0x100000   # tokens: plane 16 (private use)
SIMPLE = 0x7FFFFFFF  # ReportLab's cluster for a plain character added to a shaped string (a space)


class Place(NamedTuple):
    text: str        # what the glyph reads as
    advance: float   # how far on the next glyph starts (1/1000 em)
    x_offset: float  # where it is drawn from the pen
    y_offset: float
    width: float     # its PDF width: reaches where the next glyph starts (a mark's too)


class Token(NamedTuple):
    codes: str            # its letters' codes, in the order the word was typed
    advance: float        # 1/1000 em
    right_to_left: str    # the bidirectional class the token has in the line: "AL" or "R"


_CODES: dict[tuple, int] = {}  # (face name, glyph, place) -> code
_PLACES: dict[bytes, dict[int, Place]] = {}  # face name -> code -> its place
_TOKENS: dict[int, Token] = {}  # token -> the word it stands for
_TOKEN_KEYS: dict[tuple, int] = {}  # (face name, codes) -> token
_TOKEN_FACES: dict[bytes, set[int]] = {}  # face name -> its tokens


def reset() -> None:
    """Forget the codes and tokens of the document before (each document's faces are its own)."""
    _CODES.clear()
    _PLACES.clear()
    _TOKENS.clear()
    _TOKEN_KEYS.clear()
    _TOKEN_FACES.clear()


def code(font, glyph: int, place: Place) -> int:
    """The code that draws ``glyph`` of ``font`` at ``place``: the character itself when the font's map
    gives it that glyph, drawn where it would be anyway."""
    face = font.face
    if (len(place.text) == 1 and face.charToGlyph.get(ord(place.text)) == glyph and not place.x_offset
            and not place.y_offset and face.charWidths.get(ord(place.text)) == place.advance == place.width):
        return ord(place.text)
    key = (face.name, glyph, place)
    found = _CODES.get(key)
    if found is None:
        places = _PLACES.setdefault(face.name, {})
        found = PRIVATE_START + len(places)
        face.charToGlyph[found] = glyph
        face.glyphToChar.setdefault(glyph, []).append(found)
        face.charWidths[found] = place.width
        places[found] = place
        _CODES[key] = found
    return found


def token(font, codes: str, advance: float, arabic: bool) -> int:
    """The character that stands in the line for a right-to-left word drawn as ``codes`` (each a letter
    of the face's mirrored glyphs, in the order the word was typed)."""
    face = font.face
    key = (face.name, codes)
    found = _TOKEN_KEYS.get(key)
    if found is None:
        found = TOKEN_START + len(_TOKENS)
        _TOKENS[found] = Token(codes, advance, "AL" if arabic else "R")
        _TOKEN_KEYS[key] = found
        _TOKEN_FACES.setdefault(face.name, set()).add(found)
        face.charWidths[found] = advance
    return found


def is_token(char: str) -> bool:
    return ord(char) in _TOKENS


def token_of(code_: int) -> Token | None:
    return _TOKENS.get(code_)


def places_of(face_name: bytes) -> dict[int, Place]:
    """The codes of a face's shaped glyphs and their places (empty when it has none)."""
    return _PLACES.get(face_name, {})


def drawn_here(face_name: bytes) -> bool:
    """Whether this module drew text in the face: its codes and tokens need ``textdraw``'s drawing."""
    return face_name in _PLACES or face_name in _TOKEN_FACES


def place(places: dict[int, Place], font, code_: int) -> Place:
    place = places.get(code_)
    if place is None:
        width = font.face.charWidths.get(code_, font.face.defaultWidth)
        place = Place(chr(code_), width, 0.0, 0.0, width)
    return place


def utf16(text: str) -> str:
    return text.encode("utf-16-be").hex().upper()


def _to_unicode_cmap(original):
    """ReportLab's ToUnicode map with every code of a shaped glyph reading as its text, the characters past U+FFFF written as UTF-16 surrogate pairs (ReportLab wrote five hex
    digits, which readers took for another character), and the missing-glyph box (code 0) reading as
    U+FFFD."""
    @functools.wraps(original)
    def make(fontname, subset):
        face_name = fontname.split("+", 1)[-1].encode("pdfdoc", "replace")
        places = next((found for name, found in _PLACES.items() if face_name.startswith(name)), {})
        cmap = original(fontname, subset)
        for index, code_ in enumerate(subset):
            if code_ in places:
                target = utf16(places[code_].text)
            elif code_ == 0:
                target = utf16("\ufffd")
            elif code_ > 0xFFFF:
                target = utf16(chr(code_))
            else:
                continue
            cmap = cmap.replace("<%02X> <%04X>" % (index, code_), "<%02X> <%s>" % (index, target), 1)
        return cmap
    make.shapes = True
    return make


_ORIGINAL_WIDTH = TTFont.stringWidth
_ORIGINAL_CLASS = xbidi.bidirectional
_ORIGINAL_NEEDS = engine.needs_bidi


def _string_width(font, text, size, encoding="utf8"):
    """A string's width, its shaped glyphs measured by how far each moves the pen, a token by its
    word's advance."""
    places = _PLACES.get(font.face.name)
    if not places or isinstance(text, ShapedStr):
        return _ORIGINAL_WIDTH(font, text, size, encoding)
    if isinstance(text, bytes):
        text = text.decode(encoding)
    widths, default = font.face.charWidths, font.face.defaultWidth
    return 0.001 * size * sum(places[code_].advance if code_ in places else widths.get(code_, default)
                              for code_ in map(ord, text))


def _bidirectional(char: str) -> str:
    """The bidirectional class the engine gives a character: a token's is its word's."""
    found = _TOKENS.get(ord(char)) if len(char) == 1 and char >= "\U00100000" else None
    return found.right_to_left if found is not None else _ORIGINAL_CLASS(char)


def _needs_bidi(text: str, base_dir: str | None = "L") -> bool:
    return _ORIGINAL_NEEDS(text, base_dir) or (
        isinstance(text, str) and any(char >= "\U00100000" and ord(char) in _TOKENS for char in text))


def install() -> None:
    """Put the text layer's drawing, widths, ToUnicode maps and bidirectional classes in place, once per
    process."""
    if not getattr(ttfonts.makeToUnicodeCMap, "shapes", False):
        ttfonts.makeToUnicodeCMap = _to_unicode_cmap(ttfonts.makeToUnicodeCMap)
    TTFont.stringWidth = _string_width
    xbidi.bidirectional = _bidirectional
    engine.needs_bidi = _needs_bidi
