"""Shaping for the scripts whose letters change with their neighbours: Devanagari, Tamil, Thai.

Devanagari writes क + ् + ष as one conjunct glyph, puts the vowel sign ि before
the consonant it follows in the text, and Tamil splits ொ around its consonant;
Thai stacks its vowel and tone marks. A font holds the rules (its GSUB and GPOS
tables) and HarfBuzz applies them. xhtml2pdf sets text glyph by glyph from the
font's character map, so without shaping these scripts print as their letters
side by side with the virama showing.

ReportLab can shape (``reportlab.pdfbase.ttfonts.shapeFragWord``, with
HarfBuzz's Python binding ``uharfbuzz``): it turns a word into the glyphs
HarfBuzz chose, with their offsets, and its canvas draws them so. Its own
paragraphs call it; xhtml2pdf's paragraph engine does not. ``install()`` wraps
the engine's ``_getFragWords`` (which cuts a paragraph into words before lines
are broken) so that each word set in a face ``fonts.py`` marks as shaped goes
through ``shapeFragWord``; the widths the line breaking measures are then the
shaped ones. Words in any other face are left alone. Arabic is joined by
xhtml2pdf itself (presentation forms, ``arabic_reshaper``) and ordered by its
bidirectional algorithm, so it is not shaped here.

The same wrapper counts each word's letter spacing (CSS ``letter-spacing``) in its width, which the
engine draws but did not measure.
"""
from __future__ import annotations

import functools
import os
from typing import NamedTuple

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import ShapedStr, TTFont, shapeFragWord
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.textobject import PDFTextObject
from xhtml2pdf import reportlab_paragraph as engine
from xhtml2pdf.util import getSize

from app.documents import fonts

SHAPED_STEMS = tuple(f"{face.stem}-" for face in fonts.FACES if face.shaped)


@functools.lru_cache(maxsize=256)
def _shaped_font(name: str) -> bool:
    try:
        font = pdfmetrics.getFont(name)
    except (KeyError, ValueError):
        return False
    if not isinstance(font, TTFont) or not font.shapable:
        return False
    filename = os.path.basename(str(getattr(font.face, "filename", "")))
    return filename.startswith(SHAPED_STEMS)


def _needs_shaping(word) -> bool:
    return any(_shaped_font(getattr(frag, "fontName", "")) for frag, _text in word[1:])


def _shaped(word):
    """The word with its pieces in a shaped face as HarfBuzz shapes them; the pieces in other faces
    (a comma after a Devanagari word) as they were. The engine keeps text as UTF-8 bytes; ReportLab
    shapes str, and draws either."""
    pieces = [(frag, text.decode("utf-8") if isinstance(text, bytes) else text) for frag, text in word[1:]]
    out: list = []
    width = 0.0
    run: list = []

    def flush() -> None:
        nonlocal width
        if not run:
            return
        piece = [sum(stringWidth(text, frag.fontName, frag.fontSize) for frag, text in run), *run]
        # Forced: ReportLab keeps a word it thinks unchanged, and 👍🏽 shaped to one glyph, the
        # thumb's own, looked unchanged (the skin tone was then drawn beside it).
        shaped = shapeFragWord(piece, force=True)
        width += shaped[0]
        out.extend(_coded("".join(text for _frag, text in run), shaped[1:]))
        run.clear()

    for frag, text in pieces:
        if _shaped_font(frag.fontName) and (not run or run[-1][0].fontName == frag.fontName):
            run.append((frag, text))
            continue
        flush()
        if _shaped_font(frag.fontName):
            run.append((frag, text))
        else:
            width += stringWidth(text, frag.fontName, frag.fontSize)
            out.append((frag, text))
    flush()
    return type(word)([width, *out])


def shape_piece(frag, text: str) -> tuple[float, str] | None:
    """``text`` set in ``frag``'s face as HarfBuzz shapes it, with its width; None when the face is
    not one that is shaped. The CJK line breaker (``linebreak.py``) shapes each line's pieces so once
    their line is decided."""
    if not text or not _shaped_font(getattr(frag, "fontName", "")):
        return None
    width, (_frag, shaped) = _shaped([0.0, (frag, text)])  # one frag in, one out
    return width, shaped


# The text layer. A shaped word is drawn as the glyphs HarfBuzz chose, which are not its characters: a
# conjunct is one glyph for three characters, Devanagari's vowel sign ि is drawn before the consonant it
# follows, Tamil's ொ is split around its consonant, 👍🏽 is one glyph. What search, copy and an applicant
# tracking system read is each glyph's code through the font's ToUnicode map, in the order the glyphs
# are drawn. So every glyph of a shaped word is drawn under a code of its own (``_code``), for that
# glyph, where HarfBuzz placed it *and the text it stands for*: the glyphs of a cluster (the
# characters HarfBuzz drew together) share its text out in drawing order, one character each and the
# rest to the last, so that the codes read in order give the characters in the order they were typed.
# A cluster with more glyphs than characters (கொ: three glyphs for two) leaves a glyph with no text,
# which some readers (pdfium) fill with the code's number: such a cluster is drawn inside a
# marked-content span whose /ActualText is its text (``_draw``), the PDF's way of saying what a run of
# glyphs reads as. A code carries its glyph's placement, so a word drawn after the bidirectional
# algorithm has cut it into plain strings is still drawn as shaped.
PRIVATE_START = 0xF0000  # codes from Unicode's plane 15 (private use): no font's character map has them


class Place(NamedTuple):
    text: str        # what the glyph reads as
    advance: float   # how far the next glyph starts (1/1000 em)
    x_offset: float  # where it is drawn from the pen
    y_offset: float
    width: float     # its PDF width: reaches where the next glyph starts (a mark's too)


_CODES: dict[tuple, int] = {}  # (face name, glyph, place) -> code
_PLACES: dict[bytes, dict[int, Place]] = {}  # face name -> code -> its place


def _code(font, glyph: int, place: Place) -> int:
    """The code that draws ``glyph`` of ``font`` at ``place``: the character itself when the font's map
    gives it that glyph, drawn where it would be anyway."""
    face = font.face
    if (len(place.text) == 1 and face.charToGlyph.get(ord(place.text)) == glyph and not place.x_offset
            and not place.y_offset and face.charWidths.get(ord(place.text)) == place.advance == place.width):
        return ord(place.text)
    key = (face.name, glyph, place)
    code = _CODES.get(key)
    if code is None:
        places = _PLACES.setdefault(face.name, {})
        code = PRIVATE_START + len(places)
        face.charToGlyph[code] = glyph
        face.glyphToChar.setdefault(glyph, []).append(code)
        face.charWidths[code] = place.width
        places[code] = place
        _CODES[key] = code
    return code


def _coded(text: str, pieces) -> list:
    """The shaped pieces of one run of ``text`` (in one face) with every glyph under its ``_code``."""
    glyphs = [(frag, char, data) for frag, shaped in pieces
              for char, data in zip(shaped, getattr(shaped, "__shapeData__", None) or [None] * len(shaped))]
    if not glyphs or any(data is None for _frag, _char, data in glyphs):
        return list(pieces)  # nothing was shaped
    starts = sorted({data.cluster for _frag, _char, data in glyphs if data.cluster < len(text)}) + [len(text)]
    texts: list[str] = []
    index = 0
    while index < len(glyphs):  # the glyphs of each cluster share its text out
        cluster = glyphs[index][2].cluster
        end = index
        while end < len(glyphs) and glyphs[end][2].cluster == cluster:
            end += 1
        chars = text[cluster:next((start for start in starts if start > cluster), len(text))] \
            if cluster < len(text) else glyphs[index][1]
        count = end - index
        texts.extend([*chars[:count - 1], chars[count - 1:]] if len(chars) >= count else
                     [*chars, *[""] * (count - len(chars))])
        index = end
    out: list = []
    for (frag, char, data), reads in zip(glyphs, texts):
        font = pdfmetrics.getFont(frag.fontName)
        glyph = font.face.charToGlyph.get(ord(char), 0)
        if data.cluster == _SIMPLE:  # a plain character ReportLab added (a space between words)
            place = Place(char, data.width, 0.0, 0.0, data.width)
        else:
            # A glyph drawn back over the one before it (a mark) is as wide as the way to where the next
            # one starts, so that a reader measuring the gaps between glyphs finds none inside a word.
            place = Place(reads, data.x_advance, data.x_offset, data.y_offset,
                          max(data.width, data.x_advance - data.x_offset))
        code = chr(_code(font, glyph, place))
        if out and out[-1][0] is frag:
            out[-1] = (frag, out[-1][1] + code)
        else:
            out.append((frag, code))
    # Plain strings: each code says how its glyph is drawn, and stringWidth measures its advance.
    return [(frag, ShapedStr(piece, shapeData=[_data(ord(char), frag.fontName) for char in piece]))
            for frag, piece in out]


_SIMPLE = 0x7FFFFFFF  # ReportLab's cluster for a plain character added to a shaped string (a space)


def _data(code: int, font_name: str):
    """ReportLab's shape data for a code (its drawing of a ShapedStr reads it)."""
    font = pdfmetrics.getFont(font_name)
    place = _PLACES.get(font.face.name, {}).get(code)
    if place is None:
        width = font.face.charWidths.get(code, font.face.defaultWidth)
        return ttfonts.ShapeData(_SIMPLE, width, 0, 0, 0, width)
    return ttfonts.ShapeData(0, place.advance, 0, place.x_offset, place.y_offset, place.width)


def _utf16(text: str) -> str:
    return text.encode("utf-16-be").hex().upper()


def _to_unicode_cmap(original):
    """ReportLab's ToUnicode map with every code of a shaped glyph reading as its text, the characters
    past U+FFFF written as UTF-16 surrogate pairs (ReportLab wrote five hex digits, which readers took
    for another character), and the missing-glyph box (code 0) reading as U+FFFD."""
    @functools.wraps(original)
    def make(fontname, subset):
        face_name = fontname.split("+", 1)[-1].encode("pdfdoc", "replace")
        places = next((found for name, found in _PLACES.items() if face_name.startswith(name)), {})
        cmap = original(fontname, subset)
        for index, code in enumerate(subset):
            if code in places:
                target = _utf16(places[code].text)
            elif code == 0:
                target = _utf16("\ufffd")
            elif code > 0xFFFF:
                target = _utf16(chr(code))
            else:
                continue
            cmap = cmap.replace("<%02X> <%04X>" % (index, code), "<%02X> <%s>" % (index, target), 1)
        return cmap
    make.shapes = True
    return make


def _draw(textobject, text: str) -> str:
    """The PDF operators that draw ``text`` in a face this module shaped: every glyph where its code
    places it (ReportLab's drawing of a shaped string), each cluster that has a glyph of no text inside
    a span whose /ActualText is the cluster's text."""
    places = _PLACES[pdfmetrics.getFont(textobject._fontname).face.name]
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
            operators.append(_shaped_text(textobject, text[plain:start]))
        reads = "".join(places[ord(char)].text if ord(char) in places else char for char in text[start:end])
        operators += [f"/Span <</ActualText <FEFF{_utf16(reads)}>>> BDC",
                      _shaped_text(textobject, text[start:end]), "EMC"]
        plain = end
    if plain < len(text):
        operators.append(_shaped_text(textobject, text[plain:]))
    return " ".join(operators)


def _shaped_text(textobject, text: str) -> str:
    """``text`` drawn glyph by glyph where its codes place them: TJ arrays whose numbers move each glyph
    by HarfBuzz's offset and the pen on by its advance, a rise (Ts) for a glyph drawn above or below
    the line, the subset's font chosen as ReportLab does."""
    font = pdfmetrics.getFont(textobject._fontname)
    canvas, size = textobject._canvas, textobject._fontsize
    places = _PLACES.get(font.face.name, {})
    widths, default = font.face.charWidths, font.face.defaultWidth
    operators: list[str] = []
    items: list[str] = []
    base = rise = textobject._rise

    def close() -> None:
        if items:
            operators.append(f"[{' '.join(items)}] TJ")
            items.clear()

    index = 0
    for subset, chunk in font.splitString(text, canvas._doc):
        if subset != textobject._curSubset:
            close()
            operators.append(f"{font.getSubsetInternalName(subset, canvas._doc)} {fp_str(size)} Tf "
                             f"{fp_str(textobject._leading)} TL")
            textobject._curSubset = subset
        for byte in chunk:
            code = ord(text[index])
            index += 1
            place = places.get(code)
            if place is None:
                width = widths.get(code, default)
                place = Place("", width, 0.0, 0.0, width)
            wanted = base + size * place.y_offset / 1000
            if wanted != rise:
                close()
                operators.append(f"{fp_str(wanted)} Ts")
                rise = wanted
            if place.x_offset:
                items.append(fp_str(-place.x_offset))
            items.append(f"({canvas._escape(bytes([byte]))})")
            back = place.width - place.advance + place.x_offset
            if back:
                items.append(fp_str(back))
    close()
    if rise != base:
        operators.append(f"{fp_str(base)} Ts")
    return " ".join(operators)


_ORIGINAL_FORMAT = PDFTextObject._formatText
_ORIGINAL_WIDTH = TTFont.stringWidth


def _format_text(textobject, text):
    font = pdfmetrics.getFont(textobject._fontname)
    if getattr(font, "_dynamicFont", False) and font.face.name in _PLACES:
        return _draw(textobject, text.decode("utf-8") if isinstance(text, bytes) else str(text))
    return _ORIGINAL_FORMAT(textobject, text)


def _string_width(font, text, size, encoding="utf8"):
    """A string's width, its shaped glyphs measured by how far each moves the pen."""
    places = _PLACES.get(font.face.name)
    if not places or isinstance(text, ShapedStr):
        return _ORIGINAL_WIDTH(font, text, size, encoding)
    if isinstance(text, bytes):
        text = text.decode(encoding)
    widths, default = font.face.charWidths, font.face.defaultWidth
    return 0.001 * size * sum(places[code].advance if code in places else widths.get(code, default)
                              for code in map(ord, text))


def _spacing(frag) -> float:
    """The letter spacing a frag is drawn with (CSS ``letter-spacing``), in points."""
    value = getattr(frag, "letterSpacing", "normal")
    if value in ("normal", None, ""):
        return 0.0
    return getSize("".join(value) if isinstance(value, (list, tuple)) else str(value), frag.fontSize) or 0.0


def _spaced(word):
    """The word with the room its letter spacing takes: the engine draws every character that much
    further on (``setCharSpace``) but measured the word without it, so a spaced-out line (Heritage's
    small-caps name) ran past the right margin."""
    # Each character, and the space after the word, which is drawn spaced too (a line's last word
    # counts one space more than it has: a line breaks a little early rather than overrun).
    pieces = [(frag, text) for frag, text in word[1:] if not hasattr(frag, "cbDefn")]
    extra = sum(_spacing(frag) * len(text.decode("utf-8") if isinstance(text, bytes) else text)
                for frag, text in pieces) + (_spacing(pieces[-1][0]) if pieces else 0.0)
    if not extra:
        return word
    spaced = type(word)(word)
    spaced[0] = word[0] + extra
    return spaced


def _shaping(original):
    @functools.wraps(original)
    def get_frag_words(*args, **kwargs):
        words = original(*args, **kwargs)
        return [_spaced(_shaped(word) if _needs_shaping(word) else word) for word in words]
    get_frag_words.shapes = True
    return get_frag_words


def install() -> None:
    """Wrap the paragraph engine's word cutting, the ToUnicode maps and the drawing of shaped strings
    once per process; forget the codes of the document before."""
    if not getattr(engine._getFragWords, "shapes", False):
        engine._getFragWords = _shaping(engine._getFragWords)
    if not getattr(ttfonts.makeToUnicodeCMap, "shapes", False):
        ttfonts.makeToUnicodeCMap = _to_unicode_cmap(ttfonts.makeToUnicodeCMap)
    PDFTextObject._formatText = _format_text
    TTFont.stringWidth = _string_width
    _CODES.clear()
    _PLACES.clear()
    _shaped_font.cache_clear()  # names are reused by the next document's faces
