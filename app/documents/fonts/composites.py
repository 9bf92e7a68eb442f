"""One mirrored glyph per letter for right-to-left text (``pdf/textlayer.py`` draws the words in a mirrored
text space, so that PDF readers take their letters in the order they were typed).

HarfBuzz draws an Arabic letter in Noto Sans Arabic as its dotless form and its dots, a letter with
harakat as the letter and each mark placed above or below it, lam-alef as one glyph. The cut of a
right-to-left face (``fonts.cut``) gets, for every letter of the words the document draws with it, a
TrueType composite glyph of those glyphs where HarfBuzz put them, mirrored (scaled by -1 across, and
moved by the letter's advance, so that drawn in a mirrored text space it stands the right way round,
in the box its advance makes left of the pen).

- ``stretches`` cuts a word into its right-to-left stretches and the rest (numbers, which the
  bidirectional algorithm orders as numbers): the same cut when the font is made and when the
  document is laid out (``pdf/shaping.py``), so that each letter laid out finds its glyph.
- ``letters`` shapes a stretch with HarfBuzz into letters (its grapheme clusters): the characters,
  the glyphs with their places, the advance.
- ``add`` puts the mirrored letters of a set of words into a font, and lists them in a table of their
  own (``TABLE``); ``glyph_of`` finds a letter's glyph in a cut.
"""
from __future__ import annotations

import functools
import io
import json
import unicodedata
from typing import Iterable, NamedTuple

TABLE = "zCmp"  # the cut's table of its composite glyphs: JSON, the key of each letter -> its glyph


class Letter(NamedTuple):
    start: int     # its characters: text[start:end]
    end: int
    glyphs: tuple[tuple[int, int, int], ...]  # (glyph, x, y): each glyph's place from the letter's pen, font units
    advance: int   # font units


def _backwards(char: str) -> bool | None:
    """Whether a character is written right to left (True), left to right or as a number (False), or
    takes the direction of its neighbours (None: spaces, punctuation, marks)."""
    kind = unicodedata.bidirectional(char)
    return True if kind in ("R", "AL") else False if kind in ("L", "EN", "AN") else None


def stretches(text: str) -> list[tuple[int, int, bool]]:
    """(start, end, right to left) of each stretch of ``text``: right-to-left letters with the marks and
    punctuation among them, and the rest; a neutral goes with what comes before it, and a space ends a
    stretch (a line of a block broken as CJK is shaped whole, a word elsewhere)."""
    directions = [False if char.isspace() else _backwards(char) for char in text]
    known = [direction for direction in directions if direction is not None]
    previous = known[0] if known else True
    for index, direction in enumerate(directions):
        directions[index] = previous = previous if direction is None else direction
    out: list[tuple[int, int, bool]] = []
    for index, direction in enumerate(directions):
        if out and out[-1][2] == direction:
            out[-1] = (out[-1][0], index + 1, direction)
        else:
            out.append((index, index + 1, bool(direction)))
    return out


def letters(hb_font, text: str) -> list[Letter]:
    """``text`` (one right-to-left stretch) shaped into letters, in drawing order (left to right)."""
    import uharfbuzz

    buffer = uharfbuzz.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    buffer.direction = "rtl"
    buffer.cluster_level = uharfbuzz.BufferClusterLevel.MONOTONE_GRAPHEMES
    uharfbuzz.shape(hb_font, buffer, {"kern": True, "liga": True})
    infos, positions = buffer.glyph_infos, buffer.glyph_positions
    starts = sorted({info.cluster for info in infos}) + [len(text)]
    out: list[Letter] = []
    index = 0
    while index < len(infos):
        cluster = infos[index].cluster
        pen = 0
        glyphs = []
        while index < len(infos) and infos[index].cluster == cluster:
            position = positions[index]
            glyphs.append((infos[index].codepoint, pen + position.x_offset, position.y_offset))
            pen += position.x_advance
            index += 1
        out.append(Letter(cluster, starts[starts.index(cluster) + 1], tuple(glyphs), pen))
    return out


def key(glyphs: tuple[tuple[int, int, int], ...]) -> str:
    return "|".join(f"{glyph}:{x}:{y}" for glyph, x, y in glyphs)


def words_of(runs: Iterable[str]) -> frozenset[str]:
    """The right-to-left stretches of the words of some runs of text."""
    found = set()
    for run in runs:
        for word in run.split():
            found.update(word[start:end] for start, end, backwards in stretches(word) if backwards)
    return frozenset(found)


def add(font, words: Iterable[str]) -> None:
    """Put into ``font`` (a fontTools TTFont with TrueType outlines and its layout rules) a mirrored
    glyph for every letter of ``words``, and the table that lists them."""
    import uharfbuzz
    from fontTools.ttLib import newTable
    from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent

    data = io.BytesIO()
    font.save(data)
    hb_font = uharfbuzz.Font(uharfbuzz.Face(uharfbuzz.Blob(data.getvalue())))
    order = font.getGlyphOrder()
    glyf, hmtx = font["glyf"], font["hmtx"]
    names: dict[str, str] = {}
    for word in sorted(words):
        for letter in letters(hb_font, word):
            found = key(letter.glyphs)
            if found in names:
                continue
            name = f"letter.{len(names)}"
            glyph = Glyph()
            glyph.components = []
            for index, x, y in letter.glyphs:
                component = GlyphComponent()
                component.glyphName = order[index]
                component.x, component.y = letter.advance - x, y  # x -> advance - x: mirrored in its box
                component.transform = [[-1, 0], [0, 1]]
                component.flags = 0
                glyph.components.append(component)
            glyph.numberOfContours = -1
            glyf.glyphs[name] = glyph
            order.append(name)
            hmtx.metrics[name] = (letter.advance, 0)
            names[found] = name
    if not names:
        return
    font.setGlyphOrder(order)
    glyf.glyphOrder = order
    for name in names.values():
        glyf[name].recalcBounds(glyf)
        hmtx.metrics[name] = (hmtx.metrics[name][0], glyf[name].xMin)
    font["maxp"].numGlyphs = len(order)
    table = newTable(TABLE)
    index = {name: position for position, name in enumerate(order)}
    table.data = json.dumps({found: index[name] for found, name in names.items()}, sort_keys=True).encode()
    font[TABLE] = table


@functools.lru_cache(maxsize=64)
def _glyphs(path: str) -> dict[str, int]:
    from fontTools.ttLib import TTFont

    font = TTFont(path, lazy=True)
    return json.loads(font[TABLE].data) if TABLE in font else {}


def glyph_of(path: str, letter: Letter) -> int | None:
    """The mirrored glyph that draws ``letter`` in the cut at ``path``, or None where the cut has none
    (a word the cut was not made for)."""
    return _glyphs(path).get(key(letter.glyphs))


# --- glyphs drawn off the line, left to right -----------------------------------------------------------
# HarfBuzz sets some marks above or below where the font draws them (Thai's tone mark over an upper
# vowel, ่ over ิ in เพิ่ม). Drawn with a rise (Ts), such a glyph is a piece of text of its own to PDF
# readers, which then read it apart from its word (pdfium after the line, pdfminer before it). The cut
# of a left-to-right shaped face gets, for each glyph and offset the document's words need, a
# composite of the glyph at that offset (``add_raised``), drawn on the line (``raised_glyph``).

RAISED = "zRsd"  # the cut's table of its raised glyphs: JSON, "glyph:offset" -> its glyph


def _offsets(hb_font, words: Iterable[str]) -> set[tuple[int, int]]:
    """(glyph, vertical offset) of every glyph HarfBuzz sets off the line in ``words``."""
    import uharfbuzz

    found = set()
    for word in words:
        buffer = uharfbuzz.Buffer()
        buffer.add_str(word)
        buffer.guess_segment_properties()
        uharfbuzz.shape(hb_font, buffer, {"kern": True, "liga": True})
        found.update((info.codepoint, position.y_offset)
                     for info, position in zip(buffer.glyph_infos, buffer.glyph_positions) if position.y_offset)
    return found


@functools.lru_cache(maxsize=16)
def _source_font(path: str):
    import uharfbuzz

    return uharfbuzz.Font(uharfbuzz.Face(uharfbuzz.Blob.from_file_path(path)))


def rises(path: str, words: frozenset[str]) -> bool:
    """Whether HarfBuzz sets a glyph of ``words`` off the line in the font at ``path`` (its default
    instance): then its cut is made for the document's words."""
    return bool(words) and bool(_offsets(_source_font(path), words))


def add_raised(font, words: Iterable[str]) -> None:
    """Put into ``font`` (a fontTools TTFont, cut) a composite for every glyph HarfBuzz sets off the
    line in ``words``, at that offset, and the table that lists them."""
    import uharfbuzz
    from fontTools.ttLib import newTable
    from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent

    data = io.BytesIO()
    font.save(data)
    found = sorted(_offsets(uharfbuzz.Font(uharfbuzz.Face(uharfbuzz.Blob(data.getvalue()))), words))
    if not found:
        return
    order = font.getGlyphOrder()
    glyf, hmtx = font["glyf"], font["hmtx"]
    table: dict[str, int] = {}
    for glyph_id, offset in found:
        name = f"raised.{len(table)}"
        glyph = Glyph()
        component = GlyphComponent()
        component.glyphName = order[glyph_id]
        component.x, component.y = 0, offset
        component.flags = 0
        glyph.components = [component]
        glyph.numberOfContours = -1
        glyf.glyphs[name] = glyph
        hmtx.metrics[name] = hmtx.metrics[order[glyph_id]]
        table[f"{glyph_id}:{offset}"] = len(order)
        order.append(name)
    font.setGlyphOrder(order)
    glyf.glyphOrder = order
    for key_, index in table.items():
        glyf[order[index]].recalcBounds(glyf)
    font["maxp"].numGlyphs = len(order)
    table_ = newTable(RAISED)
    table_.data = json.dumps(table, sort_keys=True).encode()
    font[RAISED] = table_


@functools.lru_cache(maxsize=64)
def _raised(path: str) -> dict[str, int]:
    from fontTools.ttLib import TTFont

    font = TTFont(path, lazy=True)
    return json.loads(font[RAISED].data) if RAISED in font else {}


def raised_glyph(path: str, glyph: int, offset: int) -> int | None:
    """The glyph of the cut at ``path`` that draws ``glyph`` ``offset`` font units above the line (below
    when negative), or None where the cut has none."""
    return _raised(path).get(f"{glyph}:{offset}")
