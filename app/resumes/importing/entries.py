"""The entries of a section: where each starts, and which printed part is which field.

An entry starts at a block that looks like the section's first one (``look``: weight, slant,
colour, size, Word style) and is not a bullet. Its head is that block and the short lines after it
that do not look like body text (up to three), cut into parts: the cells, the runs of one look
within them, and the pieces between separators (" | ", " · ", " / ", " — "; in a job's head also
" at ", and a comma after a job title when the head is one run). A period
("Mar 2021 – Present") or a web address anywhere in the head is taken out first. The rest of the
entry is body: bullets are highlights, other lines the description or summary, labelled lines
("Technologies:", "Stack", "Courses:") and rows of tags lists.

Which part is which field: the job title is the part with the most job-title words
(``words.position_score``), the degree the one with the most degree words; otherwise parts are
taken in the order the templates print them (title first, then the organisation, then the place).
"""
from __future__ import annotations

import re
import statistics

from app.resumes.importing import dates
from app.resumes.importing.layout import Block, Fragment, clean
from app.resumes.importing import words

MAX_HEAD = 3
BODY_SHARE = 0.4
SHORT = 80          # characters of a line under an entry's title that holds its dates ("Mar 2021 – Present | London")
LIST_GAP = 0.6      # points more from a bullet's baseline to the one above than between the others: a second list
_PIECES = re.compile(r"\s+[|｜·•/—–]\s+|\s*[|｜]\s*|\s+[·•]\s*|\s*[·•]\s+")
_CONNECTOR = re.compile(r"^(?:at|@|in|for|with|on|在|[|｜·•/—–,，:：;；-])$", re.IGNORECASE)
_URL = re.compile(r"^(?:https?://|www\.)\S+$", re.IGNORECASE)
_URL_IN = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_LABELS = {
    # "Technologies: a, b", or a label of its own before the list: "STACK a / b", "技术栈 Stack a / b"
    "technologies": re.compile(r"^(?:(?:technologies|technology|tech stack|tech|tools|built with|技术栈|技术|工具)"
                               r"\s*[:：]\s*|(?:stack|技术栈)(?:\s*stack)?\s*[:：]?\s+)", re.IGNORECASE),
    "courses": re.compile(r"^(?:(?:courses|relevant courses|coursework|relevant coursework|主修课程|相关课程|课程)\s*[:：]\s*"
                          r"|(?:主修课程|相关课程|课程)\s*(?:courses|coursework)\s*[:：]?\s*)", re.IGNORECASE),
    "keywords": re.compile(r"^(?:keywords|关键词)\s*[:：]\s*", re.IGNORECASE),
}
_LABEL_WORDS = {"courses": "courses", "coursework": "courses", "主修课程": "courses", "相关课程": "courses",
                "课程": "courses", "stack": "technologies", "technologies": "technologies",
                "tech stack": "technologies", "技术栈": "technologies", "keywords": "keywords"}
_LIST_SPLIT = re.compile(r"\s*[,，、;；]\s*|\s+[/·•|]\s+|\s*[·•|]\s*")
_GROUP = re.compile(r"^(?P<name>[^:：()（）]{1,80}?)\s*(?:[(（](?P<level>[^)）]{1,60})[)）])?\s*[:：]\s*(?P<rest>.+)$")
_GROUP_DOT = re.compile(r"^(?P<name>[^:：()（）•·]{1,80}?)\s*(?:[(（](?P<level>[^)）]{1,60})[)）])?\s+[•·]\s+(?P<rest>.+)$")
_ITEM_SPLIT = re.compile(r"\s+[|｜·•/]\s+|\s*[|｜;；•]\s*")
_SEPARATOR_ONLY = re.compile(r"^\s*[|｜·•/;；]\s*$")
_LANGUAGE = re.compile(r"^(?P<language>.+?)\s*(?:[(（](?P<paren>[^)）]+)[)）]|\s+[–—-]\s+(?P<dash>.+)"
                       r"|[:：]\s*(?P<colon>.+))$")
_FACTS = re.compile(r"\s+[|｜·•/—–]\s+|\s*[|｜·•]\s*|\s*[,，;；]\s+")
_FACT_LABEL = re.compile(r"^(?:score|grade|gpa|area|field|major|study type|degree|成绩|绩点|方向|专业|学位)\s*[:：]\s*",
                         re.IGNORECASE)
_SCORE = re.compile(r"gpa|grade|\d|%|distinction|merit|honou?rs|first[- ]class|cum laude|pass|排名|优秀|成绩|绩点|"
                    r"一等|二等|荣誉", re.IGNORECASE)


class Part:
    """A piece of an entry's head with the look it was printed in."""

    __slots__ = ("text", "bold")

    def __init__(self, text: str, bold: bool) -> None:
        self.text, self.bold = text, bold

    def __repr__(self) -> str:
        return repr(self.text)


class Entry:
    def __init__(self, blocks: list[Block]) -> None:
        self.blocks = blocks
        self.parts: list[Part] = []
        self.firsts = 0                   # how many parts the first head line gave
        self.period: dates.Period | None = None
        self.url = ""
        self.lines: list[str] = []        # body paragraphs
        self.bullets: list[str] = []      # body bullets
        self.gaps: list[float | None] = []  # from the baseline above to each bullet's (PDF)
        self.lists: dict[str, list[str]] = {}


def look(block: Block) -> tuple:
    first = block.fragments[0]
    return (block.signature[0], first.bold, first.italic, first.colour, round(first.size * 2) / 2)


def paragraphs(blocks: list[Block]) -> list[str]:
    return [b.text for b in blocks if b.text]


def split_list(text: str) -> list[str]:
    return [item.strip() for item in _LIST_SPLIT.split(text) if item.strip(" .。")]


# --- entries -----------------------------------------------------------------------------------------

def _split(blocks: list[Block]) -> list[list[Block]]:
    firsts = [b for b in blocks if not b.bullet]
    if not firsts:
        return [[b] for b in blocks]
    head = look(firsts[0])
    groups: list[list[Block]] = []
    for block in blocks:
        if not groups or (not block.bullet and look(block) == head):
            groups.append([block])
        else:
            groups[-1].append(block)
    return groups


def body_look(blocks: list[Block], fallback: tuple | None = None) -> tuple | None:
    """The look of body text: the most common look of the lines that are not bold, weighed by their
    length. With ``fallback`` (the document's), a section's own only when such lines hold at least
    ``BODY_SHARE`` of its text (a short section of titles alone has none)."""
    counts: dict[tuple, int] = {}
    total = 0
    for block in blocks:
        total += len(block.text)
        key = look(block)
        if not (key[0] or key[1]):       # neither a Word heading nor bold where it starts
            counts[key] = counts.get(key, 0) + len(block.text)
    if not counts:
        return fallback
    best = max(counts, key=counts.get)
    if fallback is not None and counts[best] < BODY_SHARE * total:
        return fallback
    return best


def _entry(blocks: list[Block], body: tuple | None, max_head: int = MAX_HEAD) -> Entry:
    entry = Entry(blocks)
    head = [blocks[0]]
    for block in blocks[1:]:
        if block.bullet or len(block.text) > 120 or _labelled(block.text):
            break
        if _URL.match(block.text) and not entry.url:
            entry.url = block.text          # an address under the title is not one of its parts
            head.append(block)
            continue
        if len([b for b in head if not _URL.match(b.text)]) >= max_head:
            break
        if _URL.match(block.text) or dates.is_date_text(block.text) or look(block) != body \
                or block.bold or block.fragments[0].italic \
                or (len(block.text) <= SHORT and dates.find_period(block.text) is not None):
            head.append(block)
        else:
            break
    for index, block in enumerate(head):
        if index and _URL.match(block.text):
            continue
        _read_head(entry, block)
        if index == 0:
            entry.firsts = len(entry.parts)
    for block in blocks[len(head):]:
        _read_body(entry, block)
    return entry


def _read_head(entry: Entry, block: Block) -> None:
    for cell in block.cells:
        cell_text = clean(" ".join(f.text for f in cell))
        if entry.period is None:
            period = dates.find_period(cell_text)
            if period is not None and not any(dates.find_period(f.text) for f in cell):
                entry.period = period
                remaining = dates.remove(cell_text, period)
                cell = [Fragment(remaining, cell[0].bold)] if remaining else []
        for fragment in cell:
            _read_fragment(entry, fragment)


def _read_fragment(entry: Entry, fragment: Fragment) -> None:
    text = clean(fragment.text)
    if entry.period is None:
        period = dates.find_period(text)
        if period is not None:
            entry.period = period
            text = dates.remove(text, period)
    for url in _URL_IN.findall(text):
        entry.url = entry.url or url.rstrip(".,;)）")
        text = text.replace(url, " ")
    for piece in _PIECES.split(" " + text + " "):
        piece = piece.strip(" ,，;；:：|·•—–-")
        if piece and not _CONNECTOR.match(piece):
            entry.parts.append(Part(piece, fragment.bold))


def _labelled(text: str) -> str | None:
    for name, pattern in _LABELS.items():
        match = pattern.match(text)
        if match and match.end() < len(text):
            return name
    return None


def _read_body(entry: Entry, block: Block) -> None:
    text = block.text
    if _URL.match(text) and not entry.url:
        entry.url = text
        return
    if entry.period is None and not block.bullet and dates.is_date_text(text):
        entry.period = dates.find_period(text)     # dates under the entry (a sidebar's)
        return
    label = None if block.bullet else _labelled(text)
    if label:
        rest = _LABELS[label].sub("", text, count=1)
        entry.lists.setdefault(label, []).extend(split_list(rest))
        return
    label = None if block.bullet or len(block.fragments) < 2 else _LABEL_WORDS.get(
        clean(block.fragments[0].text).casefold())
    if label:       # a label in a look of its own, without a colon: "COURSES a, b"
        rest = clean(" ".join(f.text for f in block.fragments[1:]))
        entry.lists.setdefault(label, []).extend(split_list(rest))
        return
    labels = None if block.bullet else chips(block)
    if labels is not None:
        entry.lists.setdefault("tags", []).extend(labels)
        return
    if block.bullet:
        entry.bullets.append(text)
        entry.gaps.append(block.extra.get("gap"))
    else:
        entry.lines.append(text)


def _when(entry: Entry) -> tuple[str, str]:
    if entry.period is None:
        return "", ""
    return entry.period.start, entry.period.end


def _month(entry: Entry) -> str:
    if entry.period is None:
        return ""
    return entry.period.end or entry.period.start


def _take(parts: list[Part], score=None) -> str:
    """The part with the best score (the first on a tie), taken out of ``parts``."""
    if not parts:
        return ""
    best = max(range(len(parts)), key=lambda i: (score(parts[i].text) if score else 0, -i))
    return parts.pop(best).text


def _set(record: dict, **values) -> dict:
    for key, value in values.items():
        if value not in ("", [], None):
            record[key] = value
    return record


# --- the sections ------------------------------------------------------------------------------------

def read_section(content: dict, key: str, title: str, blocks: list[Block], body: tuple | None) -> None:
    """Add what ``blocks`` (a section's, headed ``title``) say to ``content[key]``; ``body`` is the
    look of the document's body text."""
    if not blocks and key != "customSections":
        return
    reader = READERS.get(key)
    if key == "skills":
        _skills(content, blocks)
    elif key == "languages":
        content.setdefault("languages", []).extend(_languages(blocks))
    elif key == "interests":
        content.setdefault("interests", []).extend(_interests(blocks))
    elif key == "customSections":
        items = [_custom_item(e) for e in _entries(blocks, body)]
        content.setdefault("customSections", []).append(_set({"title": title}, items=[i for i in items if i]))
    elif reader is not None:
        content.setdefault(key, []).extend(record for record in (reader(e) for e in _entries(blocks, body, key))
                                           if record)


def _entries(blocks: list[Block], body: tuple | None, key: str = "") -> list[Entry]:
    body = body_look(blocks, body)
    return [_entry(group, body, 1 if key == "references" else MAX_HEAD) for group in _split(blocks)]


def _lists(entry: Entry) -> tuple[list[str], list[str]]:
    """The bullets as two lists where a PDF leaves more space between two of them than between the
    others (two lists in a row: a description printed as bullets, then the highlights)."""
    gaps = entry.gaps[1:]
    if len(gaps) < 2 or any(gap is None for gap in gaps):
        return entry.bullets, []
    # The list's pitch: the median (a line with Chinese in it may be a little taller or shorter).
    pitch = min(gaps) if len(gaps) == 2 else statistics.median(gaps)
    for index, gap in enumerate(gaps):
        if gap >= pitch + LIST_GAP:
            return entry.bullets[:index + 1], entry.bullets[index + 1:]
    return entry.bullets, []


def _text_and_highlights(entry: Entry, alone: str = "text") -> tuple[str, list[str]]:
    """Paragraphs are the description and bullets its highlights. Several templates print a
    description of several lines as bullets, then the highlights as more bullets: without
    paragraphs, the first list is the description and a second one the highlights; a single list
    is the description (``alone`` "text") or the highlights ("highlights")."""
    if entry.lines:
        return "\n".join(entry.lines), entry.bullets
    first, second = _lists(entry)
    if second or alone == "text":
        return "\n".join(first), second
    return "", first


def _one_part(parts: list[Part]) -> list[Part]:
    """A title and employer printed as one run: "Engineer at Acme" (wherever it stands), or
    "Engineer, Acme" as the whole head."""
    found: list[Part] = []
    for part in parts:
        match = re.match(r"^(?P<title>.+?)\s+(?:at|@)\s+(?P<org>.+)$", part.text)
        if match is None and len(parts) == 1:
            match = re.match(r"^(?P<title>[^,，]+?)\s*[,，]\s*(?P<org>.+)$", part.text)
            if match is not None and words.position_score(match.group("title")) <= 0:
                match = None
        if match is None:
            found.append(part)
        else:
            found += [Part(match.group("title"), part.bold), Part(match.group("org"), part.bold)]
    return found


def _work(entry: Entry) -> dict:
    parts = _one_part(list(entry.parts))
    position = _take(parts, words.position_score) if len(parts) > 1 or (
        parts and words.position_score(parts[0].text) > 0) else ""
    company = _take(parts)
    location = _take(parts)
    if not location and position:
        company, location = _place(company)
    start, end = _when(entry)
    description, highlights = _text_and_highlights(entry)
    return _set({}, position=position, company=company, location=location, url=entry.url, startDate=start,
                endDate=end, description=description, highlights=highlights)


def _place(company: str) -> tuple[str, str]:
    """"Northwind Payments, London": an employer and its place joined by a comma."""
    match = re.match(r"^(?P<company>.+?)\s*[,，]\s*(?P<place>[^,，]{1,40})$", company)
    if match and len(match.group("place").split()) <= 4:
        return match.group("company"), match.group("place")
    return company, ""


def _volunteer(entry: Entry) -> dict:
    parts = _one_part(list(entry.parts))
    position = _take(parts, words.position_score) if len(parts) > 1 else ""
    organization = _take(parts)
    start, end = _when(entry)
    summary, highlights = _text_and_highlights(entry)
    return _set({}, position=position, organization=organization, url=entry.url, startDate=start, endDate=end,
                summary=summary, highlights=highlights)


def _education(entry: Entry) -> dict:
    """Degree and school are the first two parts of the head (a head of one part "MSc Physics,
    University of Oslo" at its comma); the rest of the head and the body's lines are the facts
    (study type, area, score) and, once those are known, the courses."""
    named = list(entry.parts)
    if len(named) == 1:
        match = re.match(r"^(?P<first>.+?)\s*[,，]\s*(?P<second>[^,，]+)$", named[0].text)
        if match and (words.degree_score(match.group("first")) != 0 or words.degree_score(match.group("second")) != 0):
            named = [Part(match.group("first"), named[0].bold), Part(match.group("second"), named[0].bold)]
    parts, rest = named[:2], named[2:]
    degree = _take(parts, words.degree_score) if len(parts) > 1 or (
        parts and words.degree_score(parts[0].text) > 0) else ""
    school = _take(parts)
    record = _set({}, school=school, degree=degree)
    courses = list(entry.lists.get("courses", []))
    for line in [p.text for p in rest] + entry.lines:
        pieces = [_FACT_LABEL.sub("", piece).strip() for piece in _FACTS.split(line) if piece.strip()]
        pieces = [piece for piece in pieces if piece]
        known = {"studyType", "area", "score"} & record.keys()
        if len(known) == 3 or (len(known) >= 2 and len(pieces) > 1):
            courses += pieces
        else:
            _about(record, pieces)
    start, end = _when(entry)
    return _set(record, startDate=start, endDate=end, courses=courses + entry.bullets)


def _about(record: dict, about: list[str]) -> None:
    """studyType, area and score: in this order when all three are there, else by their words."""
    if len(about) == 3 and not {"studyType", "area", "score"} & record.keys():
        _set(record, studyType=about[0], area=about[1], score=about[2])
        return
    for text in about:
        if "score" not in record and _SCORE.search(text):
            record["score"] = text
        elif "studyType" not in record and words.degree_score(text) > 0:
            record["studyType"] = text
        elif "area" not in record:
            record["area"] = text


def _project(entry: Entry) -> dict:
    parts = list(entry.parts)
    name = _take(parts)
    start, end = _when(entry)
    technologies = entry.lists.get("technologies", []) + entry.lists.get("tags", [])
    description, highlights = _text_and_highlights(entry, alone="highlights")
    return _set({}, name=name, url=entry.url, startDate=start, endDate=end, description=description,
                highlights=highlights, technologies=technologies)


def _certificate(entry: Entry) -> dict:
    parts = list(entry.parts)
    return _set({}, name=_take(parts), issuer=_take(parts), date=_month(entry), url=entry.url)


def _award(entry: Entry) -> dict:
    parts = list(entry.parts)
    return _set({}, title=_take(parts), awarder=_take(parts), date=_month(entry),
                summary="\n".join(entry.lines + entry.bullets))


def _publication(entry: Entry) -> dict:
    parts = list(entry.parts)
    return _set({}, name=_take(parts), publisher=_take(parts), releaseDate=_month(entry), url=entry.url,
                summary="\n".join(entry.lines + entry.bullets))


def _reference(entry: Entry) -> dict:
    name = entry.blocks[0].text if entry.parts else ""
    lines = [line.strip("“”\"'") for line in entry.lines + entry.bullets]
    return _set({}, name=name, reference="\n".join(line for line in lines if line))


def _custom_item(entry: Entry) -> dict:
    parts = list(entry.parts)
    return _set({}, title=_take(parts), subtitle=_take(parts), date=_month(entry), url=entry.url,
                description="\n".join(entry.lines + entry.bullets))


READERS = {"workExperience": _work, "education": _education, "projects": _project, "volunteer": _volunteer,
           "certificates": _certificate, "awards": _award, "publications": _publication,
           "references": _reference}


def chips(block: Block) -> list[str] | None:
    """The labels of a row of chips or tags: cells apart (PDF), or Word runs whose labels keep their
    words together with no-break spaces and are set apart by plain ones; None for other text."""
    texts = [t for t in block.texts if t]
    if len(texts) > 1 and all(len(t) <= 60 for t in texts):
        return texts
    raw = " ".join(block.raw_texts)
    if "\u00a0" in raw:
        labels = [clean(label) for label in raw.split(" ") if clean(label)]
        if len(labels) > 1 or raw.strip(" ").startswith("\u00a0"):
            return labels
    return None


def _inline_group(block: Block) -> dict | None:
    """A skill group on one line: "Name (Level): a, b", "Name LEVEL: a, b" (the level in a look of
    its own), or "Name (Level) • a, b" with the name in bold."""
    text = block.text
    match = _GROUP.match(text)
    fragments = block.fragments
    if match is None and fragments[0].bold and not all(f.bold for f in fragments):
        match = _GROUP_DOT.match(text)
    if match is None:
        return None
    name, level = match.group("name").strip(), (match.group("level") or "").strip()
    first = clean(fragments[0].text)
    if not level and len(fragments) > 1 and name.startswith(first) and len(name) > len(first):
        name, level = first, name[len(first):].strip()
    return _set({}, name=name, level=level, keywords=split_list(match.group("rest")))


def _skills(content: dict, blocks: list[Block]) -> None:
    """Groups ("Name (Level): a, b", or the name in bold with its keywords and level on the lines
    below it) and the plain list (chips, bullets, or items between commas)."""
    group: dict | None = None       # the group whose keywords or level may follow
    for block in blocks:
        labels = chips(block) if not block.bullet else None
        text = block.text
        inline = _inline_group(block) if labels is None else None
        if inline:
            group = inline
            content.setdefault("skillGroups", []).append(group)
        elif block.bold and not block.bullet and labels is None and len(text) <= 80 and not _LIST_SPLIT.search(text):
            named = re.match(r"^(?P<name>.+?)\s*(?:[(（](?P<level>[^)）]+)[)）])?\s*[:：]?$", text)
            group = _set({}, name=named.group("name"), level=named.group("level") or "")
            content.setdefault("skillGroups", []).append(group)
        elif group is not None and "keywords" not in group and not block.bullet:
            group["keywords"] = labels if labels is not None else split_list(text)
        elif group is not None and "level" not in group and labels is None and not block.bullet \
                and len(split_list(text)) == 1 and len(text) <= 60:
            group["level"] = text
        else:
            group = None
            content.setdefault("skills", []).extend(labels if labels is not None else split_list(text))


def _items(block: Block) -> list[list[Fragment]]:
    """A line's fragments cut into items at separators ("•", "|", "/", "·", ";")."""
    items: list[list[Fragment]] = [[]]
    for cell in block.cells:
        for fragment in cell:
            pieces = _ITEM_SPLIT.split(fragment.text)
            for index, piece in enumerate(pieces):
                if index:
                    items.append([])
                if piece.strip() and not _SEPARATOR_ONLY.match(piece):
                    items[-1].append(Fragment(piece, fragment.bold, fragment.italic, fragment.colour, fragment.size))
                elif _SEPARATOR_ONLY.match(piece) and items[-1]:
                    items.append([])
    return [item for item in items if item]


def _languages(blocks: list[Block]) -> list[dict]:
    """"English – Native | French (B2)" on a line, the language and its fluency in two looks
    ("English Native • French B2"), cells side by side, or each language in bold with its fluency
    on the line below."""
    found: list[dict] = []
    waiting = False          # the last language's fluency may follow on the next line
    for block in blocks:
        texts = [t for t in block.texts if t]
        if len(texts) == 2 and not _PIECES.search(texts[0]):
            found.append(_set({}, language=texts[0], fluency=texts[1]))
            waiting = False
            continue
        items = _items(block)
        if len(items) == 1 and len(items[0]) == 1 and not _LANGUAGE.match(clean(items[0][0].text)):
            text = clean(items[0][0].text)
            if waiting and not block.bold:
                found[-1]["fluency"] = text
                waiting = False
            else:
                found.append({"language": text})
                waiting = block.bold
            continue
        waiting = False
        for item in items:
            text = clean(" ".join(f.text for f in item))
            match = _LANGUAGE.match(text)
            if match:
                fluency = match.group("paren") or match.group("dash") or match.group("colon") or ""
                found.append(_set({}, language=match.group("language").strip(), fluency=fluency.strip()))
            elif len(item) > 1:
                found.append(_set({}, language=clean(item[0].text),
                                  fluency=clean(" ".join(f.text for f in item[1:]))))
            else:
                found.append({"language": text})
    return found


def _interests(blocks: list[Block]) -> list[dict]:
    """"Name: a, b" on a line, or the name in bold with its keywords on the line below."""
    found: list[dict] = []
    waiting = False
    for block in blocks:
        labels = chips(block) if not block.bullet else None
        match = re.match(r"^(?P<name>[^:：]{1,100}?)\s*[:：]\s*(?P<rest>.+)$", block.text)
        if match is None and block.fragments[0].bold and not all(f.bold for f in block.fragments):
            match = re.match(r"^(?P<name>[^•·]{1,100}?)\s+[•·]\s+(?P<rest>.+)$", block.text)
        if match and labels is None:
            found.append(_set({}, name=match.group("name"), keywords=split_list(match.group("rest"))))
            waiting = False
        elif found and waiting and not block.bold:
            found[-1]["keywords"] = labels if labels is not None else split_list(block.text)
            waiting = False
        else:
            found.append({"name": block.text})
            waiting = block.bold
    return found
