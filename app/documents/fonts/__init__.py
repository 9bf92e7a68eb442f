"""The faces a document is printed and shown in, beyond the template's own fonts (which draw
Windows-1252 only): the one room for which face draws which character, and for cutting it.

- ``characters``: the kind of run each character belongs to (a script, emoji, symbols), and each
  kind's fallback family;
- ``scripts``: the runs marked in a document's HTML (a span per run of a script), and what they hold;
- ``faces``: the face of each kind of run, for the language and region of the document;
- ``cuts``: each face cut, per document, to the characters it draws, from the font packages as pip
  installed them (kept in ``PDF_FONT_DIR``); ``python -m app.documents.fonts`` checks the packages;
- ``composites``: a mirrored glyph per right-to-left letter, for the PDF's text layer;
- ``web``: the same faces as ``data:`` URIs for the resume as a web page (the HTML export, the share
  page).

The PDF (``documents/pdf``) draws with them; DOCX names fonts Word has instead (``documents/docx/fonts``).
"""
