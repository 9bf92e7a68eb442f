"""A resume's blocks to ``contentJson``: the header, the section headings, the sections.

Headings. A block is a heading when it has a heading's shape (short, one line, not a bullet, no
date, address or sentence punctuation) and either names a known section (``words.section_of``) and
stands out (bold, larger than the body text, capitals, a Word heading style), or looks exactly like
such a heading (``Block.signature``: style, size, weight, slant, colour) without naming a known
section: that is a custom section, titled as printed.

Columns. A two-column PDF reads column by column on each page, so a column continued from the page
before starts without its heading. When the headings start at more than one place across the page
(columns, ``COLUMN_GAP`` apart), a block belongs to the latest heading of its column: the rightmost
column that starts at or left of the block. In a single column it belongs to the latest heading.

The order of the sections becomes ``sectionOrder`` when the headings stand in one column in one
look (a sidebar's sections read first whatever order they were given).

The header is what comes before the first heading (on a PDF's first page, what stands above every
heading), plus sections headed "Contact" (a sidebar's details); ``header.py`` reads it.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace

from app.importing import (dates, entries, furniture, header, history_rows, key_values, margin_labels, records,
                           section_kinds, tables, words)
from app.importing.header import EMAIL, SENTENCE_END, URL
from app.importing.layout import Block, blocks as make_blocks, is_cjk
from app.importing.right_to_left import right_to_left_script

COLUMN_SLACK = 15.0     # points a block may start left of its column's heading
COLUMN_GAP = 50.0       # points between the left edges of headings of two columns
QUIET_HEADINGS = 3  # sections named, in one look, by lines that do not stand out


@dataclass
class Section:
    key: str                     # a content key, "summary", "contact" or "custom"
    title: str
    heading: Block | None
    blocks: list[Block] = field(default_factory=list)
    x0: float = 0.0              # where its column starts (``_column_start``)


def parse(lines: list[dict], notes: list[dict] | None = None) -> dict:
    """``contentJson`` (sparse: only what was found) from ``extract``'s lines. What the reading was
    unsure of is added to ``notes``, each ``{"path", "reason", "text"}``: "order" (a job title and
    employer, or degree and school, told apart by their order alone), "no_dates", "year_only" (dates
    printed without months, read as January), "custom_section" (a
    heading no section's words name), "unplaced" (header text that fitted no field; its path is
    "personalInfo") and "not_found" (no name, or no e-mail address)."""
    notes = [] if notes is None else notes
    history, blocks = history_rows.take(margin_labels.place(make_blocks(furniture.without_page_numbers(lines))))
    blocks = _side_by_side(blocks)
    for index, block in enumerate(blocks):
        block.index = index
    if not blocks:
        return {}
    body = _body_size(blocks)
    heads = _headings(blocks, body)
    top, sections = _sections(blocks, heads)
    top = _with_display_name(top, sections, body)
    body_look = entries.body_look([b for s in sections for b in s.blocks]) or entries.body_look(blocks)
    section_kinds.read_by_content(sections, body_look, notes)
    content: dict = {}
    personal = header.personal_info(top, [s for s in sections if s.key == "contact"], notes)
    if not (personal.get("email") and personal.get("phone")):
        header.contact_elsewhere(personal, sections)
    _entries_home(sections)
    for key in ("name", "email"):
        if not personal.get(key):
            notes.append({"path": f"personalInfo.{key}", "reason": "not_found", "text": ""})
    summary = [b for s in sections if s.key == "summary" for b in s.blocks]
    if summary:
        personal["summary"] = "\n".join(entries.paragraphs(summary))
    content["personalInfo"] = personal
    order: list[str] = []
    for section in sections:
        if section.key in ("summary", "contact"):
            continue
        key = "customSections" if section.key == "custom" else section.key
        if key == "customSections":
            notes.append({"path": f"customSections.{len(content.get(key, []))}", "reason": "custom_section",
                          "text": section.title})
        records.read_section(content, key, section.title, section.blocks, body_look, notes)
        if key not in order:
            order.append(key)
    for key, found in history.items():   # a 履歴書's dated rows, in the form's order before the rest
        content[key] = found + content.get(key, [])
        order += [key] if key not in order else []
    if order and _one_column(sections):
        content["sectionOrder"] = order
    language = words.language_of([section.title for section in sections])
    if language:  # the headings of one of the templates' languages: the resume prints in it again
        content["language"] = language
    return content


DISPLAY = 2.0  # times the body's size: a line this large is set as a name is


def _with_display_name(top: list[Block], sections: list[Section], body: float) -> list[Block]:
    """The header, with the name set large further down (Word's text boxes anchored to the first
    paragraph come first in the file, before the body's name), when the header has nothing near as large:
    the largest short line of letters in the document, at least DISPLAY times the body's size."""
    if not body or any(b.size >= DISPLAY * body * 0.8 for b in top):
        return top
    found = [(b.size, section, b) for section in sections for b in section.blocks
             if b.size >= DISPLAY * body and 1 <= len(b.text.split()) <= 5 and not re.search(r"[\d@:/%]", b.text)
             and not b.bullet]
    if not found:
        return top
    _size, section, block = max(found, key=lambda item: item[0])
    section.blocks.remove(block)
    return [block, *top]


def _side_by_side(blocks: list[Block]) -> list[Block]:
    """The headings of two columns printed level with each other ("BILDUNGSABSCHLÜSSE   ARBEITSERFAHRUNG"),
    which a PDF reads as one line of two cells, as a heading each: the second starts halfway between the
    first's end and its own text, where its column's text may start (a heading centred over its column)."""
    out: list[Block] = []
    for block in blocks:
        places = block.extra.get("cell_at") or []
        if len(block.cells) < 2 or len(places) != len(block.cells) or block.extra.get("para") \
                or not all(words.section_of(text) for text in block.texts):
            out.append(block)
            continue
        for index, cell in enumerate(block.cells):
            x0 = places[index] if not index else (block.cells[index - 1][-1].x1 + places[index]) / 2
            out.append(replace(block, cells=[cell], x0=x0, x1=cell[-1].x1 or block.x1,
                               extra={**block.extra, "cell_at": [places[index]]}))
    return out


def _one_column(sections: list[Section]) -> bool:
    """Whether the sections read in the order their owner chose: one column of headings of one look.
    A sidebar (headings further left, or in a look of their own) reads first whatever the order."""
    headings = [s.heading for s in sections]
    return len(_starts([s.x0 for s in sections])) < 2 and len({h.signature for h in headings}) < 2


# --- headings ---------------------------------------------------------------------------------------

def _body_size(blocks: list[Block]) -> float:
    sizes: Counter = Counter()
    for block in blocks:
        sizes[block.size] += len(block.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


# A section's number before its heading: "2 Opleiding", "4.1 ICT-vaardigheden", "II. Education" (not a year).
_NUMBERED = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2})*\.?|[IVX]{1,4}\.)\s+(?=[^\W\d])")


def _heading_shape(block: Block) -> bool:
    text = _NUMBERED.sub("", block.text.rstrip(":：").strip())
    if block.bullet or not (2 <= len(text) <= 60) or len(block.cells) > 2 or tables.header_roles(block.texts):
        return False
    if key_values.is_label(block.texts[0]) and not words.section_of(block.text):
        return False    # a form's label ("氏名", "Name"), not a section's heading
    if text.endswith(SENTENCE_END) or EMAIL.search(text) or URL.search(text) or dates.find_period(text):
        return False
    cjk = sum(1 for char in text if is_cjk(char))
    latin_words = len(re.findall(r"[A-Za-z]+", text))
    return latin_words <= 6 and cjk <= 16 and not text[0].isdigit()


def _stands_out(block: Block, body: float, colour: str = "", bold_body: bool = False) -> bool:
    """Whether a block is set apart from the body text (``body``: its size, ``colour``: its colour): bold
    (unless the body is: ``bold_body``), larger, a heading's style, in capitals, or, in a script without
    capitals (Thai, Hindi, Arabic), in a colour of its own, as a template sets its small headings (the
    capitals it asks for change nothing)."""
    letters = [char for char in block.text if char.isalpha() and not is_cjk(char)]
    caseless = bool(letters) and not any(char.isupper() or char.islower() for char in letters)
    return ((block.bold and not bold_body) or block.size >= body + 1.0
            or (block.level is not None and block.level >= 1) or "heading" in block.style.lower()
            or (len(letters) > 2 and all(c.isupper() for c in letters))
            or (caseless and bool(colour) and _colour(block) not in ("", colour)))


def _colour(block: Block) -> str:
    return block.fragments[0].colour if block.fragments else ""


BOLD_BODY = 0.6   # of a document's letters in bold: its body is bold, and bold sets nothing apart


def _bold_body(blocks: list[Block]) -> bool:
    """Whether most of the text is bold (a PDF printed by "Microsoft Print to PDF" marks every font bold)."""
    bold = sum(len(f.text) for b in blocks for f in b.fragments if f.bold)
    return bold >= BOLD_BODY * max(sum(len(f.text) for b in blocks for f in b.fragments), 1)


def _body_colour(blocks: list[Block]) -> str:
    colours: Counter = Counter()
    for block in blocks:
        for fragment in block.fragments:
            colours[fragment.colour] += len(fragment.text)
    return colours.most_common(1)[0][0] if colours else ""


def _case(text: str) -> str:
    """"upper" for a text in capitals, "none" for one with (almost) no Latin letters or with Chinese in it
    (a bilingual heading's English half is the user's own: "技术分享 Talks"), else "mixed"."""
    letters = [char for char in text if char.isalpha() and not is_cjk(char)]
    if len(letters) <= 2 or any(is_cjk(char) for char in text):
        return "none"
    return "upper" if all(char.isupper() for char in letters) else "mixed"


def _headings(blocks: list[Block], body: float) -> dict[int, str]:
    """Index of each heading block → its section key ("custom" for one the words do not name)."""
    found: dict[int, str] = {}
    quiet: dict[tuple, list[tuple[int, str]]] = {}
    colour = _body_colour(blocks)
    bold_body = _bold_body(blocks)
    for block in blocks:
        key = words.section_of(block.text) if _heading_shape(block) else None
        if key and block.level != 0:
            if _stands_out(block, body, colour, bold_body):
                found[block.index] = key
            else:
                quiet.setdefault(block.signature, []).append((block.index, key))
    for group in quiet.values():
        if len({key for _index, key in group}) >= QUIET_HEADINGS:
            # Headings set no larger or bolder than the text (a theme's small grey "简介", "技能"...):
            # several lines of one look, each alone and each naming a different section, are headings.
            found.update(group)
    looks = Counter(blocks[index].signature for index in found)
    if looks and looks.most_common(1)[0][1] >= 2:
        # Most headings share one look: a lone known word in a smaller look that many other lines have
        # too is an entry's title ("Open Source" under Interests, in the look of every entry title), not
        # a heading, and its look must not make every entry title a heading. (A sidebar's headings have
        # a look of their own, which no entry shares.)
        main = looks.most_common(1)[0][0]
        every = Counter(block.signature for block in blocks if _heading_shape(block))  # web addresses aside
        # ... nor is one standing where the lines under the main headings start, in the entries' column
        # ("Courses" under a school, the headings right-aligned in a margin beside the entries: JSON Resume's
        # "even" theme), unlike a sidebar's heading, whose column no other section's lines share.
        starts = [blocks[i + 1].x0 for i in found if blocks[i].signature == main and i + 1 < len(blocks)]
        for index in [i for i in found if looks[blocks[i].signature] == 1 and blocks[i].signature[1:2] < main[1:2]
                      and (every[blocks[i].signature] >= 3 or (looks[main] >= 3 and not blocks[i].extra.get("para")
                           and sum(abs(x - blocks[i].x0) <= ALIGN for x in starts) >= 2))]:
            del found[index]
    # A look is the signature and whether the text is in capitals: "WORK EXPERIENCE" and the job title
    # "Senior Developer" below it may both be bold 10 pt plain paragraphs (a job site's DOCX export).
    cases: dict[tuple, set[str]] = {}
    for index in found:
        cases.setdefault(blocks[index].signature, set()).add(_case(blocks[index].text))
    first = min(found, default=len(blocks))
    named = dict(found)    # the headings named by their words
    for block in blocks:
        if block.index in found or block.index == 0 or not _heading_shape(block) or block.level == 0:
            continue
        seen = cases.get(block.signature, set())
        case = _case(block.text)
        if (seen and (case == "none" or "none" in seen or case in seen)) or (block.level == 1 and block.index > first):
            if block.level is None and _entry_title(blocks, block, named):
                continue
            found[block.index] = words.section_of(block.text) or "custom"
    return found or _headings_by_look(blocks, body)


def _headings_by_look(blocks: list[Block], body: float) -> dict[int, str]:
    """Headings when no line names a section we know (a language the lexicon lacks): the lines of one
    look, larger than the body text or in capitals, with a heading's shape, at least twice, and in a
    look no line of another shape has (so not the entries' titles). Each is a custom section, unless its
    words name one; ``section_kinds`` may then tell its kind by its entries."""
    looks: dict[tuple, list[Block]] = {}
    for block in blocks[1:]:
        letters = [char for char in block.text if char.isalpha()]
        if _heading_shape(block) and block.level != 0 and letters \
                and (block.size >= body + 1.0 or all(char.isupper() for char in letters)):
            looks.setdefault(block.signature, []).append(block)
    shapes = Counter(block.signature for block in blocks[1:] if not _heading_shape(block))
    candidates = [group for signature, group in looks.items() if len(group) >= 2 and not shapes[signature]]
    if not candidates:
        return {}
    best = max(candidates, key=lambda group: (group[0].size, len(group)))
    return {block.index: words.section_of(block.text) or "custom" for block in best}


ENTRY_SECTIONS = ("workExperience", "education", "projects", "volunteer", "awards", "certificates", "publications")


def _entry_title(blocks: list[Block], block: Block, named: dict[int, str]) -> bool:
    """Whether a line in the look of the headings is an entry's title rather than a section's: it stands
    in a section of entries, under a heading named by its words, and a date follows within two lines
    ("科罗拉多大学博尔德分校" / "2006.08 – 2010.05", bold like the sidebar's headings)."""
    above = [index for index in named if index < block.index]
    if not above or words.section_of(block.text) or named[max(above)] not in ENTRY_SECTIONS:
        return False
    return any(dates.find_period(b.text) for b in blocks[block.index + 1:block.index + 3])


# --- sections -----------------------------------------------------------------------------------------

def _sections(blocks: list[Block], heads: dict[int, str]) -> tuple[list[Block], list[Section]]:
    top: list[Block] = []
    sections: list[Section] = []
    starts = {index: _column_start(blocks, index, heads) for index in heads}
    columns = _starts(list(starts.values()))
    # On a PDF's first page, what stands above every heading is the header, in whatever order it was
    # drawn (LibreOffice draws a frame holding the name and contact details after the body).
    tops = [blocks[index].top for index in heads if blocks[index].page == 1]
    ceiling = min(tops) if tops else 0.0
    for block in blocks:
        if block.index in heads:
            sections.append(Section(heads[block.index], block.text.rstrip(":：").strip(), block, x0=starts[block.index]))
            continue
        if ceiling > 0 and block.page == 1 and block.bottom <= ceiling:
            top.append(block)
            continue
        section = _column_section(block, sections, columns)
        (section.blocks if section is not None else top).append(block)
    return top, sections


LIST_SECTIONS = ("skills", "languages", "interests")


def _entries_home(sections: list[Section]) -> None:
    """Entries under a section of short items, while the section of entries above it is empty, belong to
    that one: a DOCX whose sidebar (a text box) is anchored between the "Experience" heading and the
    jobs reads "Experience", the sidebar's "Skills" and its items, then the jobs. The entries start at
    the first line followed by a date."""
    for empty, after in zip(sections, sections[1:]):
        if empty.key not in ENTRY_SECTIONS or empty.blocks or after.key not in LIST_SECTIONS:
            continue
        for index, block in enumerate(after.blocks[:-1]):
            if not block.bullet and dates.is_date_text(after.blocks[index + 1].text) \
                    and not dates.find_period(block.text):
                empty.blocks, after.blocks = after.blocks[index:], after.blocks[:index]
                break


def _columns(headings: list[Block]) -> list[float]:
    """Where the columns of headings start: their left edges, grouped when less than
    ``COLUMN_GAP`` apart (one value for a single-column resume)."""
    return _starts([h.x0 for h in headings])


UNDER = 3.0      # font sizes between a heading and the first line under it
SPAN = 15.0      # font sizes under a heading where its column's lines tell the column's width
CENTRED = 0.12   # of its column's width a centred heading's middle may stand from the column's
ALIGN = 3.0      # points two left edges may differ and still be one column's


def _column_start(blocks: list[Block], index: int, heads: dict[int, str]) -> float:
    """Where a heading's column starts: its left edge, or, for a heading centred over its column
    ("ZNALOSTI" over a sidebar's items), the left edge of the lines under it: of the lines starting
    within ``UNDER`` sizes under it and left of it, the one that starts nearest it, when the heading's
    middle is that of the lines starting there (within ``SPAN`` sizes). A DOCX paragraph has no place
    on a page; a right-to-left heading stands at its column's right edge."""
    heading = blocks[index]
    if heading.extra.get("para") or any(right_to_left_script(char) for char in heading.text):
        return heading.x0
    below = [b for b in blocks if b.page == heading.page and b.index not in heads
             and heading.top < b.top <= heading.bottom + SPAN * heading.size and len(b.text.strip()) > 1]
    near = [b.x0 for b in below if b.top <= heading.bottom + UNDER * heading.size and b.x0 < heading.x0]
    if not near:
        return heading.x0
    left = max(near)
    column = [b for b in below if abs(b.x0 - left) <= ALIGN]
    right = max(b.x1 for b in column)
    if abs((heading.x0 + heading.x1) / 2 - (left + right) / 2) <= CENTRED * (right - left):
        return left
    return heading.x0


def _starts(edges: list[float]) -> list[float]:
    starts: list[float] = []
    for x0 in sorted(edges):
        if not starts or x0 - starts[-1] > COLUMN_GAP:
            starts.append(x0)
    return starts


def _column_section(block: Block, sections: list[Section], columns: list[float]) -> Section | None:
    if not sections:
        return None
    if len(columns) < 2:
        return sections[-1]
    column = max((start for start in columns if start <= block.x0 + COLUMN_SLACK), default=columns[0])
    mine = [s for s in sections if _column_of(s.x0, columns) == column]
    return mine[-1] if mine else sections[-1]


def _column_of(x0: float, columns: list[float]) -> float:
    return max((start for start in columns if start <= x0), default=columns[0])
