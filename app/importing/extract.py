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

import json
import sys

from app.importing import Unreadable
from app.importing.docx_text import docx_lines
from app.importing.pdf_text import pdf_lines


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
