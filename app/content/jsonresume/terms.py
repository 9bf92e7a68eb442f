"""The words of both models: JSON Resume's sections and fields, ours, and how they map."""
from __future__ import annotations

import re
from typing import Any

SCHEMA_VERSION = "v1.2.1"
SCHEMA_URL = "https://raw.githubusercontent.com/jsonresume/resume-schema/v1.2.1/schema.json"
EXTENSION = "x-resume-service"
FIELD = "jsonResume"   # details.field of the errors

# JSON Resume's dates: YYYY, YYYY-MM or YYYY-MM-DD (its "iso8601" definition).
DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")
# Top-level keys of JSON Resume 1.2.1; "$schema" and "meta" describe the file.
SECTION_KEYS = ("basics", "work", "volunteer", "education", "awards", "certificates", "publications",
                "skills", "languages", "interests", "references", "projects")
TOP_LEVEL = ("$schema", *SECTION_KEYS, "meta")
FILE_META = ("version", "lastModified")        # meta keys a new export writes anew: not reported
EXTENSION_META = ("title", "sectionOrder", "customSections", "sectionsVisibility", "sectionTitles",
                  "languageSet")

# (JSON Resume section, our section, [(their field, our field, kind)]) for the list sections read
# field by field; kind: "text", "date" (to YYYY-MM), "list" (of strings), "place" (text or a location).
ENTRY_MAPS: tuple[tuple[str, str, tuple[tuple[str, str, str], ...]], ...] = (
    ("work", "workExperience", (
        ("name", "company", "text"), ("position", "position", "text"), ("location", "location", "place"),
        ("url", "url", "text"), ("startDate", "startDate", "date"), ("endDate", "endDate", "date"),
        ("summary", "description", "text"), ("highlights", "highlights", "list"))),
    ("volunteer", "volunteer", (
        ("organization", "organization", "text"), ("position", "position", "text"), ("url", "url", "text"),
        ("startDate", "startDate", "date"), ("endDate", "endDate", "date"), ("summary", "summary", "text"),
        ("highlights", "highlights", "list"))),
    ("education", "education", (
        ("institution", "school", "text"), ("area", "area", "text"), ("studyType", "studyType", "text"),
        ("score", "score", "text"), ("startDate", "startDate", "date"), ("endDate", "endDate", "date"),
        ("courses", "courses", "list"))),
    ("awards", "awards", (
        ("title", "title", "text"), ("date", "date", "date"), ("awarder", "awarder", "text"),
        ("summary", "summary", "text"))),
    ("certificates", "certificates", (
        ("name", "name", "text"), ("date", "date", "date"), ("url", "url", "text"), ("issuer", "issuer", "text"))),
    ("publications", "publications", (
        ("name", "name", "text"), ("publisher", "publisher", "text"), ("releaseDate", "releaseDate", "date"),
        ("url", "url", "text"), ("summary", "summary", "text"))),
    ("skills", "skillGroups", (
        ("name", "name", "text"), ("level", "level", "text"), ("keywords", "keywords", "list"))),
    ("languages", "languages", (("language", "language", "text"), ("fluency", "fluency", "text"))),
    ("interests", "interests", (("name", "name", "text"), ("keywords", "keywords", "list"))),
    ("references", "references", (("name", "name", "text"), ("reference", "reference", "text"))),
    ("projects", "projects", (
        ("name", "name", "text"), ("description", "description", "text"), ("highlights", "highlights", "list"),
        ("keywords", "technologies", "list"), ("startDate", "startDate", "date"), ("endDate", "endDate", "date"),
        ("url", "url", "text"))),
)
MAPS = {theirs: mapping for theirs, _, mapping in ENTRY_MAPS}
BASICS = (("name", "name"), ("label", "label"), ("email", "email"), ("phone", "phone"), ("url", "url"),
          ("summary", "summary"))
PROFILE = ("network", "username", "url")
LOCATION = ("address", "postalCode", "city", "region", "countryCode")
# Per-entry extension fields: section -> our fields an entry's x-resume-service may hold.
ENTRY_EXTENSIONS = {"education": ("degree",), "projects": ("id",)}


def empty(value: Any) -> bool:
    """A value that carries nothing: "", [], {}, null (never reported as dropped)."""
    return value is None or value == "" or value == [] or value == {}


# Far more than any resume holds (the content schema keeps at most 50 entries of a section, 100 skills):
# a document past these is refused before it is read, so reading it stays cheap.
MAX_ITEMS = 1000  # items of one list
MAX_VALUES = 20_000  # values (objects, lists, strings, numbers) in the whole document


class TooLarge(ValueError):
    """The document is far bigger than a resume: ``details`` name where (413 CONTENT_TOO_LARGE)."""

    def __init__(self, message: str, **details) -> None:
        super().__init__(message)
        self.details = details


class NotJsonResume(ValueError):
    """The document is not a JSON Resume document: the message says why, ``details`` are the error's
    details (``field`` "jsonResume", and what was expected)."""

    def __init__(self, message: str, **details) -> None:
        super().__init__(message)
        self.details = {"field": FIELD, **details}
