"""Reading a PDF or DOCX in a child process with limits (``extract.py`` is the child).

The file is read inside the web request, but not inside the web process (``app.documents.children``): a hostile file (a
decompression bomb in a PDF stream, a DOCX part that is slow to parse, a layout that is slow to
read into sections, a file that crashes a C library) costs a child process that limits itself to
``MEMORY_BYTES`` of address space and ``CPU_SECONDS`` of CPU and is killed after
``TIMEOUT_SECONDS``; its text is bounded first (``MAX_PAGES``, ``MAX_CHARS``, ``MAX_LINES``). The
child gets no environment (no secrets) and writes no files. At most ``CONCURRENT`` children run
per web process; a request that cannot get a slot within ``TIMEOUT_SECONDS`` raises ``Busy``.

Each run costs the start of a Python process with PDFium or python-docx (about 0.3 s).
"""
from __future__ import annotations

import base64
import json
import logging
import subprocess
import threading

from app.documents import children
from app.importing import Unreadable

log = logging.getLogger(__name__)

MAX_PAGES = 10
MAX_CHARS = 200_000
MAX_LINES = 2_000  # lines of a PDF, paragraphs of a DOCX: a dense ten-page resume has about 700
MEMORY_BYTES = 512 * 1024 * 1024
CPU_SECONDS = 15
TIMEOUT_SECONDS = 20
CONCURRENT = 2
_slots = threading.BoundedSemaphore(CONCURRENT)


class Busy(Exception):
    """Every reader stayed busy for ``TIMEOUT_SECONDS``: try again shortly."""


def read_content(kind: str, data: bytes) -> tuple[dict, list[dict], list[bytes], str]:
    """The resume in a PDF (``kind`` "pdf") or DOCX ("docx"), as ``structure.parse`` reads it, what
    the reading was unsure of (its notes), for a PDF its pages as PNG pictures, and the lines' text.

    Raises Unreadable (encrypted, corrupt, too_many_pages, too_long, too_many_lines, too_large,
    no_text, timeout) and Busy when every slot stays busy.
    """
    if not _slots.acquire(timeout=TIMEOUT_SECONDS):
        raise Busy()
    try:
        limits = {"pages": MAX_PAGES, "chars": MAX_CHARS, "lines": MAX_LINES, "memory": MEMORY_BYTES,
                  "cpu": CPU_SECONDS}
        try:
            done = subprocess.run(children.command("app.importing.extract", kind, json.dumps(limits)),
                                  input=data, capture_output=True, timeout=TIMEOUT_SECONDS, env={},
                                  cwd=children.ROOT, check=False)
        except subprocess.TimeoutExpired:
            raise Unreadable("timeout") from None
    finally:
        _slots.release()
    if done.returncode != 0:
        log.warning("import: the %s reader ended with %s: %s", kind, done.returncode,
                    done.stderr[-2000:].decode("utf-8", "replace"))
        # Killed for its CPU time (SIGXCPU, or SIGKILL past the hard limit), or crashed on the file.
        raise Unreadable("timeout" if done.returncode in (-24, -9) else "corrupt")
    try:
        result = json.loads(done.stdout)
    except ValueError:
        log.warning("import: the %s reader wrote no result", kind)
        raise Unreadable("corrupt") from None
    if "error" in result:
        if done.stderr:
            log.warning("import: the %s reader could not read the file: %s", kind,
                        done.stderr[-2000:].decode("utf-8", "replace"))
        raise Unreadable(str(result["error"]))
    try:
        pages = [base64.b64decode(page, validate=True) for page in result.get("pages", [])]
    except (ValueError, TypeError):
        pages = []
    return result["content"], result.get("notes", []), pages, str(result.get("text", ""))
