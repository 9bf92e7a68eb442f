"""Drawing shaped text in a PDF text object, for its text layer (``textlayer.py`` says why so).

- ``_glyphs_text``: a run of codes as TJ arrays, each glyph where its code places it;
- ``_draw_ltr``: a left-to-right run, each cluster with a glyph of no text under an /ActualText span;
- ``_draw``: a line's piece with right-to-left tokens, each word set in a mirrored text space from
  its right edge (``-1 0 0 1 x y Tm``), its letters in the order they were typed; the pen then put
  back on the line;
- where the pen is: the text object keeps its line's origin (set by Tm, moved by Td and T*) and how
  far the text drawn since moved it (``_format_text`` adds each piece's advance), which is what puts
  a token at its place and the pen back after it.

``install`` puts these in ReportLab's text object (and marks each paragraph's text object with its
direction) once per process.
"""
from __future__ import annotations

import functools

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.textobject import PDFTextObject
from xhtml2pdf import bidi as xbidi
from xhtml2pdf import reportlab_paragraph as engine

from app.documents.pdf import textlayer

EPSILON = 0.01  # points: how far left of its right edge a right-to-left word is set (``_draw``)
_ORIGINAL_FORMAT = PDFTextObject._formatText


def _glyphs_text(textobject, font, text: str, places: dict, mode: int | None = None,
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
            place = textlayer.place(places, font, ord(text[index]))
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
    places = textlayer.places_of(font.face.name)
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
        reads = "".join(textlayer.place(places, font, ord(char)).text for char in text[start:end])
        operators += [f"/Span <</ActualText <FEFF{textlayer.utf16(reads)}>>> BDC",
                      _glyphs_text(textobject, font, text[start:end], places), "EMC"]
        plain = end
    if plain < len(text):
        operators.append(_glyphs_text(textobject, font, text[plain:], places))
    return " ".join(operator for operator in operators if operator)


def _draw(textobject, text: str) -> str:
    """The operators that draw ``text`` (its codes and tokens) in a face this module keeps codes for."""
    font = pdfmetrics.getFont(textobject._fontname)
    if not any(textlayer.is_token(char) for char in text):
        return _draw_ltr(textobject, font, text)
    places = textlayer.places_of(font.face.name)
    size = textobject._fontsize
    char_space = getattr(textobject, "_charSpace", 0) or 0
    word_space = getattr(textobject, "_wordSpace", 0) or 0
    # Where each character of the (visual) text starts, from the pen, as the engine measured it: a
    # token is one character, as wide as its word.
    starts: list[float] = []
    x = 0.0
    for char in text:
        starts.append(x)
        found = textlayer.token_of(ord(char))
        x += (found.advance if found else textlayer.place(places, font, ord(char)).advance) * size / 1000 + char_space
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
        found = textlayer.token_of(ord(text[index]))
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




def _format_text(textobject, text):
    """Text drawn as this module draws it in its faces, as ReportLab does in the others; the pen moved
    on by the text's advance either way."""
    font = pdfmetrics.getFont(textobject._fontname)
    decoded = text.decode("utf-8") if isinstance(text, bytes) else str(text)
    if getattr(font, "_dynamicFont", False) and textlayer.drawn_here(font.face.name):
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


def _begin_text(original):
    @functools.wraps(original)
    def begin_text(paragraph, x, y):
        textobject = original(paragraph, x, y)
        textobject.right_to_left = getattr(paragraph, "dir", "ltr") == "rtl"
        return textobject
    begin_text.marks_direction = True
    return begin_text


def install() -> None:
    """Draw shaped text as this module does, and keep track of the pen, in every text object."""
    PDFTextObject._formatText = _format_text
    PDFTextObject.setTextOrigin = _set_text_origin
    PDFTextObject.setTextTransform = _set_text_transform
    PDFTextObject.moveCursor = _move_cursor
    PDFTextObject._textOut = _text_out
    PDFTextObject.textLine = _text_line
    if not getattr(engine.Paragraph.beginText, "marks_direction", False):
        engine.Paragraph.beginText = _begin_text(engine.Paragraph.beginText)
