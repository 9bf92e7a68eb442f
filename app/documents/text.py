"""TXT: the resume as plain text a recruiter can paste into an applicant tracking system.

Layout: the name underlined with "=", the label under it, the contact details
on one line joined by " | " (e-mail, phone, address, website, then each profile
as "Network: username (url)"), then each shown body section in the resume's
``sectionOrder`` as an upper-case heading underlined with "-". Entries are
"What, Where" with their dates (``templating.period``/``month``, as in the
templates) on the next line, then their details (location, study, score, link,
text) and their descriptions and highlights as "- " bullets; a blank line
between entries and sections. Skills: each group as "name (level): keyword,
keyword", then the plain list on one line; languages and interests one line
each. Each custom section is a section of its own under its title (an untitled
one has no heading, as in the templates). Underlines
are as wide as the text looks in a monospaced font, so a Chinese name (two
columns a character) is fully underlined. The photo has no place here.
"""
from __future__ import annotations

import functools

import unicodedata

from app.content import language, normalise
from app.documents import templating, words
from app.documents.options import Source
from app.documents.words import SCORE, contact_items, joined, one_liners, study

SECTION_TITLES = words.HEADINGS["en"]  # the section headings in English


def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospaced font: wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def _underlined(text: str, rule: str) -> list[str]:
    return [text, rule * display_width(text)]


def _entry(what: str, where: str, when: str, bullets: list[str], notes: list[str] | None = None,
           comma: str = ", ") -> list[str]:
    lines = [comma.join(part for part in (what, where) if part) or when]
    if when and (what or where):
        lines.append(when)
    lines.extend(note for note in notes or [] if note)
    lines.extend(f"- {item}" for item in bullets)
    return lines


def _item(section: str, item: dict, language: str) -> list[str]:
    """One entry of a list section (or of a custom section, as "customSections"), in ``language``."""
    lines = templating.lines
    comma = words.separator(", ", language)
    entry = functools.partial(_entry, comma=comma)

    def month(value: str) -> str:
        return templating.month(value, language)

    if section in ("workExperience", "education", "projects", "volunteer"):
        when = templating.period(item["startDate"], item["endDate"], language)
    if section == "workExperience":
        return entry(item["position"], item["company"], when, lines(item["description"]) + item["highlights"],
                      [item["location"], item["url"]])
    if section == "education":
        field = study(item)
        notes = [field if item["degree"] else "", words.word(SCORE, language) + item["score"] if item["score"] else ""]
        if item["courses"]:
            notes.append(words.word("Courses: ", language) + comma.join(item["courses"]))
        return entry(item["degree"] or field, item["school"], when, [], notes)
    if section == "projects":
        notes = [item["url"], *lines(item["description"])]
        if item["technologies"]:
            notes.append(words.word("Technologies: ", language) + comma.join(item["technologies"]))
        return entry(item["name"], "", when, item["highlights"], notes)
    if section == "volunteer":
        return entry(item["position"], item["organization"], when, lines(item["summary"]) + item["highlights"],
                      [item["url"]])
    if section == "certificates":
        return entry(item["name"], item["issuer"], month(item["date"]), [], [item["url"]])
    if section == "awards":
        return entry(item["title"], item["awarder"], month(item["date"]), [], lines(item["summary"]))
    if section == "publications":
        return entry(item["name"], item["publisher"], month(item["releaseDate"]), [],
                      [item["url"], *lines(item["summary"])])
    if section == "references":
        return entry(item["name"], "", "", [], lines(item["reference"]))
    return entry(item["title"], item["subtitle"], month(item["date"]), [],
                  [item["url"], *lines(item["description"])])


def _one_liners(section: str, content: dict) -> list[str]:
    """Skill groups (then the plain skills on one line), languages, interests: a line each."""
    found = [joined(*line) for line in one_liners(section, content)]
    if section == "skills" and content["skills"]:
        found.append(words.separator(", ", content["language"]).join(content["skills"]))
    return found


def _sections(section: str, content: dict) -> list[tuple[str, list[list[str]]]]:
    """(title, blocks) of one body section; blocks are separated by a blank line. Custom sections
    give one (title, blocks) each; a section with nothing to show gives none."""
    printed_in = content["language"]
    if section == "customSections":
        return [(custom["title"], [_item(section, item, printed_in) for item in custom["items"]])
                for custom in content["customSections"] if custom["items"]]
    title = words.heading(section, SECTION_TITLES[section], printed_in, content["sectionTitles"])
    if section in ("skills", "languages", "interests"):
        found = [line for line in _one_liners(section, content) if line]
        return [(title, [found])] if found else []
    blocks = [_item(section, item, printed_in) for item in content[section]]
    return [(title, blocks)] if blocks else []


def render_text(source: Source) -> str:
    """The plain-text resume (newline-terminated lines; the caller encodes it as UTF-8)."""
    content = normalise.normalise_content(source.content)
    content["language"] = language.of(content)  # what it is printed in, read from its text once
    visible = normalise.normalise_visibility(source.visible)
    blocks: list[list[str]] = []
    if visible["personalInfo"]:
        personal = content["personalInfo"]
        name = personal["name"] or normalise.text_value(source.title).strip()  # as the templates: the title stands in
        head = _underlined(name, "=") if name else []
        if personal["label"]:
            head.append(personal["label"])
        contacts = contact_items(personal)
        if contacts:
            head.append(" | ".join(contacts))
        blocks.append(head)
        summary = templating.lines(personal["summary"])
        if summary:
            title = words.heading("summary", "Profile", content["language"], content["sectionTitles"])
            blocks.append(_underlined(title.upper(), "-") + summary)
    for section in content["sectionOrder"]:
        if not visible[section]:
            continue
        for title, entries in _sections(section, content):
            heading = _underlined(title.upper(), "-") if title else []   # an untitled custom section has none
            blocks.append(heading + entries[0])
            blocks.extend(entries[1:])
    return "\n\n".join("\n".join(block) for block in blocks if block) + "\n"
