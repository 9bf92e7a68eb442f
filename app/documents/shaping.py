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
"""
from __future__ import annotations

import functools
import os

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont, shapeFragWord
from xhtml2pdf import reportlab_paragraph as engine

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


# The text each private-use code stands for, by face name: ReportLab gives a glyph that no character
# maps to (a conjunct, a ligature) a code from U+E000 on; the PDF's ToUnicode map names that text
# instead, so that the text layer (search, copy, an applicant tracking system) reads the word.
_PRIVATE: dict[bytes, dict[int, str]] = {}


def _remember_text(font_name: str, text: str, pieces) -> None:
    codes = _PRIVATE.setdefault(pdfmetrics.getFont(font_name).face.name, {})
    glyphs = [(char, data.cluster) for _frag, shaped in pieces
              for char, data in zip(shaped, getattr(shaped, "__shapeData__", None) or ())]
    starts = sorted({cluster for _char, cluster in glyphs}) + [len(text)]
    drawn: dict[int, list[str]] = {}  # the characters each cluster's own glyphs already give
    for char, cluster in glyphs:
        if not 0xE000 <= ord(char) <= 0xF8FF:
            drawn.setdefault(cluster, []).append(char)
    seen: set[int] = set()
    for char, cluster in glyphs:
        if 0xE000 <= ord(char) <= 0xF8FF:
            rest = text[cluster:next(start for start in starts if start > cluster)]
            for given in drawn.get(cluster, ()):
                rest = rest.replace(given, "", 1)
            codes[ord(char)] = "" if cluster in seen else rest
            seen.add(cluster)


def _to_unicode_cmap(original):
    @functools.wraps(original)
    def make(fontname, subset):
        face_name = fontname.split("+", 1)[-1].encode("pdfdoc", "replace")
        texts = next((codes for name, codes in _PRIVATE.items() if face_name.startswith(name)), {})
        cmap = original(fontname, subset)
        for index, code in enumerate(subset):
            if code in texts:
                target = texts[code].encode("utf-16-be").hex().upper() or "FEFF"
                cmap = cmap.replace("<%02X> <%04X>" % (index, code), "<%02X> <%s>" % (index, target), 1)
        return cmap
    make.shapes = True
    return make


def _shaping(original):
    @functools.wraps(original)
    def get_frag_words(*args, **kwargs):
        words = original(*args, **kwargs)
        return [_shaped(word) if _needs_shaping(word) else word for word in words]
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
