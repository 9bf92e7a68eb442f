"""TXT: the resume as plain text a recruiter can paste into an applicant tracking system.

Layout: the name underlined with "=", the contact details on one line joined
by " | ", then each shown section as an upper-case heading underlined with
"-", entries as "What, Where" with their dates (``rendering.period``, as in
the templates) on the next line and their descriptions and highlights as
"- " bullets; a blank line between entries and sections. Underlines are as
wide as the text looks in a monospaced font, so a Chinese name (two columns a
character) is fully underlined. The photo has no place here.
"""
from __future__ import annotations

import unicodedata

from app.resumes import rendering
from app.resumes.documents import Source

SECTION_TITLES = {"workExperience": "Experience", "projects": "Projects",
                  "education": "Education", "skills": "Skills"}


def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospaced font: wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def _underlined(text: str, rule: str) -> list[str]:
    return [text, rule * display_width(text)]


def _entry(what: str, where: str, when: str, bullets: list[str], notes: list[str] | None = None) -> list[str]:
    lines = [", ".join(part for part in (what, where) if part) or when]
    if when and (what or where):
        lines.append(when)
    lines.extend(notes or [])
    lines.extend(f"- {item}" for item in bullets)
    return lines


def _section(section: str, items: list) -> list[list[str]]:
    """The blocks of one section (blocks are separated by a blank line)."""
    if section == "skills":
        return [[", ".join(items)]]
    blocks = []
    for item in items:
        when = rendering.period(item["startDate"], item["endDate"])
        if section == "workExperience":
            blocks.append(_entry(item["position"], item["company"], when, rendering.lines(item["description"])))
        elif section == "education":
            blocks.append(_entry(item["degree"], item["school"], when, []))
        else:
            notes = [item["url"]] if item["url"] else []
            notes += rendering.lines(item["description"])
            if item["technologies"]:
                notes.append("Technologies: " + ", ".join(item["technologies"]))
            blocks.append(_entry(item["name"], "", when, item["highlights"], notes))
    return blocks


def render_text(source: Source) -> str:
    """The plain-text resume (newline-terminated lines; the caller encodes it as UTF-8)."""
    content = rendering.normalise_content(source.content)
    visible = rendering.normalise_visibility(source.visible)
    blocks: list[list[str]] = []
    if visible["personalInfo"]:
        personal = content["personalInfo"]
        name = personal["name"] or rendering.text_value(source.title).strip()  # as the templates: the title stands in
        head = _underlined(name, "=") if name else []
        contacts = [personal[f] for f in ("email", "phone", "address") if personal[f]]
        if contacts:
            head.append(" | ".join(contacts))
        blocks.append(head)
        summary = rendering.lines(personal["summary"])
        if summary:
            blocks.append(_underlined("PROFILE", "-") + summary)
    for section in ("workExperience", "projects", "education", "skills"):
        if visible[section] and content[section]:
            entries = _section(section, content[section])
            blocks.append(_underlined(SECTION_TITLES[section].upper(), "-") + entries[0])
            blocks.extend(entries[1:])
    return "\n\n".join("\n".join(block) for block in blocks if block) + "\n"
