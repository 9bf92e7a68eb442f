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
typed, each a mirrored glyph of the cut (``composites.py``: a letter with its dots and marks, or a
ligature, is one glyph reading as its characters): the letters land where they belong, pdfminer reads
them in the order they were typed, and pdfium, which turns a mirrored right-to-left piece of text
around before it turns the line's right-to-left runs around, reads them as it reads any right-to-left
PDF. The pen is then put back on the line (Tm, and a TJ that only moves it), which needs to know where
it stands: the text object keeps the line's origin and how far the text drawn since has moved the pen.

A code carries its glyph's placement, so text the bidirectional algorithm cut into plain strings is
still drawn as shaped. Codes and tokens are per document (``reset``).
"""
from __future__ import annotations

import functools
import unicodedata
from typing import NamedTuple

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import ShapedStr, TTFont
from reportlab.pdfgen.textobject import PDFTextObject
from xhtml2pdf import bidi as xbidi
from xhtml2pdf import reportlab_paragraph as engine

PRIVATE_START = 0xF0000  # glyph codes: plane 15 (private use), which no font's character map has
TOKEN_START = 0x100000   # tokens: plane 16 (private use)
EPSILON = 0.01  # points: how far left of its right edge a right-to-left word is set (``_draw``)
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


def _place(places: dict[int, Place], font, code_: int) -> Place:
    place = places.get(code_)
    if place is None:
        width = font.face.charWidths.get(code_, font.face.defaultWidth)
        place = Place(chr(code_), width, 0.0, 0.0, width)
    return place


def _utf16(text: str) -> str:
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
                target = _utf16(places[code_].text)
            elif code_ == 0:
                target = _utf16("\ufffd")
            elif code_ > 0xFFFF:
                target = _utf16(chr(code_))
            else:
                continue
            cmap = cmap.replace("<%02X> <%04X>" % (index, code_), "<%02X> <%s>" % (index, target), 1)
        return cmap
    make.shapes = True
    return make


def _glyphs_text(textobject, font, text: str, places: dict[int, Place], mode: int | None = None,
                 spacing: float = 0.0) -> str:
    """``text`` drawn glyph by glyph where its codes place them: TJ arrays whose numbers move each glyph
    by HarfBuzz's offset and the pen on by its advance, a rise (Ts) for a glyph drawn above or below
    the line, the subset's font chosen as ReportLab does, in render ``mode``; ``spacing``: the letter
    spacing the PDF adds after each glyph, taken back (the glyphs of a token)."""
    canvas, size = textobject._canvas, textobject._fontsize
    operators: list[str] = []
    items: list[str] = []
    base = rise = textobject._rise

    def close() -> None:
        if items:
            operators.append(f"[{' '.join(items)}] TJ")
            items.clear()

    if mode is not None:
        operators.append(f"{mode} Tr")
    index = 0
    for subset, chunk in font.splitString(text, canvas._doc):
        if subset != textobject._curSubset:
            close()
            operators.append(f"{font.getSubsetInternalName(subset, canvas._doc)} {fp_str(size)} Tf "
                             f"{fp_str(textobject._leading)} TL")
            textobject._curSubset = subset
        for byte in chunk:
            place = _place(places, font, ord(text[index]))
            index += 1
            wanted = base + size * place.y_offset / 1000
            if wanted != rise:
                close()
                operators.append(f"{fp_str(wanted)} Ts")
                rise = wanted
            if place.x_offset:
                items.append(fp_str(-place.x_offset))
            items.append(f"({canvas._escape(bytes([byte]))})")
            back = place.width - place.advance + place.x_offset + spacing * 1000 / size
            if back:
                items.append(fp_str(back))
    close()
    if rise != base:
        operators.append(f"{fp_str(base)} Ts")
    if mode is not None:
        operators.append(f"{textobject._textRenderMode} Tr")
    return " ".join(operators)


def _move(textobject, distance: float) -> str:
    """A TJ that moves the pen ``distance`` points on and draws nothing (no reader counts it a piece)."""
    if abs(distance) < 1e-6:
        return ""
    return f"[{fp_str(-distance * 1000 / textobject._fontsize)}] TJ"


def _draw_ltr(textobject, font, text: str) -> str:
    """Text of a left-to-right shaped face: each cluster that has a glyph of no text inside a span
    whose /ActualText is the cluster's text, the rest as its codes place it."""
    places = _PLACES.get(font.face.name, {})
    clusters: list[tuple[int, int]] = []
    for index, char in enumerate(text):  # a cluster: a glyph with text, and the glyphs after it with none
        place = places.get(ord(char))
        if clusters and place is not None and not place.text:
            clusters[-1] = (clusters[-1][0], index + 1)
        else:
            clusters.append((index, index + 1))
    operators: list[str] = []
    plain = 0
    for start, end in clusters:
        if end - start == 1:
            continue
        if start > plain:
            operators.append(_glyphs_text(textobject, font, text[plain:start], places))
        reads = "".join(_place(places, font, ord(char)).text for char in text[start:end])
        operators += [f"/Span <</ActualText <FEFF{_utf16(reads)}>>> BDC",
                      _glyphs_text(textobject, font, text[start:end], places), "EMC"]
        plain = end
    if plain < len(text):
        operators.append(_glyphs_text(textobject, font, text[plain:], places))
    return " ".join(operator for operator in operators if operator)


def _strong(text: str, places: dict[int, Place]) -> bool:
    """Whether a piece of plain text sets its own direction (a number or a letter), unlike a space."""
    return any(unicodedata.bidirectional(char) in ("L", "EN", "AN", "R", "AL")
               for code_ in map(ord, text) for char in (places[code_].text if code_ in places else chr(code_)))


def _draw(textobject, text: str) -> str:
    """The operators that draw ``text`` (its codes and tokens) in a face this module keeps codes for."""
    font = pdfmetrics.getFont(textobject._fontname)
    if not any(ord(char) in _TOKENS for char in text):
        return _draw_ltr(textobject, font, text)
    places = _PLACES.get(font.face.name, {})
    size = textobject._fontsize
    char_space = getattr(textobject, "_charSpace", 0) or 0
    word_space = getattr(textobject, "_wordSpace", 0) or 0
    # Where each character of the (visual) text starts, from the pen, as the engine measured it: a
    # token is one character, as wide as its word.
    starts: list[float] = []
    x = 0.0
    for char in text:
        starts.append(x)
        found = _TOKENS.get(ord(char))
        x += (found.advance if found else _place(places, font, ord(char)).advance) * size / 1000 + char_space
        x += word_space if char == " " else 0.0
    starts.append(x)
    line_x, line_y = textobject._line
    pen = textobject._pen
    # The order the characters were typed in: what the engine's bidirectional algorithm did, undone by
    # running it again over the drawn order (for the one or two levels of a line of a resume, it is its
    # own inverse).
    order, _levels = xbidi.display_order(text, "R" if getattr(textobject, "right_to_left", False) else "L")
    operators: list[str] = []
    group: list[int] = []

    def at(offset: float) -> str:  # the pen put back on the line, ``offset`` points from its start
        return f"1 0 0 1 {fp_str(line_x, line_y)} Tm " + _move(textobject, offset)

    def flush() -> None:
        if group:
            operators.append(at(pen + starts[group[0]]))
            operators.append(_draw_ltr(textobject, font, "".join(text[index] for index in group)))
            group.clear()

    taken: set[int] = set()
    for position, index in enumerate(order):
        if index in taken:
            continue
        found = _TOKENS.get(ord(text[index]))
        if found is None:
            if group and index != group[-1] + 1:
                flush()
            group.append(index)
            continue
        flush()
        # Drawn in a mirrored text space from its right edge, its letters (mirrored glyphs) in the order
        # they were typed: each letter lands where it belongs, a reader taking the text in the order it
        # is drawn reads the word as typed, and one that knows the text runs backwards (pdfium, which
        # turns a mirrored right-to-left piece around) reads it as it reads any right-to-left text.
        # The space typed after the word goes with it: a one-letter word (لا) is then no lone glyph,
        # whose direction pdfium guesses from the page, and the space reads where it was typed. Set a
        # hundredth of a point left, so that pdfium, which sorts a line's pieces by where they start (a
        # mirrored piece at its right edge), puts the piece that starts at that edge after it.
        codes = found.codes
        following = order[position + 1] if position + 1 < len(order) else None
        if following == index - 1 and text[following] == " ":
            codes += " "
            taken.add(following)
        right = line_x + pen + starts[index] + found.advance * size / 1000 - EPSILON
        operators.append(f"-1 0 0 1 {fp_str(right, line_y)} Tm")
        operators.append(_glyphs_text(textobject, font, codes, places))
    flush()
    operators.append(at(pen + starts[-1]))
    return " ".join(operator for operator in operators if operator)


_ORIGINAL_FORMAT = PDFTextObject._formatText
_ORIGINAL_WIDTH = TTFont.stringWidth
_ORIGINAL_CLASS = xbidi.bidirectional
_ORIGINAL_NEEDS = engine.needs_bidi


def _format_text(textobject, text):
    """Text drawn as this module draws it in its faces, as ReportLab does in the others; the pen moved
    on by the text's advance either way."""
    font = pdfmetrics.getFont(textobject._fontname)
    decoded = text.decode("utf-8") if isinstance(text, bytes) else str(text)
    if getattr(font, "_dynamicFont", False) and (font.face.name in _PLACES or font.face.name in _TOKEN_FACES):
        operators = _draw(textobject, decoded)
    else:
        operators = _ORIGINAL_FORMAT(textobject, text)
    textobject._pen = getattr(textobject, "_pen", 0.0) + _advance(textobject, font, decoded)
    return operators


def _advance(textobject, font, text: str) -> float:
    """How far drawing ``text`` moves the pen, in points: the glyphs' widths, the letter spacing after
    each and the word spacing after each space (a tokens' letters take no letter spacing)."""
    size = textobject._fontsize
    char_space = getattr(textobject, "_charSpace", 0) or 0
    word_space = getattr(textobject, "_wordSpace", 0) or 0
    return font.stringWidth(text, size) + char_space * len(text) + word_space * text.count(" ")


# Where the pen is: the text line's origin (set by Tm, moved by Td and T*) and how far the text drawn
# since has moved it; a token is drawn in a text space of its own and the pen put back by Tm.
_ORIGINAL_ORIGIN = PDFTextObject.setTextOrigin
_ORIGINAL_TRANSFORM = PDFTextObject.setTextTransform
_ORIGINAL_MOVE = PDFTextObject.moveCursor
_ORIGINAL_TEXT_OUT = PDFTextObject._textOut
_ORIGINAL_LINE = PDFTextObject.textLine


def _set_text_origin(textobject, x, y):
    _ORIGINAL_ORIGIN(textobject, x, y)
    textobject._line, textobject._pen = (x, y), 0.0


def _set_text_transform(textobject, a, b, c, d, e, f):
    _ORIGINAL_TRANSFORM(textobject, a, b, c, d, e, f)
    textobject._line, textobject._pen = (e, f), 0.0


def _move_cursor(textobject, dx, dy):
    x, y = getattr(textobject, "_line", (0.0, 0.0))
    _ORIGINAL_MOVE(textobject, dx, dy)
    textobject._line, textobject._pen = (x + dx, y - dy), 0.0  # Td moves by (dx, -dy)


def _text_out(textobject, text, TStar=0):  # noqa: N803 (ReportLab's name)
    _ORIGINAL_TEXT_OUT(textobject, text, TStar)
    if TStar:  # T*: the next line, at the start of this one
        x, y = textobject._line
        textobject._line, textobject._pen = (x, y - textobject._leading), 0.0


def _text_line(textobject, text=""):
    _ORIGINAL_LINE(textobject, text)
    x, y = textobject._line
    textobject._line, textobject._pen = (x, y - textobject._leading), 0.0


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


def _begin_text(original):
    @functools.wraps(original)
    def begin_text(paragraph, x, y):
        textobject = original(paragraph, x, y)
        textobject.right_to_left = getattr(paragraph, "dir", "ltr") == "rtl"
        return textobject
    begin_text.marks_direction = True
    return begin_text


def install() -> None:
    """Put the text layer's drawing, widths, ToUnicode maps and bidirectional classes in place, once per
    process."""
    if not getattr(ttfonts.makeToUnicodeCMap, "shapes", False):
        ttfonts.makeToUnicodeCMap = _to_unicode_cmap(ttfonts.makeToUnicodeCMap)
    PDFTextObject._formatText = _format_text
    PDFTextObject.setTextOrigin = _set_text_origin
    PDFTextObject.setTextTransform = _set_text_transform
    PDFTextObject.moveCursor = _move_cursor
    PDFTextObject._textOut = _text_out
    PDFTextObject.textLine = _text_line
    TTFont.stringWidth = _string_width
    xbidi.bidirectional = _bidirectional
    engine.needs_bidi = _needs_bidi
    if not getattr(engine.Paragraph.beginText, "marks_direction", False):
        engine.Paragraph.beginText = _begin_text(engine.Paragraph.beginText)
