"""A section's items as the DOCX writers see them (``Entry``: what, where, when, and what it says),
whatever the section, with the dates printed as the templates print them."""
from __future__ import annotations

from dataclasses import dataclass, field

from app.documents import templating, words
from app.documents.words import SCORE, study


@dataclass
class Entry:
    """One item of a section, whatever the section: what, where, when, and what it says."""
    title: str
    place: str = ""
    period: str = ""
    url: str = ""
    lines: list[str] = field(default_factory=list)
    highlights: list[str] = field(default_factory=list)
    technologies: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)      # short details on one muted line


# Sections of short lines rather than entries.
ONE_LINERS = ("skills", "languages", "interests")
# Sections whose entries lead with the organisation in designs that put it first (``org_first``).
ORG_FIRST = ("workExperience", "education", "volunteer")


def _entry(section: str, item: dict, language: str | None = None) -> Entry:
    lines = templating.lines

    def month(value: str) -> str:
        return templating.month(value, language)

    def period(start: str, end: str) -> str:
        return templating.period(start, end, language)

    if section == "workExperience":
        return Entry(item["position"], item["company"], period(item["startDate"], item["endDate"]),
                     item["url"], lines(item["description"]), list(item["highlights"]),
                     facts=[item["location"]] if item["location"] else [])
    if section == "education":
        field = study(item)
        facts = [field] if item["degree"] and field else []
        facts += [words.word(SCORE, language) + item["score"]] if item["score"] else []
        return Entry(item["degree"] or field, item["school"], period(item["startDate"], item["endDate"]),
                     highlights=list(item["courses"]), facts=facts)
    if section == "projects":
        return Entry(item["name"], "", period(item["startDate"], item["endDate"]), item["url"],
                     lines(item["description"]), list(item["highlights"]), list(item["technologies"]))
    if section == "volunteer":
        return Entry(item["position"], item["organization"], period(item["startDate"], item["endDate"]),
                     item["url"], lines(item["summary"]), list(item["highlights"]))
    if section == "certificates":
        return Entry(item["name"], item["issuer"], month(item["date"]), item["url"])
    if section == "awards":
        return Entry(item["title"], item["awarder"], month(item["date"]), lines=lines(item["summary"]))
    if section == "publications":
        return Entry(item["name"], item["publisher"], month(item["releaseDate"]), item["url"], lines(item["summary"]))
    if section == "references":
        return Entry(item["name"], lines=lines(item["reference"]))
    # a custom section's item
    return Entry(item["title"], item["subtitle"], month(item["date"]), item["url"], lines(item["description"]))


def entries(section: str, items: list[dict], language: str | None = None) -> list[Entry]:
    """The entries of a list section (or of one custom section's ``items``, as "customSections"), their
    dates in ``language``."""
    return [_entry(section, item, language) for item in items]
