"""The child process of an import: a PDF or DOCX on stdin, the resume it holds as JSON on stdout.

Run by ``sandbox.py`` through ``app.documents.children`` with the kind and limits as arguments. It
limits itself first (address space, CPU seconds, no files written), so a hostile file (a
decompression bomb inside a PDF stream, an XML part that takes forever, a layout that is slow to
read into sections) costs this process, never the web worker, and PDFium runs here without the web
process's lock. The whole reading happens here: the lines of styled text (PDFium or python-docx),
then the blocks, sections and entries (``structure.py``); it imports neither Flask nor the database.

The output is ``{"content": {...}, "notes": [...], "text": "...", "pages": [...]}`` (the content as
``structure.parse`` reads it, before the content schema's check, what the reading was unsure of, the
lines' text in reading order (a line a row, its cells apart by a tab), and for a PDF each page as a
base64 PNG) or ``{"error": reason}``
(``encrypted``, ``corrupt``, ``too_many_pages``, ``too_long``, ``too_many_lines``, ``no_text``). A
line is one visual line of a PDF page, or one paragraph of a DOCX (a line break inside it starts
another line):

    {"page": 1, "x0", "x1", "top", "bottom", "base" (the baseline): points from the page's top left
     (PDF; 0 for DOCX),
     "w1": the width of the line's first word, up to where it could first break (a space, or
           around a Chinese character): a PDF line wrapped when that word did not fit on the one above,
     "style": the DOCX paragraph style ("" for PDF), "level": its heading level (0 Title, 1..9, or null),
     "bullet": a DOCX list paragraph, "para": true for DOCX (a paragraph never wraps onto the next line),
     "cells": [[run, ...], ...],
     "cell_at": a DOCX table row's cells' column numbers, "row": whether the line starts the row (a
                table with a header row, ``tables.py``; a PDF cell's place is its runs' left edge)}

Cells are the parts of a line that a wide gap (a right-aligned date, a table cell, a column)
or a tab separates. A run is ``{"t": text, "size", "font", "bold", "italic", "colour"}``
with ``"x0"``, ``"x1"`` on PDF.
"""
from __future__ import annotations

import base64
import json
import sys
import traceback

from app.documents import children
from app.importing import Unreadable, structure
from app.importing.docx_text import docx_lines
from app.importing.pdf_text import page_pictures, pdf_lines

MIN_TEXT = 20  # characters a PDF or DOCX must hold to be a resume


def main() -> None:
    kind, limits = sys.argv[2], json.loads(sys.argv[3])  # after the root (app.documents.children.command)
    children.limit_self(limits["memory"], limits["cpu"], writes_files=False)
    data = sys.stdin.buffer.read()
    try:
        notes: list[dict] = []
        texts: list[str] = []
        result = {"content": read(kind, data, limits, notes, texts), "notes": notes, "text": "\n".join(texts)}
        if kind == "pdf":   # what the editor shows beside the form: the file's own pages
            result["pages"] = [base64.b64encode(png).decode("ascii") for png in page_pictures(data, limits["pages"])]
    except Unreadable as exc:
        result = {"error": exc.reason}
    except MemoryError:
        result = {"error": "too_large"}
    except Exception:  # a layout the reader trips over: the person gets an answer, the log the trace
        traceback.print_exc(file=sys.stderr)
        result = {"error": "corrupt"}
    sys.stdout.buffer.write(json.dumps(result, ensure_ascii=False).encode("utf-8"))


def read(kind: str, data: bytes, limits: dict, notes: list[dict] | None = None,
         texts: list[str] | None = None) -> dict:
    """The resume in a PDF or DOCX's bytes; what the reading was unsure of is added to ``notes``, each
    line's text to ``texts``. Raises Unreadable."""
    if kind == "pdf":
        lines = pdf_lines(data, limits["pages"], limits["chars"], limits["lines"])
    else:
        lines = docx_lines(data, limits["chars"], limits["lines"])
    if sum(len(run["t"].strip()) for line in lines for cell in line["cells"] for run in cell) < MIN_TEXT:
        raise Unreadable("no_text")
    if texts is not None:
        texts.extend("\t".join("".join(run["t"] for run in cell) for cell in line["cells"]) for line in lines)
    return structure.parse(lines, notes)
