"""JSON Resume to our content: ``to_content`` (with what it could not keep) and ``settings``."""
from __future__ import annotations

from typing import Any

from app.content import cleaning, language, normalise
from app.content.jsonresume.terms import (
    ALIASES, BASICS, CUSTOM_ITEM_MAP, ENTRY_EXTENSIONS, ENTRY_MAPS, EXTENSION, EXTENSION_META, FIELD, FILE_META,
    LOCATION, MAPS, MAX_ITEMS, MAX_VALUES, PRESENT, PROFILE_MAP, SECTION_KEYS, TOP_LEVEL, NotJsonResume, TooLarge,
    empty, fold_location, month_of, web_address,
)
from app.content.jsonresume.validation import validated
from app.content.sections import BODY_SECTIONS, SECTIONS, TITLED


def _text(value: Any) -> str | None:
    """A JSON string (numbers are written as text, e.g. a score of 3.7); None for anything else."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return None


def _month(value: Any, end: bool = False) -> str | None:
    """A date as ``YYYY-MM`` (JSON Resume's forms, and the common written ones: ``month_of``); for an
    ``end``, "" for "Present" and its like (an end the schema would leave out); None if it is no date."""
    text = _text(value) if isinstance(value, str) else None
    if text is None:
        return None
    if end and text.casefold() in PRESENT:
        return ""
    return month_of(text)


def _url(value: Any) -> str | None:
    text = _text(value)
    return None if text is None else web_address(text)


def _place(value: Any) -> str | None:
    """A location (an object of JSON Resume's location fields, or a plain string) as one line of text:
    "address, postalCode city, region, countryCode". None when it is neither."""
    if isinstance(value, dict):
        return fold_location({key: _text(value.get(key)) or "" for key in LOCATION})
    return _text(value)


def _with_aliases(item: dict, section: str) -> tuple[dict, dict[str, str]]:
    """``item`` with the older schema's names (``ALIASES``) read as today's, and which came from which."""
    aliases = ALIASES.get(section, {})
    if not any(old in item for old in aliases):
        return item, {}
    item, used = dict(item), {}
    for old, new in aliases.items():
        if old in item:
            value = item.pop(old)
            if empty(item.get(new)):
                item[new], used[new] = value, old
    return item, used


class _Reader:
    """Builds the content while remembering where each value came from (its JSON Resume path), so a
    value refused later by the schema is reported by the path the user knows."""

    def __init__(self) -> None:
        self._dropped: dict[str, None] = {}  # in the order found, each once (a dict: a lookup is O(1))
        self.origin: dict[tuple, str] = {}

    @property
    def dropped(self) -> list[str]:
        return list(self._dropped)

    def drop(self, path: str) -> None:
        self._dropped.setdefault(path, None)

    def of_type(self, value: Any, kind: type, path: str) -> Any:
        """``value`` if it is a ``kind`` (list, dict); None if it is empty or, reported, of another type."""
        if empty(value):
            return None
        if not isinstance(value, kind):
            self.drop(path)
            return None
        return value

    def unknown(self, value: dict, known, path: str) -> None:
        for key, item in value.items():
            if key not in known and not empty(item):
                self.drop(f"{path}.{key}" if path else key)

    def put(self, target: dict, at: tuple, field: str, value: Any, kind: str, path: str) -> None:
        """Read ``value`` (at JSON Resume ``path``) into ``target[field]`` (our path ``at + (field,)``)."""
        if empty(value):
            return
        if kind == "list":
            if self.of_type(value, list, path) is None:
                return
            items = []
            for index, item in enumerate(value):
                if empty(item):
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
        if kind == "date":
            text = _month(value, end=field == "endDate")
        else:
            text = {"place": _place, "url": _url}.get(kind, _text)(value)
        if text is None:
            self.drop(path)
            return
        target[field] = text
        self.origin[at + (field,)] = path


def _measure(document: Any) -> None:
    """Refuse, before any reading, a document far bigger than any resume: a list of more than
    ``MAX_ITEMS`` items, or more than ``MAX_VALUES`` values in all. Linear, and it stops at the first."""
    count = 0
    stack: list[tuple[Any, str]] = [(document, "")]
    while stack:
        value, path = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise TooLarge(f"jsonResume: the document holds more than {MAX_VALUES:,} values; a resume holds "
                           "far fewer.", field=FIELD, maxValues=MAX_VALUES)
        if isinstance(value, list):
            if len(value) > MAX_ITEMS:
                where = f"{FIELD}.{path}" if path else FIELD
                raise TooLarge(f"{where}: {len(value):,} items; a list of a resume holds at most {MAX_ITEMS:,}.",
                               field=where, maxItems=MAX_ITEMS)
            stack.extend((item, f"{path}.{index}" if path else str(index)) for index, item in enumerate(value))
        elif isinstance(value, dict):
            stack.extend((item, f"{path}.{key}" if path else str(key)) for key, item in value.items())


def _check_document(document: Any) -> dict:
    if not isinstance(document, dict):
        raise NotJsonResume("jsonResume: a JSON Resume document is a JSON object.")
    _measure(document)
    shaped = (isinstance(document.get("basics"), dict) or isinstance(document.get("meta"), dict)
              or any(isinstance(document.get(key), list) for key in SECTION_KEYS if key != "basics"))
    if not shaped:
        raise NotJsonResume("jsonResume: this is not a JSON Resume document (it has none of basics, work, "
                            "education, skills, projects... see https://jsonresume.org/schema).",
                            expected=list(TOP_LEVEL))
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
    basics, aliased = _with_aliases(basics, "basics")
    reader.unknown(basics, {*(theirs for theirs, _, _ in BASICS), "location", "profiles"}, "basics")
    for theirs, ours, kind in BASICS:
        reader.put(personal, ("personalInfo",), ours, basics.get(theirs), kind,
                   f"basics.{aliased.get(theirs, theirs)}")
    location = basics.get("location")
    if isinstance(location, dict):
        reader.unknown(location, LOCATION, "basics.location")
        parts: dict = {}
        for key in LOCATION:  # kept as parts too, which an export writes back
            reader.put(parts, ("personalInfo", "location"), key, location.get(key), "text", f"basics.location.{key}")
        if set(parts) - {"address"}:  # an address alone is the address line (our own export writes that)
            personal["location"] = parts
    reader.put(personal, ("personalInfo",), "address", location, "place", "basics.location")
    profiles = reader.of_type(basics.get("profiles"), list, "basics.profiles")
    if profiles is not None:
        personal["profiles"] = _read_entries(profiles, "basics.profiles", ("personalInfo", "profiles"),
                                             PROFILE_MAP, reader)
    return personal


def _read_entries(items: list, path: str, at: tuple, mapping, reader: _Reader, section: str = "") -> list[dict]:
    entries = []
    known = {theirs for theirs, _, _ in mapping} | ({EXTENSION} if section in ENTRY_EXTENSIONS else set())
    for index, item in enumerate(items):
        here = f"{path}.{index}"
        if not isinstance(item, dict):
            if not empty(item):
                reader.drop(here)
            continue
        entry: dict = {}
        spot = at + (len(entries),)
        reader.origin[spot] = here
        item, aliased = _with_aliases(item, section)
        reader.unknown(item, known, here)
        for theirs, ours, kind in mapping:
            reader.put(entry, spot, ours, item.get(theirs), kind, f"{here}.{aliased.get(theirs, theirs)}")
        if section in ENTRY_EXTENSIONS:
            extra = _extension(item.get(EXTENSION), f"{here}.{EXTENSION}", reader, ENTRY_EXTENSIONS[section])
            for field in ENTRY_EXTENSIONS[section]:
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
    return _read_entries(groups, "skills", ("skillGroups",), MAPS["skills"], reader), plain


def _read_meta(meta: Any, reader: _Reader) -> dict:
    """The file's ``meta``: our extension is read, ``version``/``lastModified`` ignored, the rest reported."""
    if reader.of_type(meta, dict, "meta") is None:
        return {}
    reader.unknown(meta, {*FILE_META, "language", EXTENSION}, "meta")
    return _extension(meta.get(EXTENSION), f"meta.{EXTENSION}", reader, EXTENSION_META)


def _read_language(meta: Any, reader: _Reader) -> str:
    """``meta.language`` (a BCP 47 tag: "zh-CN", "pt-BR") as one of our languages; another is dropped."""
    tag = meta.get("language") if isinstance(meta, dict) else None
    if empty(tag):
        return ""
    found = language.from_tag(tag)
    if found is None:
        reader.drop("meta.language")
    return found or ""


def _read_titles(value: Any, reader: _Reader) -> dict:
    """Our ``sectionTitles`` (renamed headings) from the extension; an unknown section or a title that
    is not text of at most 100 characters is dropped."""
    path = f"meta.{EXTENSION}.sectionTitles"
    titles: dict = {}
    for key, title in (reader.of_type(value, dict, path) or {}).items():
        if key in TITLED and isinstance(title, str) and 0 < len(title.strip()) <= 100:
            titles[key] = title.strip()
        elif not empty(title):
            reader.drop(f"{path}.{key}")
    return titles


def _read_custom_sections(value: Any, reader: _Reader) -> list[dict]:
    path = f"meta.{EXTENSION}.customSections"
    sections: list[dict] = []
    for index, item in enumerate(reader.of_type(value, list, path) or ()):
        here = f"{path}.{index}"
        if not isinstance(item, dict):
            if not empty(item):
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
                items, f"{here}.items", spot + ("items",), CUSTOM_ITEM_MAP, reader)
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


def to_content(document: Any, cut: list[dict] | None = None) -> tuple[dict, list[str]]:
    """A JSON Resume document as our ``contentJson`` (every key and field present, as
    ``normalise.normalise_content`` shapes it, without ids the document does not give), and the
    JSON Resume paths ("work.0.description", "basics.image", "meta.canonical") of what was not kept.
    Given a ``cut`` list, a text longer than its field allows is cut to fit (``cleaning.cut_to_fit``)
    rather than dropped, and what was cut off is added to the list (by our content path).

    Raises NotJsonResume for a document that is not a JSON object or has none of JSON Resume's keys,
    or whose values could not be made valid.
    """
    document = _check_document(document)
    reader = _Reader()
    reader.unknown(document, TOP_LEVEL, "")
    content: dict = {"personalInfo": _read_basics(document.get("basics"), reader)}
    for theirs, ours, mapping in ENTRY_MAPS:
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
    content["language"] = _read_language(document.get("meta"), reader)
    if extension.get("languageSet") is False:  # our export of a resume that had none set
        content["language"] = ""
    content["sectionTitles"] = _read_titles(extension.get("sectionTitles"), reader)
    if cut is not None:
        content, found = cleaning.cut_to_fit(content)
        cut.extend(found)
    content = validated(content, reader)
    normalised = normalise.normalise_content(content)
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
