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
import unicodedata

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont, shapeFragWord
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
        shaped = shapeFragWord(piece)
        width += shaped[0]
        out.extend(shaped[1:])
        _remember_text(run[0][0].fontName, "".join(text for _frag, text in run), shaped[1:])
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


# The text each private-use code stands for, by face name: ReportLab gives a glyph that no character
# maps to (a conjunct, a ligature, a vowel sign's other form) a code from U+E000 on; the PDF's
# ToUnicode map names that text instead, so that the text layer (search, copy, an applicant tracking
# system) reads the word. Each cluster HarfBuzz returns is recorded: its private glyphs and the
# letters they stand for between them (the cluster's text less what its other glyphs draw).
_PRIVATE: dict[bytes, list[tuple[tuple[int, ...], str]]] = {}


def _private(char: str) -> bool:
    return 0xE000 <= ord(char) <= 0xF8FF


def _remember_text(font_name: str, text: str, pieces) -> None:
    clusters = _PRIVATE.setdefault(pdfmetrics.getFont(font_name).face.name, [])
    glyphs = [(char, data.cluster) for _frag, shaped in pieces
              for char, data in zip(shaped, getattr(shaped, "__shapeData__", None) or ())]
    starts = sorted({cluster for _char, cluster in glyphs}) + [len(text)]
    for cluster in sorted({cluster for char, cluster in glyphs if _private(char)}):
        # Decomposed, as the shaper may draw a letter as its parts: Thai ำ as ํ and า.
        rest = unicodedata.normalize("NFKD", text[cluster:next(start for start in starts if start > cluster)])
        for char, at in glyphs:
            if at == cluster and not _private(char):
                rest = rest.replace(unicodedata.normalize("NFKD", char), "", 1)
        clusters.append((tuple(ord(char) for char, at in glyphs if at == cluster and _private(char)), rest))


def _texts(clusters: list[tuple[tuple[int, ...], str]]) -> dict[int, str]:
    """The text of each private code: a glyph alone in a cluster stands for all of the cluster's rest;
    in a cluster of several, what the others are known to stand for is taken away, and a last
    unknown one stands for what is left. What stays unknown: the first of its cluster stands for the
    rest, the others for nothing."""
    known: dict[int, str] = {codes[0]: rest for codes, rest in clusters if len(codes) == 1}
    changed = True
    while changed:
        changed = False
        for codes, rest in clusters:
            unknown = [code for code in codes if code not in known]
            if len(unknown) == 1:
                left = rest
                for code in codes:
                    if code in known:
                        left = left.replace(known[code], "", 1)
                known[unknown[0]] = left
                changed = True
    for codes, rest in clusters:
        for index, code in enumerate(codes):
            known.setdefault(code, rest if index == 0 else "")
    return known


def _to_unicode_cmap(original):
    @functools.wraps(original)
    def make(fontname, subset):
        face_name = fontname.split("+", 1)[-1].encode("pdfdoc", "replace")
        texts = _texts(next((found for name, found in _PRIVATE.items() if face_name.startswith(name)), []))
        cmap = original(fontname, subset)
        for index, code in enumerate(subset):
            if code in texts:
                target = texts[code].encode("utf-16-be").hex().upper() or "FEFF"
                cmap = cmap.replace("<%02X> <%04X>" % (index, code), "<%02X> <%s>" % (index, target), 1)
        return cmap
    make.shapes = True
    return make


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
    """Wrap the paragraph engine's word cutting once per process."""
    if not getattr(engine._getFragWords, "shapes", False):
        engine._getFragWords = _shaping(engine._getFragWords)
    if not getattr(ttfonts.makeToUnicodeCMap, "shapes", False):
        ttfonts.makeToUnicodeCMap = _to_unicode_cmap(ttfonts.makeToUnicodeCMap)
    _PRIVATE.clear()
    _shaped_font.cache_clear()  # names are reused by the next document's faces
