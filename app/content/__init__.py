"""The resume's content model, for every part of the service that reads or writes a resume.

- ``sections.py``: the sections and their default order;
- ``schema.py``: what ``contentJson`` (and ``sectionsVisibility``) may hold (marshmallow);
- ``normalise.py``: the one full shape every reader starts from (``normalise_content``);
- ``cleaning.py``: of a parsed resume, what the schema accepts, and the paths of the rest;
- ``jsonresume/``: JSON Resume 1.2.1 read into the model and written from it.

A library: data in, data out. It imports neither Flask nor the database (``lint-imports``
checks), so the documents, the importers and the analysis engine can build on it.
"""
