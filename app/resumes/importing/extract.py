"""The child process of an import: a PDF or DOCX on stdin, its lines of styled text as JSON on stdout.

Run by ``sandbox.py`` as ``python -I -c ... main()`` with the kind and limits as arguments. It
limits itself first (address space, CPU seconds, no files written), so a hostile file (a
decompression bomb inside a PDF stream, an XML part that takes forever) costs this process, never
the web worker, and PDFium runs here without the web process's lock. It imports only the standard
library and the two readers.

The output is ``{"lines": [...]}`` or ``{"error": reason}`` (``encrypted``, ``corrupt``,
``too_many_pages``, ``too_long``). A line is one visual line of a PDF page, or one paragraph of a
DOCX (a line break inside it starts another line):

    {"page": 1, "x0", "x1", "top", "bottom", "base" (the baseline): points from the page's top left
     (PDF; 0 for DOCX),
     "w1": the width of the line's first word, up to where it could first break (a space, or
           around a Chinese character): a PDF line wrapped when that word did not fit on the one above,
     "style": the DOCX paragraph style ("" for PDF), "level": its heading level (0 Title, 1..9, or null),
     "bullet": a DOCX list paragraph, "para": true for DOCX (a paragraph never wraps onto the next line),
     "cells": [[run, ...], ...]}

Cells are the parts of a line that a wide gap (a right-aligned date, a table cell, a column)
or a tab separates. A run is ``{"t": text, "size", "font", "bold", "italic", "colour"}``
with ``"x0"``, ``"x1"`` on PDF.
"""
from __future__ import annotations

import ctypes
import io
import json
import re
import sys

CELL_GAP = 1.5        # ems of empty space that end a cell (a right-aligned date, a table cell, a chip)
BOLD_WEIGHT = 600
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
_ITALIC_NAME = re.compile(r"italic|oblique", re.IGNORECASE)
_SUBSET = re.compile(r"^[A-Z]{6}\+")
FORCE_BOLD_FLAG = 1 << 18       # PDF font descriptor flags (bits 19 and 7, 1-based)
ITALIC_FLAG = 1 << 6


class Unreadable(Exception):
    """The file cannot be read: ``reason`` says why (encrypted, corrupt, too_many_pages, too_long,
    too_large; the parent adds timeout). It is the ``details.reason`` of IMPORT_UNREADABLE."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --- PDF ----------------------------------------------------------------------------------------------

def pdf_lines(data: bytes, max_pages: int, max_chars: int) -> list[dict]:
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
            lines += _page_lines(pdfium, textpage.raw, count, number + 1, page.get_height())
            textpage.close()
            page.close()
        return lines
    finally:
        document.close()


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
    lines: list[dict] = []
    line: dict | None = None
    previous: _Char | None = None
    space = False
    for char in _page_chars(pdfium, textpage, count, height):
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
            if abs(char.baseline - previous.baseline) > size / 2 or char.x1 < previous.x0:
                new_line = True
            elif char.x0 - previous.x1 > CELL_GAP * max(char.em, previous.em):
                new_cell = True
        if new_line or line is None:
            line = {"page": page, "x0": char.x0, "x1": char.x1, "top": char.top, "bottom": char.bottom,
                    "base": char.baseline, "w1": None, "style": "", "level": None, "bullet": False, "para": False,
                    "cells": [[]]}
            lines.append(line)
        elif new_cell:
            line["cells"].append([])
        elif line["w1"] is None and (space or _breaks_before(previous.text, char.text)):
            line["w1"] = previous.x1 - line["x0"]
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
        run["x1"] = round(char.x1, 1)
        line["x0"], line["x1"] = min(line["x0"], char.x0), max(line["x1"], char.x1)
        line["top"], line["bottom"] = min(line["top"], char.top), max(line["bottom"], char.bottom)
        previous, space = char, False
    for line in lines:
        if line["w1"] is None:
            line["w1"] = line["x1"] - line["x0"]
        for key in ("x0", "x1", "top", "bottom", "base", "w1"):
            line[key] = round(line[key], 1)
        for cell in line["cells"]:
            for run in cell:
                del run["_style"]
                run["t"] = _utf16(run["t"])
    return lines


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


# --- DOCX ---------------------------------------------------------------------------------------------

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_CONTAINERS = {f"{W}hyperlink", f"{W}ins", f"{W}smartTag", f"{W}fldSimple", f"{W}customXml", f"{W}sdtContent",
               f"{W}sdt", f"{W}moveTo"}
_HEADING = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)


class _Docx:
    """Reads a document's body in order: paragraphs, tables (row by row) and text boxes."""

    def __init__(self, data: bytes, max_chars: int) -> None:
        from docx import Document

        self.document = Document(io.BytesIO(data))
        self.max_chars = max_chars
        self.chars = 0
        self.lines: list[dict] = []
        self.styles = {}
        for style in self.document.styles:
            try:
                self.styles[style.style_id] = style
            except Exception:  # a style python-docx cannot wrap
                continue
        self.default_size = self._default_size()

    def _default_size(self) -> float:
        rpr = self.document.styles.element.find(f"{W}docDefaults/{W}rPrDefault/{W}rPr/{W}sz")
        try:
            return int(rpr.get(f"{W}val")) / 2 if rpr is not None else 11.0
        except (TypeError, ValueError):
            return 11.0

    def read(self) -> list[dict]:
        self._container(self.document.element.body)
        return self.lines

    def _container(self, element) -> None:
        for child in element:
            if child.tag == f"{W}p":
                self._paragraph(child)
            elif child.tag == f"{W}tbl":
                self._table(child)
            elif child.tag in (f"{W}sdt", f"{W}sdtContent", f"{W}customXml"):
                self._container(child)

    def _table(self, table) -> None:
        for row in table.iter(f"{W}tr"):
            if row.getparent() is not table:
                continue
            cells = [tc for tc in row if tc.tag == f"{W}tc"]
            simple = all(len([p for p in tc if p.tag == f"{W}p" and _text_of(p).strip()]) <= 1
                         and tc.find(f"{W}tbl") is None for tc in cells)
            if simple and len(cells) > 1:
                merged = None
                for tc in cells:
                    for paragraph in (p for p in tc if p.tag == f"{W}p" and _text_of(p).strip()):
                        line = self._line(paragraph)
                        if line is None:
                            continue
                        if merged is None:
                            merged = line
                        else:
                            merged["cells"] += line["cells"]
                if merged is not None:
                    self._add(merged)
            else:
                for tc in cells:
                    self._container(tc)

    def _paragraph(self, paragraph) -> None:
        line = self._line(paragraph)
        if line is not None:
            for part in _split_breaks(line):
                self._add(part)
        for box in paragraph.iter(f"{W}txbxContent"):
            if not any(a.tag.endswith("}Fallback") for a in box.iterancestors()):
                self._container(box)

    def _add(self, line: dict) -> None:
        self.chars += sum(len(run["t"]) for cell in line["cells"] for run in cell)
        if self.chars > self.max_chars:
            raise Unreadable("too_long")
        self.lines.append(line)

    def _style_chain(self, style_id: str | None):
        seen = 0
        style = self.styles.get(style_id) if style_id else None
        while style is not None and seen < 20:
            yield style
            style, seen = style.base_style, seen + 1

    def _line(self, paragraph) -> dict | None:
        ppr = paragraph.find(f"{W}pPr")
        style_id = None
        numbered = False
        level = None
        if ppr is not None:
            pstyle = ppr.find(f"{W}pStyle")
            style_id = pstyle.get(f"{W}val") if pstyle is not None else None
            numbered = ppr.find(f"{W}numPr") is not None
            outline = ppr.find(f"{W}outlineLvl")
            if outline is not None and (outline.get(f"{W}val") or "").isdigit():
                level = int(outline.get(f"{W}val")) + 1
        chain = list(self._style_chain(style_id or self._default_paragraph_style()))
        name = chain[0].name if chain else ""
        match = _HEADING.match(name or "")
        if name == "Title":
            level = 0
        elif match and level is None:
            level = int(match.group(1))
        for style in chain:
            pstyle_ppr = style.element.find(f"{W}pPr")
            if pstyle_ppr is not None and pstyle_ppr.find(f"{W}numPr") is not None:
                numbered = True
        runs = []
        for run in _runs(paragraph):
            text = _run_text(run)
            if text:
                runs.append(self._run(run, text, chain))
        if not any(run["t"].strip() for run in runs):
            return None
        cells: list[list[dict]] = [[]]
        for run in runs:   # a tab ends a cell (a right-aligned date after a tab stop)
            parts = run["t"].split("\t")
            for index, part in enumerate(parts):
                if index:
                    cells.append([])
                if part:
                    cells[-1].append({**run, "t": part})
        cells = [cell for cell in cells if any(r["t"].strip() for r in cell)]
        return {"page": 1, "x0": 0.0, "x1": 0.0, "top": 0.0, "bottom": 0.0, "base": 0.0, "w1": 0.0, "style": name or "",
                "level": level, "bullet": numbered or "list" in (name or "").lower(), "para": True,
                "cells": cells}

    def _default_paragraph_style(self) -> str | None:
        for style_id, style in self.styles.items():
            if style.type == 1 and style.element.get(f"{W}default") in ("1", "true"):
                return style_id
        return None

    def _run(self, run, text: str, chain) -> dict:
        rpr = run.find(f"{W}rPr")
        rstyle = rpr.find(f"{W}rStyle") if rpr is not None else None
        chains = ([rpr] if rpr is not None else []) + [
            s.element.find(f"{W}rPr") for s in self._style_chain(rstyle.get(f"{W}val") if rstyle is not None else None)
        ] + [s.element.find(f"{W}rPr") for s in chain]
        chains = [c for c in chains if c is not None]
        size = _first(chains, "sz", lambda v: int(v) / 2) or self.default_size
        colour = _first(chains, "color", lambda v: v.lower() if re.fullmatch(r"[0-9A-Fa-f]{6}", v) else "") or ""
        fonts = next((c.find(f"{W}rFonts") for c in chains if c.find(f"{W}rFonts") is not None), None)
        font = (fonts.get(f"{W}ascii") or fonts.get(f"{W}eastAsia") or "") if fonts is not None else ""
        return {"t": text, "size": float(size), "font": font, "bold": _flag(chains, "b"),
                "italic": _flag(chains, "i"), "colour": colour}


def _first(chains, tag: str, convert):
    for rpr in chains:
        element = rpr.find(f"{W}{tag}")
        if element is not None and element.get(f"{W}val") is not None:
            try:
                return convert(element.get(f"{W}val"))
            except (TypeError, ValueError):
                return None
    return None


def _flag(chains, tag: str) -> bool:
    for rpr in chains:
        element = rpr.find(f"{W}{tag}")
        if element is not None:
            return element.get(f"{W}val", "true").lower() not in ("0", "false", "off")
    return False


def _runs(element):
    for child in element:
        if child.tag == f"{W}r":
            yield child
        elif child.tag in _CONTAINERS:
            yield from _runs(child)


def _run_text(run) -> str:
    parts = []
    for child in run:
        tag = child.tag
        if tag == f"{W}t":
            parts.append(child.text or "")
        elif tag == f"{W}tab":
            parts.append("\t")
        elif tag in (f"{W}br", f"{W}cr"):
            parts.append("\n")
        elif tag == f"{W}noBreakHyphen":
            parts.append("-")
        elif tag == f"{W}softHyphen":
            continue
    return "".join(parts)


def _text_of(paragraph) -> str:
    return "".join(_run_text(run) for run in _runs(paragraph))


def _split_breaks(line: dict) -> list[dict]:
    """A paragraph with line breaks as one line per broken line."""
    if not any("\n" in run["t"] for cell in line["cells"] for run in cell):
        return [line]
    out, current = [], [[]]
    for cell_index, cell in enumerate(line["cells"]):
        if cell_index:
            current.append([])
        for run in cell:
            for index, part in enumerate(run["t"].split("\n")):
                if index:
                    out.append(current)
                    current = [[]]
                if part:
                    current[-1].append({**run, "t": part})
    out.append(current)
    lines = []
    for cells in out:
        cells = [cell for cell in cells if any(r["t"].strip() for r in cell)]
        if cells:
            lines.append({**line, "cells": cells})
    return lines


def docx_lines(data: bytes, max_chars: int) -> list[dict]:
    try:
        return _Docx(data, max_chars).read()
    except (Unreadable, MemoryError):
        raise
    except Exception:  # python-docx, lxml or zipfile refusing what it was given
        raise Unreadable("corrupt") from None


# --- the process ----------------------------------------------------------------------------------------

def _limit_self(memory_bytes: int, cpu_seconds: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def main() -> None:
    kind, limits = sys.argv[1], json.loads(sys.argv[2])
    _limit_self(limits["memory"], limits["cpu"])
    data = sys.stdin.buffer.read()
    try:
        if kind == "pdf":
            result = {"lines": pdf_lines(data, limits["pages"], limits["chars"])}
        else:
            result = {"lines": docx_lines(data, limits["chars"])}
    except Unreadable as exc:
        result = {"error": exc.reason}
    except MemoryError:
        result = {"error": "too_large"}
    sys.stdout.buffer.write(json.dumps(result, ensure_ascii=False).encode("utf-8"))
