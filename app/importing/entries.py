"""The entries of a section: where each starts, and which printed part is which field (the fields of
each section's records: ``records.py``; sections of short items: ``lists.py``).

Where each entry starts is ``grouping.py``'s (a block that looks like the section's first one and is
not a bullet, with the dates printed apart from it). Its head is that block and the short lines after it
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

from app.content.vocabulary import WORDS
from app.importing import dates, words
from app.importing.grouping import look, split_into_entries, wrapped_dates
from app.importing.layout import Block, Fragment, clean

MAX_HEAD = 3
BODY_SHARE = 0.4
_OPEN_BEFORE_TEXT = re.compile(r"^\s*[–—-]\s+[^\W\d]")  # a dash, then words: no end date
SHORT = 80          # characters of a line under an entry's title that holds its dates ("Mar 2021 – Present | London")
LIST_GAP = 0.6      # points more from a bullet's baseline to the one above than between the others: a second list
PIECES = re.compile(r"\s+[|｜·•/—–]\s+|\s*[|｜]\s*|\s+[·•]\s*|\s*[·•]\s+")
def _printed(small_word: str) -> list[str]:
    """What the templates print for ``small_word`` in each language (``app.content.vocabulary``)."""
    return sorted({w[small_word].strip() for w in WORDS.values() if w[small_word].strip()}, key=len, reverse=True)


def _alternatives(texts) -> str:
    return "|".join(re.escape(text) for text in texts)


# The word between a job title and its employer in each language the templates print ("Engineer at Acme",
# "مهندسة في شركة", "מהנדסת ב־חברת": Hebrew's is a prefix joined by a maqaf); separators are PIECES'.
# Inside one run, Spanish and Portuguese "en"/"em" are not read as one: job titles hold them ("Ingeniero
# en Sistemas").
_AT_WORDS = [w for w in _printed("at") if w not in {",", "·", "・"}]
_AT = "|".join(rf"\s+{re.escape(w)}" + (r"\s*" if w.endswith("\u05be") else r"\s+")
               for w in ["@", *_AT_WORDS] if w not in {"en", "em"})
# A degree and the school it was taken at in one line ("Master an der Universität Bern", "Laurea presso
# l'Università di Pisa", "Ingeniería en la Universidad de Chile"): the school side must name a school.
AT_SCHOOL = re.compile(rf"^(?P<first>.+?)(?:{_AT}|\s+(?:an der|am|an|bei|presso|à l['’]|à|au|en la|en el|na|no|em|в|во)"
                       rf"\s+)(?P<second>.+)$", re.IGNORECASE)
_CONNECTOR = re.compile(rf"^(?:at|@|in|for|with|on|在|{_alternatives(_AT_WORDS)}|[|｜·•/—–,，:：;；-])$", re.IGNORECASE)
_URL = re.compile(r"^(?:https?://|www\.)\S+$", re.IGNORECASE)
_URL_IN = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_TECHNOLOGIES = ["technologies", "technology", "tech stack", "tech", "tools", "built with", "技术栈", "技术", "工具",
                 *_printed("Technologies"), *_printed("Stack")]
_COURSES = ["courses", "relevant courses", "coursework", "relevant coursework", "主修课程", "相关课程", "课程",
            *_printed("Courses")]
_LABELS = {
    # "Technologies: a, b", or a label of its own before the list: "STACK a / b", "技术栈 Stack a / b"
    "technologies": re.compile(rf"^(?:(?:{_alternatives(sorted(set(_TECHNOLOGIES), key=len, reverse=True))})"
                               r"\s*[:：]\s*|(?:stack|技术栈)(?:\s*stack)?\s*[:：]?\s+)", re.IGNORECASE),
    "courses": re.compile(rf"^(?:(?:{_alternatives(sorted(set(_COURSES), key=len, reverse=True))})\s*[:：]\s*"
                          r"|(?:主修课程|相关课程|课程)\s*(?:courses|coursework)\s*[:：]?\s*)", re.IGNORECASE),
    "keywords": re.compile(r"^(?:keywords|关键词)\s*[:：]\s*", re.IGNORECASE),
}
_LABEL_WORDS = {"courses": "courses", "coursework": "courses", "主修课程": "courses", "相关课程": "courses",
                "课程": "courses", "stack": "technologies", "technologies": "technologies",
                "tech stack": "technologies", "技术栈": "technologies", "keywords": "keywords",
                **{w.casefold(): "technologies" for w in _printed("Technologies") + _printed("Stack")},
                **{w.casefold(): "courses" for w in _printed("Courses")}}
LIST_SPLIT = re.compile(r"\s*[,，、;；،؛]\s*|\s+[/·•|]\s+|\s*[·•|]\s*")


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
        self.open = False                 # the period's start ended its line with "–": its end is on the next
        self.url = ""
        self.lines: list[str] = []        # body paragraphs
        self.bullets: list[str] = []      # body bullets
        self.gaps: list[float | None] = []  # from the baseline above to each bullet's (PDF)
        self.lists: dict[str, list[str]] = {}


def paragraphs(blocks: list[Block]) -> list[str]:
    return [b.text for b in blocks if b.text]


def split_list(text: str) -> list[str]:
    return [item.strip() for item in LIST_SPLIT.split(text) if item.strip(" .。")]


# --- entries -----------------------------------------------------------------------------------------

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
    for position, block in enumerate(blocks[1:], start=1):
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
                or (len(block.text) <= SHORT and dates.find_period(block.text) is not None) \
                or (_names_a_part(block) and position + 1 < len(blocks) and _only_dates(blocks[position + 1])):
            head.append(block)   # the last: an employer in body type, the dates under it
        else:
            break
    for index, block in enumerate(head):
        if index and _URL.match(block.text):
            continue
        _read_head(entry, block)
        if index == 0:
            entry.firsts = len(entry.parts)
    if len(head) < len(blocks) and len(entry.parts) == 1 and entry.period is not None \
            and _names_a_part(blocks[len(head)]) \
            and (words.position_score(entry.parts[0].text) > 0
                 or words.position_score(blocks[len(head)].text) < 0 and not entry.parts[0].text.isupper()):
        head.append(blocks[len(head)])   # an employer in body type under "2017 – 2018 Teacher Assistant"
        _read_head(entry, head[-1])
    for block in blocks[len(head):]:
        _read_body(entry, block)
    return entry


def _only_dates(block: Block) -> bool:
    """A line that holds a period and little else ("Február 2024 - Máj 2024", "2019 – 2021 | Berlin")."""
    period = dates.find_period(block.text)
    return period is not None and len(block.text) <= SHORT and period.span[1] - period.span[0] >= len(block.text) / 2


def _names_a_part(block: Block) -> bool:
    """A short line of body type that may name a title's employer (or a school's degree): no sentence,
    no list item, no label, no date."""
    text = block.text
    if text.endswith(".") and words.working(text.rsplit(maxsplit=1)[-1]):
        text = text[:-1]     # "Acme s.r.o.", "Globex Inc.": an employer's abbreviation, not a sentence's end
    return not block.bullet and len(text) <= 60 and not re.search(r"[.。!！?？:：;；,，]\s*$|[:：]", text) \
        and text[:1].isupper() and not _labelled(text) and dates.find_period(text) is None and len(text.split()) <= 6


def _set_period(entry: Entry, period: dates.Period, text: str) -> None:
    if period.single and not period.year_only and _OPEN_BEFORE_TEXT.match(text[period.span[1]:]):
        # "January 2018 – Software Engineer": a start whose range is left open (Europass's left column)
        entry.period = dates.Period(period.end, "", True, period.span, False, False)
    elif dates.opens_range(text, period):
        entry.period = dates.Period(period.end, "", False, period.span, False, period.year_only)
        entry.open = True
    else:
        entry.period = period


def _closes_period(entry: Entry, text: str) -> bool:
    """Read ``text`` as the end of a period whose start ended the line above ("2021年6月 –" / "2023年8月")."""
    if not entry.open or entry.period is None:
        return False
    closed = dates.closing(entry.period.start, clean(text))
    if closed is None:
        return False
    entry.period, entry.open = closed, False
    return True


def _read_head(entry: Entry, block: Block) -> None:
    if _closes_period(entry, block.text):
        return
    for cell in block.cells:
        cell_text = clean(" ".join(f.text for f in cell))
        if entry.open and _closes_period(entry, cell_text):
            continue
        if entry.period is None:
            period = dates.find_period(cell_text)
            alone = [dates.find_period(f.text) for f in cell]
            # Read the cell whole when no run holds a date, or when only it holds the range (a font change
            # inside it: "2021.05 " "–" "2021.08 ·英国 伦敦"); else run by run, keeping the runs apart.
            if period is not None and (not any(alone) or (not period.single and not any(
                    p is not None and not p.single for p in alone))):
                _set_period(entry, period, cell_text)
                remaining = dates.remove(cell_text, period)
                cell = [Fragment(remaining, cell[0].bold)] if remaining else []
        for fragment in cell:
            _read_fragment(entry, fragment)


def _read_fragment(entry: Entry, fragment: Fragment) -> None:
    text = clean(fragment.text)
    if entry.period is None:
        period = dates.find_period(text)
        if period is not None:
            _set_period(entry, period, text)
            text = dates.remove(text, period)
    for url in _URL_IN.findall(text):
        entry.url = entry.url or url.rstrip(".,;)）")
        text = text.replace(url, " ")
    for piece in PIECES.split(" " + text + " "):
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
    if not block.bullet and _closes_period(entry, text):
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


def year_only(entry: Entry) -> bool:
    """Whether the entry's dates were printed without their months (read as January)."""
    return entry.period is not None and entry.period.year_only


def period_of(entry: Entry) -> tuple[str, str]:
    if entry.period is None:
        return "", ""
    return entry.period.start, entry.period.end


def month_of(entry: Entry) -> str:
    if entry.period is None:
        return ""
    return entry.period.end or entry.period.start


def take(parts: list[Part], score=None) -> str:
    """The part with the best score (the first on a tie), taken out of ``parts``."""
    if not parts:
        return ""
    best = max(range(len(parts)), key=lambda i: (score(parts[i].text) if score else 0, -i))
    return parts.pop(best).text


def filled(record: dict, **values) -> dict:
    for key, value in values.items():
        if value not in ("", [], None):
            record[key] = value
    return record


def entries_of(blocks: list[Block], body: tuple | None, key: str = "") -> list[Entry]:
    blocks = wrapped_dates(blocks)
    body = body_look(blocks, body)
    return [_entry(group, body, 1 if key == "references" else MAX_HEAD) for group in split_into_entries(blocks)]


def two_lists(entry: Entry) -> tuple[list[str], list[str]]:
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


def text_and_highlights(entry: Entry, alone: str = "text") -> tuple[str, list[str]]:
    """Paragraphs are the description and bullets its highlights. Several templates print a
    description of several lines as bullets, then the highlights as more bullets: without
    paragraphs, the first list is the description and a second one the highlights; a single list
    is the description (``alone`` "text") or the highlights ("highlights")."""
    if entry.lines:
        return "\n".join(entry.lines), entry.bullets
    first, second = two_lists(entry)
    if second or alone == "text":
        return "\n".join(first), second
    return "", first


def one_part(parts: list[Part]) -> list[Part]:
    """A title and employer printed as one run: "Engineer at Acme", "Engineer — Acme", "研究实习生—英伟达研究院"
    (wherever it stands), or "Engineer, Acme" as the whole head."""
    found: list[Part] = []
    for part in parts:
        match = re.match(rf"^(?P<title>.+?)(?:{_AT}|\s*[—｜|]\s*|\s+[–-]\s+)(?P<org>.+)$", part.text, re.IGNORECASE)
        if match is None and len(parts) == 1:
            match = re.match(r"^(?P<title>[^,，]+?)\s*[,，]\s*(?P<org>.+)$", part.text)
            if match is not None and words.position_score(match.group("title")) <= 0:
                match = None
        if match is None:
            found.append(part)
        else:
            found += [Part(match.group("title"), part.bold), Part(match.group("org"), part.bold)]
    return found


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
