"""JSON Resume (schema 1.2.1, https://jsonresume.org) to and from our content model.

``to_content(document)`` reads a JSON Resume document into ``contentJson`` and
names every JSON Resume value it could not keep; ``from_content(content, title)``
writes a resume as a JSON Resume document. The mapping, what is dropped and why,
and the date precision are in docs/api-decisions.md ("JSON Resume"); in short:

- Fields map by meaning (``work[].name`` -> ``company``, ``work[].summary`` ->
  ``description``, ``education[].institution`` -> ``school``, ``skills`` ->
  ``skillGroups``, ``projects[].keywords`` -> ``technologies``...).
  ``basics.location``'s parts join into ``personalInfo.address`` ("address,
  postalCode city, region, countryCode"); an export writes the address back as
  ``basics.location.address``, so our own documents round-trip exactly.
- Dates: JSON Resume's ``YYYY``, ``YYYY-MM`` and ``YYYY-MM-DD`` become our
  ``YYYY-MM`` (a year alone is its January; the day is below the model's
  precision and not reported as dropped).
- What JSON Resume cannot hold travels in ``x-resume-service`` keys, which JSON
  Resume allows (its objects take additional properties) and this importer reads
  back: ``meta["x-resume-service"]`` has the title, ``sectionOrder``,
  ``customSections`` and (when given) ``sectionsVisibility``; an education entry
  has ``{"degree"}``, a project ``{"id"}``; the plain ``skills`` list is a
  ``skills`` entry without name or level whose ``x-resume-service`` is
  ``{"skills": true}``.
- A value that would not pass ``schemas.ContentSchema`` (too long, not an http(s)
  URL, a date that is not a date, too many entries) is dropped and reported, so
  one bad field never fails an import. Empty values ("", [], {}, null) carry
  nothing and are not reported; neither are ``$schema``, ``meta.version`` and
  ``meta.lastModified``, which describe the file rather than the resume.

A document that is not an object, or has none of JSON Resume's keys, raises
``ApiError`` VALIDATION_ERROR with ``details.field`` "jsonResume".
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import Any

from marshmallow import fields as ma_fields, validate

from app.errors import ApiError
from app.resumes import rendering
from app.resumes.sections import BODY_SECTIONS, SECTIONS

SCHEMA_VERSION = "v1.2.1"
SCHEMA_URL = "https://raw.githubusercontent.com/jsonresume/resume-schema/v1.2.1/schema.json"
EXTENSION = "x-resume-service"
FIELD = "jsonResume"   # details.field of the errors

# JSON Resume's dates: YYYY, YYYY-MM or YYYY-MM-DD (its "iso8601" definition).
_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")
# Top-level keys of JSON Resume 1.2.1; "$schema" and "meta" describe the file.
SECTION_KEYS = ("basics", "work", "volunteer", "education", "awards", "certificates", "publications",
                "skills", "languages", "interests", "references", "projects")
TOP_LEVEL = ("$schema", *SECTION_KEYS, "meta")
FILE_META = ("version", "lastModified")        # meta keys a new export writes anew: not reported
EXTENSION_META = ("title", "sectionOrder", "customSections", "sectionsVisibility")

# (JSON Resume section, our section, [(their field, our field, kind)]) for the list sections read
# field by field; kind: "text", "date" (to YYYY-MM), "list" (of strings), "place" (text or a location).
_ENTRY_MAPS: tuple[tuple[str, str, tuple[tuple[str, str, str], ...]], ...] = (
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
_MAPS = {theirs: mapping for theirs, _, mapping in _ENTRY_MAPS}
_BASICS = (("name", "name"), ("label", "label"), ("email", "email"), ("phone", "phone"), ("url", "url"),
           ("summary", "summary"))
_PROFILE = ("network", "username", "url")
_LOCATION = ("address", "postalCode", "city", "region", "countryCode")
# Per-entry extension fields: section -> our fields an entry's x-resume-service may hold.
_ENTRY_EXTENSIONS = {"education": ("degree",), "projects": ("id",)}


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _text(value: Any) -> str | None:
    """A JSON string (numbers are written as text, e.g. a score of 3.7); None for anything else."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return None


def _month(value: Any) -> str | None:
    """A JSON Resume date as ``YYYY-MM`` (a year alone is its January); None if it is no date."""
    text = _text(value) if isinstance(value, str) else None
    match = _DATE.match(text or "")
    if not match:
        return None
    return f"{match.group(1)}-{match.group(2) or '01'}"


def _place(value: Any) -> str | None:
    """A location (an object of JSON Resume's location fields, or a plain string) as one line of text:
    "address, postalCode city, region, countryCode". None when it is neither."""
    if isinstance(value, dict):
        parts = {key: _text(value.get(key)) or "" for key in _LOCATION}
        town = " ".join(p for p in (parts["postalCode"], parts["city"]) if p)
        return ", ".join(p for p in (parts["address"], town, parts["region"], parts["countryCode"]) if p)
    return _text(value)


class _Reader:
    """Builds the content while remembering where each value came from (its JSON Resume path), so a
    value refused later by the schema is reported by the path the user knows."""

    def __init__(self) -> None:
        self.dropped: list[str] = []
        self.origin: dict[tuple, str] = {}

    def drop(self, path: str) -> None:
        if path not in self.dropped:
            self.dropped.append(path)

    def of_type(self, value: Any, kind: type, path: str) -> Any:
        """``value`` if it is a ``kind`` (list, dict); None if it is empty or, reported, of another type."""
        if _empty(value):
            return None
        if not isinstance(value, kind):
            self.drop(path)
            return None
        return value

    def unknown(self, value: dict, known, path: str) -> None:
        for key, item in value.items():
            if key not in known and not _empty(item):
                self.drop(f"{path}.{key}" if path else key)

    def put(self, target: dict, at: tuple, field: str, value: Any, kind: str, path: str) -> None:
        """Read ``value`` (at JSON Resume ``path``) into ``target[field]`` (our path ``at + (field,)``)."""
        if _empty(value):
            return
        if kind == "list":
            if self.of_type(value, list, path) is None:
                return
            items = []
            for index, item in enumerate(value):
                if _empty(item):
                    continue
                text = _text(item)
                if text is None:
                    self.drop(f"{path}.{index}")
                elif text:
                    self.origin[at + (field, len(items))] = f"{path}.{index}"
                    items.append(text)
            target[field] = items
            self.origin[at + (field,)] = path
            return
        text = {"date": _month, "place": _place}.get(kind, _text)(value)
        if text is None:
            self.drop(path)
            return
        target[field] = text
        self.origin[at + (field,)] = path


def _check_document(document: Any) -> dict:
    if not isinstance(document, dict):
        raise ApiError("VALIDATION_ERROR", "jsonResume: a JSON Resume document is a JSON object.", {"field": FIELD})
    shaped = (isinstance(document.get("basics"), dict) or isinstance(document.get("meta"), dict)
              or any(isinstance(document.get(key), list) for key in SECTION_KEYS if key != "basics"))
    if not shaped:
        raise ApiError("VALIDATION_ERROR",
                       "jsonResume: this is not a JSON Resume document (it has none of basics, work, education, "
                       "skills, projects... see https://jsonresume.org/schema).",
                       {"field": FIELD, "expected": list(TOP_LEVEL)})
    return document


def _extension(value: Any, path: str, reader: _Reader, known: tuple[str, ...]) -> dict:
    """An ``x-resume-service`` object; what it holds beyond ``known`` is reported."""
    value = reader.of_type(value, dict, path)
    if value is None:
        return {}
    reader.unknown(value, known, path)
    return value


def _read_basics(basics: Any, reader: _Reader) -> dict:
    personal: dict = {}
    if reader.of_type(basics, dict, "basics") is None:
        return personal
    reader.unknown(basics, {*(theirs for theirs, _ in _BASICS), "location", "profiles"}, "basics")
    for theirs, ours in _BASICS:
        reader.put(personal, ("personalInfo",), ours, basics.get(theirs), "text", f"basics.{theirs}")
    location = basics.get("location")
    if isinstance(location, dict):
        reader.unknown(location, _LOCATION, "basics.location")
    reader.put(personal, ("personalInfo",), "address", location, "place", "basics.location")
    profiles = reader.of_type(basics.get("profiles"), list, "basics.profiles")
    if profiles is not None:
        personal["profiles"] = _read_entries(profiles, "basics.profiles", ("personalInfo", "profiles"),
                                             tuple((f, f, "text") for f in _PROFILE), reader)
    return personal


def _read_entries(items: list, path: str, at: tuple, mapping, reader: _Reader, section: str = "") -> list[dict]:
    entries = []
    known = {theirs for theirs, _, _ in mapping} | ({EXTENSION} if section in _ENTRY_EXTENSIONS else set())
    for index, item in enumerate(items):
        here = f"{path}.{index}"
        if not isinstance(item, dict):
            if not _empty(item):
                reader.drop(here)
            continue
        entry: dict = {}
        spot = at + (len(entries),)
        reader.origin[spot] = here
        reader.unknown(item, known, here)
        for theirs, ours, kind in mapping:
            reader.put(entry, spot, ours, item.get(theirs), kind, f"{here}.{theirs}")
        if section in _ENTRY_EXTENSIONS:
            extra = _extension(item.get(EXTENSION), f"{here}.{EXTENSION}", reader, _ENTRY_EXTENSIONS[section])
            for field in _ENTRY_EXTENSIONS[section]:
                reader.put(entry, spot, field, extra.get(field), "text", f"{here}.{EXTENSION}.{field}")
        entries.append(entry)
    return entries


def _is_plain_list(item: Any) -> bool:
    return isinstance(item, dict) and isinstance(item.get(EXTENSION), dict) and item[EXTENSION].get("skills") is True


def _read_skills(items: list, reader: _Reader) -> tuple[list[dict], list[str]]:
    """JSON Resume's skills: the groups, and the keywords of the entries marked as our plain list."""
    plain: list[str] = []
    for index, item in enumerate(items):
        if _is_plain_list(item):
            here = f"skills.{index}"
            reader.unknown(item, {"keywords", EXTENSION}, here)
            reader.unknown(item[EXTENSION], ("skills",), f"{here}.{EXTENSION}")
            holder: dict = {}
            reader.put(holder, (), "list", item.get("keywords"), "list", f"{here}.keywords")
            for position, value in enumerate(holder.get("list", [])):
                reader.origin[("skills", len(plain))] = reader.origin[("list", position)]
                plain.append(value)
    groups = [None if _is_plain_list(item) else item for item in items]   # None: skipped, keeping indexes
    return _read_entries(groups, "skills", ("skillGroups",), _MAPS["skills"], reader), plain


def _read_meta(meta: Any, reader: _Reader) -> dict:
    """The file's ``meta``: our extension is read, ``version``/``lastModified`` ignored, the rest reported."""
    if reader.of_type(meta, dict, "meta") is None:
        return {}
    reader.unknown(meta, {*FILE_META, EXTENSION}, "meta")
    return _extension(meta.get(EXTENSION), f"meta.{EXTENSION}", reader, EXTENSION_META)


def _read_custom_sections(value: Any, reader: _Reader) -> list[dict]:
    path = f"meta.{EXTENSION}.customSections"
    sections: list[dict] = []
    for index, item in enumerate(reader.of_type(value, list, path) or ()):
        here = f"{path}.{index}"
        if not isinstance(item, dict):
            if not _empty(item):
                reader.drop(here)
            continue
        spot = ("customSections", len(sections))
        reader.origin[spot] = here
        reader.unknown(item, ("id", "title", "items"), here)
        section: dict = {}
        reader.put(section, spot, "id", item.get("id"), "text", f"{here}.id")
        reader.put(section, spot, "title", item.get("title"), "text", f"{here}.title")
        items = reader.of_type(item.get("items"), list, f"{here}.items")
        if items is not None:
            section["items"] = _read_entries(
                items, f"{here}.items", spot + ("items",),
                tuple((f, f, "date" if f == "date" else "text") for f in rendering.CUSTOM_ITEM_FIELDS), reader)
        sections.append(section)
    return sections


def _read_order(value: Any, reader: _Reader) -> list[str]:
    path = f"meta.{EXTENSION}.sectionOrder"
    order: list[str] = []
    for index, key in enumerate(reader.of_type(value, list, path) or ()):
        if isinstance(key, str) and key in BODY_SECTIONS and key not in order:
            order.append(key)
        else:
            reader.drop(f"{path}.{index}")
    return order


# --- validation: what ContentSchema refuses is dropped -------------------------------------------

def _field_at(path: tuple):
    """The marshmallow field of ContentSchema at ``path`` (our keys and list indexes)."""
    from app.resumes.schemas import ContentSchema

    field = ma_fields.Nested(ContentSchema)
    for key in path:
        if isinstance(field, ma_fields.List):
            field = field.inner
        if isinstance(key, int):
            continue
        if isinstance(field, ma_fields.Nested):
            field = field.schema.fields[key]
        else:  # pragma: no cover - a path the content does not have
            return None
    return field


def _max_items(path: tuple) -> int:
    field = _field_at(path)
    limits = [v.max for v in getattr(field, "validators", ()) if isinstance(v, validate.Length) and v.max]
    return min(limits) if limits else 0


def _leaves(errors: Any, path: tuple = ()):
    """The paths of marshmallow's nested error messages (``_schema`` errors belong to their parent)."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            yield from _leaves(value, path if key == "_schema" else path + (key,))
    else:
        yield path


def _origin(reader: _Reader, path: tuple) -> str:
    for end in range(len(path), 0, -1):
        if path[:end] in reader.origin:
            return reader.origin[path[:end]]
    return FIELD


def _remove(content: dict, path: tuple, reader: _Reader) -> None:
    """Take the refused value at ``path`` out of ``content`` and report where it came from."""
    parent: Any = content
    for key in path[:-1]:
        parent = parent[key] if isinstance(parent, (dict, list)) else None
        if parent is None:      # inside a value already taken out in this pass
            return
    key = path[-1]
    value = parent[key]
    limit = _max_items(path) if isinstance(value, list) else 0
    if limit and len(value) > limit:    # too many entries: the ones past the limit go
        for index in range(limit, len(value)):
            reader.drop(_origin(reader, path + (index,)))
        del value[limit:]
        return
    reader.drop(_origin(reader, path))
    if isinstance(parent, list):
        parent[key] = None              # removed after the pass, so the other indexes stay valid
    else:
        del parent[key]                 # normalising gives it back empty


def _prune(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _prune(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_prune(v) for v in value if v is not None]
    return value


def _validated(content: dict, reader: _Reader) -> dict:
    from app.resumes.schemas import ContentSchema

    for _ in range(10):     # a removal can only uncover a check that depends on it (endDate after startDate)
        errors = ContentSchema().validate(content)
        if not errors:
            return content
        for path in sorted(set(_leaves(errors)), key=len):     # outer values first
            _remove(content, path, reader)
        content = _prune(content)
    raise ApiError("VALIDATION_ERROR", "jsonResume: the document could not be read.", {"field": FIELD})


# --- the two directions ----------------------------------------------------------------------------

def to_content(document: Any) -> tuple[dict, list[str]]:
    """A JSON Resume document as our ``contentJson`` (every key and field present, as
    ``rendering.normalise_content`` shapes it, without ids the document does not give), and the
    JSON Resume paths ("work.0.description", "basics.image", "meta.canonical") of what was not kept.

    Raises ApiError VALIDATION_ERROR (``details.field`` "jsonResume") for a document that is not a
    JSON object or has none of JSON Resume's keys.
    """
    document = _check_document(document)
    reader = _Reader()
    reader.unknown(document, TOP_LEVEL, "")
    content: dict = {"personalInfo": _read_basics(document.get("basics"), reader)}
    for theirs, ours, mapping in _ENTRY_MAPS:
        items = reader.of_type(document.get(theirs), list, theirs)
        if items is None:
            continue
        if theirs == "skills":
            content["skillGroups"], content["skills"] = _read_skills(items, reader)
        else:
            content[ours] = _read_entries(items, theirs, (ours,), mapping, reader, theirs)
    extension = _read_meta(document.get("meta"), reader)
    content["customSections"] = _read_custom_sections(extension.get("customSections"), reader)
    content["sectionOrder"] = _read_order(extension.get("sectionOrder"), reader)
    content = _validated(content, reader)
    normalised = rendering.normalise_content(content)
    for entry in [*normalised["projects"], *normalised["customSections"]]:
        if not entry["id"]:
            del entry["id"]
    return normalised, reader.dropped


def settings(document: Any) -> dict:
    """What our own export keeps beside the content (``meta["x-resume-service"]``): ``title`` and
    ``sectionsVisibility``, each only when present and valid. For the importer's defaults."""
    meta = document.get("meta") if isinstance(document, dict) else None
    extension = meta.get(EXTENSION) if isinstance(meta, dict) else None
    found: dict = {}
    if not isinstance(extension, dict):
        return found
    title = extension.get("title")
    if isinstance(title, str) and 0 < len(title.strip()) <= 200:
        found["title"] = title.strip()
    visible = extension.get("sectionsVisibility")
    if isinstance(visible, dict):
        kept = {key: value for key, value in visible.items() if key in SECTIONS and isinstance(value, bool)}
        if kept:
            found["sectionsVisibility"] = kept
    return found


def _compact(entry: dict) -> dict:
    return {key: value for key, value in entry.items() if not _empty(value)}


def _period(entry: dict) -> dict:
    return {"startDate": entry["startDate"], "endDate": entry["endDate"]}


def from_content(content: dict | None, title: str, *, visible: dict | None = None,
                 last_modified: datetime | None = None) -> dict:
    """The resume as a JSON Resume 1.2.1 document (empty fields and sections left out).

    ``visible`` (sectionsVisibility) and ``last_modified`` (the resume's update time) are written
    to ``meta`` when given. Every section is written, hidden ones too: this is the resume's data.
    """
    c = rendering.normalise_content(content)
    personal = c["personalInfo"]
    document: dict = {"$schema": SCHEMA_URL}
    basics = _compact({
        "name": personal["name"], "label": personal["label"], "email": personal["email"],
        "phone": personal["phone"], "url": personal["url"], "summary": personal["summary"],
        "location": _compact({"address": personal["address"]}),
        "profiles": [_compact(p) for p in personal["profiles"]],
    })
    sections: dict[str, list] = {
        "work": [_compact({"name": w["company"], "position": w["position"], "location": w["location"],
                           "url": w["url"], **_period(w), "summary": w["description"],
                           "highlights": w["highlights"]}) for w in c["workExperience"]],
        "volunteer": [_compact({k: v[k] for k in ("organization", "position", "url", "startDate", "endDate",
                                                  "summary", "highlights")}) for v in c["volunteer"]],
        "education": [_compact({"institution": e["school"], "area": e["area"], "studyType": e["studyType"],
                                **_period(e), "score": e["score"], "courses": e["courses"],
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
                               EXTENSION: _compact({"id": p["id"]})}) for p in c["projects"]],
    }
    if basics:
        document["basics"] = basics
    document.update({key: items for key, items in sections.items() if items})
    extension: dict = {"title": rendering.text_value(title).strip(), "sectionOrder": c["sectionOrder"]}
    if c["customSections"]:
        extension["customSections"] = [
            _compact({"id": s["id"], "title": s["title"], "items": [_compact(i) for i in s["items"]]})
            for s in c["customSections"]]
    if visible is not None:
        extension["sectionsVisibility"] = rendering.normalise_visibility(visible)
    meta: dict = {"version": SCHEMA_VERSION}
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
