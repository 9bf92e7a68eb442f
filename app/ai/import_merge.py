"""What of a model's reading of an imported file is kept, and how it joins the rule-based reading.

Pure functions, data in and data out (``import_reading`` is the use case that asks the model):

- ``grounded(answer, text)``: only the values of the model's answer that occur in the document's text.
  Text is compared case-folded, NFKC-normalised and with white space collapsed, and a value that starts
  or ends with a letter or digit must not be part of a longer word there ("Go" is not found in "good";
  Chinese and Thai, written without spaces, are found anywhere). A date (``startDate``, ``endDate``,
  ``date``, ``releaseDate``) of the form YYYY-MM is kept when its year occurs in the text as a number of
  its own: a model may give the month a document leaves out. Anything else, and every number, boolean
  or key of a section we do not ask for, is left out.
- ``merge(content, unsure, answer)``: the rules' reading with the model's filled in. The rules' value
  stays wherever they found one and did not mark it unsure; the model's fills what they left empty,
  replaces the two fields they told apart by order alone (a job title and employer, a degree and
  school: notes with reason "order"), and adds the entries and sections they missed. Entries are
  matched by their texts (employer, title, school, name...) and dates, never by their place alone.
  Each field the model gave is listed as a note ``{"path", "reason": "ai", "text"}``; the rules' notes
  it answered (order, no_dates, not_found) are taken out.
"""
from __future__ import annotations

import copy
import re
import unicodedata

from app.content import cleaning
from app.content.sections import BODY_SECTIONS

SECTIONS = ("personalInfo", *(key for key in BODY_SECTIONS if key != "customSections"), "skillGroups")
DATES = frozenset(("startDate", "endDate", "date", "releaseDate"))
SKIPPED = frozenset(("id",))   # the server's: never the model's
# The texts an entry is known by, in the order a note names it.
NAMES = {
    "workExperience": ("position", "company"), "education": ("degree", "school", "area"),
    "projects": ("name",), "skillGroups": ("name",), "languages": ("language",),
    "certificates": ("name", "issuer"), "awards": ("title", "awarder"), "volunteer": ("position", "organization"),
    "publications": ("name", "publisher"), "interests": ("name",), "references": ("name",),
}
# The two fields the rules tell apart by their order alone when no words do (the note is on the first).
PAIRS = {"workExperience": ("position", "company"), "education": ("degree", "school")}
LIMITS = {"skills": 100, "profiles": 20}   # items a list holds (ContentSchema); a section holds 50
SECTION_LIMIT = 50
AI = "ai"

_MONTH = re.compile(r"^(\d{4})-\d{2}$")
_YEAR = re.compile(r"(?<!\d)\d{4}(?!\d)")
# Scripts written without spaces between words: a value in them may stand inside a longer run of text.
_UNSPACED = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
                       r"\uf900-\ufaff\uac00-\ud7af]")


# The occurs-in-text check ----------------------------------------------------------------------------
def normal(text: str) -> str:
    """``text`` as compared: NFKC, case-folded, white space collapsed to single spaces."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _wordy(char: str) -> bool:
    return char.isalnum() and not _UNSPACED.match(char)


def occurs(value: str, haystack: str) -> bool:
    """Whether ``value`` (already ``normal``) stands in ``haystack`` (``normal`` too), not as the middle
    of a longer word."""
    if not value:
        return False
    start = haystack.find(value)
    while start >= 0:
        end = start + len(value)
        before = not _wordy(value[0]) or start == 0 or not _wordy(haystack[start - 1])
        after = not _wordy(value[-1]) or end == len(haystack) or not _wordy(haystack[end])
        if before and after:
            return True
        start = haystack.find(value, start + 1)
    return False


class _Text:
    def __init__(self, text: str):
        self.haystack = normal(text)
        self.years = set(_YEAR.findall(unicodedata.normalize("NFKC", text)))

    def has(self, key: str, value: str) -> bool:
        month = _MONTH.match(value) if key in DATES else None
        if month is not None:
            return month.group(1) in self.years
        return occurs(normal(value), self.haystack)


def grounded(answer, text: str) -> dict:
    """The part of the model's ``answer`` (any JSON) whose every value occurs in ``text``: the sections
    of ``SECTIONS`` only; empty strings, lists and records left out."""
    if not isinstance(answer, dict):
        return {}
    found = _Text(text)
    kept = {}
    for key in SECTIONS:
        if key in answer:
            value = _kept(key, answer[key], found)
            if value not in (None, "", [], {}):
                kept[key] = value
    return kept


def _kept(key: str, value, found: _Text):
    if isinstance(value, str):
        value = value.strip()
        return value if value and found.has(key, value) else None
    if isinstance(value, list):
        items = [_kept(key, item, found) for item in value]
        return [item for item in items if item not in (None, "", [], {})]
    if isinstance(value, dict):
        record = {}
        for name, inner in value.items():
            if not isinstance(name, str) or name in SKIPPED:
                continue
            inner = _kept(name, inner, found)
            if inner not in (None, "", [], {}):
                record[name] = inner
        return record
    return None   # numbers, booleans, null: a document's text holds none


# The merge --------------------------------------------------------------------------------------------
def merge(content: dict, unsure: list[dict], answer: dict) -> tuple[dict, list[dict], list[dict]]:
    """The rules' ``content`` with the model's ``answer`` (grounded and valid) merged in, the rules'
    ``unsure`` notes it left standing, and a note for each value taken from the model. The result
    validates (``cleaning.keep_valid``: a model's end before the rules' start is left out)."""
    merged = copy.deepcopy(content)
    notes: list[dict] = []
    ordered = {note["path"] for note in unsure if note.get("reason") == "order"}
    _personal(merged, answer.get("personalInfo") or {}, notes)
    for key in SECTIONS:
        if key == "personalInfo" or not answer.get(key):
            continue
        if key == "skills":   # a skill the rules put in a group is not added again
            grouped = [word for group in merged.get("skillGroups") or [] for word in group.get("keywords") or []]
            _strings(merged, key, answer[key], key, notes, LIMITS["skills"], grouped)
        else:
            _entries(merged, key, answer[key], ordered, notes)
    merged, dropped = cleaning.keep_valid(merged)
    notes = [note for note in notes if not _under(note["path"], dropped)]
    answered = {note["path"] for note in notes}
    standing = [note for note in unsure if not _answered(note, answered)]
    return merged, standing, notes


def _personal(merged: dict, given: dict, notes: list[dict]) -> None:
    personal = merged.setdefault("personalInfo", {})
    for name, value in given.items():
        path = f"personalInfo.{name}"
        if name == "location" and isinstance(value, dict):
            location = personal.setdefault("location", {})
            for part, text in value.items():
                _fill(location, part, text, f"{path}.{part}", notes)
            if not location:
                del personal["location"]
        elif name == "profiles" and isinstance(value, list):
            profiles = personal.setdefault("profiles", [])
            known = {normal(p.get("url") or p.get("username") or "") for p in profiles}
            for profile in value:
                key = normal(profile.get("url") or profile.get("username") or "")
                if key and key not in known and len(profiles) < LIMITS["profiles"]:
                    known.add(key)
                    notes.append(_note(f"{path}.{len(profiles)}", _label(profile, ("network", "username", "url"))))
                    profiles.append(profile)
            if not profiles:
                del personal["profiles"]
        else:
            _fill(personal, name, value, path, notes)


def _fill(record: dict, name: str, value, path: str, notes: list[dict]) -> None:
    """``value`` where ``record`` has nothing for ``name``."""
    if not _empty(record.get(name)) or _empty(value):
        return
    record[name] = value
    notes.append(_note(path, value))


def _strings(record: dict, name: str, given: list, path: str, notes: list[dict], limit: int,
             also: list[str] = ()) -> None:
    """The model's items of a list of strings that the rules' list (and ``also``) lacks, case aside,
    added after it."""
    items = record.setdefault(name, [])
    known = {normal(item) for item in [*items, *also] if isinstance(item, str)}
    added = []
    for item in given:
        if isinstance(item, str) and normal(item) not in known and len(items) < limit:
            known.add(normal(item))
            items.append(item)
            added.append(item)
    if added:
        notes.append(_note(path, added))
    if not items:
        del record[name]


def _entries(merged: dict, key: str, given: list, ordered: set[str], notes: list[dict]) -> None:
    entries = merged.setdefault(key, [])
    matched = _match(key, entries, given)
    for index, entry in enumerate(given):
        if not isinstance(entry, dict):
            continue
        if index in matched:
            _into(key, entries, matched[index], entry, ordered, notes)
        elif len(entries) < SECTION_LIMIT:
            notes.append(_note(f"{key}.{len(entries)}", _label(entry, NAMES.get(key, ()))))
            entries.append(entry)
    if not entries:
        del merged[key]


def _into(key: str, entries: list[dict], at: int, entry: dict, ordered: set[str], notes: list[dict]) -> None:
    """The model's ``entry`` into the rules' entry ``at``: the pair told apart by order replaced when the
    model gave both, every field the rules left empty filled."""
    record, path = entries[at], f"{key}.{at}"
    pair = PAIRS.get(key)
    if pair and f"{path}.{pair[0]}" in ordered and all(not _empty(entry.get(name)) for name in pair):
        for name in pair:
            if normal(record.get(name) or "") != normal(entry[name]):
                record[name] = entry[name]
                notes.append(_note(f"{path}.{name}", entry[name]))
    for name, value in entry.items():
        if isinstance(value, list) and not _empty(value) and _empty(record.get(name)):
            _strings(record, name, value, f"{path}.{name}", notes, SECTION_LIMIT)
        elif not isinstance(value, list):
            _fill(record, name, value, f"{path}.{name}", notes)


def _match(key: str, entries: list[dict], given: list) -> dict[int, int]:
    """Which of the rules' ``entries`` each of the model's entries (by index) is: the pairs that share a
    text (one containing the other) or, between entries with no texts to compare, a date; best first,
    each entry matched once."""
    names = NAMES.get(key, ())
    scored = []
    for mine, entry in enumerate(given):
        if not isinstance(entry, dict):
            continue
        given_texts = _texts(entry, names)
        for theirs, record in enumerate(entries):
            texts = _texts(record, names)
            shared = sum(1 for text in given_texts if any(text in other or other in text for other in texts))
            dates = sum(1 for name in DATES if record.get(name) and record.get(name) == entry.get(name))
            if shared or (dates and not (texts and given_texts)):
                scored.append((-(2 * shared + dates), mine, theirs))
    matched: dict[int, int] = {}
    taken: set[int] = set()
    for _score, mine, theirs in sorted(scored):
        if mine not in matched and theirs not in taken:
            matched[mine] = theirs
            taken.add(theirs)
    return matched


def _texts(record: dict, names: tuple[str, ...]) -> list[str]:
    return [normal(record[name]) for name in names if isinstance(record.get(name), str) and record[name].strip()]


def _empty(value) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _note(path: str, value) -> dict:
    text = "; ".join(value) if isinstance(value, list) else value if isinstance(value, str) else ""
    return {"path": path, "reason": AI, "text": text}


def _label(entry: dict, names: tuple[str, ...]) -> str:
    texts = [entry[name] for name in names if isinstance(entry.get(name), str) and entry[name]]
    if not texts:
        texts = [value for value in entry.values() if isinstance(value, str) and value][:1]
    return " — ".join(texts)


def _under(path: str, dropped: list[str]) -> bool:
    return any(path == gone or path.startswith(gone + ".") for gone in dropped)


def _answered(note: dict, answered: set[str]) -> bool:
    """Whether the model answered what a rules' note asked: the field it names was filled or replaced."""
    reason, path = note.get("reason"), note.get("path", "")
    return reason in ("order", "no_dates", "not_found") and path in answered
