"""A PDF's lines of styled text, through PDFium (``extract.py`` describes a line), and its pages as
pictures for the editor (``page_pictures``); run in the import's child process."""
from __future__ import annotations

import ctypes
import re
import unicodedata

from app.documents import rasteriser
from app.importing import Unreadable
from app.importing.right_to_left import (CELL_GAP, in_logical_order, right_to_left, right_to_left_script,
                                         words_rejoined)

BOLD_WEIGHT = 600
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
_ITALIC_NAME = re.compile(r"italic|oblique", re.IGNORECASE)
_SUBSET = re.compile(r"^[A-Z]{6}\+")
FORCE_BOLD_FLAG = 1 << 18       # PDF font descriptor flags (bits 19 and 7, 1-based)
ITALIC_FLAG = 1 << 6


PICTURE_WIDTH = 640   # pixels: a page of the file as the editor shows it beside the form


def page_pictures(data: bytes, max_pages: int) -> list[bytes]:
    """Each page of a PDF (at most ``max_pages``, already read by ``pdf_lines``) as a PNG
    ``PICTURE_WIDTH`` pixels wide (``documents.rasteriser``): 30-60 KB for a page of text."""
    return rasteriser.pages_as_png(data, PICTURE_WIDTH, count=max_pages, exact=True)


def pdf_lines(data: bytes, max_pages: int, max_chars: int, max_lines: int) -> list[dict]:
    import pypdfium2
    import pypdfium2.raw as pdfium

    try:
        document = pypdfium2.PdfDocument(data)
    except pypdfium2.PdfiumError as exc:
        raise Unreadable("encrypted" if getattr(exc, "err_code", None) == pdfium.FPDF_ERR_PASSWORD
                         else "corrupt") from None
    try:
        if len(document) > max_pages:
            raise Unreadable("too_many_pages")
        lines: list[dict] = []
        total = 0
        for number in range(len(document)):
            page = document[number]
            textpage = page.get_textpage()
            count = textpage.count_chars()
            total += count
            if total > max_chars:
                raise Unreadable("too_long")
            lines += _in_reading_order(_page_lines(pdfium, textpage.raw, count, number + 1, page.get_height()))
            if len(lines) > max_lines:
                raise Unreadable("too_many_lines")
            textpage.close()
            page.close()
        return lines
    finally:
        document.close()


def _in_reading_order(lines: list[dict]) -> list[dict]:
    """The page's lines in the order they are read. PDFium gives them in the order they are drawn, which
    is the reading order, but for text a generator draws after the rest while it stands above it
    (Chromium draws a JSON Resume theme's letter-spaced section headings last): such a line goes
    before the first line below it in its column (one it overlaps across). A column drawn after
    another starts above the other's end too, but nothing placed yet lies under it, so it stays where
    it is."""
    ordered: list[dict] = []
    for line in lines:
        if ordered and line["top"] < ordered[-1]["top"] - 1.0:
            for index, other in enumerate(ordered):
                if other["top"] > line["top"] + 1.0 and other["x0"] < line["x1"] and line["x0"] < other["x1"]:
                    ordered.insert(index, line)
                    break
            else:
                ordered.append(line)
        else:
            ordered.append(line)
    return ordered


class _Char:
    __slots__ = ("text", "x0", "x1", "top", "bottom", "baseline", "size", "em", "style")


def _font(pdfium, textpage, index: int, buffer, flags) -> tuple[str, bool, bool]:
    length = pdfium.FPDFText_GetFontInfo(textpage, index, buffer, len(buffer), ctypes.byref(flags))
    name = _SUBSET.sub("", buffer.raw[:max(length - 1, 0)].decode("utf-8", "replace"))
    weight = pdfium.FPDFText_GetFontWeight(textpage, index)
    bold = bool(_BOLD_NAME.search(name)) or weight >= BOLD_WEIGHT or bool(flags.value & FORCE_BOLD_FLAG)
    italic = bool(_ITALIC_NAME.search(name)) or bool(flags.value & ITALIC_FLAG)
    return name, bold, italic


def _page_chars(pdfium, textpage, count: int, height: float):
    """The page's characters in PDFium's order; None stands for a line break, " " for a space."""
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    x, y = ctypes.c_double(), ctypes.c_double()
    loose = pdfium.FS_RECTF()
    matrix = pdfium.FS_MATRIX()
    red, green, blue, alpha = (ctypes.c_uint() for _ in range(4))
    buffer, flags = ctypes.create_string_buffer(128), ctypes.c_int()
    for index in range(count):
        code = pdfium.FPDFText_GetUnicode(textpage, index)
        text = chr(code) if code < 0x110000 else "\ufffd"
        if text in "\r\n":
            yield None
            continue
        if text.isspace() or code == 0xFEFF:
            yield " "
            continue
        if code in (0x02, 0xFFFE):   # PDFium's mark for a hyphen that ends a line: the "-" the page draws
            text = "-"
        elif code < 0x20:
            continue
        pdfium.FPDFText_GetCharBox(textpage, index, left, right, bottom, top)
        pdfium.FPDFText_GetLooseCharBox(textpage, index, loose)
        pdfium.FPDFText_GetCharOrigin(textpage, index, x, y)
        char = _Char()
        char.text = text
        char.x0, char.x1 = left.value, max(right.value, left.value)
        char.top, char.bottom = height - loose.top, height - loose.bottom
        char.baseline = height - y.value
        char.size = round(max(loose.top - loose.bottom, 1.0) * 2) / 2
        # The font size as drawn: the font's size in text space, times the scale of the character's
        # matrix (Chromium sets 14 pt at 0.75). Sizes are compared, so they must not vary by glyph
        # as the loose box does.
        pdfium.FPDFText_GetMatrix(textpage, index, matrix)
        scale = abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5 or 1.0
        char.em = pdfium.FPDFText_GetFontSize(textpage, index) * scale
        if not 0.2 * char.size <= char.em <= 2.0 * char.size:
            char.em = 0.8 * char.size
        if pdfium.FPDFText_GetFillColor(textpage, index, red, green, blue, alpha):
            colour = f"{red.value:02x}{green.value:02x}{blue.value:02x}"
        else:
            colour = ""
        name, bold, italic = _font(pdfium, textpage, index, buffer, flags)
        char.style = (name, char.size, bold, italic, colour)
        yield char


def _page_lines(pdfium, textpage, count: int, page: int, height: float) -> list[dict]:
    # Each line as [char, a space before it, a new cell starts at it].
    rows: list[list[list]] = []
    previous: _Char | None = None
    space = False
    backwards_line = False    # the line holds right-to-left letters
    for char in _accents_joined(_page_chars(pdfium, textpage, count, height)):
        if char is None:
            previous, space = None, False
            continue
        if char == " ":
            space = previous is not None
            continue
        new_line = previous is None
        new_cell = False
        if previous is not None:
            size = max(char.size, previous.size)
            backwards = right_to_left_script(char.text), right_to_left_script(previous.text)
            gap = CELL_GAP * max(char.em, previous.em)
            if abs(char.baseline - previous.baseline) > size / 2:
                new_line = True
            elif backwards == (True, True):  # right-to-left text, in the order it was typed: leftwards
                if char.x0 > previous.x1 + gap:
                    new_line = True
            elif backwards_line:
                pass  # numbers and Latin words among right-to-left text: where the pen goes says little
            elif backwards == (False, False):
                if char.x1 < previous.x0:
                    new_line = True
                elif char.x0 - previous.x1 > gap:
                    new_cell = True
            # Where the direction changes inside a line (an English word in Arabic), PDFium's own line
            # breaks say where the line ends: the pen jumps to the other end of the word either way.
        if new_line or not rows:
            rows.append([])
            backwards_line = False
        backwards_line = backwards_line or right_to_left_script(char.text)
        rows[-1].append([char, space and not new_line, new_cell])
        previous, space = char, False
    rows = words_rejoined(rows)
    backwards = sum(right_to_left(char.text) for row in rows for char, _space, _cell in row)
    forwards = sum(unicodedata.bidirectional(char.text[:1]) == "L" for row in rows for char, _space, _cell in row)
    base = "R" if backwards > forwards else "L"
    lines = []
    for row in rows:
        # On a right-to-left page every line is read from the right ("2021." wrapped alone, a label's
        # cell right of its values); on another, the lines holding right-to-left letters.
        if base == "R" or any(right_to_left(char.text) for char, _space, _cell in row):
            row = in_logical_order(row, base)
        lines.append(_line(row, page))
    return lines


# Accents a TeX font (OT1) draws as glyphs of their own over a letter; each with the combining mark it is.
SPACING_ACCENTS = {"\u00a8": "\u0308", "\u00b4": "\u0301", "`": "\u0300", "\u02c6": "\u0302", "^": "\u0302",
                   "\u02dc": "\u0303", "\u00b8": "\u0327", "\u02c7": "\u030c", "\u02d8": "\u0306",
                   "\u02d9": "\u0307", "\u02da": "\u030a", "\u00af": "\u0304", "\u02dd": "\u030b"}


def _over(accent: _Char, char: _Char) -> bool:
    """Whether an accent's glyph stands over (or under) a letter: its middle within the letter's width."""
    middle = (accent.x0 + accent.x1) / 2
    return char.x0 - 0.5 <= middle <= char.x1 + 0.5


def _accents_joined(chars) -> list:
    """The page's characters with each accent a TeX font draws as a glyph of its own ("u" and "¨", in
    any order, even at the end of the page's text) joined to the letter it stands over: "ü". An accent
    over no letter stays as it is."""
    chars = list(chars)
    accents = [i for i, c in enumerate(chars) if c not in (None, " ") and c.text in SPACING_ACCENTS]
    if not accents:
        return chars
    letters = [c for c in chars if c not in (None, " ") and c.text.isalpha()]
    joined = set()
    for index in accents:
        accent = chars[index]
        middle = (accent.x0 + accent.x1) / 2
        under = [c for c in letters if abs(c.baseline - accent.baseline) <= 0.6 * max(c.size, 1.0) and _over(accent, c)]
        if under:
            letter = min(under, key=lambda c: abs((c.x0 + c.x1) / 2 - middle))
            letter.text = _accented(letter.text, accent.text)
            joined.add(index)
    return [c for i, c in enumerate(chars) if i not in joined]


def _accented(letter: str, accent: str) -> str:
    """The letter with the accent, composed where Unicode has it ("ü"); a dotless i takes the accent as i."""
    base = "i" if letter == "\u0131" else "j" if letter == "\u0237" else letter
    return unicodedata.normalize("NFC", base + SPACING_ACCENTS[accent])


def _line(row: list[list], page: int) -> dict:
    """A line's dict (``extract.py``) from its characters."""
    first = row[0][0]
    line = {"page": page, "x0": first.x0, "x1": first.x1, "top": first.top, "bottom": first.bottom,
            "base": first.baseline, "w1": None, "style": "", "level": None, "bullet": False, "para": False,
            "cells": [[]]}
    previous = None
    backwards = next((right_to_left(char.text) for char, _space, _cell in row
                      if unicodedata.bidirectional(char.text[:1]) in ("L", "R", "AL")), False)
    for char, space, new_cell in row:
        if new_cell:
            line["cells"].append([])
        elif previous is not None and line["w1"] is None and (space or _breaks_before(previous.text, char.text)):
            # the first word's width: on the left of a left-to-right line, on the right of the other
            line["w1"] = line["x1"] - line["x0"] if backwards else previous.x1 - line["x0"]
        cell = line["cells"][-1]
        run = cell[-1] if cell else None
        if run is None or run["_style"] != char.style:
            name, _, bold, italic, colour = char.style
            run = {"t": "", "size": round(char.em * 2) / 2, "font": name, "bold": bold, "italic": italic,
                   "colour": colour, "x0": round(char.x0, 1), "x1": 0.0, "_style": char.style}
            if space and cell:
                cell[-1]["t"] += " "
            cell.append(run)
        elif space:
            run["t"] += " "
        run["t"] += char.text
        run["x0"], run["x1"] = min(run["x0"], round(char.x0, 1)), max(run["x1"], round(char.x1, 1))
        line["x0"], line["x1"] = min(line["x0"], char.x0), max(line["x1"], char.x1)
        line["top"], line["bottom"] = min(line["top"], char.top), max(line["bottom"], char.bottom)
        previous = char
    if line["w1"] is None:
        line["w1"] = line["x1"] - line["x0"]
    for key in ("x0", "x1", "top", "bottom", "base", "w1"):
        line[key] = round(line[key], 1)
    for cell in line["cells"]:
        for run in cell:
            del run["_style"]
            run["t"] = _utf16(run["t"])
    return line


_NO_LINE_START = "。，、．：；！？）】》」』〕〉”’・…%"


def _ideograph(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff" or "\u3040" <= char <= "\u30ff" or "\uf900" <= char <= "\ufaff"


def _breaks_before(previous: str, char: str) -> bool:
    """Whether a line may break between two characters without a space: before or after a Chinese
    character, unless the second is punctuation that may not start a line."""
    return char not in _NO_LINE_START and (_ideograph(char) or _ideograph(previous))


def _utf16(text: str) -> str:
    """Join the surrogate pairs PDFium reports as two characters."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
