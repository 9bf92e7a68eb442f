"""JSON Resume (schema 1.2.1, https://jsonresume.org) to and from our content model.

``to_content(document)`` reads a JSON Resume document into ``contentJson`` and
names every JSON Resume value it could not keep; ``from_content(content, title)``
writes a resume as a JSON Resume document. The mapping, what is dropped and why,
and the date precision are in docs/api-decisions.md ("JSON Resume"); in short:

- Fields map by meaning (``work[].name`` -> ``company``, ``work[].summary`` ->
  ``description``, ``education[].institution`` -> ``school``, ``skills`` ->
  ``skillGroups``, ``projects[].keywords`` -> ``technologies``...).
  ``basics.location``'s parts join into ``personalInfo.address`` ("address,
  postalCode city, region, countryCode") and are kept as ``personalInfo.location``,
  which an export writes back while the address is still theirs; fields the
  documents do not print (``image``, ``work[].description``, ``education[].url``,
  a project's ``roles``, ``entity``, ``type``) are kept as data. The first schemas'
  names (``website``, ``picture``, ``work[].company``, ``gpa``) are read as today's.
- Dates: JSON Resume's ``YYYY``, ``YYYY-MM`` and ``YYYY-MM-DD`` become our
  ``YYYY-MM`` (a year alone is its January; the day is below the model's
  precision and not reported as dropped); so do the forms people write
  (``2021/07``, ``Jul 2021``, ``2021年7月``...), and an end of "Present" is an
  ongoing entry. A URL without a scheme gets ``https://``.
- What JSON Resume cannot hold travels in ``x-resume-service`` keys, which JSON
  Resume allows (its objects take additional properties) and this importer reads
  back: ``meta["x-resume-service"]`` has the title, ``sectionOrder``,
  ``customSections`` and (when given) ``sectionsVisibility``; an education entry
  has ``{"degree"}``, a project ``{"id"}``; the plain ``skills`` list is a
  ``skills`` entry without name or level whose ``x-resume-service`` is
  ``{"skills": true}``.
- A value that would not pass ``app.content.schema.ContentSchema`` (too long, not an http(s)
  URL, a date that is not a date, too many entries) is dropped and reported, so
  one bad field never fails an import. Empty values ("", [], {}, null) carry
  nothing and are not reported; neither are ``$schema``, ``meta.version`` and
  ``meta.lastModified``, which describe the file rather than the resume.

A document that is not an object, or has none of JSON Resume's keys, raises ``NotJsonResume``
(the importer answers it as VALIDATION_ERROR with ``details.field`` "jsonResume"); one far bigger
than a resume (a list of more than 1,000 items, more than 20,000 values) raises ``TooLarge`` before
anything is read (413 CONTENT_TOO_LARGE).

``terms.py`` holds the mapping between the two models, ``reading.py`` and ``validation.py`` the
way in, ``writing.py`` the way out.
"""
from app.content.jsonresume.reading import settings, to_content  # noqa: F401
from app.content.jsonresume.terms import (  # noqa: F401
    EXTENSION, FIELD, SCHEMA_URL, SCHEMA_VERSION, NotJsonResume, TooLarge,
)
from app.content.jsonresume.writing import document_bytes, from_content  # noqa: F401
