"""A DOCX's lines of styled text, through python-docx: a paragraph (or a table cell's, a text box's) is a
line, a line break inside it starts another (``extract.py`` describes a line); run in the import's
child process."""
from __future__ import annotations

import io
import re

from app.importing import Unreadable
from app.importing.tables import header_roles

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_CONTAINERS = {f"{W}hyperlink", f"{W}ins", f"{W}smartTag", f"{W}fldSimple", f"{W}customXml", f"{W}sdtContent",
               f"{W}sdt", f"{W}moveTo"}
_HEADING = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)


class _Docx:
    """Reads a document's body in order: paragraphs, tables (row by row) and text boxes."""

    def __init__(self, data: bytes, max_chars: int, max_lines: int) -> None:
        from docx import Document

        self.document = Document(io.BytesIO(data))
        self.max_chars, self.max_lines = max_chars, max_lines
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
        rows = [[tc for tc in row if tc.tag == f"{W}tc"] for row in table if row.tag == f"{W}tr"]
        if rows and all(tc.find(f".//{W}tbl") is None for cells in rows for tc in cells) \
                and header_roles([" ".join(_text_of(p) for p in tc.iter(f"{W}p")).strip() for tc in rows[0]]):
            for cells in rows:
                self._table_row(cells)
            return
        for cells in rows:
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

    def _table_row(self, cells) -> None:
        """A row of a table with a header row: its cells' first paragraphs as one line (``row``), each
        cell's other paragraphs as lines of their own; ``cell_at`` numbers each cell's column."""
        lines = [[line for line in (self._line(p) for p in tc.iter(f"{W}p")) if line is not None] for tc in cells]
        first = [(column, found[0]) for column, found in enumerate(lines) if found]
        if not first:
            return
        merged = {**first[0][1], "cells": [[run for cell in line["cells"] for run in cell] for _column, line in first],
                  "cell_at": [column for column, _line in first], "row": True}
        self._add(merged)
        for column, found in enumerate(lines):
            for line in found[1:]:
                self._add({**line, "cells": [[run for cell in line["cells"] for run in cell]], "cell_at": [column],
                           "row": False})

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
        if len(self.lines) >= self.max_lines:
            raise Unreadable("too_many_lines")
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
        space = 0.0
        if ppr is not None:
            spacing = ppr.find(f"{W}spacing")
            before = spacing.get(f"{W}before") if spacing is not None else None
            space = int(before) / 20 if before and before.isdigit() else 0.0  # twentieths of a point
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
                # A heading's style may number it (outline numbering): it stays a heading, not a list item.
                "level": level, "bullet": (numbered or "list" in (name or "").lower()) and not (match or level == 0),
                "para": True,
                "space": space, "cells": cells}

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


def docx_lines(data: bytes, max_chars: int, max_lines: int) -> list[dict]:
    try:
        return _Docx(data, max_chars, max_lines).read()
    except (Unreadable, MemoryError):
        raise
    except Exception:  # python-docx, lxml or zipfile refusing what it was given
        raise Unreadable("corrupt") from None
