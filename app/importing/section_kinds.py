"""A section whose heading no language's words name, read by what its entries hold: dated entries
naming schools and degrees are the education, dated entries naming job titles and employers the work
experience, when the document has no such section under a heading we know ("VZDELANIE",
"PRACOVNÉ SKÚSENOSTI", "Werdegang 2": a language or a wording the lexicon lacks).

The decision counts the entries, not the words: a section is of a kind when most of its entries carry
a period and more of them name the kind's things (``words.schooling``, ``words.working``) than the
other's. Each section so read is noted (``reason`` "by_content", the heading as printed), so that the
report asks the person to check it.
"""
from __future__ import annotations

from typing import Protocol

from app.importing import words
from app.importing.entries import entries_of
from app.importing.layout import Block

DATED_SHARE = 0.5     # of a section's entries that must carry a period
HEAD_LINES = 3        # an entry's first lines, where its school or employer is named


class Section(Protocol):
    """What of ``structure.Section`` this reads and sets."""
    key: str
    title: str
    blocks: list[Block]


def read_by_content(sections: list[Section], body: tuple | None, notes: list[dict]) -> None:
    """Give each section of unknown name whose entries tell its kind that kind (work experience or
    education), when no section of that kind was named by its heading; note each."""
    present = {section.key for section in sections}
    for section in sections:
        if section.key != "custom" or not section.blocks:
            continue
        kind = kind_of(section.blocks, body)
        if kind and kind not in present:
            section.key = kind
            present.add(kind)
            notes.append({"path": kind, "reason": "by_content", "text": section.title})


def kind_of(blocks: list[Block], body: tuple | None) -> str | None:
    """"workExperience", "education" or None for a section's blocks, by what their entries hold."""
    found = entries_of(blocks, body)
    dated = [entry for entry in found if entry.period is not None]
    if not dated or len(dated) < DATED_SHARE * len(found):
        return None
    schools = jobs = 0
    for entry in dated:
        # the head's parts and the lines under it: an employer in body type is read into the description
        head = " ".join([part.text for part in entry.parts] + [block.text for block in entry.blocks[1:HEAD_LINES]])
        school, job = words.schooling(head), words.working(head)
        schools += school > job
        jobs += job > school
    if schools > jobs:
        return "education"
    if jobs > schools:
        return "workExperience"
    return None
