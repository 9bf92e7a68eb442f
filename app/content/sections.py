"""The sections of a resume (issue 15's content model; see docs/api-decisions.md, "Sections").

A plain module, so the schemas, the models, normalisation, the editor and every document writer
share one description: the body sections here, and below them the registry of the entries each
list holds (``ENTRIES``). ``personalInfo`` is the header: it has a
visibility but no place in ``sectionOrder``. The body sections are listed in
their default order. ``skills`` covers both the plain ``skills`` list and
``skillGroups``; ``customSections`` is one place holding every custom section.
"""
from __future__ import annotations

from typing import NamedTuple

HEADER = "personalInfo"
BODY_SECTIONS = ("workExperience", "education", "skills", "projects", "languages", "certificates", "awards",
                 "volunteer", "publications", "interests", "references", "customSections")
SECTIONS = (HEADER, *BODY_SECTIONS)


def section_order(stored) -> list[str]:
    """The body sections in the order to show them: the stored keys that are body sections (first
    occurrence), then the missing ones in the default order. Anything else in ``stored`` is ignored."""
    order = []
    if isinstance(stored, (list, tuple)):
        for key in stored:
            if isinstance(key, str) and key in BODY_SECTIONS and key not in order:
                order.append(key)
    return order + [key for key in BODY_SECTIONS if key not in order]


# The headings a resume may rename (``contentJson.sectionTitles``): the summary's and each body section's
# but the custom sections', which carry their own titles.
TITLED = ("summary", *(key for key in BODY_SECTIONS if key != "customSections"))


# The registry of entries ------------------------------------------------------------------------------
# Every kind of entry a resume holds (a job, a school, a language, a custom section's item, a profile),
# described once: its fields with their kind, size and label, its JSON Resume names, the fields its
# heading shows. The content schema (``content/schema.py``), normalisation (``normalise.py``), JSON
# Resume's terms (``jsonresume/terms.py``), the editor's forms (``pages/editor.html``, which hands the
# headings to ``editor/versions-diff.js``) are made from it; tests/content/test_sections.py holds the writers'
# sample resume to every registered field, which the DOCX and TXT tests then look for.
# docs/architecture.md ("The section registry: adding a field") shows a field added.

class Field(NamedTuple):
    """A field of an entry.

    ``kind``: ``text``, ``area`` (text on several lines), ``url``, ``month`` (``YYYY-MM``), ``lines`` (a
    list, one value a line in the editor) or ``csv`` (a list, values separated by commas). ``size``: the
    longest value (of a list: of each item); ``items``: a list's most items. ``default``: the field is
    always there once loaded ("" or []): the fields resumes had before issue 15; the others stay out
    when left out. ``theirs``: JSON Resume's name for it, ``None`` when JSON Resume has none (kept in
    the entry's ``x-resume-service``); ``place``: JSON Resume may give it as a location object.
    ``printed``: the documents print it (a field kept only for JSON exports is not). ``label`` and
    ``hint`` are the editor's message ids."""
    name: str
    kind: str = "text"
    label: str = ""
    hint: str = ""
    size: int = 200
    items: int = 50
    default: bool = False
    theirs: str | None = ""
    place: bool = False
    printed: bool = True

    @property
    def is_list(self) -> bool:
        return self.kind in LIST_KINDS

    @property
    def their_name(self) -> str | None:
        return self.name if self.theirs == "" else self.theirs


class Entries(NamedTuple):
    """A list of entries: ``key`` in the content (``customItems``: a custom section's ``items``),
    ``theirs`` JSON Resume's section of them (None: none; profiles are ``basics.profiles``), ``title``
    an entry's numbered heading in the editor ({n}), ``add`` its button, ``heading`` the fields an
    entry's heading shows as it is typed ("Engineer · Acme"; ``a|b``: a, else b), ``sublist`` a list
    inside each entry (key, entries), ``dates`` how ``startDate``/``endDate`` are checked ("period":
    present and ordered; "range": ordered), ``most`` the most entries; ``ids``: each entry has an
    ``id`` the server assigns (not edited, kept in JSON Resume's ``x-resume-service``)."""
    key: str
    theirs: str | None
    title: str
    add: str
    fields: tuple[Field, ...]
    heading: tuple[str, ...]
    sublist: tuple[str, str] | None = None
    dates: str | None = None
    most: int = 50
    ids: bool = False


LIST_KINDS = ("lines", "csv")
_TEXT, _AREA = 200, 5000
_START = Field("startDate", "month", "Start")
_END = Field("endDate", "month", "End", "(empty: present)")
_LINK = Field("url", "url", "Link", size=2048)
_WEBSITE = Field("url", "url", "Website", size=2048)
_HIGHLIGHTS = Field("highlights", "lines", "Highlights", "one per line", size=500)
_DESCRIPTION = Field("description", "area", "Description", size=_AREA)
_SUMMARY = Field("summary", "area", "Description", size=_AREA)  # "Summary" is the person's own summary
_KEYWORDS = Field("keywords", "csv", "Keywords", "separated by commas", size=100)


def _always(*fields: Field) -> tuple[Field, ...]:
    return tuple(field._replace(default=True) for field in fields)


ENTRIES: dict[str, Entries] = {entries.key: entries for entries in (
    Entries("profiles", None, "Profile {n}", "Add profile", (
        Field("network", label="Network", hint="e.g. GitHub"), Field("username", label="Username"), _LINK),
        ("network", "username|url"), most=20),
    Entries("workExperience", "work", "Experience {n}", "Add experience", (
        *_always(Field("position", label="Position"), Field("company", label="Company", theirs="name")),
        Field("location", label="Location", place=True), _WEBSITE, *_always(_START, _END),
        *_always(_DESCRIPTION._replace(theirs="summary")), _HIGHLIGHTS,
        Field("companyDescription", label="About the company", hint="not printed; kept in JSON exports", size=500,
              theirs="description", printed=False)),
        ("position", "company"), dates="period"),
    Entries("education", "education", "Education {n}", "Add education", (
        *_always(Field("school", label="School", theirs="institution"), Field("degree", label="Degree", theirs=None)),
        Field("area", label="Field of study"), Field("studyType", label="Type of study", hint="e.g. Bachelor"),
        *_always(_START, _END), Field("score", label="Grade"),
        Field("courses", "lines", "Courses", "one per line"), _WEBSITE._replace(printed=False)),
        ("degree|studyType|area", "school"), dates="period"),
    Entries("skillGroups", "skills", "Skill group {n}", "Add skill group", (
        Field("name", label="Group name"), Field("level", label="Level"), _KEYWORDS), ("name|keywords", "level")),
    Entries("projects", "projects", "Project {n}", "Add project", (
        *_always(Field("name", label="Project name"), _LINK, _START, _END, _DESCRIPTION,
                 Field("technologies", "csv", "Technologies", "separated by commas", size=100, items=100,
                       theirs="keywords"), _HIGHLIGHTS),
        Field("roles", "csv", "Your roles", "separated by commas", items=20, printed=False),
        Field("entity", label="For", hint="e.g. a company or client", printed=False),
        Field("type", label="Kind of project", hint="e.g. application", printed=False)),
        ("name", "entity"), dates="period", ids=True),
    Entries("languages", "languages", "Language {n}", "Add language", (
        Field("language", label="Language"), Field("fluency", label="Fluency", hint="e.g. Native speaker")),
        ("language", "fluency")),
    Entries("certificates", "certificates", "Certificate {n}", "Add certificate", (
        Field("name", label="Certificate"), Field("issuer", label="Issuer"), Field("date", "month", "Date"), _LINK),
        ("name", "issuer")),
    Entries("awards", "awards", "Award {n}", "Add award", (
        Field("title", label="Title"), Field("awarder", label="Awarded by"), Field("date", "month", "Date"), _SUMMARY),
        ("title", "awarder")),
    Entries("volunteer", "volunteer", "Volunteering {n}", "Add volunteering", (
        Field("position", label="Position"), Field("organization", label="Organisation"), _START, _END,
        _WEBSITE, _SUMMARY, _HIGHLIGHTS), ("position", "organization"), dates="range"),
    Entries("publications", "publications", "Publication {n}", "Add publication", (
        Field("name", label="Title"), Field("publisher", label="Publisher"),
        Field("releaseDate", "month", "Published"), _LINK, _SUMMARY), ("name", "publisher")),
    Entries("interests", "interests", "Interest {n}", "Add interest", (Field("name", label="Interest"), _KEYWORDS),
            ("name|keywords",)),
    Entries("references", "references", "Reference {n}", "Add reference", (
        Field("name", label="Name"), Field("reference", "area", "Reference", size=_AREA)), ("name",)),
    Entries("customSections", None, "Custom section {n}", "Add custom section",
            (Field("title", label="Section title"),), ("title",), sublist=("items", "customItems"), most=20, ids=True),
    Entries("customItems", None, "Item {n}", "Add item", (
        Field("title", label="Title"), Field("subtitle", label="Subtitle"), Field("date", "month", "Date"), _LINK,
        _DESCRIPTION), ("title", "subtitle")),
)}

# The headings of the body sections in the editor (message ids), in the default order.
HEADINGS = {
    "workExperience": "Work experience", "education": "Education", "skills": "Skills", "projects": "Projects",
    "languages": "Languages", "certificates": "Certificates", "awards": "Awards", "volunteer": "Volunteering",
    "publications": "Publications", "interests": "Interests", "references": "References",
    "customSections": "Custom sections",
}


def text_fields(key: str) -> tuple[str, ...]:
    """The names of an entry's fields that hold one value (text, dates, links), its ``id`` first."""
    entries = ENTRIES[key]
    return ("id",) * entries.ids + tuple(field.name for field in entries.fields if not field.is_list)


def list_fields(key: str) -> tuple[str, ...]:
    """The names of an entry's fields that hold a list of strings."""
    return tuple(field.name for field in ENTRIES[key].fields if field.is_list)
