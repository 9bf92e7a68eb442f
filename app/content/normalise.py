"""The content model's one shape: ``normalise_content`` fills every key and field of a resume's
``contentJson``, whatever was stored (an old resume, an import, a hand-written API client).

Everything that reads content to draw or analyse it starts here: the templates (``app.documents``),
the DOCX and TXT writers, JSON Resume (``jsonresume``) and the analysis engine (``app.matching``).
The shape is in docs/api-decisions.md ("Sections"): strings are never None, lists hold non-blank
strings, ``sectionOrder`` is the full order of the body sections.
"""
from __future__ import annotations

import re
from typing import Any

from app.content.characters import symbol_font_bullets
from app.content.language import LANGUAGES
from app.content.sections import ENTRIES, SECTIONS, TITLED, list_fields, section_order as stored_order, text_fields

PERSONAL_FIELDS = ("name", "email", "phone", "address", "summary", "label", "url", "image")
LOCATION_FIELDS = ("address", "postalCode", "city", "region", "countryCode")
# The list sections' entries: key -> (text fields, list-of-string fields), from the registry.
ENTRY_FIELDS = {key: (text_fields(key), list_fields(key)) for key in ENTRIES}
PROFILE_FIELDS = text_fields("profiles")
CUSTOM_ITEM_FIELDS = text_fields("customItems")
# The sections whose entries are read as they are; personalInfo's profiles and the custom sections
# hold theirs inside.
_AS_THEY_ARE = tuple(key for key in ENTRIES if key not in ("profiles", "customSections", "customItems"))

# C0 control characters other than tab, line feed and carriage return, DEL and the C1 controls: pasted
# in from word processors and terminals, meaningless in a document, and C0 not allowed in XML (a DOCX
# would not save).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# What no document can hold: the two noncharacters XML refuses, and halves of surrogate pairs (text
# decoded carelessly). Each becomes the replacement character, which every format can show.
_UNPRINTABLE = re.compile("[\ufffe\uffff\ud800-\udfff]")


def text_value(value: Any) -> str:
    """A value as document text: None is empty, control characters are dropped, what no document can
    hold is the replacement character, and the private-use bullets of the Symbol and Wingdings fonts
    are the characters they show (``characters.SYMBOL_FONT_BULLETS``)."""
    if value is None:
        return ""
    text = _UNPRINTABLE.sub("\ufffd", _CONTROL.sub("", value if isinstance(value, str) else str(value)))
    return symbol_font_bullets(text)


def _strings(value: Any) -> list[str]:
    if not isinstance(value, (list, tuple)):
        return []
    return [s for s in (text_value(v).strip() for v in value if v is not None) if s]


def _entries(value: Any, fields: tuple[str, ...], lists: tuple[str, ...] = ()) -> list[dict]:
    if not isinstance(value, (list, tuple)):
        return []
    entries = []
    for item in value:
        if not isinstance(item, dict):
            continue
        entry = {field: text_value(item.get(field)).strip() for field in fields}
        entry.update({field: _strings(item.get(field)) for field in lists})
        entries.append(entry)
    return entries


def _location(value: Any) -> dict:
    value = value if isinstance(value, dict) else {}
    return {field: text_value(value.get(field)).strip() for field in LOCATION_FIELDS}


def _custom_sections(value: Any) -> list[dict]:
    if not isinstance(value, (list, tuple)):
        return []
    return [{"id": text_value(item.get("id")).strip(), "title": text_value(item.get("title")).strip(),
             "items": _entries(item.get("items"), CUSTOM_ITEM_FIELDS)}
            for item in value if isinstance(item, dict)]


def normalise_content(content: dict | None) -> dict:
    """Every key and field of the content model present, whatever was stored (an old resume too).

    The shape (docs/api-decisions.md, "Sections"): strings are never None, lists hold
    non-blank strings, ``sectionOrder`` is the full order of the body sections, ``language`` is one
    of ``LANGUAGES`` or "" (none set: documents use the one the text is in), ``sectionTitles`` holds
    the renamed headings (``TITLED`` keys, non-blank, spaces collapsed).
    """
    content = content if isinstance(content, dict) else {}
    personal = content.get("personalInfo")
    personal = personal if isinstance(personal, dict) else {}
    normalised = {
        "personalInfo": {**{f: text_value(personal.get(f)).strip() for f in PERSONAL_FIELDS},
                         "location": _location(personal.get("location")),
                         "profiles": _entries(personal.get("profiles"), PROFILE_FIELDS)},
        "skills": _strings(content.get("skills")),
    }
    for key in _AS_THEY_ARE:
        normalised[key] = _entries(content.get(key), *ENTRY_FIELDS[key])
    normalised["customSections"] = _custom_sections(content.get("customSections"))
    normalised["sectionOrder"] = stored_order(content.get("sectionOrder"))
    normalised["language"] = content.get("language") if content.get("language") in LANGUAGES else ""
    titles = content.get("sectionTitles")
    titles = titles if isinstance(titles, dict) else {}
    normalised["sectionTitles"] = {key: text for key in TITLED
                                   if (text := " ".join(text_value(titles.get(key)).split()))}
    return normalised


def section_order(content: dict | None) -> list[str]:
    """The body sections (``BODY_SECTIONS``) in the order a resume shows them: its ``sectionOrder``
    keys first (known ones, first occurrence), then the rest in the default order."""
    return stored_order(content.get("sectionOrder") if isinstance(content, dict) else None)


def has_entries(content: dict, section: str) -> bool:
    """Whether a body section of normalised content has anything to print: ``skills`` counts its
    groups too, ``customSections`` only custom sections with items."""
    if section == "skills":
        return bool(content["skills"] or content["skillGroups"])
    if section == "customSections":
        return any(custom["items"] for custom in content["customSections"])
    return bool(content[section])


def shown_sections(content: dict, visible: dict) -> list[str]:
    """The body sections a document prints, in order: visible ones with entries (an empty section
    prints no heading). Takes normalised content and visibility."""
    return [key for key in content["sectionOrder"] if visible[key] and has_entries(content, key)]


def normalise_visibility(visible: dict | None) -> dict:
    """A boolean per section; a missing one is shown (the contract's default)."""
    visible = visible if isinstance(visible, dict) else {}
    return {section: bool(visible.get(section, True)) for section in SECTIONS}
