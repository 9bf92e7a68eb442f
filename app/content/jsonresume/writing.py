"""Our content to JSON Resume: ``from_content`` and ``document_bytes`` (the file an export stores)."""
from __future__ import annotations

import json
from datetime import datetime, timezone

from app.content import language, normalise
from app.content.jsonresume.terms import EXTENSION, SCHEMA_URL, SCHEMA_VERSION, empty, fold_location


def _compact(entry: dict) -> dict:
    return {key: value for key, value in entry.items() if not empty(value)}


def _location(personal: dict) -> dict:
    """``basics.location``: the parts an import kept, while the address line is still the one they
    make (edited since, the line is written alone), else the address line."""
    parts = _compact(personal["location"])
    if parts and fold_location(parts) == personal["address"]:
        return parts
    return _compact({"address": personal["address"]})


def _period(entry: dict) -> dict:
    return {"startDate": entry["startDate"], "endDate": entry["endDate"]}


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
    sections: dict[str, list] = {
        "work": [_compact({"name": w["company"], "position": w["position"], "location": w["location"],
                           "url": w["url"], **_period(w), "summary": w["description"],
                           "highlights": w["highlights"], "description": w["companyDescription"]})
                 for w in c["workExperience"]],
        "volunteer": [_compact({k: v[k] for k in ("organization", "position", "url", "startDate", "endDate",
                                                  "summary", "highlights")}) for v in c["volunteer"]],
        "education": [_compact({"institution": e["school"], "area": e["area"], "studyType": e["studyType"],
                                **_period(e), "score": e["score"], "courses": e["courses"], "url": e["url"],
                                EXTENSION: _compact({"degree": e["degree"]})}) for e in c["education"]],
        "awards": [_compact(dict(a)) for a in c["awards"]],
        "certificates": [_compact(dict(a)) for a in c["certificates"]],
        "publications": [_compact(dict(p)) for p in c["publications"]],
        "skills": [_compact(dict(g)) for g in c["skillGroups"]]
        + ([{"keywords": c["skills"], EXTENSION: {"skills": True}}] if c["skills"] else []),
        "languages": [_compact(dict(x)) for x in c["languages"]],
        "interests": [_compact(dict(x)) for x in c["interests"]],
        "references": [_compact(dict(x)) for x in c["references"]],
        "projects": [_compact({"name": p["name"], "description": p["description"], "highlights": p["highlights"],
                               "keywords": p["technologies"], **_period(p), "url": p["url"],
                               "roles": p["roles"], "entity": p["entity"], "type": p["type"],
                               EXTENSION: _compact({"id": p["id"]})}) for p in c["projects"]],
    }
    if basics:
        document["basics"] = basics
    document.update({key: items for key, items in sections.items() if items})
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
