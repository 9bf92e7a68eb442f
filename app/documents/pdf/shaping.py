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
are broken) so that each word set in a face ``fonts/cuts.py`` marks as shaped goes
through ``shapeFragWord``; the widths the line breaking measures are then the
shaped ones. Words in any other face are left alone. Each glyph is then drawn
under a code that carries its text and placement (``textlayer.py``), so that
the text layer reads as the text was typed.

Arabic and Hebrew are shaped here too (xhtml2pdf's own joining, with
``arabic_reshaper``'s presentation forms, dropped the harakat, tanween
included, and left some runs unjoined): a word's right-to-left part becomes one
*token* (``textlayer.token``), a character the bidirectional algorithm orders
as a right-to-left letter and the text layer draws as the word's glyphs. The
numbers and punctuation between Arabic words stay characters, which the
algorithm orders as numbers. xhtml2pdf's reshaping is turned off.

The same wrapper counts each word's letter spacing (CSS ``letter-spacing``) in its width, which the
engine draws but did not measure.
"""
from __future__ import annotations

import functools
import logging
import os


from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont, shapeFragWord
from xhtml2pdf import context as xhtml2pdf_context
from xhtml2pdf import reportlab_paragraph as engine
from xhtml2pdf.util import getSize

from app.documents.fonts import composites, cuts
from app.documents.pdf import textdraw, textlayer
from app.documents.pdf.textlayer import Place

log = logging.getLogger(__name__)

SHAPED_STEMS = tuple(f"{face.stem}-" for face in cuts.FACES if face.shaped)
RIGHT_TO_LEFT_STEMS = tuple(f"{face.stem}-" for face in cuts.FACES if face.right_to_left)
MIN_WIDTH = 1.0  # 1/1000 em: the PDF width of a mark after a mark of no width (see _left_to_right)


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


@functools.lru_cache(maxsize=256)
def _rtl_font(name: str) -> bool:
    filename = os.path.basename(str(getattr(pdfmetrics.getFont(name).face, "filename", "")))
    return filename.startswith(RIGHT_TO_LEFT_STEMS)


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
        shaped_width, shaped = (_right_to_left if _rtl_font(run[0][0].fontName) else _left_to_right)(run)
        width += shaped_width
        out.extend(shaped)
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
    shaped = _shaped([0.0, (frag, text)])
    width, pieces = shaped[0], shaped[1:]
    return width, "".join(piece for _frag, piece in pieces)


def _shape(run: list):
    """``run`` ((frag, text) pieces in one face) shaped: its width, and ReportLab's shaped pieces, in
    the order HarfBuzz gives its glyphs (drawing order). Forced: ReportLab keeps a word it thinks
    unchanged, and 👍🏽 shaped to one glyph, the thumb's own, looked unchanged (the skin tone was
    then drawn beside it)."""
    piece = [sum(stringWidth(text, frag.fontName, frag.fontSize) for frag, text in run), *run]
    shaped = shapeFragWord(piece, force=True)
    return shaped[0], shaped[1:]


def _glyphs(pieces) -> list:
    """(frag, ReportLab's code, shape data) of each glyph of shaped pieces, in drawing order."""
    return [(frag, char, data) for frag, shaped in pieces
            for char, data in zip(shaped, getattr(shaped, "__shapeData__", None) or [None] * len(shaped))]


def _clusters(text: str, glyphs: list) -> list[tuple[int, int, str]]:
    """(first, end, characters) of each cluster: the glyphs HarfBuzz drew for the same characters."""
    starts = sorted({data.cluster for _frag, _char, data in glyphs if data.cluster < len(text)}) + [len(text)]
    clusters = []
    index = 0
    while index < len(glyphs):
        cluster = glyphs[index][2].cluster
        end = index
        while end < len(glyphs) and glyphs[end][2].cluster == cluster:
            end += 1
        chars = text[cluster:next((start for start in starts if start > cluster), len(text))] \
            if cluster < len(text) else glyphs[index][1]
        clusters.append((index, end, chars))
        index = end
    return clusters


def _left_to_right(run: list) -> tuple[float, list]:
    """A left-to-right run shaped, every glyph under its ``textlayer.code``: the glyphs of a cluster
    share its text out in drawing order, one character each and the rest to the last."""
    text = "".join(piece for _frag, piece in run)
    width, pieces = _shape(run)
    glyphs = _glyphs(pieces)
    if not glyphs or any(data is None for _frag, _char, data in glyphs):
        return width, list(pieces)  # nothing was shaped
    texts: list[str] = []
    for first, end, chars in _clusters(text, glyphs):
        count = end - first
        texts.extend([*chars[:count - 1], chars[count - 1:]] if len(chars) >= count else
                     [*chars, *[""] * (count - len(chars))])
    out: list = []
    previous_width = None
    for (frag, char, data), reads in zip(glyphs, texts):
        font = pdfmetrics.getFont(frag.fontName)
        glyph = font.face.charToGlyph.get(ord(char), 0)
        if data.cluster == textlayer.SIMPLE:  # a plain character ReportLab added (a space between words)
            place = Place(char, data.width, 0.0, 0.0, data.width)
        else:
            # A glyph drawn back over the one before it (a mark) is as wide as the way to where the next
            # one starts, so that a reader measuring the gaps between glyphs finds none inside a word; a
            # mark after a mark of no width is not quite of none, as pdfminer ends a line between two
            # (ิ then ่), and pdfium reads a space before a first one that has any.
            y_offset = data.y_offset
            if y_offset:  # set off the line: the cut's glyph drawn there, if it has one (fonts/composites.py)
                raised = composites.raised_glyph(str(font.face.filename), glyph,
                                                 round(y_offset * font.face.unitsPerEm / 1000))
                if raised is not None:
                    glyph, y_offset = raised, 0.0
            drawn = max(data.width, data.x_advance - data.x_offset)
            if not drawn and previous_width == 0:
                drawn = MIN_WIDTH
            place = Place(reads, data.x_advance, data.x_offset, y_offset, drawn)
        previous_width = place.width
        code = chr(textlayer.code(font, glyph, place))
        if out and out[-1][0] is frag:
            out[-1] = (frag, out[-1][1] + code)
        else:
            out.append((frag, code))
    return width, out


def _right_to_left(run: list) -> tuple[float, list]:
    """A run in an Arabic or Hebrew face: each stretch of right-to-left letters (with the marks and
    punctuation among them) shaped into one token per frag; numbers and the rest as they were."""
    chars = [(frag, char) for frag, text in run for char in text]
    text = "".join(char for _frag, char in chars)
    width = 0.0
    out: list = []
    for start, end, backwards in composites.stretches(text):
        if backwards:
            shaped_width, tokens = _tokens(chars[start:end])
            width += shaped_width
            out.extend(tokens)
            continue
        for frag, char in chars[start:end]:
            width += stringWidth(char, frag.fontName, frag.fontSize)
            if out and out[-1][0] is frag and not textlayer.is_token(out[-1][1][-1]):
                out[-1] = (frag, out[-1][1] + char)
            else:
                out.append((frag, char))
    return width, out


def _tokens(chars: list) -> tuple[float, list]:
    """Right-to-left letters shaped (``composites.letters``): a token per frag (``textlayer.token``) of
    the letters' mirrored glyphs, each under a code reading as its characters, in the order they were
    typed (and the bidirectional algorithm orders the tokens). Letters the cut has no glyph for (it was
    made for other words) are drawn as they were, unjoined."""
    frag0 = chars[0][0]
    font = pdfmetrics.getFont(frag0.fontName)
    text = "".join(char for _frag, char in chars)
    path = str(font.face.filename)
    letters = composites.letters(font.hbFont(frag0.fontSize), text)
    glyphs = [composites.glyph_of(path, letter) for letter in letters]
    if None in glyphs:
        log.warning("no mirrored glyph in %s for a letter of %r: drawn unshaped", os.path.basename(path), text)
        return sum(stringWidth(char, frag.fontName, frag.fontSize) for frag, char in chars), [
            (frag, char) for frag, char in chars]
    pieces: dict[int, list] = {}  # id of frag -> [(first character, code, advance)]
    frags = {}
    for letter, glyph in zip(letters, glyphs):
        frag = chars[letter.start][0]
        frags[id(frag)] = frag
        advance = font.pdfScale(letter.advance)
        pieces.setdefault(id(frag), []).append((letter.start, textlayer.code(font, glyph, Place(
            text[letter.start:letter.end], advance, 0.0, 0.0, advance)), advance))
    arabic = any("\u0600" <= char <= "\u06ff" or "\u0750" <= char <= "\u08ff" for char in text)
    out: list = []
    width = 0.0
    for key in dict.fromkeys(id(frag) for frag, _char in chars):  # the frags in the order they were typed
        letters_of = sorted(pieces.get(key, []))
        if not letters_of:
            continue
        advance = sum(piece[2] for piece in letters_of)
        codes = "".join(chr(piece[1]) for piece in letters_of)
        out.append((frags[key], chr(textlayer.token(font, codes, advance, arabic))))
        width += advance * frags[key].fontSize / 1000
    return width, out


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


def _justified(original, right):
    """A justified line's drawing, that sets a right-to-left paragraph's last line (and any line it
    does not stretch) at the right, where it starts, rather than at the left."""
    @functools.wraps(original)
    def draw(tx, offset, *args):
        line, last = (args[-2], args[-1]) if len(args) > 2 else (args[0], args[1] if len(args) > 1 else 0)
        if getattr(tx, "right_to_left", False):
            words = getattr(line, "wordCount", None)
            stretched = not last and (words is None or words > 1) and abs(getattr(line, "extraSpace", 1)) > 1e-8 \
                and not getattr(line, "lineBreak", False)
            if not stretched:
                return right(tx, offset, *args)
        return original(tx, offset, *args)
    draw.right_to_left = True
    return draw


def _no_reshaping(text, font_name=None):
    """xhtml2pdf's Arabic joining, turned off: the words are shaped here."""
    return None


def install() -> None:
    """Wrap the paragraph engine's word cutting and put the text layer in place, once per process;
    forget the codes and tokens of the document before."""
    if not getattr(engine._getFragWords, "shapes", False):
        engine._getFragWords = _shaping(engine._getFragWords)
    xhtml2pdf_context.shape_frag_text = _no_reshaping
    if not getattr(engine._justifyDrawParaLineX, "right_to_left", False):
        engine._justifyDrawParaLineX = _justified(engine._justifyDrawParaLineX, engine._rightDrawParaLineX)
    textlayer.install()
    textdraw.install()
    textlayer.reset()
    _shaped_font.cache_clear()  # names are reused by the next document's faces
    _rtl_font.cache_clear()
