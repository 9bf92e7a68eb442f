"""The importers' one door: a file's bytes in; the resume's content and what was not kept out.

``sniff(data)`` tells a PDF, a DOCX and a JSON document apart by their bytes (never by a name or a
declared type). ``read_all(kind, data)`` reads a PDF or DOCX: the ZIP directory of a DOCX is checked
first (more than ``MAX_ZIP_ENTRIES`` members is refused as too many parts, more than
``MAX_UNPACKED_BYTES`` unpacked as a ZIP bomb; Python's zipfile never inflates a member past the
size its directory declares), then ``sandbox`` reads the lines and turns them into content
(``structure``) in a child process with limits, and ``app.content.cleaning`` keeps what the
content schema accepts, naming the rest. A JSON Resume
document is read by ``app.content.jsonresume``.

What cannot be read raises ``Unreadable`` with a ``reason`` (encrypted, corrupt, too_many_pages,
too_long, too_many_lines, too_many_parts, too_large, timeout, no_text, zip_bomb); every reader
being busy raises ``sandbox.Busy``.
"""
from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field

from app.content import cleaning
from app.importing import sandbox
from app.importing import Unreadable
from app.importing.sandbox import Busy  # noqa: F401  (raised by read_all)

MAX_UNPACKED_BYTES = 50 * 1024 * 1024    # a DOCX's members, unpacked
MAX_ZIP_ENTRIES = 1000


def sniff(data: bytes) -> str | None:
    """"pdf", "docx" or "json" by the file's bytes; None for anything else."""
    if b"%PDF-" in data[:1024]:
        return "pdf"
    if data[:4] == b"PK\x03\x04":
        if (_declared_members(data) or 0) > MAX_ZIP_ENTRIES:
            return "docx"  # to be refused by read_all for its parts, without parsing a huge directory twice
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                names = set(archive.namelist())
        except (zipfile.BadZipFile, OSError, ValueError, EOFError):
            return None
        return "docx" if "word/document.xml" in names else None
    head = data[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"{"):
        return "json"
    return None


@dataclass
class Reading:
    """A document read: its ``content`` (valid), the content paths of what was read but ``dropped``,
    the texts ``cut`` to fit their field (``[{"path", "text": the rest}]``) and what the reading was
    ``unsure`` of (``[{"path", "reason", "text"}]``, ``structure.parse``), a PDF's ``pages``
    as PNG pictures, and the ``text`` of its lines in reading order (for a second reader; never stored)."""

    content: dict
    dropped: list[str] = field(default_factory=list)
    cut: list[dict] = field(default_factory=list)
    unsure: list[dict] = field(default_factory=list)
    pages: list[bytes] = field(default_factory=list)   # a PDF's pages as PNG pictures
    text: str = ""


def read_all(kind: str, data: bytes) -> Reading:
    """A PDF or DOCX read, with what was cut, dropped and guessed (``Reading``). Raises Unreadable
    and Busy."""
    if kind == "docx":
        _check_zip(data)
    content, unsure, pages, text = sandbox.read_content(kind, data)
    if kind != "pdf":   # a DOCX has no pages to show a note beside
        unsure = [{key: value for key, value in note.items() if key != "page"} for note in unsure]
    content, cut = cleaning.cut_to_fit(content)
    content, dropped = cleaning.keep_valid(content)
    return Reading(content, dropped, cut, unsure, pages, text)


def _check_zip(data: bytes) -> None:
    """Refuse a ZIP bomb by its directory, before anything is inflated."""
    declared = _declared_members(data)
    if declared is not None and declared > MAX_ZIP_ENTRIES:  # told by the end record, before parsing
        raise Unreadable("too_many_parts", parts=declared, limit=MAX_ZIP_ENTRIES)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise Unreadable("corrupt") from None
    if len(members) > MAX_ZIP_ENTRIES:
        raise Unreadable("too_many_parts", parts=len(members), limit=MAX_ZIP_ENTRIES)
    if sum(m.file_size for m in members) > MAX_UNPACKED_BYTES:
        raise Unreadable("zip_bomb")


def _declared_members(data: bytes) -> int | None:
    """How many members a ZIP's directory declares, read from its end record alone (ZIP64's when the
    count overflows 16 bits), so that a directory of 100,000 entries is refused without Python's zipfile
    parsing each of them; None when there is no end record (zipfile then says what is wrong)."""
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))  # the record, then at most a 64 KB comment
    if end < 0 or len(data) < end + 22:
        return None
    count = int.from_bytes(data[end + 10:end + 12], "little")
    locator = end - 20
    if count == 0xFFFF and locator >= 0 and data[locator:locator + 4] == b"PK\x06\x07":
        offset = int.from_bytes(data[locator + 8:locator + 16], "little")
        if data[offset:offset + 4] == b"PK\x06\x06":
            count = int.from_bytes(data[offset + 32:offset + 40], "little")
    return count
