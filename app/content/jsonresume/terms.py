"""The words of both models: JSON Resume's sections and fields, ours, and how they map."""
from __future__ import annotations

import re
from typing import Any

from app.content.sections import ENTRIES, Entries, Field

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
# field by field, from the registry (``content/sections.ENTRIES``); kind: "text", "date" (to YYYY-MM),
# "list" (of strings), "place" (text or a location), "url".
def _kind(field: Field) -> str:
    if field.place:
        return "place"
    return "list" if field.is_list else {"month": "date", "url": "url"}.get(field.kind, "text")


def _mapping(entries: Entries) -> tuple[tuple[str, str, str], ...]:
    return tuple((field.their_name, field.name, _kind(field)) for field in entries.fields
                 if field.their_name is not None)


ENTRY_MAPS: tuple[tuple[str, str, tuple[tuple[str, str, str], ...]], ...] = tuple(
    (entries.theirs, entries.key, _mapping(entries)) for entries in ENTRIES.values() if entries.theirs)
# Names of JSON Resume's first schemas (0.0.x) that later ones renamed: read as the new ones when a
# document has only the old (not reported as dropped).
ALIASES = {
    "basics": {"website": "url", "picture": "image"},
    "work": {"company": "name", "website": "url"},
    "volunteer": {"website": "url"},
    "education": {"gpa": "score"},
    "publications": {"website": "url"},
    "projects": {"website": "url"},
}
MAPS = {theirs: mapping for theirs, _, mapping in ENTRY_MAPS}
PROFILE_MAP = _mapping(ENTRIES["profiles"])
CUSTOM_ITEM_MAP = _mapping(ENTRIES["customItems"])   # in our extension: our names
BASICS = (("name", "name", "text"), ("label", "label", "text"), ("email", "email", "text"),
          ("phone", "phone", "text"), ("url", "url", "url"), ("image", "image", "url"), ("summary", "summary", "text"))
LOCATION = ("address", "postalCode", "city", "region", "countryCode")
# Per-entry extension fields: section -> our fields an entry's x-resume-service may hold.
ENTRY_EXTENSIONS = {entries.theirs: extension for entries in ENTRIES.values() if entries.theirs
                    and (extension := ("id",) * entries.ids + tuple(field.name for field in entries.fields
                                                                    if field.their_name is None))}


_MONTHS = {name: number for number, names in enumerate((
    "jan january", "feb february", "mar march", "apr april", "may", "jun june", "jul july", "aug august",
    "sep sept september", "oct october", "nov november", "dec december"), start=1) for name in names.split()}
# Dates as people write them, to (year, month or None): 2021/07, 2021.07, 07/2021, 7.2021, Jul 2021,
# July 2021, 2021年7月 (a day after them is below the model's precision).
_WRITTEN = (
    (re.compile(r"^(\d{4})[/.](\d{1,2})(?:[/.]\d{1,2})?$"), lambda m: (m.group(1), m.group(2))),
    (re.compile(r"^(\d{1,2})[/.](\d{4})$"), lambda m: (m.group(2), m.group(1))),
    (re.compile(r"^([A-Za-z]{3,9})\.?,?\s+(\d{4})$"), lambda m: (m.group(2), _MONTHS.get(m.group(1).lower()))),
    (re.compile(r"^(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*\d{1,2}\s*日)?$"), lambda m: (m.group(1), m.group(2))),
)
# What people write for "still going" where the schema leaves endDate out.
PRESENT = frozenset({"present", "now", "current", "ongoing", "today", "至今", "现在", "目前", "actualidad",
                     "presente", "aujourd'hui", "heute"})


def month_of(text: str) -> str | None:
    """A date of JSON Resume's forms (YYYY, YYYY-MM, YYYY-MM-DD) or of the written ones above as
    ``YYYY-MM`` (a year alone is its January); None if it is no date."""
    match = DATE.match(text)
    if match:
        return f"{match.group(1)}-{match.group(2) or '01'}" if 1 <= int(match.group(2) or 1) <= 12 else None
    for pattern, parts in _WRITTEN:
        match = pattern.match(text)
        if match:
            year, month = parts(match)
            if month is not None and 1 <= int(month) <= 12:
                return f"{year}-{int(month):02d}"
            return None
    return None


_HOST = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}(?::\d+)?(?:[/?#]\S*)?$", re.IGNORECASE)


def web_address(text: str) -> str:
    """A URL as given, with ``https://`` put before one written without a scheme
    ("missdirection.example.com", as the schema's own sample has it)."""
    if "://" not in text and _HOST.match(text):
        return f"https://{text}"
    return text


def fold_location(parts: dict) -> str:
    """A location's parts as one line: "address, postalCode city, region, countryCode"."""
    town = " ".join(p for p in (parts.get("postalCode", ""), parts.get("city", "")) if p)
    return ", ".join(p for p in (parts.get("address", ""), town, parts.get("region", ""), parts.get("countryCode", ""))
                     if p)


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
