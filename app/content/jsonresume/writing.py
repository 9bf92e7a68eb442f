"""Our content to JSON Resume: ``from_content`` and ``document_bytes`` (the file an export stores)."""
from __future__ import annotations

import json
from datetime import datetime, timezone

from app.content import language, normalise
from app.content.jsonresume.terms import (
    ENTRY_EXTENSIONS, ENTRY_MAPS, EXTENSION, SCHEMA_URL, SCHEMA_VERSION, SECTION_KEYS, empty, fold_location,
)


def _compact(entry: dict) -> dict:
    return {key: value for key, value in entry.items() if not empty(value)}


def _location(personal: dict) -> dict:
    """``basics.location``: the parts an import kept, while the address line is still the one they
    make (edited since, the line is written alone), else the address line."""
    parts = _compact(personal["location"])
    if parts and fold_location(parts) == personal["address"]:
        return parts
    return _compact({"address": personal["address"]})


def _entry(item: dict, section: str, mapping: tuple[tuple[str, str, str], ...]) -> dict:
    """An entry of ours as JSON Resume's (``terms.ENTRY_MAPS``), what it has no name for in our extension."""
    entry = {theirs: item[ours] for theirs, ours, _ in mapping}
    entry[EXTENSION] = _compact({field: item[field] for field in ENTRY_EXTENSIONS.get(section, ())})
    return _compact(entry)


def from_content(content: dict | None, title: str, *, visible: dict | None = None,
                 last_modified: datetime | None = None) -> dict:
    """The resume as a JSON Resume 1.2.1 document (empty fields and sections left out).

    ``visible`` (sectionsVisibility) and ``last_modified`` (the resume's update time) are written
    to ``meta`` when given. Every section is written, hidden ones too: this is the resume's data.
    """
    c = normalise.normalise_content(content)
    personal = c["personalInfo"]
    document: dict = {"$schema": SCHEMA_URL}
    basics = _compact({
        "name": personal["name"], "label": personal["label"], "email": personal["email"],
        "phone": personal["phone"], "url": personal["url"], "summary": personal["summary"],
        "image": personal["image"], "location": _location(personal),
        "profiles": [_compact(p) for p in personal["profiles"]],
    })
    sections = {theirs: [_entry(item, theirs, mapping) for item in c[ours]] for theirs, ours, mapping in ENTRY_MAPS}
    if c["skills"]:
        sections["skills"].append({"keywords": c["skills"], EXTENSION: {"skills": True}})
    if basics:
        document["basics"] = basics
    document.update({key: sections[key] for key in SECTION_KEYS if sections.get(key)})
    extension: dict = {"title": normalise.text_value(title).strip(), "sectionOrder": c["sectionOrder"]}
    if c["customSections"]:
        extension["customSections"] = [
            _compact({"id": s["id"], "title": s["title"], "items": [_compact(i) for i in s["items"]]})
            for s in c["customSections"]]
    if visible is not None:
        extension["sectionsVisibility"] = normalise.normalise_visibility(visible)
    if c["sectionTitles"]:
        extension["sectionTitles"] = c["sectionTitles"]
    if not c["language"]:  # meta.language is the one its text is in: our importer leaves it unset again
        extension["languageSet"] = False
    meta: dict = {"version": SCHEMA_VERSION, "language": language.of(c)}
    if last_modified is not None:
        meta["lastModified"] = last_modified.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    meta[EXTENSION] = _compact(extension)
    document["meta"] = meta
    return document


def document_bytes(content: dict | None, title: str, *, visible: dict | None = None,
                   last_modified: datetime | None = None) -> bytes:
    """``from_content`` as the file an export stores: UTF-8 JSON, indented, ending in a newline."""
    document = from_content(content, title, visible=visible, last_modified=last_modified)
    return (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
