"""Importing a resume: a JSON Resume document, or a PDF or DOCX file, becomes a new resume.

- ``service.py``: the use case (``import_resume``): what the file is, the limits, creating
  the resume through ``app.resumes.service.create_resume``.
- ``sandbox.py`` runs ``extract.py`` in a child process with memory, CPU and time limits:
  a PDF (PDFium) or DOCX (python-docx) becomes lines of styled text runs.
- ``layout.py`` joins those lines into blocks (wrapped lines into paragraphs, bullets,
  cells), ``structure.py`` finds the header and the sections (``words.py``: headings and
  words in English and Chinese; ``dates.py``: periods), ``entries.py`` reads the entries.
- ``cleaning.py`` keeps what ``ContentSchema`` accepts and lists the rest as dropped.

Nothing here is imported by ``extract.py`` at start-up but this docstring: the child
process imports as little as it can.
"""
