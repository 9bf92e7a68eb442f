"""The importers: a PDF or DOCX file's bytes in; the resume's content and what was not kept out.

- ``reading.py``: the one door (``sniff``, ``read``), with the ZIP-bomb check of a DOCX.
- ``sandbox.py`` runs ``extract.py`` in a child process with memory, CPU and time limits:
  a PDF (``pdf_text.py``, PDFium) or DOCX (``docx_text.py``, python-docx) becomes lines of
  styled text runs, and those become content (below), all inside the limits.
- ``layout.py`` joins those lines into blocks (wrapped lines into paragraphs, bullets,
  cells), ``structure.py`` finds the header and the sections (``words.py``: headings and
  words in English and Chinese; ``dates.py``: periods), ``entries.py`` reads the entries
  and ``records.py`` and ``lists.py`` their fields.
- ``app.content.cleaning`` keeps what the content schema accepts and lists the rest as dropped.

A library: it imports neither Flask nor the database; the use case (what an import means to the
person: limits, errors, the new resume) is ``app.resumes.imports``. Nothing here is imported by
``extract.py`` at start-up but this module (its docstring and ``Unreadable``) and the two readers:
the child process imports as little as it can.
"""


class Unreadable(Exception):
    """The file cannot be read: ``reason`` says why (encrypted, corrupt, too_many_pages, too_long,
    too_many_lines, too_large, no_text; the parent adds timeout, too_many_parts and zip_bomb). It is
    the ``details.reason`` of IMPORT_UNREADABLE; ``values`` fill in its message (how many parts)."""

    def __init__(self, reason: str, **values) -> None:
        super().__init__(reason)
        self.reason = reason
        self.values = values
