"""Line breaking for paragraphs with CJK text, in place of xhtml2pdf's "dumbest possible" one.

xhtml2pdf lays out a paragraph marked ``-pdf-word-wrap: CJK`` (``fonts/scripts.py``
marks every block holding CJK text) with ``Paragraph.breakLinesCJK``, which
breaks anywhere: in the middle of "PostgreSQL" or of a phone number, and it
hangs a 。 that cannot start a line in the right margin, outside the content
box. ``install()`` replaces that one method with ``break_lines``, which keeps
the engine's line objects (``cjkU`` units, ``makeCJKParaLine``) and changes
only where lines end. The rules, a small part of Unicode's line breaking
algorithm (UAX #14) that covers Chinese, Japanese and Korean mixed with Latin:

- a line may end between two CJK characters, or between a CJK character and a
  Latin one, and after a space;
- never before a closing mark (``CANNOT_START``: 。，、）》」! ...) nor after an
  opening one (``CANNOT_END``: （《「 ...); the character before a closing
  mark comes down with it instead of hanging it in the margin;
- not inside a Latin word or number, nor at a no-break space, nor between a number and the
  character before or after it ("2019年3月" never ends a line at "2019年3");
- inside a run of Thai, which has no spaces between its words, only between
  two words: ``thai_breaks`` finds them with PyThaiNLP's dictionary segmenter
  (``newmm``, maximal matching over Thai character clusters);
- a piece with no break that is wider than the line (a URL, an e-mail, a date in
  a ``white-space: nowrap`` cell too narrow for it) is cut after the last
  ``/ . - @ ? & = _`` that fits, else at the last no-break space, else between a
  number and the CJK character beside it ("2019年" | "10月", never "2019年1" |
  "0月"), else at the last character that fits, never before a combining mark (a
  vowel or tone mark stays on its consonant);
- spaces at the end of a line are dropped, so centred and right-aligned lines
  sit where they should; a ``<br>`` ends the line.

Every paragraph: a space at the edge of a ``white-space: nowrap`` text (before a
span in another script's face) is kept, which xhtml2pdf dropped
(``_keeping_nowrap_spaces``).

The units are measured one character at a time; once a line is decided, its
pieces in a shaped face (Thai, Devanagari, Tamil: ``shaping.py``) are shaped as
a whole and the line's spare room is measured again, so a Thai tone mark still
sits above its vowel and a Hindi conjunct is still one glyph in these blocks.

``install()`` is called by ``pdf.py`` before each render and patches once per
process; xhtml2pdf's own tests of its CJK mode do not run here, so the
replacement is tested by the layout checks of every template.
"""
from __future__ import annotations

import functools
import re
import unicodedata

from reportlab.lib.textsplit import ALL_CANNOT_END, ALL_CANNOT_START
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.rl_settings import _FUZZ
from xhtml2pdf import context
from xhtml2pdf import reportlab_paragraph as engine

from app.config import thai_segmenter_read_only
from app.documents.pdf import shaping
from app.documents.fonts.scripts import CJK_RUN

CANNOT_START = frozenset(ALL_CANNOT_START) | frozenset(
    "，．：；？！）》〉」』】〕〗〙〛｝］”’…‥、。·・ー～％‰℃％" "!),.:;?]}%"
)
CANNOT_END = frozenset(ALL_CANNOT_END) | frozenset("（《〈「『【〔〖〘〚｛［“‘(" "[{")
BREAKING_SPACES = frozenset(" \t\n\r\u3000\u2002\u2003\u2009")  # not the no-break ones
NO_BREAK_SPACES = frozenset("\u00a0\u202f\u2007")
URL_BREAKS = frozenset("/.-@?&=_")
THAI_RUN = re.compile("[\u0e01-\u0e4e]+")  # Thai letters, vowels, tone marks (not its digits or spaces)


def _wide(char: str) -> bool:
    return bool(char) and CJK_RUN.fullmatch(char) is not None


def break_allowed(before: str, after: str) -> bool:
    """Whether a line may end between the characters ``before`` and ``after``."""
    if not before or not after:  # an inline box's marker (no text) sticks to its neighbours
        return False
    if after in BREAKING_SPACES:
        return False  # the break comes after the spaces
    if after in CANNOT_START or before in CANNOT_END:
        return False
    if before in BREAKING_SPACES:
        return True
    if (before.isdigit() and _wide(after)) or (_wide(before) and after.isdigit()):
        return False  # a number keeps to its counter and its neighbours: "2019年11月", "从68毫秒"
    return _wide(before) or _wide(after)


@functools.lru_cache(maxsize=1)
def _thai_words():
    thai_segmenter_read_only()
    from pythainlp.tokenize import word_tokenize
    return functools.partial(word_tokenize, engine="newmm", keep_whitespace=False)


def thai_breaks(text: str) -> frozenset[int]:
    """The offsets in ``text`` between two Thai words of one run (no space between them), where a
    line may end. Nothing is loaded for text without Thai."""
    breaks: set[int] = set()
    for match in THAI_RUN.finditer(text):
        words = _thai_words()(match.group())
        if "".join(words) != match.group():
            continue  # not a segmentation of the run: leave it whole
        at = match.start()
        for word in words[:-1]:
            at += len(word)
            breaks.add(at)
    return frozenset(breaks)


def _combining(char: str) -> bool:
    return bool(char) and unicodedata.category(char) in ("Mn", "Mc", "Me")


def _is_line_break(unit) -> bool:
    return hasattr(unit.frag, "lineBreak")


def _emergency_end(units, start: int, overflow: int) -> int:
    """Where to cut a piece with no allowed break: after a URL separator that fits, else before
    the character that overflowed (one character at least per line)."""
    for index in range(overflow - 1, start, -1):
        if units[index - 1] in URL_BREAKS and units[index] not in CANNOT_START:
            return index
    for index in range(overflow - 1, start, -1):  # a space the rules kept (no-break, white-space: nowrap)
        if units[index - 1] in NO_BREAK_SPACES and units[index] not in CANNOT_START:
            return index
    for index in range(overflow - 1, start, -1):  # then between a number and its counter: "2019年" | "10月"
        before, after = units[index - 1], units[index]
        if (_wide(before) != _wide(after) and before and after and after not in CANNOT_START
                and before not in CANNOT_END and not _combining(after)):
            return index
    end = overflow
    while end > start + 1 and _combining(units[end]):
        end -= 1  # a mark goes down with the letter it sits on
    if end == start + 1 and _combining(units[end]):
        end = overflow + 1
        while end < len(units) and _combining(units[end]):
            end += 1  # one letter with its marks is wider than the line: it still goes whole
    return max(end, start + 1)


def _line(units, width: float, calc_bounds: bool):
    """One line of ``units`` in ``width``, its pieces in shaped faces shaped."""
    used = sum(unit.width for unit in units)
    line = engine.makeCJKParaLine(units, width - used, calc_bounds)
    for word in line.words:
        text = word.text if isinstance(word.text, str) else word.text.decode("utf-8")
        shaped = shaping.shape_piece(word, text)
        if shaped is not None:
            shaped_width, word.text = shaped
            used += shaped_width - stringWidth(text, word.fontName, word.fontSize)
    line.extraSpace = width - used
    return line


def split_units(units, max_widths, calc_bounds: bool, breaks: frozenset[int] = frozenset()):
    """The lines of ``units`` (``cjkU`` objects) in the widths given, as the engine's ParaLines;
    ``breaks`` are more places (offsets into ``units``) where a line may end: between Thai words."""
    lines = []
    count = len(units)
    start = 0

    def width_at(line: int) -> float:
        return max_widths[min(line, len(max_widths) - 1)]

    def emit(end: int) -> None:
        stop = end
        while stop > start and units[stop - 1] in BREAKING_SPACES:
            stop -= 1  # spaces at the end of a line take no room
        lines.append(_line(units[start:stop], width_at(len(lines)), calc_bounds))

    while start < count:
        while start < count and units[start] in BREAKING_SPACES and lines:
            start += 1  # nor do spaces at the start of a wrapped line
        if start >= count:
            break
        limit = width_at(len(lines)) + _FUZZ
        used = 0.0
        last_break = None
        end = None
        index = start
        while index < count:
            unit = units[index]
            if _is_line_break(unit):
                emit(index)
                start = index + 1
                end = -1
                break
            if index > start and (index in breaks or break_allowed(units[index - 1], unit)):
                last_break = index
            used += unit.width
            if used > limit and unit not in BREAKING_SPACES:
                end = last_break if last_break is not None else _emergency_end(units, start, index)
                break
            index += 1
        if end is None:  # the rest fits
            emit(count)
            break
        if end >= 0:
            emit(end)
            start = end
    return engine.ParaLines(kind=1, lines=lines)


def _marker(frag, encoding):
    """A frag without text (an image, an inline box's edge) as a unit: an inline box's edge takes
    the room of its padding and border (``advance``), which the engine draws but ``cjkU`` does not
    count, so a line ending in a padded label once ran past the column's edge."""
    unit = engine.cjkU("", frag, encoding)
    callback = getattr(frag, "cbDefn", None)
    if callback is not None and not getattr(callback, "width", 0):
        unit._width = getattr(callback, "advance", 0) + getattr(callback, "reserve", 0)
    return unit


def break_lines(self, width):
    """``Paragraph.breakLinesCJK`` with the rules above."""
    max_widths = list(width) if isinstance(width, (list, tuple)) else [width]
    style = self.style
    engine._handleBulletWidth(self.bulletText, style, max_widths, rtl=self.dir == "rtl")
    if not self.frags:
        return _original(self, width)
    auto_leading = getattr(self, "autoLeading", getattr(style, "autoLeading", ""))
    units = []
    for frag in self.frags:
        text = frag.text if isinstance(frag.text, str) else frag.text.decode(self.encoding)
        if text:
            units.extend(engine.cjkU(char, frag, self.encoding) for char in text)
        else:
            units.append(_marker(frag, self.encoding))
    return split_units(units, max_widths, auto_leading not in {"", "off"}, thai_breaks(_text(units)))


def _text(units) -> str:
    """The units' text, one character per unit (a marker, which has none, as U+FFFC)."""
    return "".join(unit or "\ufffc" for unit in units)


_original = engine.Paragraph.breakLinesCJK


def _keeping_nowrap_spaces(add_frag):
    """xhtml2pdf's ``addFrag`` keeping the space at either edge of a ``white-space: nowrap`` text: the
    engine joins the words of each text on its own, so a space between "2002 –" and a run of another
    script ("сент.", a span of its own face) was lost ("2002 –сент.", and the line was cut inside a
    word). Such a space becomes a no-break one, in the face of the text after it."""
    def add(self, text="", frag=None):
        if getattr(self.frag, "whiteSpace", None) != "nowrap":
            self._nowrap_space = False
            return add_frag(self, text, frag)
        space = getattr(self, "_nowrap_space", False) or text[:1].isspace()
        before = len(self.fragList)
        result = add_frag(self, text, frag)
        if len(self.fragList) > before:
            if space and not _ends_in_space(self.fragList, before):
                gap = self.fragList[before].clone()
                gap.text = "\u00a0"
                self.fragList.insert(before, gap)
            self._nowrap_space = text[-1:].isspace()
        else:
            self._nowrap_space = space or text[-1:].isspace()
        return result

    add.keeps_nowrap_spaces = True
    return add


def _ends_in_space(frags: list, end: int) -> bool:
    """Whether a paragraph's first ``end`` fragments end in a space or a line break (or there are none)."""
    for frag in (frags[index] for index in range(end - 1, -1, -1)):
        if getattr(frag, "lineBreak", False):
            return True
        text = getattr(frag, "text", "")
        if isinstance(text, str) and text:
            return text[-1].isspace()
    return True


def install() -> None:
    """Lay out xhtml2pdf's CJK paragraphs with ``break_lines``, and keep the spaces at the edges of
    ``white-space: nowrap`` texts (idempotent)."""
    if engine.Paragraph.breakLinesCJK is not break_lines:
        engine.Paragraph.breakLinesCJK = break_lines
    if not getattr(context.pisaContext.addFrag, "keeps_nowrap_spaces", False):
        context.pisaContext.addFrag = _keeping_nowrap_spaces(context.pisaContext.addFrag)
